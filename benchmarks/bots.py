"""Computer powers against our own greedy opponents and among themselves (issue 29, point 1).

The computer powers play as in a solo game: each has a character dealt as a solo game deals them
(``personality.assign``, from the game's seed; ``--personality NAME`` fixes one instead) and
talks through the game's ``Council`` (the yearly proposals and answers, promises kept or broken,
the verdicts after each phase). Two greedy opponents are fixed rungs of the ladder, each changing
only when its file does: ``greedy.py`` beside this file, the simple deterministic kind the issue
measured against (about fifty lines: take the next centre, keep a threatened one, no supports),
and ``baseline.py`` in the judge (``bot_orders(..., plain=True)``: DumbBot-style values spread
over the map, weighted choice, supports; no search, no talk), the harder rung, which is also what
the computer powers' search expects of the other powers.

Rows (``--games`` games per power, every power in turn as the subject):
  simple       one computer power (the subject) against six simple greedy opponents, to 1910
  simple-bots  one simple greedy opponent (the subject) against six computer powers, to 1910
  baseline     one computer power against six DumbBot-style opponents, to the end of 1910
  bots         one DumbBot-style opponent (the subject) against six computer powers, to 1910
  seven        seven computer powers to the end of 1930 (the subject is only the seat counted);
               each Spring every power votes a draw or not (``draws.wants_draw``), and the game
               ends as the judge ends it (``game_end.check_end``: a solo, or every survivor
               voting the draw)
  random, hold, pure  older rungs: six random / holding powers; the Pure map (see ``--help``)
Each row prints the subject's wins (18 centres), most centres at the end (shared counts),
survived, eliminated, mean centres and their spread (min, quartiles, max over the games), the
other powers' mean; the simple and baseline rows again per character; the seven row how its
games ended and when. Then illegal orders (every order checked with ``legality.normalize``; must
be 0) and the milliseconds of one power's decision (CPU time of this process; movement / retreat
/ adjustment; a computer power's movement decision is its Council's ``orders_of``, the talk
timed apart), and the machine's speed before and after the games (``machine_speed``: CPU µs of a
fixed set of adjudications) with the movement decisions' p95 counted in those, a figure the
machine's hour does not move.

    python benchmarks/bots.py [--games 50] [--seed 1] [--scenarios simple,baseline,bots,seven]
        [--personality NAME] [--jobs 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime

from greedy import greedy_orders  # benchmarks/greedy.py, beside this file

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.catalog import variant
from judge.adjudicator.legality import Refusal, normalize
from judge.adjudicator.orders import Order
from judge.adjudicator.position import Position
from judge.adjudicator.possible import random_orders
from judge.bots.council import Council
from judge.bots.draws import wants_draw
from judge.bots.engine import bot_orders
from judge.bots.personality import assign
from judge.rules.game_end import EndReason, check_end
from judge.rules.options import EndConditions

STANDARD = variant("standard")

SCENARIOS = ("simple", "simple-bots", "baseline", "bots", "seven", "random", "hold", "pure")
DEFAULT_SCENARIOS = ("simple", "simple-bots", "baseline", "bots", "seven")
LAST_YEAR = {"seven": 1930}  # the others: --last-year
KINDS = ("M", "R", "A")
_NOW = datetime(2026, 1, 1, tzinfo=UTC)  # no end date: the clock plays no part


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    most: int = 0
    survived: int = 0
    eliminated: int = 0
    centres: list[int] = field(default_factory=list)  # the subject's, one per game
    others: float = 0.0
    illegal: int = 0
    orders: int = 0
    decided: int = 0  # pure: games a computer power won (the variant's victory count)
    captured: int = 0  # pure: games where a centre changed hands
    ends: list[tuple[str, int]] = field(default_factory=list)  # seven: (how, year) per game
    characters: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    ms: dict[str, dict[str, list[float]]] = field(
        default_factory=lambda: {
            "bot": defaultdict(list),
            "baseline": defaultdict(list),
            "talk": defaultdict(list),  # a Council's proposals and answers, per power
            "council": defaultdict(list),  # pure: a computer power's talk and orders
        }
    )

    def add(self, other: Tally) -> None:
        for name in ("games", "wins", "most", "survived", "eliminated", "illegal", "orders",
                     "decided", "captured"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.others += other.others
        self.centres.extend(other.centres)
        self.ends.extend(other.ends)
        for name, values in other.characters.items():
            self.characters[name].extend(values)
        for who, kinds in other.ms.items():
            for kind, values in kinds.items():
                self.ms[who][kind].extend(values)


def _roles(scenario: str, subject: str) -> dict[str, str]:
    if scenario == "simple":
        return {p: ("bot" if p == subject else "greedy") for p in STANDARD.powers}
    if scenario == "simple-bots":
        return {p: ("greedy" if p == subject else "bot") for p in STANDARD.powers}
    if scenario == "bots":
        return {p: ("baseline" if p == subject else "bot") for p in STANDARD.powers}
    if scenario == "seven":
        return {p: "bot" for p in STANDARD.powers}
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
        _check(tally, position, orders, pure.board)
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


def _check(tally: Tally, position: Position, orders: Mapping[str, list[Order]],
           board: object) -> None:
    for power, given in orders.items():
        for order in given:
            tally.orders += 1
            if isinstance(normalize(position, power, order, board), Refusal):  # type: ignore[arg-type]
                tally.illegal += 1


def _ended(tally: Tally, position: Position, counts: dict[str, int], subject: str) -> Tally:
    """The subject's standing at the end of a game."""
    mine = counts[subject]
    tally.most = int(mine == max(counts.values()) and mine > 0)
    alive = mine > 0 or bool(position.units_of(subject))
    tally.survived = int(alive)
    tally.eliminated = int(not alive)
    tally.centres = [mine]
    tally.others = sum(v for p, v in counts.items() if p != subject) / 6
    return tally


def play(scenario: str, subject: str, seed: int, last_year: int, person: str) -> Tally:
    if scenario == "pure":
        return play_pure(subject, seed, last_year)
    last_year = LAST_YEAR.get(scenario, last_year)
    standard = STANDARD
    board = standard.board
    rng = random.Random(seed)
    roles = _roles(scenario, subject)
    machines = [p for p, role in roles.items() if role == "bot"]
    dealt = assign(machines, rng) if person == "deal" else {p: person for p in machines}
    council = Council(dealt)
    conditions = EndConditions(solo_centers=standard.victory)
    position = standard.initial_position()
    history: list[dict[str, str]] = [dict(position.centers)]
    tally = Tally(games=1)
    how = "none"
    while position.phase.year <= last_year:
        kind = position.phase.kind.value
        votes: set[str] = set()
        if scenario == "seven" and position.phase.season_rank == 0 and kind == "M":
            votes = {p for p in machines if wants_draw(history, p, standard.victory)}
            end = check_end(position, conditions, _NOW, draw_votes=votes, variant=standard)
            if end is not None and end.reason is EndReason.DRAW:
                how = "draw"
                break
        start = time.process_time()
        council.bot_initiatives(position, rng, standard)
        if machines:
            tally.ms["talk"][kind].append((time.process_time() - start) * 1000 / len(machines))
        orders: dict[str, list[Order]] = {}
        for power in STANDARD.powers:
            role = roles[power]
            if role == "hold":
                continue
            if role == "random":
                orders[power] = random_orders(position, power, rng, board)
                continue
            if role == "greedy":
                orders[power] = greedy_orders(position, power, standard)
                continue
            start = time.process_time()
            if role == "bot":
                given = council.orders_of(power, position, rng, standard)
            else:
                given = bot_orders(position, power, rng, None, standard, plain=True)
            tally.ms[role][kind].append((time.process_time() - start) * 1000)
            orders[power] = given
        _check(tally, position, orders, board)
        before = position
        position = adjudicate(position, orders, variant=standard).position
        council.after_phase(before, orders, position)
        if position.phase.year > before.phase.year:
            history.append(dict(position.centers))
        counts = {p: len(position.centers_of(p)) for p in STANDARD.powers}
        if max(counts.values()) >= 18 and position.phase.kind.value != "R":
            how = "solo"
            break
    counts = {p: len(position.centers_of(p)) for p in STANDARD.powers}
    mine = counts[subject]
    tally.wins = int(mine >= 18)
    tally.ends = [(how, position.phase.year if how != "none" else last_year + 1)]
    if scenario in ("baseline", "simple"):
        tally.characters[dealt[subject]].append(mine)
    return _ended(tally, position, counts, subject)


def _reference_phases() -> list[tuple[Position, dict[str, list[Order]]]]:
    """The movement phases of one seeded game of seven DumbBot-style powers to 1905, with
    their orders: the same on every run while the adjudicator and ``baseline.py`` stay."""
    rng = random.Random(0)
    position = STANDARD.initial_position()
    phases: list[tuple[Position, dict[str, list[Order]]]] = []
    while position.phase.year <= 1905:
        orders = {p: bot_orders(position, p, rng, None, STANDARD, plain=True)
                  for p in STANDARD.powers}
        if position.phase.is_movement:
            phases.append((position, orders))
        position = adjudicate(position, orders, variant=STANDARD).position
    return phases


def machine_speed(rounds: int = 5) -> float:
    """CPU µs per adjudication of the reference phases, the fastest of ``rounds`` passes of
    twenty over them: this machine's speed now. A shared machine's speed moves by a factor of
    two from hour to hour; a decision's milliseconds divided by this are the same in a slow
    hour and a fast one, and change only when the code does (the search's trials are most of
    a decision, and adjudications are most of the trials)."""
    phases = _reference_phases()
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(20):
            for position, orders in phases:
                adjudicate(position, orders, variant=STANDARD)
        best = min(best, (time.process_time() - start) / (20 * len(phases)))
    return best * 1e6


def _job(args: tuple[str, str, int, int, str]) -> tuple[str, Tally]:
    return args[0], play(*args)


def spread(values: list[int] | list[float]) -> str:
    """min / first quartile / median / third quartile / max."""
    if not values:
        return "-"
    if len(values) == 1:
        v = values[0]
        return f"{v}/{v}/{v}/{v}/{v}"
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{min(values)}/{q1:g}/{q2:g}/{q3:g}/{max(values)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games per power per scenario")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--last-year", type=int, default=1910)
    parser.add_argument("--scenarios", default=",".join(DEFAULT_SCENARIOS),
                        help=f"of {', '.join(SCENARIOS)}")
    parser.add_argument("--personality", default="deal",
                        help="'deal' (as a solo game deals them) or one character's name")
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
    # the long games first, so that the pool's workers finish together
    jobs.sort(key=lambda job: job[0] != "seven")
    totals = {s: Tally(games=0) for s in scenarios}
    speed_before = machine_speed()
    wall = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for scenario, tally in pool.map(_job, jobs, chunksize=2):
                totals[scenario].add(tally)
    else:
        for job in jobs:
            scenario, tally = _job(job)
            totals[scenario].add(tally)
    print(
        f"{args.games} games per power per scenario, seed {args.seed}, to the end of "
        f"{args.last_year} (seven: {LAST_YEAR['seven']}), characters {args.personality}"
    )
    print(
        f"{'scenario':<9} {'subject':<9} {'games':>5} {'wins':>5} {'most':>5} {'surv':>5} "
        f"{'elim':>5} {'centres':>7} {'spread min/q1/med/q3/max':>25} {'others':>6} "
        f"{'illegal':>12}"
    )
    for scenario, t in totals.items():
        subject = {"bots": "dumbbot", "simple-bots": "greedy", "pure": "holding",
                   "seven": "any"}.get(scenario, "computer")
        n = max(t.games, 1)
        print(
            f"{scenario:<9} {subject:<9} {t.games:>5} {t.wins:>5} {t.most:>5} {t.survived:>5} "
            f"{t.eliminated:>5} {sum(t.centres) / n:>7.2f} {spread(t.centres):>25} "
            f"{t.others / n:>6.2f} {t.illegal:>5}/{t.orders}"
        )
        if scenario in ("baseline", "simple") and args.personality == "deal":
            for name, values in sorted(t.characters.items()):
                wins = sum(1 for v in values if v >= 18)
                print(f"  {name:<12} games {len(values):>4} mean {sum(values) / len(values):6.2f}"
                      f" spread {spread(values)} wins {wins}")
    if "pure" in totals:
        t = totals["pure"]
        print(
            f"pure: a computer power won (4 centres) in {t.decided} of {t.games} games, "
            f"a centre changed hands in {t.captured}"
        )
    if "seven" in totals:
        t = totals["seven"]
        solos = [y for how, y in t.ends if how == "solo"]
        draws = [y for how, y in t.ends if how == "draw"]
        ended = len(solos) + len(draws)
        print(
            f"seven: of {t.games} games {len(solos)} solo, {len(draws)} draw voted, "
            f"{t.games - ended} still going after {LAST_YEAR['seven']} "
            f"({100 * ended / max(t.games, 1):.0f}% ended); end year of the ended "
            f"min/q1/med/q3/max {spread(solos + draws)}"
        )
    merged = Tally(games=0)
    for t in totals.values():
        merged.add(t)
    speed_after = machine_speed()
    for who in ("bot", "baseline", "talk", "council"):
        parts = []
        for kind in KINDS:
            values = merged.ms[who].get(kind, [])
            if values:
                values = sorted(values)
                mean = sum(values) / len(values)
                p95 = values[int(0.95 * (len(values) - 1))]
                parts.append(f"{kind} mean {mean:.1f} p95 {p95:.1f} (n={len(values)})")
        if parts:
            name = {"bot": "computer", "baseline": "greedy"}.get(who, who)
            print(f"ms per power per phase, {name}: " + "; ".join(parts))
    decisions = sorted(merged.ms["bot"].get("M", []))
    if decisions:
        p95 = decisions[int(0.95 * (len(decisions) - 1))]
        speed = (speed_before + speed_after) / 2
        print(
            f"machine: a reference adjudication {speed_before:.1f} us before the games, "
            f"{speed_after:.1f} after; a computer power's movement decision at p95 is "
            f"{p95 * 1000 / speed:.0f} reference adjudications"
        )
    print(f"wall time {time.perf_counter() - wall:.0f} s")


if __name__ == "__main__":
    main()
