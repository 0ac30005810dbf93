"""``judge parse --lang en|fr|it [--phase P --units JSON]``: order lines in, canonical lines out.

Each input line gives one output line: its canonical order (several orders on one line come out
joined by ``; ``) or ``ERROR: <Reason>: <message in the chosen language>``. A blank line gives a
blank line. With ``--phase`` and ``--units`` (the JSON "units" object of ``judge adjudicate``)
the reader settles what the text leaves open from the position; ``--power`` also checks that the
units are the writer's own. All lines are read as one batch, as a mail would be. ``--rules
italian`` applies seed 002's reading rules (a fleet move without its coast holds, a support says
whether the unit holds or moves); without it the language decides, as before. ``--variant``
names the map (default ``standard``; ``judge variants`` lists the installed ones).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from judge.adjudicator.catalog import DEFAULT_VARIANT, variant_names
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.orders import NotationError, parse_unit
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Dislodged, Position
from judge.parsing import LANGS, parse_orders


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "parse",
        help="read order lines (en/fr/it) on stdin, print canonical orders or errors",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--lang", choices=LANGS, required=True, help="language of the orders")
    parser.add_argument("--phase", help="phase, e.g. S1901M, F1901R, W1901A")
    parser.add_argument("--units", help='JSON {"POWER": ["A PAR", ...]} or @file.json')
    parser.add_argument("--centers", help='JSON {"POWER": ["PAR", ...]} or @file.json')
    parser.add_argument(
        "--dislodged", help='JSON {"POWER": {"A BUR": ["GAS", "PAR"]}} or @file.json (retreats)'
    )
    parser.add_argument("--power", help="the power writing the orders (checks ownership)")
    parser.add_argument(
        "--rules", choices=("italian", "rulebook", "french"), help="the game's rule set"
    )
    parser.add_argument("--variant", choices=variant_names(), default=DEFAULT_VARIANT,
                        help="the map the units stand on (judge variants lists them)")
    parser.add_argument("--notes", action="store_true", help="append notes after ' # '")
    parser.set_defaults(handler=run)


def _json_arg(value: str | None) -> Any:
    if value is None:
        return None
    if value.startswith("@"):
        return json.loads(Path(value[1:]).read_text("utf-8"))
    return json.loads(value)


def _position(args: argparse.Namespace) -> tuple[Position | None, Phase | None]:
    phase = Phase.parse(args.phase) if args.phase else None
    units = _json_arg(args.units)
    if units is None:
        return None, phase
    if phase is None:
        raise ValueError("--units needs --phase")
    if not isinstance(units, dict):
        raise ValueError("--units must be a JSON object: power -> list of units")
    variant = installed_variant(getattr(args, "variant", DEFAULT_VARIANT))
    board = variant.board
    for power, texts in units.items():
        for text in texts:
            unit = parse_unit(text, power)
            if not board.is_location(unit.location):
                raise ValueError(f"unknown location in unit {text!r}")
    position = variant.position(phase, units, _json_arg(args.centers))
    dislodged = _json_arg(args.dislodged) or {}
    for power, entries in dislodged.items():
        for text, retreats in entries.items():
            unit = parse_unit(text, power)
            position.dislodged[unit.province] = Dislodged(unit, None, tuple(retreats))
    return position, phase


def run(args: argparse.Namespace) -> int:
    try:
        position, phase = _position(args)
        power = args.power.upper() if args.power else None
    except (ValueError, NotationError, OSError) as exc:
        print(json.dumps({"error": str(exc)}), file=sys.stderr)
        return 2
    lines = sys.stdin.read().splitlines()
    report = parse_orders(
        lines, args.lang, position=position, power=power, phase=phase, rules=args.rules,
        variant=None if position is not None else getattr(args, "variant", DEFAULT_VARIANT),
    )
    out = report.reply_lines()
    if args.notes:
        for n, text in enumerate(out, start=1):
            notes = [m for item in report.for_line(n) for m in item.note_messages]
            if notes:
                out[n - 1] = f"{text} # {'; '.join(notes)}"
    sys.stdout.write("".join(line + "\n" for line in out))
    return 0
