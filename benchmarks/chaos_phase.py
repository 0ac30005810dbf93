"""A Chaos movement phase (34 powers) adjudicated in process, against the standard phase as peer.

Plays seeded random games (legal random orders, ``possible.random_orders``) on ``chaos`` from its
Winter 1900 builds and on ``standard``, collects their movement phases, then times
``adjudicate()`` on each collected phase (the results read too, as a caller does) and prints
median, mean and 95th-percentile microseconds per phase (wall clock; the median also in this
thread's CPU), with the mean number of units on the board. Issue 26 asks under 5 ms for a Chaos
phase. Measured 2026-12-04 on the shared 2-core machine (pure Python, 6 games of 8 years, 5
passes): Chaos 104 us median (34 units), standard 76 us (27 units). 2026-12-06, the README's
install (the adjudicator compiled, setup.py), load average about 8: Chaos 68 us median (p95
148), standard 46 us; the pure source (``JUDGE_PURE_PYTHON=1``) 124 and 94 us.

    python benchmarks/chaos_phase.py [--games 10] [--years 8] [--seed 1] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.catalog import variant
from judge.adjudicator.position import Position
from judge.adjudicator.possible import random_orders


def collect(name: str, games: int, years: int, seed: int) -> list[tuple[Position, dict]]:
    """The movement phases of seeded random games on variant ``name``, with their orders."""
    v = variant(name)
    phases: list[tuple[Position, dict]] = []
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        position = v.initial_position()
        while position.phase.year < v.first_phase.year + years:
            orders = {
                power: random_orders(position, power, rng, v.board)
                for power in v.active_powers(position.phase)
            }
            if position.phase.is_movement:
                phases.append((position, orders))
            position = adjudicate(position, orders, variant=v).position
    return phases


def time_phases(name: str, phases: list[tuple[Position, dict]], repeat: int) -> None:
    v = variant(name)
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(repeat):
        for position, orders in phases:
            w0, c0 = time.perf_counter_ns(), time.thread_time_ns()
            result = adjudicate(position, orders, variant=v)
            _ = result.results  # the results read, as every caller does
            wall.append((time.perf_counter_ns() - w0) / 1000)
            cpu.append((time.thread_time_ns() - c0) / 1000)
    units = statistics.mean(len(p.units) for p, _ in phases)
    print(
        f"{name:9} {len(phases):4} phases x{repeat}  {units:5.1f} units  "
        f"median {statistics.median(wall):7.0f} us wall {statistics.median(cpu):7.0f} us cpu  "
        f"mean {statistics.mean(wall):7.0f} us wall  "
        f"p95 {statistics.quantiles(wall, n=20)[-1]:7.0f} us wall"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--years", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    for name in ("chaos", "standard"):
        time_phases(name, collect(name, args.games, args.years, args.seed), args.repeat)


if __name__ == "__main__":
    main()
