"""A computer power's movement decision on the largest installed map, beside the standard map.

Issue 26 asks for a computer power's movement decision on the largest shipped map in under 50 ms.
The largest map is the installed variant with the most provinces (``--variant`` names another;
``--folder`` plays a variant folder that is not installed, e.g. tests/data/variants/triskel).
For each map, seeded games are played by the computer powers (the engine with a personality:
valuation, candidates, the search against replies) and, at every movement phase of every game,
each active power's decision (``bot_orders``) is timed alone, in this process, after a warm-up
decision that fills the per-map caches (the graph spreads are computed once per map). Prints,
per map, the number of decisions, their p50, p95 and max wall time in milliseconds. Asserts
nothing.

    python benchmarks/bot_decision.py [--games 2] [--years 3] [--seed 1] [--variant NAME]
        [--folder PATH]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.catalog import add_variant_folder, variant, variant_names
from judge.adjudicator.orders import Order
from judge.adjudicator.outcomes import Options
from judge.adjudicator.variant import Variant
from judge.bots.engine import bot_orders, phase_rules
from judge.bots.personality import assign


def largest() -> Variant:
    """The installed variant whose map has the most provinces (ties: the most powers, then
    the variant that is its map's own, not one of its cut-downs)."""
    return max(
        (variant(n) for n in variant_names()),
        key=lambda v: (len(v.board.provinces), len(v.powers), v.name == v.board.name, v.name),
    )


def decision_times(v: Variant, games: int, years: int, seed: int) -> list[float]:
    """Milliseconds of every movement decision of every active power in ``games`` games."""
    times: list[float] = []
    for game in range(games):
        rng = random.Random(seed * 1000 + game)
        joins = rng.choice([s[0] for s in v.seats]) if v.lot else None
        position = v.initial_position()
        people = assign(v.active_powers(position.phase), rng)
        bot_orders(position, next(iter(people)), random.Random(0), "loyal", v)  # warm-up
        last_year = v.first_phase.year + years - 1
        while position.phase.year <= last_year:
            drawn = joins if v.lot_drawn(position.phase) else None
            phase_rules(v, position, drawn)
            orders: dict[str, list[Order]] = {}
            for power in v.active_powers(position.phase, drawn):
                person = people.get(power, "loyal")
                start = time.perf_counter()
                orders[power] = bot_orders(position, power, rng, person, v, joins=drawn)
                if position.phase.is_movement:
                    times.append((time.perf_counter() - start) * 1000.0)
            position = adjudicate(position, orders, Options(joins=drawn), variant=v).position
    return times


def report(v: Variant, times: list[float]) -> None:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(
        f"{v.name:<16} {len(v.board.provinces):>5} provinces {len(v.powers):>3} powers  "
        f"{len(times):>5} decisions  p50 {statistics.median(times):7.2f} ms  "
        f"p95 {p95:7.2f} ms  max {ordered[-1]:7.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--years", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", help="the map to time beside standard (default: largest)")
    parser.add_argument("--folder", type=Path, help="a variant folder to add and time")
    args = parser.parse_args()
    if args.folder:
        args.variant = add_variant_folder(args.folder)
    big = variant(args.variant) if args.variant else largest()
    print(f"computer power movement decisions, {args.games} games x {args.years} years each")
    for v in dict.fromkeys([variant("standard"), big]):
        report(v, decision_times(v, args.games, args.years, args.seed))


if __name__ == "__main__":
    main()
