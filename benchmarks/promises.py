"""Do the computer powers keep their word? Seeded solo games counted deal by deal (issue 29.2).

Each game is a solo game as a player meets it: six computer powers with characters dealt by
``personality.assign`` and their Council (proposals each Spring, answers, the ledger), and one
scripted player, the subject power, who plays the plain baseline's orders, accepts every
proposal addressed to him and, every movement phase, proposes peace to each computer power it
has no pact with, before the computer powers order (as the service has them order again when
they accept a deal). ``--all-computer`` plays seven computer powers instead.

Counted per character of the power concerned, over every movement phase to the end of
``--last-year``: deals made (accepted that phase), deals broken the same turn they were made,
deals broken later, and how many of the breaks were against the player. Target: zero deals
broken the same turn by a character that is not treacherous.

    python benchmarks/promises.py [--games 20] [--seed 1] [--last-year 1910] [--all-computer]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.catalog import variant
from judge.adjudicator.orders import Order
from judge.bots.council import Council
from judge.bots.diplomat import partners
from judge.bots.engine import bot_orders
from judge.bots.ledger import Status, judge_phase
from judge.bots.personality import PERSONALITIES, assign
from judge.bots.proposals import Kind, Proposal, ProposalAnswer

STANDARD = variant("standard")


def play(seed: int, last_year: int, player: str | None) -> dict[str, Counter[str]]:
    """One game; per character: made, same_turn, later, against_player."""
    rng = random.Random(seed)
    machines = [p for p in STANDARD.powers if p != player]
    council = Council(assign(machines, rng))
    out: dict[str, Counter[str]] = {name: Counter() for name in PERSONALITIES}
    position = STANDARD.initial_position()
    while position.phase.year <= last_year:
        phase = str(position.phase)
        if position.phase.is_movement:
            council.bot_initiatives(position, rng, STANDARD)
            if player is not None and position.units_of(player):
                for agreement in council.agreements:
                    if (agreement.status is Status.PROPOSED
                            and agreement.proposal.partner == player):
                        council.respond(player, ProposalAnswer(True, agreement.number), phase,
                                        position)
                bound = partners(player, council.agreements)
                for other in machines:
                    if other not in bound and position.units_of(other):
                        council.propose(Proposal(Kind.PEACE, player, other), phase)
                council.answer_pending(position, STANDARD)
            for agreement in council.agreements:
                if agreement.status is Status.ACTIVE and agreement.since == phase:
                    for power in agreement.proposal.parties:
                        if power in council.characters:
                            out[council.characters[power]]["made"] += 1
        orders: dict[str, list[Order]] = dict(council.orders(position, rng, STANDARD))
        if player is not None:
            orders[player] = bot_orders(position, player, rng, None, STANDARD, plain=True)
        for verdict in judge_phase(position, orders, council.agreements):
            breaker = verdict.breaker
            if verdict.kept or breaker not in council.characters:
                continue
            agreement = next(a for a in council.agreements if a.number == verdict.number)
            name = council.characters[breaker]
            out[name]["same_turn" if agreement.since == phase else "later"] += 1
            if player in agreement.proposal.parties:
                out[name]["against_player"] += 1
        before = position
        position = adjudicate(position, orders, variant=STANDARD).position
        council.after_phase(before, orders, position)
        if position.phase.kind.value != "R" and any(
            len(position.centers_of(p)) >= STANDARD.victory for p in STANDARD.powers
        ):
            break
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per player power")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--last-year", type=int, default=1910)
    parser.add_argument("--all-computer", action="store_true")
    args = parser.parse_args()
    wall = time.perf_counter()
    totals: dict[str, Counter[str]] = {name: Counter() for name in PERSONALITIES}
    subjects: list[str | None] = [None] if args.all_computer else list(STANDARD.powers)
    games = 0
    for k, subject in enumerate(subjects):
        for i in range(args.games):
            result = play(args.seed * 100003 + i * 7919 + k * 104729, args.last_year, subject)
            games += 1
            for name, counts in result.items():
                totals[name].update(counts)
    kind = "seven computer powers" if args.all_computer else "one scripted player, six computer"
    print(f"{games} games ({kind}), seed {args.seed}, to the end of {args.last_year}")
    print(f"{'character':<12} {'treach.':>7} {'made':>6} {'same turn':>10} {'rate':>6} "
          f"{'later':>6} {'vs player':>9}")
    for name, counts in sorted(totals.items()):
        made = counts["made"]
        rate = counts["same_turn"] / made if made else 0.0
        print(f"{name:<12} {PERSONALITIES[name].treachery:>7.2f} {made:>6} "
              f"{counts['same_turn']:>10} {rate:>6.1%} {counts['later']:>6} "
              f"{counts['against_player']:>9}")
    print(f"wall time {time.perf_counter() - wall:.0f} s")


if __name__ == "__main__":
    main()
