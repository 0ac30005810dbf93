"""When a computer power votes a draw (issue 29): a stalled game that nobody can win."""

from __future__ import annotations

from judge.bots.draws import gains, stalled, still_years, wants_draw

VICTORY = 18


def _owners(counts: dict[str, int]) -> dict[str, str]:
    """Centre names made up per power: only who owns how many matters to the decision."""
    out: dict[str, str] = {}
    for power, n in counts.items():
        for i in range(n):
            out[f"{power[:3]}{i}"] = power
    return out


FROZEN = {"ENGLAND": 8, "FRANCE": 9, "RUSSIA": 8, "TURKEY": 9}


def test_no_centre_changed_hands_for_three_years_and_nobody_near_victory() -> None:
    history = [_owners({"ENGLAND": 7, "FRANCE": 10, "RUSSIA": 8, "TURKEY": 9})]
    history += [_owners(FROZEN)] * 4  # the same owners at the end of four years
    assert still_years(history) == 3
    assert stalled(history)
    assert all(wants_draw(history, p, VICTORY) for p in FROZEN)


def test_too_early_to_call_a_stall() -> None:
    history = [_owners(FROZEN)] * 3  # two years without change
    assert not stalled(history)
    assert not any(wants_draw(history, p, VICTORY) for p in FROZEN)


def test_a_power_growing_towards_victory_keeps_playing_and_so_does_everyone() -> None:
    # Turkey gains two a year and would reach 18 within the horizon: no one votes
    history = [_owners({"TURKEY": 8 + 2 * y, "RUSSIA": 10 - y, "ENGLAND": 9 - y})
               for y in range(5)]
    assert gains(history)["TURKEY"] == 8
    assert not stalled(history)
    assert not any(wants_draw(history, p, VICTORY) for p in ("TURKEY", "RUSSIA", "ENGLAND"))


def test_centres_going_back_and_forth_are_no_progress() -> None:
    # Belgium changes hands every year between two powers: never still, yet nobody advances
    a = _owners(FROZEN) | {"BEL": "FRANCE"}
    b = _owners(FROZEN) | {"BEL": "ENGLAND"}
    history = [a, b, a, b, a, b]
    assert still_years(history) == 0
    assert max(gains(history).values()) <= 1
    assert stalled(history)
    assert wants_draw(history, "ENGLAND", VICTORY)


def test_a_leader_one_step_from_victory_does_not_draw_while_it_can_win() -> None:
    # seventeen centres, and it took one lately: at that pace it still wins within the horizon
    history = [_owners({"GERMANY": 16, "ITALY": 10, "RUSSIA": 8})] * 3
    history += [_owners({"GERMANY": 17, "ITALY": 9, "RUSSIA": 8})] * 3
    assert stalled(history)  # still for three years...
    assert not wants_draw(history, "ITALY", VICTORY)  # ...but Germany's pace reaches 18


def test_a_power_that_just_gained_does_not_vote() -> None:
    # stalled for three years, but Austria took two centres just before: it keeps trying
    start = {"AUSTRIA": 5, "ITALY": 9, "TURKEY": 10}
    history = [_owners(start)] * 2
    history += [_owners({"AUSTRIA": 7, "ITALY": 7, "TURKEY": 10})] * 4
    assert stalled(history)
    assert not wants_draw(history, "AUSTRIA", VICTORY)
    assert wants_draw(history, "ITALY", VICTORY) and wants_draw(history, "TURKEY", VICTORY)


def test_the_victory_count_is_the_variant_s() -> None:
    # a small map won at 7: a power holding 6 and growing is a threat there, not on 18
    history = [_owners({"ROME": 4, "CARTHAGE": 5})] * 2
    history += [_owners({"ROME": 6, "CARTHAGE": 3})] * 4
    assert wants_draw(history, "CARTHAGE", VICTORY)
    assert not wants_draw(history, "CARTHAGE", 7)
