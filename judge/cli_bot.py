"""``judge bot POWER [--personality NAME] [--seed N]``: a computer power's orders for a position.

Reads a position in the ``judge adjudicate`` input form on stdin (phase, units, centers,
dislodged, homes; ``variant`` names the installed variant, ``judge variants``) and prints
the power's orders, one canonical order per line. The same seed gives the same orders. Bad input
gets a one-line JSON error on stderr and exit code 2, as ``judge adjudicate`` does.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from judge.adjudicator.jsonio import RequestError, position_from_json, variant_from_request
from judge.bots.engine import bot_orders, describe
from judge.bots.personality import PERSONALITIES


def _fail(message: str, code: int) -> int:
    print(json.dumps({"error": message}, ensure_ascii=False), file=sys.stderr)
    return code


def run_bot(args: argparse.Namespace) -> int:
    power = args.power.upper()
    try:
        request: Any = json.loads(sys.stdin.read())
    except json.JSONDecodeError as exc:
        return _fail(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", 2)
    if not isinstance(request, dict):
        return _fail("the request must be an object", 2)
    try:
        variant = variant_from_request(request)
        position = position_from_json(request, variant)
    except RequestError as exc:
        return _fail(str(exc), 2)
    if power not in variant.powers:
        known = ", ".join(variant.powers)
        return _fail(f"unknown power {args.power!r} (expected one of {known})", 2)
    orders = bot_orders(
        position, power, random.Random(args.seed), args.personality, variant, plain=args.plain
    )
    for line in describe(orders):
        print(line)
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "bot",
        help="a computer power's orders for a JSON position on stdin",
        description="Reads a position (the judge adjudicate input form) on stdin and prints "
        "POWER's orders, one canonical order per line.",
    )
    p.add_argument("power", help="the power to play: its code on the variant's map (upper case)")
    p.add_argument(
        "--personality", default="loyal", choices=sorted(PERSONALITIES), help="the bot's character"
    )
    p.add_argument("--seed", type=int, default=0, help="random seed (same seed, same orders)")
    p.add_argument(
        "--plain", action="store_true", help="the plain DumbBot-style baseline (no search)"
    )
    p.set_defaults(handler=run_bot)
