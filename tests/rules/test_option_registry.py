"""The option registry is the one place for game options: the parser, the storage defaults,
LIST/SUMMARY and HELP all read it, and an option declared there works in three languages."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from judge.adjudicator.adjustments import RemovalDistance
from judge.adjudicator.catalog import variant
from judge.adjudicator.jsonio import position_from_json
from judge.parsing.command_table import option_rows
from judge.parsing.commands import parse_mail
from judge.rules.due import decide
from judge.rules.option_registry import (
    OPTIONS,
    OptionType,
    default_options,
    locked_after_start,
    option,
    shown_options,
)
from judge.rules.options import GameOptions, RuleSet
from judge.rules.snapshot import GameSnapshot, SeatState
from judge.storage.models import default_game_options

LANGS = ("en", "it", "fr")


def test_every_option_has_words_and_values_in_three_languages() -> None:
    for spec in OPTIONS:
        for lang in LANGS:
            assert spec.words[lang], (spec.key, lang)
            assert spec.values[lang], (spec.key, lang)
        if spec.type is OptionType.CHOICE:
            assert spec.choices and all(spec.choices.values()), spec.key


@pytest.mark.parametrize("lang", LANGS)
def test_every_keyword_of_every_language_reaches_its_option(lang: str) -> None:
    create = {"en": "CREATE", "it": "CREA", "fr": "CREER"}[lang]
    for spec in OPTIONS:
        for word in spec.words[lang]:
            items = parse_mail([f"{create} g pw", f"{word} x"]).items
            assert getattr(items[1], "verb", None) is not None, (spec.key, word)
            # the line is read as this option (a bad value is still this option's complaint)
            parsed = parse_mail([f"{create} g pw", _line(spec.key, word)]).items[1]
            assert getattr(parsed, "option", spec.key) == spec.key, (spec.key, word, parsed)


def _line(key: str, word: str) -> str:
    spec = option(key)
    sample = {OptionType.FLAG: "", OptionType.TEXT: "Europe/Rome", OptionType.NAME: "pure",
              OptionType.NUMBER: str(spec.low), OptionType.LATE_DAYS: "5 2",
              OptionType.DEADLINES: "M=48", OptionType.ENDING: "18",
              OptionType.COMPUTER: "FRANCE", OptionType.CLOCK: "21:00",
              OptionType.DAYS_OFF: "sun", OptionType.HOURS_LIST: "24 2",
              OptionType.LIMITS: "48 96", OptionType.ABSENCES: "7 14"}
    if spec.type is OptionType.CHOICE:
        return f"{word} {next(iter(spec.choices.values()))[0]}"
    return f"{word} {sample[spec.type]}".strip()


def test_choice_words_give_the_canonical_value() -> None:
    items = parse_mail(["CREA g pw", "RIMOZIONI posseduti", "REGOLE regolamento",
                        "GIOCATORI 3"]).items
    assert [(i.option, i.setting) for i in items[1:]] == [
        ("removal_distance", "owned"), ("rules", "rulebook"), ("players", 3)]


def test_the_computer_options() -> None:
    """BOTS takes nothing, yes/no or a power in any language; COMPUTER SEATS is off unless
    set (the Sommossa stays the default of the italian rules)."""
    items = parse_mail(["CREA g pw", "AUTOMI", "ROBOTS non", "BOTS Francia", "BOTS Atlantide",
                        "POSTI COMPUTER si"]).items
    assert [(getattr(i, "option", None), getattr(i, "setting", None)) for i in items[1:]] == [
        ("bots", {"power": None}), ("bots", False), ("bots", {"power": "FRANCE"}),
        (None, None), ("computer_seats", True)]
    assert default_game_options()["computer_seats"] is False
    assert "bots" in locked_after_start()


def test_storage_defaults_are_the_registry_defaults() -> None:
    stored = default_game_options()
    assert {k: v for k, v in stored.items() if k != "restrict_press"} == default_options()
    assert stored["removal_distance"] == "home" and stored["late_bonus_days"] == 10


def test_help_rows_and_locks_come_from_the_registry() -> None:
    assert [r.key for r in option_rows("it")] == [o.key for o in OPTIONS]
    assert {"assignment", "blind", "variant", "players"} <= locked_after_start()
    assert "gm_reads_press" not in {o.key for o in shown_options(RuleSet.ITALIAN)}


def test_removal_distance_reaches_the_house_rules_of_a_game() -> None:
    """DATC 3.0 6.J.3 (2023 rulebook): Russia has A LVN and A PRU and owns only St
    Petersburg; counted to the owned centres Prussia is farther (two against one) and goes;
    counted to the home centres both are one away and Livonia goes first by code. The game
    option decides, through ``decide`` (the service's one entry point)."""
    request = {"phase": "W1901A", "units": {"RUSSIA": ["A LVN", "A PRU"]},
               "centers": {"RUSSIA": ["STP"], "GERMANY": ["MOS", "WAR"], "TURKEY": ["SEV"]}}
    position = position_from_json(request)
    removed = {}
    for distance in RemovalDistance:
        snapshot = GameSnapshot(
            position=position, deadline=datetime(2026, 1, 1, tzinfo=UTC),
            now=datetime(2026, 1, 2, tzinfo=UTC),
            seats={"RUSSIA": SeatState("RUSSIA")},
            options=GameOptions(rules=RuleSet.RULEBOOK, removal_distance=distance),
            variant=variant("standard"))
        made = decide(snapshot).generated.get("RUSSIA", ())
        removed[distance] = [str(g.order) for g in made]
    assert removed == {RemovalDistance.OWNED: ["A PRU D"], RemovalDistance.HOME: ["A LVN D"]}


def test_each_option_sets_through_its_registry_entry() -> None:
    """Issue 12 point 5: the service has no branch per option; the entry's setter says what a
    value stores (game columns or option keys) or refuses it."""
    from judge.rules.option_registry import GAME_COLUMNS, OptionContext, OptionRefused

    forming = OptionContext(default_options(), variant("standard"), forming=True)
    started = OptionContext(default_options(), variant("standard"), forming=False)
    assert option("press").set("grey", forming) == {"press": "grey"}
    assert option("language").set("it", forming) == {"language": "it"}
    assert option("deadlines_hours").set({"M": 48}, forming) == {
        "deadlines_hours": {"M": 48, "R": 24, "A": 24}}
    assert option("late_days").set({"total": 5}, forming) == {"late_bonus_days": 5}
    three = option("players").set(3, forming)
    assert three == {"variant": "standard-3", "victory": variant("standard-3").victory,
                     "end": {"centres": variant("standard-3").victory}}
    assert {"language", "variant"} == GAME_COLUMNS
    for key, value, ctx in [("timezone", "Mars/Olympus", forming), ("variant", "nowhere", forming),
                            ("variant", "pure", started), ("end", {"centres": 35}, forming),
                            ("bots", {"power": "ATLANTIS"}, forming), ("bots", False, started)]:
        with pytest.raises(OptionRefused):
            option(key).set(value, ctx)
    four = OptionContext(default_options(), variant("standard-4"), forming=True)
    with pytest.raises(OptionRefused):
        option("bots").set({"power": None}, four)  # seats of several powers: no computer game
