"""The service's entry point: what is due, and why."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from judge.adjudicator.orders import parse_canonical
from judge.adjudicator.phase import Phase
from judge.rules.decision import Action, SeatChangeWhy, Why
from judge.rules.due import decide, may_take_over, with_orders
from judge.rules.generated import GeneratedWhy
from judge.rules.options import EndConditions, GameOptions, RuleSet
from judge.rules.snapshot import GameSnapshot, ReplacementSearch, SeatState, SeatStatus
from tests.rules.helpers import position
from tests.standard_variant import STANDARD

DEADLINE = datetime(2026, 3, 2, 20, 0, tzinfo=UTC)
BEFORE = DEADLINE - timedelta(hours=3)
AFTER = DEADLINE + timedelta(minutes=1)


def _snapshot(now: datetime = AFTER, **changes) -> GameSnapshot:
    seats = {p: SeatState(p, has_orders=True) for p in STANDARD.powers}
    orders = {p: () for p in STANDARD.powers}
    snap = GameSnapshot(STANDARD.initial_position(), DEADLINE, now, seats, orders)
    return replace(snap, **changes)


def _seat(snap: GameSnapshot, power: str, **changes) -> GameSnapshot:
    seats = dict(snap.seats)
    seats[power] = replace(snap.seat(power), **changes)
    return replace(snap, seats=seats)


def _texts(decision, power: str) -> list[str]:
    return [str(g) for g in decision.generated.get(power, ())]


def test_before_the_deadline_with_orders_missing_nothing_is_due() -> None:
    snap = _seat(_snapshot(BEFORE), "FRANCE", has_orders=False)
    decision = decide(snap)
    assert decision.action is Action.NOTHING and decision.why is Why.BEFORE_DEADLINE
    assert decision.wake_at == DEADLINE


def test_all_orders_in_early_unless_someone_waits() -> None:
    decision = decide(_snapshot(BEFORE))
    assert decision.action is Action.ADJUDICATE and decision.why is Why.ALL_ORDERS_IN
    decision = decide(_seat(_snapshot(BEFORE), "ITALY", wait=True))
    assert decision.action is Action.NOTHING and decision.why is Why.WAITING_FOR_PLAYERS


def test_late_power_with_days_is_charged_and_deadline_moves_a_day() -> None:
    snap = _seat(_seat(_snapshot(), "FRANCE", has_orders=False), "ITALY", has_orders=False,
                 late_days_left=0)
    decision = decide(snap)
    assert decision.action is Action.EXTEND_DEADLINE and decision.why is Why.LATE_DAYS_CHARGED
    assert decision.new_deadline == DEADLINE + timedelta(days=1)
    assert set(decision.seat_updates) == {"FRANCE"}
    assert decision.seat_updates["FRANCE"].late_days_charged == 1


def test_late_powers_all_in_during_an_extension_process_at_once() -> None:
    snap = _snapshot(DEADLINE + timedelta(hours=2), deadline=DEADLINE + timedelta(days=1),
                     extended=True)
    snap = _seat(snap, "ITALY", wait=True)
    decision = decide(snap)
    assert decision.action is Action.ADJUDICATE and decision.why is Why.LATE_POWERS_ALL_IN


def test_first_onp_mutual_support_when_no_days_left() -> None:
    snap = _seat(_snapshot(), "FRANCE", has_orders=False, late_days_used_this_turn=3)
    decision = decide(snap)
    assert decision.action is Action.ADJUDICATE and decision.why is Why.DEADLINE_PASSED
    assert _texts(decision, "FRANCE") == ["F BRE H", "A MAR H", "A PAR S F BRE"]
    assert decision.seat_updates["FRANCE"].why is SeatChangeWhy.FIRST_ONP
    assert decision.seat_updates["FRANCE"].strikes == 1
    assert [str(o) for o in decision.orders["FRANCE"]] == ["F BRE H", "A MAR H", "A PAR S F BRE"]


def test_player_back_after_one_onp_drops_the_others_orders() -> None:
    snap = _seat(_snapshot(), "FRANCE", strikes=1)
    snap = with_orders(snap, "FRANCE", (parse_canonical("A PAR - BUR"),))
    votes = {"GERMANY": [parse_canonical("A PAR - PIC")]}
    decision = decide(replace(snap, foreign_orders={"FRANCE": votes}))
    assert [str(o) for o in decision.orders["FRANCE"]] == ["A PAR - BUR"]
    assert "FRANCE" not in decision.generated
    assert decision.drop_foreign_orders_for == ("FRANCE",)
    assert decision.seat_updates["FRANCE"].strikes == 0


def test_second_onp_majority_then_replacement_search() -> None:
    snap = _seat(_snapshot(), "FRANCE", has_orders=False, strikes=1, late_days_left=0)
    votes = {
        "GERMANY": [parse_canonical("A PAR - PIC")],
        "ENGLAND": [parse_canonical("A PAR - PIC"), parse_canonical("F BRE - MAO")],
        "FRANCE": [parse_canonical("A MAR - SPA")],  # its own "vote" does not count
    }
    decision = decide(replace(snap, foreign_orders={"FRANCE": votes}))
    assert _texts(decision, "FRANCE") == ["F BRE - MAO", "A MAR H", "A PAR - PIC"]
    update = decision.seat_updates["FRANCE"]
    assert update.why is SeatChangeWhy.ABANDONED_AWAIT_REPLACEMENT
    assert update.status is SeatStatus.AWAITING_REPLACEMENT
    assert decision.call_replacement_for == ("FRANCE",)
    assert decision.suspend_until == AFTER + timedelta(weeks=1)


def test_second_onp_with_few_centres_goes_into_sommossa() -> None:
    pos = position(
        "S1903M",
        {"FRANCE": ["A PAR", "F MAO"], "ENGLAND": ["F BRE"]},
        {"FRANCE": ["PAR", "SPA", "POR"], "ENGLAND": ["BRE", "LON"]},
    )
    snap = _seat(_snapshot(position=pos), "FRANCE", has_orders=False, strikes=1, late_days_left=0)
    decision = decide(snap)
    assert _texts(decision, "FRANCE") == ["F MAO H", "A PAR H"]
    assert decision.generated["FRANCE"][0].why is GeneratedWhy.ABANDONED_NO_MAJORITY_HOLD
    assert decision.seat_updates["FRANCE"].status is SeatStatus.SOMMOSSA
    assert decision.call_replacement_for == () and decision.suspend_until is None


def test_suspension_then_replacement_found_or_sommossa() -> None:
    snap = _seat(_snapshot(BEFORE), "FRANCE", status=SeatStatus.AWAITING_REPLACEMENT)
    snap = replace(snap, suspended=True, replacement=ReplacementSearch("FRANCE"))
    decision = decide(snap)
    assert decision.action is Action.NOTHING and decision.why is Why.SUSPENDED_FOR_REPLACEMENT
    found = replace(snap, now=AFTER, replacement=ReplacementSearch("FRANCE", found=True))
    decision = decide(found)
    assert decision.action is Action.EXTEND_DEADLINE and decision.why is Why.REPLACEMENT_FOUND
    assert decision.new_deadline == AFTER + timedelta(weeks=1)
    assert decision.seat_updates["FRANCE"].status is SeatStatus.ACTIVE
    # found before the search ends: decided at once, the search's week kept and one more added
    early = decide(replace(snap, replacement=ReplacementSearch("FRANCE", found=True)))
    assert early.action is Action.EXTEND_DEADLINE and early.why is Why.REPLACEMENT_FOUND
    assert early.new_deadline == DEADLINE + timedelta(weeks=1)
    decision = decide(replace(snap, now=AFTER))
    assert decision.action is Action.DECLARE_SOMMOSSA and decision.why is Why.NO_REPLACEMENT
    assert decision.seat_updates["FRANCE"].status is SeatStatus.SOMMOSSA
    assert decision.new_deadline == AFTER + timedelta(days=2)


def test_sommossa_votes_from_active_players_only_and_no_early_processing() -> None:
    snap = _seat(_snapshot(BEFORE), "TURKEY", status=SeatStatus.SOMMOSSA, has_orders=False)
    assert decide(snap).why is Why.WAITING_FOR_PLAYERS
    snap = _seat(snap, "ITALY", status=SeatStatus.SOMMOSSA)
    votes = {
        "ENGLAND": [parse_canonical("A CON - BUL")],
        "RUSSIA": [parse_canonical("A CON H")],
        "ITALY": [parse_canonical("A CON - BUL")],  # in Sommossa itself: no vote
    }
    decision = decide(replace(snap, now=AFTER, foreign_orders={"TURKEY": votes}))
    assert decision.action is Action.ADJUDICATE
    assert _texts(decision, "TURKEY") == ["F ANK H", "A CON H", "A SMY H"]
    votes["AUSTRIA"] = [parse_canonical("A CON - BUL")]
    decision = decide(replace(snap, now=AFTER, foreign_orders={"TURKEY": votes}))
    assert _texts(decision, "TURKEY") == ["F ANK H", "A CON - BUL", "A SMY H"]


def test_retreat_phase_has_no_late_days() -> None:
    pos = position(
        "F1902R",
        {"GERMANY": ["A MUN"], "FRANCE": ["A BEL", "A PIC"]},
        dislodged={"GERMANY": {"A HOL": ["KIE", "RUH"]}},
    )
    snap = _seat(_snapshot(position=pos), "GERMANY", has_orders=False)
    decision = decide(snap)
    assert decision.action is Action.ADJUDICATE
    assert _texts(decision, "GERMANY") == ["A HOL R KIE"]
    assert decision.seat_updates == {}


@pytest.mark.parametrize("rules", [RuleSet.RULEBOOK, RuleSet.FRENCH])
def test_rulebook_civil_disorder_counts_no_strikes(rules: RuleSet) -> None:
    snap = _seat(_snapshot(), "FRANCE", has_orders=False, late_days_left=0)
    decision = decide(replace(snap, options=GameOptions(rules=rules)))
    assert _texts(decision, "FRANCE") == ["F BRE H", "A MAR H", "A PAR H"]
    assert decision.seat_updates == {}


def test_game_over_comes_first() -> None:
    options = GameOptions(end=EndConditions(end_after=Phase.parse("F1901M")))
    pos = replace(STANDARD.initial_position(), phase=Phase.parse("W1901A"))
    decision = decide(_snapshot(position=pos, options=options))
    assert decision.action is Action.END_GAME
    assert decision.game_end is not None and decision.game_end.winners == ("RUSSIA",)


def test_a_replacement_may_take_over_while_three_and_two_holds() -> None:
    pos = STANDARD.initial_position()
    assert may_take_over(pos, SeatState("FRANCE", status=SeatStatus.SOMMOSSA))
    assert may_take_over(pos, SeatState("FRANCE", status=SeatStatus.AWAITING_REPLACEMENT))
    assert not may_take_over(pos, SeatState("FRANCE", status=SeatStatus.ACTIVE))
    small = position("S1905M", {"FRANCE": ["A PAR"]}, {"FRANCE": ["PAR", "SPA", "POR"]})
    assert not may_take_over(small, SeatState("FRANCE", status=SeatStatus.SOMMOSSA))


def test_sommossa_power_never_builds_and_loses_dislodged_units() -> None:
    pos = position(
        "F1903R",
        {"TURKEY": ["F ANK"], "RUSSIA": ["A CON"]},
        dislodged={"TURKEY": {"A CON": ["SMY"]}},
    )
    snap = _seat(_snapshot(BEFORE, position=pos), "TURKEY", status=SeatStatus.SOMMOSSA,
                 has_orders=False)
    decision = decide(snap)  # nobody else has anything to order: no need to wait
    assert decision.action is Action.ADJUDICATE and decision.why is Why.ALL_ORDERS_IN
    assert _texts(decision, "TURKEY") == ["A CON D"]


def test_balances_for_bulletins() -> None:
    snap = _seat(_snapshot(), "ITALY", late_days_left=4)
    snap = _seat(snap, "TURKEY", status=SeatStatus.ELIMINATED)
    balances = snap.late_balances()
    assert balances["ITALY"] == 4 and balances["FRANCE"] == 10 and "TURKEY" not in balances
