"""Computer powers play every installed variant from its first phase to the end of the game.

Issue 26, point 4: every shipped variant plays end to end, its computer powers reading the
variant's graph, with zero illegal orders. One computer power per power of the variant (the
characters drawn as a solo game draws them, ``personality.assign``), the Council as a game runs
it (the yearly proposals and answers, each power's orders keeping its promises, the verdicts
after each phase), the adjudicator's phases with the variant's options (the two-player lot of
seed 001's maps), and the judge's own game end (``game_end.check_end`` with the variant's victory
count: a solo, a seat's powers together, the last survivor, or a draw every survivor voted).
Each Spring every computer power votes a draw or not (``draws.wants_draw``: the game has stalled
and nobody can win it), as in a game the judge runs; a game still going at the year cap is
reported as "no end", "stall" when no centre changed hands in its last ten years.

Every order is checked with the adjudicator's legality (``normalize``, on the board of the
phase): the illegal column must be 0. Each power's decision (its Council orders, movement
phases only) is timed alone, wall time in this process; p50/p95/max are over every decision
of every power of the variant's games. Prints one row per variant. Asserts nothing.

    python benchmarks/variants_to_end.py [NAME ...] [--seeds 1] [--seed 1] [--years 60]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.catalog import variant, variant_names
from judge.adjudicator.legality import Refusal, normalize
from judge.adjudicator.orders import Order
from judge.adjudicator.outcomes import Options
from judge.adjudicator.position import Position
from judge.adjudicator.variant import Variant
from judge.bots.council import Council
from judge.bots.draws import wants_draw
from judge.bots.engine import bot_orders, phase_rules
from judge.bots.personality import assign
from judge.rules.game_end import GameEnd, check_end
from judge.rules.options import EndConditions

STALL_YEARS = 10  # "stall": no centre changed hands in the last this many years of a "no end"


@dataclass
class Game:
    phases: int = 0
    end: GameEnd | None = None
    last_year: int = 0
    stalled: bool = False
    illegal: list[str] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)  # movement decisions, every power
    seconds: float = 0.0


def play(v: Variant, seed: int, years: int) -> Game:
    """One game of ``v`` by computer powers, to its end or to ``years`` game years."""
    started = time.perf_counter()
    rng = random.Random(seed)
    joins = rng.choice([s[0] for s in v.seats]) if v.lot is not None else None
    position = v.initial_position()
    council = Council(assign(v.active_powers(position.phase), rng))
    lot_power = v.lot.power if v.lot else None
    conditions = EndConditions(solo_centers=v.victory)
    now = datetime(2026, 1, 1, tzinfo=UTC)  # no end date is set: the clock plays no part
    game = Game()
    last_change = position.phase.year
    cap = v.first_phase.year + years - 1
    history = [_centres(position)]
    voters = sorted(council.characters) + ([lot_power] if lot_power else [])
    while position.phase.year <= cap:
        drawn = joins if v.lot_drawn(position.phase) else None
        if position.phase.is_movement and position.phase.season_rank == 0:
            votes = {p for p in voters if wants_draw(history, p, v.victory)}
            game.end = check_end(position, conditions, now, draw_votes=votes, variant=v,
                                 joins=drawn)
            if game.end is not None:
                break
        board, _ = phase_rules(v, position, drawn)
        council.bot_initiatives(position, rng, v)
        orders: dict[str, list[Order]] = {}
        for power in sorted(council.characters):
            start = time.perf_counter()
            orders[power] = council.orders_of(power, position, rng, v)
            if position.phase.is_movement:
                game.ms.append((time.perf_counter() - start) * 1000.0)
        if lot_power and drawn:  # the lot's power plays for the seat that won it
            orders[lot_power] = bot_orders(position, lot_power, rng, "loyal", v, joins=drawn)
        for power, given in orders.items():
            for order in given:
                refusal = normalize(position, power, order, board)
                if isinstance(refusal, Refusal):
                    game.illegal.append(f"{position.phase} {power}: {order} ({refusal.value})")
        before = position
        position = adjudicate(position, orders, Options(joins=drawn), variant=v).position
        council.after_phase(before, orders, position)
        game.phases += 1
        if _centres(position) != _centres(before):
            last_change = position.phase.year
        if position.phase.year > before.phase.year:
            history.append(_centres(position))
        game.end = check_end(position, conditions, now, variant=v,
                             joins=joins if v.lot_drawn(position.phase) else None)
        if game.end is not None:
            break
    game.last_year = position.phase.year if game.end else cap
    game.stalled = game.end is None and game.last_year - last_change >= STALL_YEARS
    game.seconds = time.perf_counter() - started
    return game


def _centres(position: Position) -> dict[str, str]:
    return dict(position.centers)


def _ending(v: Variant, game: Game) -> str:
    if game.end is None:
        return "no end (stall)" if game.stalled else "no end"
    winners = "+".join(w[:3] for w in game.end.winners)
    return f"{game.end.reason.value} {winners} {game.last_year}"


def _p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="variants to play (default: every installed)")
    parser.add_argument("--seeds", type=int, default=1, help="games per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--years", type=int, default=60, help="the year cap of a game")
    args = parser.parse_args()
    print(f"computer powers to the end, {args.seeds} game(s) per variant, cap {args.years} years")
    print(f"{'variant':<16} {'powers':>6} {'phases':>6}  {'end':<34} {'illegal':>7} "
          f"{'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} {'wall s':>7}")
    total_illegal = 0
    wall = time.perf_counter()
    for name in args.names or variant_names():
        v = variant(name)
        for k in range(args.seeds):
            game = play(v, args.seed + k, args.years)
            total_illegal += len(game.illegal)
            median = statistics.median(game.ms) if game.ms else 0.0
            print(f"{v.name:<16} {len(v.active_powers(v.first_phase)):>6} {game.phases:>6}  "
                  f"{_ending(v, game):<34} {len(game.illegal):>7} {median:7.1f} "
                  f"{_p95(game.ms):7.1f} {max(game.ms, default=0.0):7.1f} {game.seconds:7.1f}",
                  flush=True)
            for line in game.illegal[:5]:
                print(f"    illegal: {line}")
    print(f"illegal orders in all: {total_illegal}; wall {time.perf_counter() - wall:.0f} s")


if __name__ == "__main__":
    main()
