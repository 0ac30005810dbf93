"""Our adjudicator against MILA's ``diplomacy`` engine, interleaved in one process.

A busy machine slows both alike, so the ratio is the figure to quote. MILA is not a dependency
of the judge; the ``test`` extra installs it (``diplomacy==1.1.2``). The figure issue 26 asks
for is the command's, with the install the README gives: in a fresh environment,
``python -m venv /tmp/j && /tmp/j/bin/pip install -e '.[test]'`` (which compiles the
adjudicator where a C compiler is present, and brings orjson; ``.[test]`` only adds MILA and
the test tools), then from the repository root
``PYTHONPATH=. PATH=/tmp/j/bin:$PATH python benchmarks/mila_compare.py [--games 8]
[--phases 1000]`` (``judge`` is the command found on PATH; the first line names the build
measured in this process, the command's line the build and JSON library it ran with).

Ours is whichever build of the adjudicator is importable: the compiled one when the checkout
has it (the install, or ``scripts/build_compiled.sh``), else the pure-Python source;
``JUDGE_PURE_PYTHON=1`` forces the source (for the command too: its child inherits it).
``--both`` runs the whole comparison twice, pure Python then the compiled build, each in a
process of its own, and prints both; the first line of each run names the build measured.

1. Random games: both sides play seeded random games with random legal orders (each engine lists
   its own), to 1913; CPU time of this thread per movement phase (``adjudicate()`` and every
   result read, against ``process()``), and per listing of every power's legal orders (ours:
   ``all_possible_orders``, one call; MILA: ``get_all_possible_orders()``). Every listing is
   read (orders counted).
2. Real positions: the first PHASES movement phases of the Droidippy sample corpus (about 31
   units, the players' own supports and convoys), the same positions and orders on both sides.
   MILA: CPU time of ``process()`` alone (setting the position up is not counted), its units
   read after each. Ours, JSON in and out included: (a) in this process, the batch form of
   ``judge adjudicate --jsonl`` (``cli_adjudicate.adjudicate_lines``: parse each line, adjudicate,
   write each answer) on the whole text, every answer parsed back and checked; (b) the real
   command, ``judge adjudicate --jsonl FILE`` as a child process (its CPU time from
   ``getrusage``; the median of 15 runs), for the whole batch (start-up included) and per
   phase beyond a one-line run (start-up excluded). Both sides' totals are divided by the
   phases: mean per phase.
   (c) Whole programs, for the reading that counts our start-up (the CPython interpreter and
   orjson alone are about 40 ms of it): MILA as a program over the same file, start-up
   included too (importing ``diplomacy``, each position set up from its line as (a) does
   it, ``process()``, its units written as a line of JSON), against (b)'s whole batch.
3. ``--instructions N``: machine instructions instead of time, counted by valgrind's cachegrind
   (``apt-get install valgrind``), for the first N real phases: a count does not move with the
   load of the machine, so it compares two builds of ours exactly, and gives the ratio to MILA
   without the noise of a shared machine (time per instruction differs a little between the
   two, so the time ratio is the one to quote, this one its steady companion). Ours: the
   command, the batch of N lines less a one-line run; MILA: a script that sets up each
   position and calls ``process()``, less the same script without the call.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.possible import all_possible_orders, random_orders
from judge.cli_adjudicate import _handler_for_requests, adjudicate_lines
from judge.pure_python import compiled_modules

STANDARD = installed_variant("standard")

LAST_YEAR = 1913


def mila_game(seed: int, movement: list[float], listing: list[float]) -> None:
    from diplomacy import Game  # imported here: only this script needs MILA

    rng = random.Random(seed)
    game = Game()
    while not game.is_game_done and int(game.get_current_phase()[1:5]) < LAST_YEAR:
        t0 = time.thread_time_ns()
        possible = game.get_all_possible_orders()
        t1 = time.thread_time_ns()
        assert sum(len(os) for os in possible.values()) > 0
        is_movement = game.get_current_phase().endswith("M")
        if is_movement:
            listing.append((t1 - t0) / 1000)
        for power in game.powers.values():
            locations = game.get_orderable_locations(power.name)
            game.set_orders(
                power.name, [rng.choice(possible[x]) for x in locations if possible.get(x)]
            )
        t0 = time.thread_time_ns()
        game.process()
        t1 = time.thread_time_ns()
        if is_movement:
            movement.append((t1 - t0) / 1000)


def our_game(seed: int, movement: list[float], listing: list[float]) -> None:
    rng = random.Random(seed)
    position = STANDARD.initial_position()
    while position.phase.year < LAST_YEAR:
        if position.phase.is_movement:
            t0 = time.thread_time_ns()
            listed = all_possible_orders(position)
            listing.append((time.thread_time_ns() - t0) / 1000)
            assert sum(len(os) for by_loc in listed.values() for os in by_loc.values()) > 0
        orders = {power: random_orders(position, power, rng) for power in STANDARD.powers}
        t0 = time.thread_time_ns()
        result = adjudicate(position, orders)
        read = sum(len(rs) for rs in result.results.values())  # built on first read: time it
        t1 = time.thread_time_ns()
        assert read >= len(position.units) or not position.phase.is_movement
        if position.phase.is_movement:
            movement.append((t1 - t0) / 1000)
        position = result.position


def corpus_requests(count: int) -> list[dict[str, Any]]:
    """The first ``count`` movement phases with orders of the sample corpus, as requests."""
    from tests.corpus.droidippy import SAMPLE, read_record, records, request_for

    out: list[dict[str, Any]] = []
    for _, text in records(SAMPLE):
        for phase in read_record(text):
            if phase.name.endswith("M") and phase.orders:
                out.append(request_for(phase, {}))
                if len(out) == count:
                    return out
    return out


def mila_position(request: dict[str, Any]) -> Any:
    """A MILA ``Game`` set up at the request's position, with its orders given."""
    from diplomacy import Game

    game = Game()
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(request["phase"])
    for power, texts in request["units"].items():
        game.set_units(power, texts)
    for power, centres in request["centers"].items():
        game.set_centers(power, centres)
    for power, orders in request["orders"].items():
        game.set_orders(power, orders)
    return game


def mila_batch(requests: list[dict[str, Any]]) -> tuple[float, int]:
    """CPU microseconds of MILA's ``process()`` over the positions, and the units it left."""
    total = 0
    units = 0
    for request in requests:
        game = mila_position(request)
        t0 = time.thread_time_ns()
        game.process()
        total += time.thread_time_ns() - t0
        units += sum(len(us) for us in game.get_units().values())
    return total / 1000, units


def our_batch(text: str, count: int) -> tuple[float, int]:
    """CPU microseconds of the batch form in this process, JSON in and out; units answered."""
    handler = _handler_for_requests()
    out: list[bytes] = []
    lines = text.encode("utf-8").splitlines(keepends=True)  # as the command reads its file
    t0 = time.thread_time_ns()
    code = adjudicate_lines(lines, out.append, handler)
    took = time.thread_time_ns() - t0
    answers = [json.loads(line) for line in out]
    assert code == 0 and len(answers) == count and all("results" in a for a in answers)
    return took / 1000, sum(len(us) for a in answers for us in a["units"].values())


def _child(command: list[str]) -> tuple[float, str]:
    """CPU microseconds of ``command`` as a child process (``getrusage``), and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(command, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu * 1e6, run.stdout


def child_cpu_us(judge: str, path: Path, count: int) -> float:
    """CPU microseconds of ``judge adjudicate --jsonl path``, its answers read and counted."""
    cpu, out = _child([judge, "adjudicate", "--jsonl", str(path)])
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == count and all("results" in a for a in answers)
    return cpu


def mila_program_us(path: Path, count: int) -> float:
    """CPU microseconds of MILA as a program over ``path`` (``_MILA_SCRIPT``, "program"):
    the whole run, start-up included, its answers counted."""
    root = str(Path(__file__).resolve().parents[1])
    cpu, out = _child([sys.executable, "-c", _MILA_SCRIPT, str(path), "program", root])
    assert len(out.splitlines()) == count
    return cpu


def judge_build(judge: str) -> str:
    """How the ``judge`` command runs: its adjudicator compiled or pure Python (as its
    environment imports it, ``JUDGE_PURE_PYTHON`` and a stale build included), and the JSON
    library it reads and writes its lines with: orjson (a dependency), else the standard
    library (several times slower)."""
    first = Path(judge).read_text("utf-8", errors="replace").split("\n", 1)[0]
    python = first[2:].strip() if first.startswith("#!") else sys.executable
    probe = ("import importlib.util, judge\n"
             "origin = importlib.util.find_spec('judge.adjudicator.resolver').origin or ''\n"
             "print('compiled' if origin.endswith(('.so', '.pyd')) else 'pure Python')\n"
             "try:\n    import orjson\n    print('orjson')\n"
             "except ImportError:\n    print('the standard json module: orjson is missing')\n")
    run = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True)
    build, library = run.stdout.split("\n")[:2]
    return f"adjudicator {build}, JSON by {library}"


def real_positions(phases: int, rounds: int = 5) -> None:
    requests = corpus_requests(phases)
    text = "".join(json.dumps(r) + "\n" for r in requests)
    judge = shutil.which("judge")
    mila_us = ours_us = 0.0
    mila_units = our_units = 0
    child_full: list[float] = []
    child_one: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        full, one = Path(tmp) / "batch.jsonl", Path(tmp) / "one.jsonl"
        full.write_text(text, "utf-8")
        one.write_text(text.splitlines(keepends=True)[0], "utf-8")
        our_batch(text, len(requests))  # warm caches, as a long-running judge has them
        mila_batch(requests[:50])
        step = -(-len(requests) // rounds)
        for i in range(rounds):  # interleaved, so a change of load hits both sides
            part = requests[i * step:(i + 1) * step]
            m, mu = mila_batch(part)
            o, ou = our_batch("".join(json.dumps(r) + "\n" for r in part), len(part))
            mila_us, ours_us, mila_units, our_units = (
                mila_us + m, ours_us + o, mila_units + mu, our_units + ou
            )
            if judge:
                # the command's runs are short and a shared machine's noise is large against
                # them: three of each per round, and the medians of all
                for _ in range(3):
                    child_full.append(child_cpu_us(judge, full, len(requests)))
                    child_one.append(child_cpu_us(judge, one, 1))
        program = mila_program_us(full, len(requests)) if judge else 0.0
    n = len(requests)
    units = sum(len(us) for r in requests for us in r["units"].values()) / n
    print(f"real positions: {n} movement phases of the Droidippy sample, {units:.1f} units each;"
          f" units after: MILA {mila_units}, ours {our_units}")
    mila = mila_us / n
    print(f"us per phase (mean cpu): MILA process() {mila:.0f}; ours, batch in this process,"
          f" JSON in and out {ours_us / n:.0f}: {mila / (ours_us / n):.1f}x")
    if judge:
        whole = statistics.median(child_full) / n
        start = statistics.median(child_one)
        beyond = (statistics.median(child_full) - start) / (n - 1)
        print(f"`judge adjudicate --jsonl` ({judge}, {judge_build(judge)}),"
              f" cpu: {whole:.0f} us per phase with start-up"
              f" ({mila / whole:.1f}x), {beyond:.0f} us per phase beyond a one-line run"
              f" ({mila / beyond:.1f}x; start-up {start / 1000:.0f} ms)")
        # the start-up counted on both sides: MILA as a program over the same file
        program /= n
        print(f"whole programs, start-up included on both sides: MILA's (import, each position"
              f" set up from its line, process(), its units written) {program:.0f} us per phase,"
              f" `judge adjudicate --jsonl` {whole:.0f}: {program / whole:.1f}x")
    else:
        print("`judge` is not on PATH: the command-line run was skipped")


def _instructions(command: list[str]) -> int:
    """Machine instructions of ``command`` (valgrind's cachegrind, no cache simulation)."""
    run = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         *command],
        capture_output=True, text=True, check=True,
    )
    for line in run.stderr.splitlines():
        if "I   refs:" in line or "I refs:" in line:
            return int(line.rsplit(":", 1)[1].replace(",", "").strip())
    raise RuntimeError(f"no instruction count from valgrind: {run.stderr[-500:]}")


# MILA's side as a program: the positions set up as ``mila_batch`` does, with ``process()``
# or without (under valgrind both runs import the same modules, so the difference is
# ``process()`` alone); "program" also writes each phase's units as a line of JSON, as a
# command answering our requests with MILA would (the whole-program comparison)
_MILA_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[3])
from benchmarks.mila_compare import mila_position
for line in open(sys.argv[1]):
    game = mila_position(json.loads(line))
    if sys.argv[2] != "setup":
        game.process()
    if sys.argv[2] == "program":
        sys.stdout.write(json.dumps(game.get_units()) + "\\n")
"""


def instructions(phases: int) -> None:
    """Instructions per phase, ours (the command) and MILA's ``process()`` (see the docstring)."""
    if shutil.which("valgrind") is None:
        sys.exit("--instructions needs valgrind (apt-get install valgrind)")
    judge = shutil.which("judge")
    if judge is None:
        sys.exit("--instructions needs the judge's `judge` command on PATH")
    requests = corpus_requests(phases)
    with tempfile.TemporaryDirectory() as tmp:
        full, one = Path(tmp) / "batch.jsonl", Path(tmp) / "one.jsonl"
        full.write_text("".join(json.dumps(r) + "\n" for r in requests), "utf-8")
        one.write_text(json.dumps(requests[0]) + "\n", "utf-8")
        ours_full = _instructions([judge, "adjudicate", "--jsonl", str(full)])
        ours_one = _instructions([judge, "adjudicate", "--jsonl", str(one)])
        mila = [sys.executable, "-c", _MILA_SCRIPT, str(full)]
        root = str(Path(__file__).resolve().parents[1])
        mila_process = _instructions([*mila, "process", root])
        mila_setup = _instructions([*mila, "setup", root])
    n = len(requests)
    ours = (ours_full - ours_one) / (n - 1)
    theirs = (mila_process - mila_setup) / n
    print(f"instructions per phase, {n} real movement phases: MILA process() {theirs / 1e3:,.0f}k;"
          f" `judge adjudicate --jsonl` beyond a one-line run {ours / 1e3:,.0f}k"
          f" ({theirs / ours:.1f}x; start-up {ours_one / 1e6:,.0f}M)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="random games per side")
    parser.add_argument("--phases", type=int, default=1000, help="real movement phases")
    parser.add_argument(
        "--both", action="store_true", help="pure Python, then the compiled build (each apart)"
    )
    parser.add_argument(
        "--instructions", type=int, metavar="N", default=0,
        help="count machine instructions (valgrind) on the first N real phases instead",
    )
    args = parser.parse_args()
    if args.instructions:
        instructions(args.instructions)
        return
    if args.both:
        both(args)
        return
    _handler_for_requests()  # imports the house rules' handler: every module is counted
    compiled = [m for m in compiled_modules() if not m.endswith("__mypyc")]
    print("ours: " + (f"compiled build ({len(compiled)} modules: mypyc)" if compiled
                      else "pure Python"))
    for seed in range(10):  # warm both sides' caches
        our_game(10_000 + seed, [], [])
    mila_game(10_000, [], [])
    gc.collect()
    gc.freeze()
    mila_move: list[float] = []
    mila_list: list[float] = []
    our_move: list[float] = []
    our_list: list[float] = []
    for seed in range(args.games):
        mila_game(seed, mila_move, mila_list)
        our_game(seed, our_move, our_list)
    mm, om = statistics.median(mila_move), statistics.median(our_move)
    ml, ol = statistics.median(mila_list), statistics.median(our_list)
    print(f"random games: movement phases: {len(our_move)} ours, {len(mila_move)} MILA")
    print(f"us per movement phase (median cpu): MILA {mm:.0f}, ours {om:.0f}: {mm / om:.1f}x")
    print(f"us to list every power's legal orders (median cpu): MILA {ml:.0f}, ours {ol:.0f}:"
          f" {ml / ol:.1f}x")
    if args.phases:
        real_positions(args.phases)


def both(args: argparse.Namespace) -> None:
    """The comparison run twice, each in a process of its own: the pure-Python source, then
    the build that is installed (if it is not compiled, the second run says so)."""
    base = [sys.executable, __file__, "--games", str(args.games), "--phases", str(args.phases)]
    for pure in (True, False):
        env = {k: v for k, v in os.environ.items() if k != "JUDGE_PURE_PYTHON"}
        if pure:
            env["JUDGE_PURE_PYTHON"] = "1"
        sys.stdout.flush()
        subprocess.run(base, env=env, check=True)


if __name__ == "__main__":
    main()
