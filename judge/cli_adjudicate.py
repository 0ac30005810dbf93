"""``judge adjudicate [FILE]``, ``judge datc FILE`` and ``judge variants``.

``judge adjudicate --jsonl`` is the batch form: one request per line in, one answer per line out,
in order, each written as soon as it is made (a program can keep one process open and feed it
positions through a pipe; a file of a thousand phases pays the start-up once). A line that
cannot be adjudicated answers ``{"error": "line N: ..."}`` on its line and the others go on; the
exit code is then 2 (1 if one failed inside the judge). Answers are compact JSON (no spaces),
byte for byte the same whichever encoder writes them: ``orjson`` (a dependency; it reads and
writes JSON about five times faster than the standard library, which was a third of a batch's
cost), else the standard ``json`` module, the reference.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

import judge.variants
from judge.adjudicator.jsonio import RequestError, adjudicate_json

# optional (the ``fast`` extra): imported by name so that the type checker does not need it
_orjson: Any
try:
    _orjson = importlib.import_module("orjson")
except ImportError:  # pragma: no cover - depends on the environment
    _orjson = None


_Line = TypeVar("_Line")


def _handler_for_requests() -> Callable[[Any], dict[str, Any]]:
    """House rules answer the same contract when the rules package provides them."""
    try:
        # an optional part: a build without judge.rules answers with the plain adjudicator
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
    if args.jsonl:
        return _run_lines(args)
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


def _codec(fast: bool) -> tuple[Callable[[str | bytes], Any], Callable[[Any], bytes]]:
    """(loads, dumps) for JSON Lines: both read a line as bytes (or text); dumps writes compact
    JSON in UTF-8 that keeps non-ASCII as is, ending in a newline."""
    if fast and _orjson is not None:
        orjson = _orjson
        option = orjson.OPT_APPEND_NEWLINE
        return orjson.loads, lambda value: orjson.dumps(value, option=option)
    encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
    return json.loads, lambda value: (encoder.encode(value) + "\n").encode("utf-8")


def adjudicate_lines(
    lines: Iterable[str | bytes],
    write: Callable[[bytes], object],
    handler: Callable[[Any], dict[str, Any]],
    fast: bool = True,
    flush: Callable[[], object] | None = None,
) -> int:
    """The batch form (see the module docstring); returns the exit code.

    Lines are read as bytes (text lines are taken too) and answers written as UTF-8 bytes, each
    ending in a newline: orjson reads and writes bytes, so a line is never decoded to text nor
    an answer encoded back (a line that is not UTF-8 answers as malformed JSON)."""
    loads, dumps = _codec(fast)
    code = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            answer = handler(loads(line))
        except (ValueError, TypeError) as exc:  # RequestError, malformed JSON (either codec)
            if isinstance(exc, TypeError):  # a request that is not an object
                exc = ValueError("a request must be a JSON object")
            elif not isinstance(exc, RequestError):
                exc = ValueError(f"malformed JSON: {exc}")
            answer = {"error": f"line {number}: {exc}"}
            code = code or 2
        except Exception as exc:  # noqa: BLE001 - one line per request, never a traceback
            answer = {"error": f"line {number}: internal error: {type(exc).__name__}: {exc}"}
            code = 1
        write(dumps(answer))
        if flush is not None:
            flush()
    return code


class _Chunks:
    """Answers gathered and written a chunk at a time, for a batch read from a file: a
    thousand answers of a few kilobytes each were a thousand ``write`` calls to the kernel
    through the standard output's buffer of 8 KB (a tenth of the batch's time, as system time)."""

    SIZE = 1 << 18

    def __init__(self, out: IO[bytes]) -> None:
        self.out = out
        self.parts: list[bytes] = []
        self.size = 0

    def write(self, data: bytes) -> None:
        self.parts.append(data)
        self.size += len(data)
        if self.size >= self.SIZE:
            self.flush()

    def flush(self) -> None:
        if self.parts:
            self.out.write(b"".join(self.parts))
            self.parts.clear()
            self.size = 0
        self.out.flush()


# Requests answered between two passes of the cycle collector (see ``_run_lines``).
COLLECT_EVERY = 1000


def _collecting(lines: Iterable[_Line], every: int) -> Iterator[_Line]:
    """The lines, with a pass of the cycle collector before every ``every``-th one."""
    for number, line in enumerate(lines, 1):
        if number % every == 0:
            gc.collect()
        yield line


def _run_lines(args: argparse.Namespace) -> int:
    handler = _handler_for_requests()
    # The batch is this process's whole life, and the collector's own schedule costs it about a
    # twentieth of its time (callgrind): a pass every 700 new containers, and passes over everything the
    # caches keep (first-seen orders, their plans) as they grow. A request leaves next to no
    # cycles behind (709 objects in 1,000 corpus phases, none for refused requests), so the
    # collector runs once every COLLECT_EVERY requests instead, and never over what was alive
    # before the first one (the modules, frozen out of its passes).
    # (Put back as it was afterwards, for a caller that runs the command in its own process.)
    enabled = gc.isenabled()
    gc.freeze()
    gc.disable()
    try:
        return _answer_lines(args, handler)
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


def _answer_lines(args: argparse.Namespace, handler: Callable[[Any], dict[str, Any]]) -> int:
    sys.stdout.flush()  # anything written as text goes first: answers go to the bytes below it
    out: IO[bytes] = sys.stdout.buffer
    if not args.file:
        # each answer as soon as it is made: a program may wait for it before the next line
        stdin: Iterable[str | bytes] = getattr(sys.stdin, "buffer", sys.stdin)
        lines = _collecting(stdin, COLLECT_EVERY)
        return adjudicate_lines(lines, out.write, handler, flush=out.flush)
    chunks = _Chunks(out)
    try:
        with open(args.file, "rb", buffering=_Chunks.SIZE) as handle:
            return adjudicate_lines(_collecting(handle, COLLECT_EVERY), chunks.write, handler)
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror}", 2)
    finally:
        chunks.flush()


def run_datc(args: argparse.Namespace) -> int:
    # imported here: ``judge adjudicate`` is this module's hot command, and its start-up would
    # pay for the DATC reader (difflib, its patterns, its dataclasses) without using it
    from judge.adjudicator.datc import KNOWN_WRONG, DatcFormatError, parse_cases, run_case

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
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.adjudicator.catalog import variant, variant_names

    for name in variant_names():
        if args.long:
            v = variant(name)
            print(f"{name}\t{v.players} players\t{v.victory} centres\t{v.title('en')}")
        else:
            print(name)
    return 0


def _variants_dir() -> Path:
    return Path(judge.variants.__file__).parent


def run_variants_import(args: argparse.Namespace) -> int:
    """``judge variants import FILE.map``: a variant folder from one of DPjudge's maps."""
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.adjudicator.catalog import DEFAULT_VARIANT, map_powers
    from judge.adjudicator.map_import import convert, power_colours
    from judge.adjudicator.mapfile import MapError, read_map

    source = Path(args.file)
    folder = source.parent

    def resolve(name: str) -> str:
        # DPjudge's files are Latin-1 (a few names carry accents)
        return (folder / name).read_text("latin-1")

    name = args.name or source.stem
    ps_path = Path(args.drawing) if args.drawing else source.with_suffix(".ps")
    ps_text = ps_path.read_text("latin-1") if ps_path.is_file() else ""
    try:
        mapfile = read_map(source.name, resolve)
        # a power the drawing gives no colour keeps the standard map's (fleetrome's France)
        standard = {power: info.colour for power, info in map_powers(DEFAULT_VARIANT).items()}
        map_json, variant_json = convert(mapfile, name, power_colours(ps_text), standard)
    except MapError as exc:
        return _fail(str(exc), 2)
    if args.title:
        variant_json["titles"] = {"en": args.title}
    licence = folder / "LICENSE"
    if not licence.is_file():
        return _fail(f"{licence}: DPjudge's MIT licence must travel with its maps", 2)
    out = Path(args.out) if args.out else _variants_dir()
    target = out / name
    target.mkdir(parents=True, exist_ok=True)
    for file, data in (("map.json", map_json), ("variant.json", variant_json)):
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        (target / file).write_text(text, "utf-8")
    (target / "LICENSE").write_text(licence.read_text("utf-8"), "utf-8")
    print(f"{target}: {len(map_json['provinces'])} locations, {len(map_json['powers'])} powers")
    if args.drawing:
        try:
            # an optional dependency: Shapely comes with the maps extra
            from judge.maps.ps_drawing import drawing_for_map
        except ModuleNotFoundError:  # Shapely: the maps extra
            return _fail("the drawing converter needs the maps extra (pip install 'judge[maps]')",
                         2)
        drawing = drawing_for_map(ps_text, map_json, name)
        text = json.dumps(drawing, ensure_ascii=False, separators=(",", ":")) + "\n"
        (target / "drawing.json").write_text(text, "utf-8")
    return 0


def run_variants_show(args: argparse.Namespace) -> int:
    """``judge variants show NAME``: the first position as a ``judge adjudicate`` request."""
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.adjudicator.catalog import variant
    from judge.adjudicator.variant import VariantError

    try:
        v = variant(args.variant)
    except VariantError as exc:
        return _fail(str(exc), 2)
    start = v.initial_position()
    request = {
        "variant": v.name,
        "phase": str(start.phase),
        "units": {
            p: sorted(f"{u.type.value} {u.location}" for u in start.units.values() if u.power == p)
            for p in v.powers
        },
        "centers": {p: sorted(c for c, o in start.centers.items() if o == p) for p in v.powers},
        "orders": {},
    }
    print(json.dumps(request, indent=1, ensure_ascii=False))
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "adjudicate",
        help="adjudicate one JSON position + orders (or an array of them)",
        description="Reads JSON from FILE or stdin and writes the adjudication as JSON.",
    )
    p.add_argument("file", nargs="?", help="JSON request (default: stdin)")
    p.add_argument(
        "--jsonl",
        action="store_true",
        help="batch: one JSON request per line in, one answer per line out (JSON Lines)",
    )
    # the program exits without the interpreter's teardown (cli._exit_at_once)
    p.set_defaults(handler=run_adjudicate, exit_at_once=True)
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
    vs = v.add_subparsers(dest="variants_command", metavar="import|show")
    i = vs.add_parser(
        "import",
        help="make a variant folder from a DPjudge .map file",
        description="Reads a DPjudge .map file (and what it includes from its folder) and writes "
        "a variant folder: variant.json, map.json, DPjudge's LICENSE (and drawing.json from "
        "--drawing). A directive the reader does not implement stops it, named with its line.",
    )
    i.add_argument("file", help="the .map file (its includes are read from its folder)")
    i.add_argument("--drawing", help="the .ps drawing (drawing.json and the powers' colours)")
    i.add_argument("--name", help="the variant's name (default: the .map file's name)")
    i.add_argument("--title", help="its title in English (default: the name)")
    i.add_argument("--out", help="where the folder is made (default: the installed variants)")
    i.set_defaults(handler=run_variants_import)
    sh = vs.add_parser(
        "show",
        help="print a variant's first position as a judge adjudicate request",
        description="Prints the variant's first phase, units and centres as the JSON that "
        "judge adjudicate reads.",
    )
    sh.add_argument("variant", help="an installed variant's name")
    sh.set_defaults(handler=run_variants_show)
