"""Our adjudicator against MILA's ``diplomacy`` engine, interleaved in one process.

A busy machine slows both alike, so the ratio is the figure to quote. MILA is not a dependency:
install it apart (``python -m venv /tmp/mila && /tmp/mila/bin/pip install diplomacy==1.1.2``)
and run ``PYTHONPATH=. /tmp/mila/bin/python benchmarks/mila_compare.py [GAMES]``. Both sides play
seeded random games with random legal orders (each engine lists its own), to 1913; times are
CPU time of this thread per movement phase, and per listing of every power's legal orders.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.possible import possible_orders, random_orders

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
            for power in STANDARD.powers:
                possible_orders(position, power)
            listing.append((time.thread_time_ns() - t0) / 1000)
        orders = {power: random_orders(position, power, rng) for power in STANDARD.powers}
        t0 = time.thread_time_ns()
        result = adjudicate(position, orders)
        t1 = time.thread_time_ns()
        if position.phase.is_movement:
            movement.append((t1 - t0) / 1000)
        position = result.position


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    for seed in range(10):  # warm both sides' caches
        our_game(10_000 + seed, [], [])
    mila_game(10_000, [], [])
    gc.collect()
    gc.freeze()
    mila_move: list[float] = []
    mila_list: list[float] = []
    our_move: list[float] = []
    our_list: list[float] = []
    for seed in range(games):
        mila_game(seed, mila_move, mila_list)
        our_game(seed, our_move, our_list)
    mm, om = statistics.median(mila_move), statistics.median(our_move)
    ml, ol = statistics.median(mila_list), statistics.median(our_list)
    print(f"movement phases: {len(our_move)} ours, {len(mila_move)} MILA")
    print(f"us per movement phase (median cpu): MILA {mm:.0f}, ours {om:.0f}: {mm / om:.1f}x")
    print(
        f"us to list every power's legal orders (median cpu): MILA {ml:.0f}, ours {ol:.0f} "
        f"(7 possible_orders calls, {ol / 7:.0f} each): {ml / ol:.1f}x"
    )


if __name__ == "__main__":
    main()
