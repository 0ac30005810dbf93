"""Adjudicator speed: seeded random games with legal random orders.

Prints movement phases per second, mean, median and p95 microseconds per movement phase
(``adjudicate()``: legality, resolution, retreat options, the next position), the same with every
order's result read as well (a movement phase builds its results on first read, see
``outcomes.Adjudication``), the mean number of units on the board, and microseconds per
``possible_orders()`` call. Each figure is given in
wall-clock time and in CPU time of this thread (which a busy machine disturbs less). For scale
(issue 2): the MILA ``diplomacy`` package needs about 770 us per movement phase with ~30 units
and 2800 us to list the legal orders.

    python benchmarks/adjudicate.py [--games 40] [--years 12] [--seed 1] [--warmup 10]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from dataclasses import dataclass, field

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.position import Position
from judge.adjudicator.possible import possible_orders, random_orders

STANDARD = installed_variant("standard")


@dataclass
class Samples:
    wall_us: list[float] = field(default_factory=list)
    cpu_us: list[float] = field(default_factory=list)

    def add(self, wall_ns: int, cpu_ns: int) -> None:
        self.wall_us.append(wall_ns / 1000)
        self.cpu_us.append(cpu_ns / 1000)


@dataclass
class Run:
    movement: Samples = field(default_factory=Samples)
    explained: Samples = field(default_factory=Samples)  # adjudicate() and reading the results
    listing: Samples = field(default_factory=Samples)
    units: list[int] = field(default_factory=list)
    phases: list[tuple[Position, dict]] = field(default_factory=list)  # movement phases played


def play(seed: int, years: int, run: Run) -> None:
    rng = random.Random(seed)
    position = STANDARD.initial_position()
    last_year = position.phase.year + years
    wall, cpu = time.perf_counter_ns, time.thread_time_ns
    while position.phase.year < last_year:
        if position.phase.is_movement:
            for power in STANDARD.powers:
                w0, c0 = wall(), cpu()
                possible_orders(position, power)
                run.listing.add(wall() - w0, cpu() - c0)
        orders = {power: random_orders(position, power, rng) for power in STANDARD.powers}
        w0, c0 = wall(), cpu()
        result = adjudicate(position, orders)
        w1, c1 = wall(), cpu()
        result.results  # noqa: B018 - what a judge does next: explain every order
        w2, c2 = wall(), cpu()
        if position.phase.is_movement:
            run.movement.add(w1 - w0, c1 - c0)
            run.explained.add(w1 - w0 + w2 - w1, c1 - c0 + c2 - c1)
            run.units.append(len(position.units))
            run.phases.append((position, orders))
        position = result.position


def _describe(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return (
        f"mean {statistics.fmean(ordered):.1f}, median {statistics.median(ordered):.1f}, "
        f"p95 {p95:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--years", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=10, help="untimed games played first")
    args = parser.parse_args()
    # A judge runs for months: the memos of map answers (legality, convoy routes, distances,
    # order values) fill in the first games and stay. Warm-up games fill them; the first one
    # is reported on its own as the cold start.
    cold = Run()
    play(args.seed + 10_000, args.years, cold)
    for game in range(1, args.warmup):
        play(args.seed + 10_000 + game, args.years, Run())
    # as a long-running server would after start-up: what is left now never dies, so the
    # collector need not walk it again and again
    gc.collect()
    gc.freeze()
    run = Run()
    for game in range(args.games):
        play(args.seed + game, args.years, run)
    phases = len(run.movement.wall_us)
    print(f"games: {args.games}, years each: {args.years}, movement phases: {phases}")
    print(f"mean units on the board per movement phase: {statistics.fmean(run.units):.1f}")
    print(
        "movement phases per second: "
        f"{phases / (sum(run.movement.wall_us) / 1e6):,.0f} wall, "
        f"{phases / (sum(run.movement.cpu_us) / 1e6):,.0f} cpu"
    )
    print(f"us per movement phase (wall): {_describe(run.movement.wall_us)}")
    print(f"us per movement phase (cpu):  {_describe(run.movement.cpu_us)}")
    print(f"  with every result read (cpu): {_describe(run.explained.cpu_us)}")
    print(f"  cold first game (cpu):      {_describe(cold.movement.cpu_us)}")
    print(f"  replayed back to back (cpu): {_describe(_replay(run.phases))}")
    print(f"us per possible_orders call (wall): {_describe(run.listing.wall_us)}")
    print(f"us per possible_orders call (cpu):  {_describe(run.listing.cpu_us)}")
    print(f"machine calibration (pure-Python loop of 10^7 additions): {_calibrate():.2f} s")


def _replay(phases: list[tuple[Position, dict]]) -> list[float]:
    """The same movement phases again, one after another with nothing in between.

    In a game the order generator runs between two phases and leaves the processor's caches
    cold for the adjudicator; this shows its cost with them warm (the second of two rounds).
    """
    cpu = time.thread_time_ns
    times: list[float] = []
    for round_ in range(2):
        for position, orders in phases:
            c0 = cpu()
            adjudicate(position, orders)
            if round_:
                times.append((cpu() - c0) / 1000)
    return times


def _calibrate() -> float:
    """A fixed amount of interpreter work, to compare runs on busier or faster machines."""
    t0 = time.perf_counter()
    total = 0
    for i in range(10_000_000):
        total += i
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
