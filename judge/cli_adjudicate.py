"""``judge adjudicate [FILE]``, ``judge datc FILE`` and ``judge variants``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from judge.adjudicator.datc import KNOWN_WRONG, DatcFormatError, parse_cases, run_case
from judge.adjudicator.jsonio import RequestError, adjudicate_json


def _handler_for_requests() -> Callable[[Any], dict[str, Any]]:
    """House rules answer the same contract when the rules package provides them."""
    try:
        from judge.rules.house_jsonio import adjudicate_json_with_rules
    except ModuleNotFoundError as exc:
        if exc.name not in ("judge.rules.house_jsonio", "judge.rules"):
            raise
        return adjudicate_json
    return adjudicate_json_with_rules


def _fail(message: str, code: int) -> int:
    print(json.dumps({"error": message}, ensure_ascii=False), file=sys.stderr)
    return code


def run_adjudicate(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text("utf-8") if args.file else sys.stdin.read()
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror}", 2)
    try:
        request = json.loads(text)
    except json.JSONDecodeError as exc:
        return _fail(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", 2)
    handler = _handler_for_requests()
    try:
        if isinstance(request, list):
            answer: Any = []
            for i, item in enumerate(request):
                try:
                    answer.append(handler(item))
                except RequestError as exc:
                    raise RequestError(f"request {i}: {exc}") from exc
        else:
            answer = handler(request)
    except RequestError as exc:
        return _fail(str(exc), 2)
    except Exception as exc:  # noqa: BLE001 - the contract promises one line, never a traceback
        return _fail(f"internal error: {type(exc).__name__}: {exc}", 1)
    print(json.dumps(answer, ensure_ascii=False))
    return 0


def run_datc(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text("utf-8")
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        cases = parse_cases(text)
    except DatcFormatError as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    passed = failed = known = 0
    for case in cases:
        report = run_case(case)
        if report.passed:
            passed += 1
            continue
        failed += 1
        note = KNOWN_WRONG.get(case.id)
        if note:
            known += 1
        print(f"FAIL {case.id}" + (f"  [known wrong in the file: {note}]" if note else ""))
        if report.error:
            print(f"  error: {report.error}")
        print(f"  expected units:     {', '.join(report.expected_units)}")
        print(f"  got units:          {', '.join(report.got_units)}")
        if report.expected_dislodged or report.got_dislodged:
            print(f"  expected dislodged: {', '.join(report.expected_dislodged)}")
            print(f"  got dislodged:      {', '.join(report.got_dislodged)}")
    tail = f" ({known} known wrong in the file)" if known else ""
    print(f"{passed} passed, {failed} failed{tail}")
    if failed == 0 or (args.allow_known_wrong and failed == known):
        return 0
    return 1


def run_variants(args: argparse.Namespace) -> int:
    """The installed variant names, one per line (``--long``: players, centres to win, title)."""
    from judge.adjudicator.catalog import variant, variant_names

    for name in variant_names():
        if args.long:
            v = variant(name)
            print(f"{name}\t{v.players} players\t{v.victory} centres\t{v.title('en')}")
        else:
            print(name)
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "adjudicate",
        help="adjudicate one JSON position + orders (or an array of them)",
        description="Reads JSON from FILE or stdin and writes the adjudication as JSON.",
    )
    p.add_argument("file", nargs="?", help="JSON request (default: stdin)")
    p.set_defaults(handler=run_adjudicate)
    d = subparsers.add_parser(
        "datc",
        help="run a DATC case file",
        description="Adjudicates every case of a DATC file and reports failures.",
    )
    d.add_argument("file", help="DATC file (format of ../shared/datc)")
    d.add_argument(
        "--allow-known-wrong",
        action="store_true",
        help="exit 0 when the only failures are cases known to be wrong in the file",
    )
    d.set_defaults(handler=run_datc)
    v = subparsers.add_parser(
        "variants",
        help="list the installed variants",
        description="Prints the installed variant names, one per line.",
    )
    v.add_argument("--long", action="store_true", help="also players, centres to win and title")
    v.set_defaults(handler=run_variants)
