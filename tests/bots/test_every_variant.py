"""Computer powers play every installed variant, and a map of powers that are not the standard
seven, with zero illegal orders (issue 26, point 4): they read the variant's graph, its powers,
homes and centres, nothing of the standard board.

Each game is the real computer power: the council's proposals and answers, its orders, the
adjudicator's phases, until one player holds the variant's winning count or a bounded number of
years is played. Every order is checked by the adjudicator's own legality (``normalize``), with
the board of the phase (seed 001's two-player game is closed around neutral Italy until the lot).

``triskel`` (``tests/data/variants/triskel``) is a test map: three powers (Arden, Brant, Corvo),
fifteen provinces with seas, an island and nine centres; its places are named in English and
French only (as an imported map may be), its powers in three languages. It is played
through ``catalog.add_variant_folder``, the way a club plays a map before it is installed, so the
bulletins and the order parser must read it too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.catalog import (
    add_variant_folder,
    remove_variant_folder,
    variant,
    variant_names,
)
from judge.adjudicator.jsonio import position_to_json
from judge.adjudicator.legality import Refusal, normalize
from judge.adjudicator.orders import Move, Order
from judge.adjudicator.outcomes import Options
from judge.adjudicator.position import Position
from judge.adjudicator.variant import Variant
from judge.bots.council import Council
from judge.bots.diplomat import leader
from judge.bots.engine import bot_orders, phase_rules
from judge.bots.personality import assign
from judge.bulletins.render import render
from judge.bulletins.views import GameInfo, TurnRecord, results_view
from judge.parsing import parse_orders
from judge.rules.game_end import seat_victory

STANDARD = variant("standard")
TRISKEL = Path(__file__).resolve().parents[1] / "data" / "variants" / "triskel"
YEARS = 3  # years played on an installed map (the test map is played to its end)
TEST_MAP_YEARS = 30


@pytest.fixture(scope="module")
def triskel() -> Iterator[Variant]:
    name = add_variant_folder(TRISKEL)
    try:
        yield variant(name)
    finally:
        remove_variant_folder(name)


def _lot_winner(v: Variant, rng: random.Random) -> str | None:
    if v.lot is None:
        return None
    return rng.choice([s[0] for s in v.seats])


Played = tuple[Position, list[str], tuple[str, ...] | None, int]


def play(v: Variant, seed: int, years: int) -> Played:
    """Computer powers play ``v`` from its first phase; returns the last position, every order
    the adjudicator's legality refused (there must be none), the winners if any, and how many
    moves the computer powers ordered."""
    rng = random.Random(seed)
    joins = _lot_winner(v, rng)
    position = v.initial_position()
    council = Council(assign(v.active_powers(position.phase), rng))
    lot_power = v.lot.power if v.lot else None
    illegal: list[str] = []
    moves = 0
    last_year = v.first_phase.year + years - 1
    while position.phase.year <= last_year:
        drawn = joins if v.lot_drawn(position.phase) else None
        board, _ = phase_rules(v, position, drawn)
        council.bot_initiatives(position, rng, v)
        orders: dict[str, list[Order]] = council.orders(position, rng, v)
        if lot_power and drawn:  # the lot's power plays for the seat that won it
            orders[lot_power] = bot_orders(position, lot_power, rng, "loyal", v, joins=drawn)
        for power, given in orders.items():
            moves += sum(isinstance(order, Move) for order in given)
            for order in given:
                if isinstance(normalize(position, power, order, board), Refusal):
                    illegal.append(f"{position.phase} {power}: {order}")
        before = position
        position = adjudicate(position, orders, Options(joins=drawn), variant=v).position
        council.after_phase(before, orders, position)
        winners = seat_victory(v, position, joins)
        if winners is not None and position.phase.is_movement:
            return position, illegal, winners, moves
    return position, illegal, None, moves


@pytest.mark.parametrize("name", variant_names())
def test_computer_powers_play_every_installed_variant_with_legal_orders(name: str) -> None:
    v = variant(name)
    position, illegal, _, moves = play(v, seed=1, years=YEARS)
    assert illegal == []
    assert position.phase.year > v.first_phase.year  # the years were played, not stuck
    assert moves >= len(v.active_powers(v.first_phase))  # they attacked, not only held


def test_computer_powers_play_a_map_of_other_powers_to_its_end(triskel: Variant) -> None:
    assert set(triskel.powers).isdisjoint(variant("standard").powers)
    ends = []
    for seed in (0, 1, 2):
        position, illegal, winners, _ = play(triskel, seed, TEST_MAP_YEARS)
        assert illegal == [], seed
        ends.append(winners)
        if winners:
            assert sum(len(position.centers_of(p)) for p in winners) >= triskel.victory
    assert any(ends)  # at least one game reached its end: a power won


def test_the_test_map_is_read_in_its_languages(triskel: Variant) -> None:
    position = triskel.initial_position()
    # orders by name, by code, with a power label, in each language of the map
    report = parse_orders(["Ardenie :", "F Arlène - Détroit Occidental", "A ARB - Fougeraie"], "fr",
                          position=position)
    assert [str(o) for o in report.orders] == ["F ARA - WSE", "A ARB - FRT"]
    # the map has no Italian province names: an Italian writer uses the English ones or codes
    report = parse_orders(["Corvia: A Cobbleton - CTR"], "it", position=position)
    assert [(o.power, str(o.order)) for o in report.items if o.order] == [("CORVO", "A COB - CTR")]
    assert triskel.languages == ("en", "fr")
    assert triskel.power_name("BRANT", "it") == "Branzia"
    assert triskel.power("ARDEN").colour == "#8e3b8e"


def test_a_bulletin_of_the_test_map_names_its_powers_and_places(triskel: Variant) -> None:
    before = triskel.initial_position()
    orders = {"ARDEN": [], "BRANT": [], "CORVO": []}  # every unit holds
    after = adjudicate(before, orders, variant=triskel).position
    record = TurnRecord(
        phase=str(before.phase),
        results={"CORVO": [{"order": "A COB H", "result": "succeeds"}]},
        before=position_to_json(before),
        after=position_to_json(after),
    )
    game = GameInfo("triskel1", "judge@example.org", "it", "Europe/Rome", triskel.name)
    _, body = render("results", "it", results_view(game, record))
    # the powers' Italian names; the places' English ones (the map has no Italian names)
    assert "Corvia" in body and "Branzia" in body and "Cobbleton" in body


def test_the_feared_leader_is_measured_on_the_map_s_own_size(triskel: Variant) -> None:
    # four centres against one: a clear lead on a map of nine centres, not on one of 34
    small = triskel.position("F1902M", {"ARDEN": ["A ARB"], "BRANT": ["A BRB"]},
                             {"ARDEN": ["ARA", "ARB", "MDL", "ISL"], "BRANT": ["BRB"]})
    assert leader(small) == "ARDEN"
    big = STANDARD.position("F1902M", {"FRANCE": ["A PAR"], "ITALY": ["A ROM"]},
                            {"FRANCE": ["PAR", "BRE", "MAR", "SPA"], "ITALY": ["ROM"]})
    assert leader(big) is None
    big = STANDARD.position("F1904M", {"FRANCE": ["A PAR"], "ITALY": ["A ROM"]},
                            {"FRANCE": ["PAR", "BRE", "MAR", "SPA", "POR", "BEL", "HOL", "MUN",
                                        "KIE"], "ITALY": ["ROM"]})
    assert leader(big) == "FRANCE"
