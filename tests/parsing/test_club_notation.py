"""Issue 13, points 1-3: every notation in every game, the club's short forms, seed 002's rules.

A club game mixes Italian, French and English writers: each game reads all three notations
wherever they are unambiguous, codes the languages disagree on in the game's language (and
says so), and under the ``italian`` rule set applies seed 002's two reading rules.
"""

from __future__ import annotations

import re

import pytest

from judge.parsing import ParseError, parse_order, parse_orders

# the lines of issue 13 refused in an Italian game, with what they mean
FOREIGN_IN_ITALIAN = [
    ("A PAR - BOU", "A PAR - BUR"),
    ("+ F TOU", "F MAR B"),
    ("Build A Mun", "A MUN B"),
    ("A Ber Hold", "A BER H"),
    ("A Vie Supports A Bud - Tri", "A VIE S A BUD - TRI"),
    ("Remove A Mun", "A MUN D"),
    ("A Lon - Bel via convoy", "A LON - BEL VIA"),
    ("F POR - ESP CN", "F POR - SPA/NC"),
    ("A TOU S A PAR - BOU", "A MAR S A PAR - BUR"),
]

ITALIAN_IN_OTHERS = [
    ("A Ven XXX", "A VEN H"),
    ("A Bud APP A Vie - Tri", "A BUD S A VIE - TRI"),
    ("F MAN TR A Lon - Pic", "F ENG C A LON - PIC"),
    ("A Boe - Sle", "A BOH - SIL"),
    ("F MDN TRA A Edi - Nor", "F NTH C A EDI - NWY"),
    ("A Ucr APP F Seb XXX", "A UKR S F SEV"),
]


@pytest.mark.parametrize(("text", "canonical"), FOREIGN_IN_ITALIAN)
def test_french_and_english_orders_read_in_an_italian_game(text: str, canonical: str) -> None:
    assert parse_order(text, "it").canonical == canonical


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("text", "canonical"), ITALIAN_IN_OTHERS)
def test_italian_orders_read_in_english_and_french_games(
    lang: str, text: str, canonical: str
) -> None:
    assert parse_order(text, lang).canonical == canonical


@pytest.mark.parametrize(
    ("lang", "text", "canonical", "note"),
    [
        ("it", "F Liv - Bal", "F LVN - BAL",
         "LIV interpretato come Livonia, secondo la notazione della partita "
         "(nella notazione francese: Liverpool)"),
        ("it", "A Mon - Boe", "A MUN - BOH",
         "MON interpretato come Monaco, secondo la notazione della partita "
         "(nella notazione francese: Albania)"),
        ("fr", "A MAR - TUN", "A NAF - TUN",
         "MAR lu comme Afrique du Nord, selon la notation de la partie "
         "(en notation anglaise: Marseille; en notation italienne: Marseille)"),
        ("fr", "F Liv - Iri", "F LVP - IRI",
         "LIV lu comme Liverpool, selon la notation de la partie "
         "(en notation italienne: Livonie)"),
    ],
)
def test_a_code_the_languages_disagree_on_is_read_in_the_games_language_and_said(
    lang: str, text: str, canonical: str, note: str
) -> None:
    item = parse_order(text, lang)
    assert item.canonical == canonical
    assert item.note_messages == [note]


def test_a_standard_code_read_as_itself_needs_no_remark() -> None:
    for lang in ("en", "it"):
        item = parse_order("A Mar - Pie", lang)
        assert (item.canonical, item.note_messages) == ("A MAR - PIE", [])


def test_a_code_only_foreign_languages_have_and_disagree_on_is_refused() -> None:
    item = parse_order("A Liv - Edi", "en")
    assert item.error is ParseError.AmbiguousProvince
    assert item.message == (
        '"LIV" means Liverpool in French notation or Livonia in Italian notation: '
        "write the standard code (LVN or LVP)"
    )


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("A Mon - Boe", "A MUN - BOH"),  # Monaco, not Mar Nero / Manica / Ionio
        ("A Vene - Trie", "A VEN - TRI"),  # 4-letter forms
        ("A Boem - Vien", "A BOH - VIE"),
        ("A Mosc - Sebas", "A MOS - SEV"),
        ("F Nap - Tirr", "F NAP - TYS"),
        ("A Bohème - Mün", "A BOH - MUN"),  # accents, written or not
        ("La flotta di Napoli va nel Mar Ionio", "F NAP - ION"),  # articles
        ("l'armata di Venezia va in Tirolo", "A VEN - TYR"),
        ("F l'Egeo - Mar Ionio", "F AEG - ION"),
        ("A Rom - Pug", "A ROM - APU"),
        ("F WMD TR A Spa - Rom", "F WES C A SPA - ROM"),  # seed 002's glossary
        ("F MTI TR A Spa - Roma", "F TYS C A SPA - ROM"),
        ("F Cos - EGE", "F CON - AEG"),
        ("A Smi - Cos", "A SMY - CON"),
        ("F Dan - MDN", "F DEN - NTH"),
        ("A Gal - Var", "A GAL - WAR"),
    ],
)
def test_italian_short_forms(text: str, canonical: str) -> None:
    assert parse_order(text, "it").canonical == canonical


@pytest.mark.parametrize(
    ("lang", "word", "first"),
    [("it", "veneiza", "Ven (Venezia)"), ("it", "bulgaira", "Bul (Bulgaria)"),
     ("fr", "rumenai", "ROU (Roumanie)"), ("en", "bulgaira", "Bul (Bulgaria)")],
)
def test_suggestions_rank_the_obvious_province_first(lang: str, word: str, first: str) -> None:
    item = parse_order(f"A Ser - {word}", lang)
    assert item.error is ParseError.UnknownProvince
    assert item.message is not None
    choices = re.findall(r"\w+ \([^)]+\)", item.message)
    assert choices[0] == first, item.message


@pytest.mark.parametrize(("text", "province"), [("F MNE - Bul", "Bulgaria"),
                                                ("F Bot - StP", "San Pietroburgo"),
                                                ("F Mid - Spa", "Spagna")])
def test_italian_rules_a_fleet_move_without_its_coast_holds(text: str, province: str) -> None:
    item = parse_order(text, "it", rules="italian")
    assert item.order is not None and str(item.order).endswith(" H")
    assert item.note_messages == [
        f"l'ordine non specifica la costa di {province}: secondo il regolamento la flotta sta ferma"
    ]


def test_rulebook_fills_in_the_only_reachable_coast_as_before() -> None:
    for rules in ("rulebook", None):
        assert parse_order("F MNE - Bul", "it", rules=rules).canonical == "F BLA - BUL/EC"
        assert parse_order("F Bot - StP", "en", rules=rules).canonical == "F BOT - STP/SC"
    assert parse_order("F MNE - Bul(ec)", "it", rules="italian").canonical == "F BLA - BUL/EC"


def test_italian_rules_a_support_must_say_hold_or_move() -> None:
    item = parse_order("A Ven APP A Tri", "it", rules="italian")
    assert item.error is ParseError.SupportAmbiguous
    assert item.message == (
        "l'appoggio deve sempre specificare se l'unità appoggiata sia ferma o in movimento "
        "(regolamento): scrivere XXX dopo l'unità in Trieste, oppure dove si muove"
    )
    english = parse_order("A Ven S A Tri", "en", rules="italian")
    assert english.error is ParseError.SupportAmbiguous
    assert parse_order("A Ven APP A Tri XXX", "it", rules="italian").canonical == "A VEN S A TRI"
    # the same mail saying the unit holds settles it, as before
    report = parse_orders(["A Ven APP A Tri", "A Tri XXX"], "it", rules="italian")
    assert [i.canonical for i in report.items] == ["A VEN S A TRI", "A TRI H"]


def test_other_rules_read_a_bare_support_as_a_hold_support() -> None:
    assert parse_order("A Ven APP A Tri", "it", rules="rulebook").canonical == "A VEN S A TRI"
    assert parse_order("A Ven S A Tri", "en", rules="french").canonical == "A VEN S A TRI"
