"""The public API the mail layer calls: reports, notes, messages per language, echoes."""

from __future__ import annotations

import json

import pytest

from judge.parsing import LANGS, Note, ParseError, describe, lexicon, parse_order, parse_orders
from tests.standard_variant import STANDARD


def test_later_order_wins_and_both_say_so() -> None:
    report = parse_orders(["A Par - Bur", "A Par - Pic"], "en")
    first, second = report.items
    assert first.replaced and not second.replaced
    assert [str(o) for o in report.orders] == ["A PAR - PIC"]
    assert (Note.REPLACED_BY_LATER, {"unit": "A PAR"}) in first.notes
    assert second.note_messages == ["replaces the earlier order for A PAR"]


def test_reply_lines_one_per_input_line() -> None:
    report = parse_orders("A Par - Bur; A Mar - Spa\n\nA Par - Xyz\n", "en")
    assert report.reply_lines()[0] == "A PAR - BUR; A MAR - SPA"
    assert report.reply_lines()[1] == ""
    assert report.reply_lines()[2].startswith("ERROR: unknown_province: ")
    assert [i.line_no for i in report.items] == [1, 1, 3]


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        ("en", "A Mar - Pie", "A MAR - PIE"),  # Marseilles
        ("it", "A Mar - Pie", "A MAR - PIE"),
        ("fr", "A MAR - TUN", "A NAF - TUN"),  # Maroc & Algérie
        ("en", "A Tyr - Mun", "A TYR - MUN"),  # Tyrolia
        ("fr", "F TYR - NAP", "F TYS - NAP"),  # Mer Tyrrhénienne
        ("it", "A Liv - Mos", "A LVN - MOS"),  # Livonia in seed 002
        ("fr", "A LIV - EDI", "A LVP - EDI"),  # Liverpool in seed 000
        ("fr", "A TOU - PIE", "A MAR - PIE"),  # Toulon is Marseilles
    ],
)
def test_codes_are_read_in_the_game_language(lang: str, text: str, expected: str) -> None:
    assert parse_order(text, lang).canonical == expected


def test_echo_uses_the_language_names() -> None:
    item = parse_order("F TOU S F POR -ESP CN", "fr")
    assert item.canonical == "F MAR S F POR - SPA"
    assert item.understood == "F Marseille S F Portugal - Espagne"
    assert describe(item.order, "it", variant="standard") == "F Marsiglia S F Portogallo - Spagna"


def test_unknown_province_suggests_in_each_language() -> None:
    assert "Bur (Burgundy)" in (parse_order("A Par - Burgandy", "en").message or "")
    assert "BOU (Bourgogne)" in (parse_order("A PAR - Bourgone", "fr").message or "")
    assert "Bor (Borgogna)" in (parse_order("A Par - Borgona", "it").message or "")


@pytest.mark.parametrize("lang", LANGS)
def test_every_reason_and_note_has_a_message(lang: str) -> None:
    # the English text exists for every member; tests/test_catalogs.py checks its translations
    from judge.i18n import translations
    from judge.parsing.message_texts import ERRORS, NOTES

    assert {m.value for m in ParseError} == set(ERRORS)
    assert {n.value for n in Note} == set(NOTES)
    for text in (*ERRORS.values(), *NOTES.values()):
        assert translations(lang).gettext(text) != text or lang == "en"


def test_seed_002_errors_in_italian() -> None:
    item = parse_order("F Fin APP A Sve-Nor", "it")
    assert item.error is ParseError.SUPPORT_WITHOUT_SEA_BORDER
    assert item.message == (
        "una flotta in Finlandia confina con Norvegia solo via terra e non può appoggiare lì"
    )
    item = parse_order("F Tri TRA A Alb-Ven", "it")
    assert item.reply() == (
        "ERROR: convoy_by_coastal_fleet: una flotta in Trieste, settore costiero, non può trasportare"
    )


def test_notes_say_what_was_filled_in() -> None:
    item = parse_order("F Gas - Spa", "en")
    assert item.canonical == "F GAS - SPA/NC"
    assert item.note_messages == ["read as Spain/NC, the only coast the fleet can reach"]
    item = parse_order("Par - Bur", "fr", position=STANDARD.initial_position(), power="FRANCE")
    assert item.canonical == "A PAR - BUR"
    assert item.note_messages == ["lu comme A PAR"]


def test_label_names_the_power_of_an_order() -> None:
    report = parse_orders(["Germania: A Mun - Ruh"], "it", position=STANDARD.initial_position())
    assert report.items[0].power == "GERMANY"
    assert report.items[0].canonical == "A MUN - RUH"
    wrong = parse_orders(["Francia: A Mun - Ruh"], "it", position=STANDARD.initial_position())
    assert wrong.items[0].error is ParseError.NOT_YOUR_UNIT


def test_comment_in_parentheses_is_kept_as_a_note() -> None:
    item = parse_order("A MUN T (est valide)", "fr")
    assert item.canonical == "A MUN H"
    assert item.notes == [(Note.COMMENT_IGNORED, {"text": "est valide"})]


def test_parse_order_of_an_empty_line() -> None:
    assert parse_order("   ", "en").error is ParseError.EMPTY
    assert parse_order("!!", "en").error is ParseError.EMPTY


def test_lexicon_data_is_json_and_complete() -> None:
    for lang in LANGS:
        lex = lexicon(lang, "standard")
        assert lex.match(("xxx",), 0, frozenset({"hold"})) is not None or lang != "it"
        assert len(lex.aliases) > 150
    with pytest.raises(ValueError):
        lexicon("de", "standard")
    assert json.dumps(parse_order("A Par - Bur", "en").canonical) == '"A PAR - BUR"'


def test_a_power_header_names_the_power_of_the_orders_below() -> None:
    lines = ["Germania:", "A Mun - Ruh", "F Kie - Ola", "Francia", "A Par - Bor"]
    report = parse_orders(lines, "it", position=STANDARD.initial_position())
    assert [i.power for i in report.items] == ["GERMANY", "GERMANY", "FRANCE"]
    assert report.reply_lines() == ["", "A MUN - RUH", "F KIE - HOL", "", "A PAR - BUR"]
    wrong = parse_orders(["ENGLAND:", "A Par - Bur"], "en", position=STANDARD.initial_position())
    assert wrong.items[0].error is ParseError.NOT_YOUR_UNIT


def test_orders_grouped_by_labelled_power() -> None:
    report = parse_orders(["A Mun - Ruh", "Francia: A Par - Bor", "A Xyz H"], "it")
    grouped = report.orders_by_power("GERMANY")
    assert {k: [str(o) for o in v] for k, v in grouped.items()} == {
        "GERMANY": ["A MUN - RUH"],
        "FRANCE": ["A PAR - BUR"],
    }
    assert [e.error for e in report.errors] == [ParseError.UNKNOWN_PROVINCE]


def test_a_support_that_does_not_match_the_move_is_kept_with_a_note() -> None:
    report = parse_orders(["A Par - Bur; A Mar S A Par - Gas"], "en")
    support = report.items[1]
    assert support.canonical == "A MAR S A PAR - GAS"
    assert support.note_messages == ["does not match the order given to A PAR (A PAR - BUR)"]


def test_bare_italian_support_settled_by_the_mail() -> None:
    report = parse_orders(["A Bor XXX", "A Mun APP A Bor"], "it")
    assert report.items[1].canonical == "A MUN S A BUR"
    assert report.items[1].note_messages == [
        "interpretato come appoggio all'unità ferma in Borgogna"
    ]
