"""A game's options as one typed value (issue 28 point 1): every default comes from the option
registry, whether CREATE stored it or the game has none."""

from __future__ import annotations

import dataclasses

from judge.adjudicator.adjustments import BuildRule, RemovalDistance
from judge.rules.chosen_options import ChosenOptions
from judge.rules.option_registry import GAME_COLUMNS, OPTIONS, OptionType, default_options
from judge.rules.options import RuleSet

# registry options that are not one attribute: LATEDAYS is stored as two keys, PLAYERS is a
# way of choosing the variant (a game column, as LANGUAGE and VARIANT are)
NOT_ONE_ATTRIBUTE = {"late_days", "players"} | GAME_COLUMNS


def _plain(value: object) -> object:
    """Mappings and tuples as the stored JSON shapes, to compare with the registry's values."""
    if isinstance(value, RuleSet | RemovalDistance | BuildRule):
        return value.value
    if hasattr(value, "items"):
        return dict(value.items())  # type: ignore[attr-defined]
    if isinstance(value, tuple):
        return list(value)
    return value


def test_every_option_is_an_attribute_and_every_attribute_an_option() -> None:
    fields = {f.name for f in dataclasses.fields(ChosenOptions)}
    keys = {spec.key for spec in OPTIONS if spec.key not in NOT_ONE_ATTRIBUTE}
    # the two keys LATEDAYS stores, and the variant's solo count stored with VARIANT
    assert fields == keys | {"late_bonus_days", "late_max_per_turn", "victory"}


def test_a_game_without_options_reads_the_registry_defaults() -> None:
    nothing = ChosenOptions.read({})
    for spec in OPTIONS:
        if spec.key in NOT_ONE_ATTRIBUTE or spec.key == "end":
            continue
        assert _plain(getattr(nothing, spec.key)) == spec.default, spec.key
    late = next(s for s in OPTIONS if s.type is OptionType.LATE_DAYS).default
    assert (nothing.late_bonus_days, nothing.late_max_per_turn) == (
        late["late_bonus_days"], late["late_max_per_turn"])
    assert nothing.solo_centres == 18  # ENDING's default count
    # what CREATE stores reads the same as nothing stored at all (ENDING's count stored or not)
    created = ChosenOptions.read(default_options())
    assert created == dataclasses.replace(nothing, end=created.end)
    assert created.solo_centres == nothing.solo_centres


def test_stored_values_win_and_are_typed() -> None:
    chosen = ChosenOptions.read({
        "press": "grey", "rules": "french", "removal_distance": "owned", "builds": "any",
        "late_bonus_days": 4, "replacement_wait_hours": 24, "deadlines_hours": {"M": 48},
        "days_off": ["sun"], "end": {"after": "F1907M"}, "victory": 12,
        "bots": {"power": "FRANCE"}, "min_reliability": 80, "timezone": "Europe/Paris",
    })
    assert chosen.press == "grey" and chosen.rules is RuleSet.FRENCH
    assert chosen.removal_distance is RemovalDistance.OWNED and chosen.builds is BuildRule.ANY
    assert chosen.late_bonus_days == 4 and chosen.late_max_per_turn == 3
    assert chosen.replacement_wait_hours == 24 and chosen.replacement_grace_hours == 168
    # DEADLINES M=48 changes the movement hours and keeps the others
    assert dict(chosen.deadlines_hours) == {"M": 48, "R": 24, "A": 24}
    assert chosen.solo_centres == 12  # no ENDING count: the variant's
    assert chosen.bots == {"power": "FRANCE"} and chosen.min_reliability == 80
    rule = chosen.deadline_rule()
    assert rule.zone.key == "Europe/Paris" and rule.weekdays_off == frozenset({6})
    assert rule.hours["M"] == 48
