"""Computer powers on Pure (seven powers, one centre and one army each, every province next to
every other): the game must move, not stall with every power at home.

On a complete graph the spread values are flat: every foreign centre is worth the same, so a
tie-break by the provinces' names sent every power at the same capital; and a lone army can
never take a held centre, only a supported attack can, so the computer powers must ask each
other for support (and not make peace with everybody, which leaves nobody to attack).
"""

from __future__ import annotations

import random

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.catalog import variant
from judge.adjudicator.legality import Refusal, normalize
from judge.adjudicator.orders import Move, Order
from judge.bots.council import Council
from judge.bots.diplomat import answer, room_for_pact
from judge.bots.engine import bot_orders
from judge.bots.ledger import Agreement, Status, Trust
from judge.bots.mapview import view_of_variant
from judge.bots.personality import assign, personality
from judge.bots.proposals import Kind, Proposal

PURE = variant("pure")
HUMAN = "FRANCE"  # a player who only holds


def test_flat_values_do_not_send_every_power_to_the_same_capital() -> None:
    position = PURE.initial_position()
    rng = random.Random(3)
    targets = set()
    for power in PURE.powers:
        for order in bot_orders(position, power, rng, "loyal", PURE):
            if isinstance(order, Move):
                targets.add(order.target)
    assert len(targets) >= 3


def test_a_power_keeps_somebody_to_grow_at() -> None:
    position = PURE.initial_position()
    view = view_of_variant(PURE)
    others = [p for p in PURE.powers if p != "ENGLAND"]
    # at peace with all its neighbours but two: one more pact leaves one to attack
    pacts = [
        Agreement(n, Proposal(Kind.PEACE, "ENGLAND", p), "S1901M", Status.ACTIVE)
        for n, p in enumerate(others[:-2], start=1)
    ]
    assert room_for_pact("ENGLAND", others[-2], view, position, pacts)
    pacts.append(Agreement(9, Proposal(Kind.PEACE, "ENGLAND", others[-2]), "S1901M"))
    assert not room_for_pact("ENGLAND", others[-1], view, position, pacts)
    offer = Proposal(Kind.PEACE, others[-1], "ENGLAND")
    loyal = personality("loyal")
    assert answer("ENGLAND", loyal, offer, Trust(), position)
    assert not answer("ENGLAND", loyal, offer, Trust(), position, room=False)


def _play(seed: int, last_year: int) -> tuple[Council, list[dict[str, list[Order]]], object]:
    rng = random.Random(seed)
    council = Council(assign([p for p in PURE.powers if p != HUMAN], rng))
    position = PURE.initial_position()
    played = []
    while position.phase.year <= last_year:
        council.bot_initiatives(position, rng, PURE)
        orders = council.orders(position, rng, PURE)
        for power, given in orders.items():
            for order in given:
                assert not isinstance(normalize(position, power, order, PURE.board), Refusal)
        before = position
        position = adjudicate(position, dict(orders), variant=PURE).position
        council.after_phase(before, orders, position)
        played.append(orders)
    return council, played, position


def test_computer_powers_take_centres_with_each_others_support() -> None:
    """Over twelve seeded games (a single game is a coin: the computer powers now refuse a
    support that contradicts a word already given, issue 29), most see a centre taken by 1904
    (10 of 12 measured, before the change as after), and in every game supports between
    computer powers are given as promised."""
    captured = 0
    for seed in range(12):
        council, played, position = _play(seed, 1904)
        counts = {p: len(position.centers_of(p)) for p in PURE.powers}  # type: ignore[attr-defined]
        captured += max(counts[p] for p in council.characters) >= 2
        assert any(isinstance(o, Move) for orders in played for given in orders.values()
                   for o in given)
        supported = [a for a in council.agreements
                     if a.proposal.kind is Kind.SUPPORT and a.status is Status.KEPT
                     and {a.proposal.proposer, a.proposal.partner} <= set(council.characters)]
        assert supported, seed  # between two computer powers, given as promised
    assert captured >= 8, captured
