"""Computer powers against simple opponents: seeded games to the end of 1910 (or 18 centres).

Scenarios, each played once with every power as the subject (``--games`` games per power):
  random    the bot as one power, six powers giving random legal orders
  hold      the bot as one power, six powers holding (civil-disorder defaults otherwise)
  baseline  the bot as one power, six plain DumbBot-style players (no search, no personality)
  bots      one plain baseline as the subject power against six bots
  pure      the Pure map (seven powers, one centre each, every province next to every other):
            the subject holds (a player who only holds), six computer powers play with their
            diplomacy (the Council: pacts, support requests, the ledger); a lone unit can take
            nothing there, so this row shows whether their negotiation moves the game
Prints, per scenario, the subject's wins (18 centres), most centres at the end (shared counts),
survived, eliminated, mean centres at the end, the other side's mean centres; then illegal
orders (every order checked with ``legality.normalize``; must be 0) and milliseconds per power
per phase (CPU time of this process, split by movement / retreat / adjustment).

    python benchmarks/bots.py [--games 50] [--seed 1] [--last-year 1910] [--scenarios ...]
        [--personality NAME] [--jobs 1]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.catalog import variant
from judge.adjudicator.legality import Refusal, normalize
from judge.adjudicator.orders import Order
from judge.adjudicator.position import Position
from judge.adjudicator.possible import random_orders
from judge.bots.council import Council
from judge.bots.engine import bot_orders
from judge.bots.personality import assign

STANDARD = variant("standard")

SCENARIOS = ("random", "hold", "baseline", "bots", "pure")
KINDS = ("M", "R", "A")


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    most: int = 0
    survived: int = 0
    eliminated: int = 0
    centres: int = 0
    others: float = 0.0
    illegal: int = 0
    orders: int = 0
    decided: int = 0  # pure: games a computer power won (the variant's victory count)
    captured: int = 0  # pure: games where a centre changed hands
    ms: dict[str, dict[str, list[float]]] = field(
        default_factory=lambda: {
            "bot": defaultdict(list),
            "baseline": defaultdict(list),
            "council": defaultdict(list),  # pure: a computer power's talk and orders
        }
    )

    def add(self, other: Tally) -> None:
        for name in (
            "games",
            "wins",
            "most",
            "survived",
            "eliminated",
            "centres",
            "illegal",
            "orders",
            "decided",
            "captured",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.others += other.others
        for who, kinds in other.ms.items():
            for kind, values in kinds.items():
                self.ms[who][kind].extend(values)


def _roles(scenario: str, subject: str) -> dict[str, str]:
    if scenario == "bots":
        return {p: ("baseline" if p == subject else "bot") for p in STANDARD.powers}
    return {p: ("bot" if p == subject else scenario) for p in STANDARD.powers}


def play_pure(subject: str, seed: int, last_year: int) -> Tally:
    """Six computer powers with their Council on Pure, the subject holding."""
    pure = variant("pure")
    rng = random.Random(seed)
    council = Council(assign([p for p in pure.powers if p != subject], rng))
    position = pure.initial_position()
    start = dict(position.centers)
    tally = Tally(games=1)
    while position.phase.year <= last_year:
        kind = position.phase.kind.value
        clock = time.process_time()
        council.bot_initiatives(position, rng, pure)
        orders = council.orders(position, rng, pure)
        per_power = (time.process_time() - clock) * 1000 / max(len(orders), 1)
        tally.ms["council"][kind].append(per_power)
        for power, given in orders.items():
            for order in given:
                tally.orders += 1
                if isinstance(normalize(position, power, order, pure.board), Refusal):
                    tally.illegal += 1
        before = position
        position = adjudicate(position, dict(orders), variant=pure).position
        council.after_phase(before, orders, position)
        if position.phase.kind.value != "R" and any(
            len(position.centers_of(p)) >= pure.victory for p in pure.powers
        ):
            break
    counts = {p: len(position.centers_of(p)) for p in pure.powers}
    tally.decided = int(any(v >= pure.victory for p, v in counts.items() if p != subject))
    tally.captured = int(position.centers != start)
    return _ended(tally, position, counts, subject)


def _ended(tally: Tally, position: Position, counts: dict[str, int], subject: str) -> Tally:
    """The subject's standing at the end of a game."""
    mine = counts[subject]
    tally.most = int(mine == max(counts.values()) and mine > 0)
    alive = mine > 0 or bool(position.units_of(subject))
    tally.survived = int(alive)
    tally.eliminated = int(not alive)
    tally.centres = mine
    tally.others = sum(v for p, v in counts.items() if p != subject) / 6
    return tally


def play(scenario: str, subject: str, seed: int, last_year: int, person: str) -> Tally:
    if scenario == "pure":
        return play_pure(subject, seed, last_year)
    standard = variant("standard")
    board = standard.board
    rng = random.Random(seed)
    roles = _roles(scenario, subject)
    position = STANDARD.initial_position()
    tally = Tally(games=1)
    while position.phase.year <= last_year:
        kind = position.phase.kind.value
        orders: dict[str, list[Order]] = {}
        for power in STANDARD.powers:
            role = roles[power]
            if role == "hold":
                continue
            if role == "random":
                orders[power] = random_orders(position, power, rng, board)
                continue
            start = time.process_time()
            given = bot_orders(position, power, rng, person, standard, plain=role == "baseline")
            tally.ms[role][kind].append((time.process_time() - start) * 1000)
            for order in given:
                tally.orders += 1
                if isinstance(normalize(position, power, order, board), Refusal):
                    tally.illegal += 1
            orders[power] = given
        position = adjudicate(position, orders, variant=standard).position
        counts = {p: len(position.centers_of(p)) for p in STANDARD.powers}
        if max(counts.values()) >= 18 and position.phase.kind.value != "R":
            break
    counts = {p: len(position.centers_of(p)) for p in STANDARD.powers}
    mine = counts[subject]
    tally.wins = int(mine >= 18)
    return _ended(tally, position, counts, subject)


def _job(args: tuple[str, str, int, int, str]) -> tuple[str, Tally]:
    return args[0], play(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games per power per scenario")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--last-year", type=int, default=1910)
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--personality", default="loyal")
    parser.add_argument(
        "--jobs", type=int, default=1, help="worker processes (the machine is shared)"
    )
    args = parser.parse_args()
    scenarios = [s for s in args.scenarios.split(",") if s]
    jobs = [
        (
            scenario,
            power,
            args.seed * 100003 + i * 7919 + k * 104729 + n,
            args.last_year,
            args.personality,
        )
        for n, scenario in enumerate(scenarios)
        for k, power in enumerate(STANDARD.powers)
        for i in range(args.games)
    ]
    totals = {s: Tally(games=0) for s in scenarios}
    wall = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for scenario, tally in pool.map(_job, jobs, chunksize=4):
                totals[scenario].add(tally)
    else:
        for job in jobs:
            scenario, tally = _job(job)
            totals[scenario].add(tally)
    print(
        f"{args.games} games per power per scenario, seed {args.seed}, to the end of "
        f"{args.last_year}, bot personality {args.personality}"
    )
    print(
        f"{'scenario':<10} {'subject':<9} {'games':>5} {'wins':>5} {'most':>5} {'surv':>5} "
        f"{'elim':>5} {'centres':>8} {'others':>7} {'illegal':>8}"
    )
    for scenario, t in totals.items():
        subject = {"bots": "baseline", "pure": "holding"}.get(scenario, "bot")
        n = max(t.games, 1)
        print(
            f"{scenario:<10} {subject:<9} {t.games:>5} {t.wins:>5} {t.most:>5} {t.survived:>5} "
            f"{t.eliminated:>5} {t.centres / n:>8.2f} {t.others / n:>7.2f} {t.illegal:>5}/{t.orders}"
        )
    if "pure" in totals:
        t = totals["pure"]
        print(
            f"pure: a computer power won (4 centres) in {t.decided} of {t.games} games, "
            f"a centre changed hands in {t.captured}"
        )
    merged = Tally(games=0)
    for t in totals.values():
        merged.add(t)
    for who in ("bot", "baseline", "council"):
        parts = []
        for kind in KINDS:
            values = merged.ms[who].get(kind, [])
            if values:
                values = sorted(values)
                mean = sum(values) / len(values)
                p95 = values[int(0.95 * (len(values) - 1))]
                parts.append(f"{kind} mean {mean:.1f} p95 {p95:.1f} (n={len(values)})")
        if parts:
            print(f"ms per power per phase, {who}: " + "; ".join(parts))
    print(f"wall time {time.perf_counter() - wall:.0f} s")


if __name__ == "__main__":
    main()
