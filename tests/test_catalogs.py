"""The message catalogs are complete: every sentence of the code is in judge/locale/judge.pot, and
Italian and French translate every one of them, every plural form, with the same placeholders.

The extraction is run here (Babel's own extractor, with babel.cfg and the keywords of
scripts/catalogs.sh), so a message added to a template or marked in the code without
`scripts/catalogs.sh` and a translation fails this test, as does a translation left fuzzy.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from judge.i18n import LANGUAGES, placeholders, tr, translations, trn

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "judge" / "locale"
# the keywords of scripts/catalogs.sh: tr(lang, msg), trn(lang, s, p, n), trp(lang, ctx, msg)
KEYWORDS = {**DEFAULT_KEYWORDS, "tr": (2,), "trn": (2, 3), "trp": ((2, "c"), 3), "N_": None,
            "NC_": ((1, "c"), 2)}
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]

Key = tuple[str | None, str]


def _key(message_id: str | tuple[str, ...], context: str | None) -> Key:
    return (context, message_id[0] if isinstance(message_id, tuple) else message_id)


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _method_map() -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    """babel.cfg read the way pybabel reads it."""
    from babel.messages.frontend import parse_mapping_cfg

    with (ROOT / "babel.cfg").open(encoding="utf-8") as cfg:
        return parse_mapping_cfg(cfg)


@pytest.fixture(scope="module")
def extracted() -> dict[Key, str | tuple[str, ...]]:
    method_map, options_map = _method_map()
    found: dict[Key, str | tuple[str, ...]] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True):
        found[_key(message, context)] = message
    return found


def test_the_template_catalog_matches_the_code(extracted: dict[Key, object]) -> None:
    pot = {_key(m.id, m.context) for m in _read(LOCALE / "judge.pot") if m.id}
    assert sorted(set(extracted) - pot, key=str) == [], "run scripts/catalogs.sh: new messages"
    assert sorted(pot - set(extracted), key=str) == [], "run scripts/catalogs.sh: stale messages"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_catalog_holds_exactly_the_template_messages(lang: str) -> None:
    pot = {_key(m.id, m.context) for m in _read(LOCALE / "judge.pot") if m.id}
    po = {_key(m.id, m.context) for m in _read(LOCALE / lang / "LC_MESSAGES" / "judge.po")
          if m.id}
    assert sorted(pot - po, key=str) == [], f"{lang}: messages missing from the catalog"
    assert sorted(po - pot, key=str) == [], f"{lang}: obsolete messages in the catalog"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    catalog = _read(LOCALE / lang / "LC_MESSAGES" / "judge.po", locale=lang)
    problems: list[str] = []
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy:
            problems.append(f"fuzzy: {ids[0]!r}")
        if isinstance(m.id, tuple) and len(strings) != catalog.num_plurals:
            problems.append(f"{len(strings)} plural forms, {catalog.num_plurals} wanted: {ids[0]!r}")
        if not all(s.strip() for s in strings):
            problems.append(f"untranslated: {ids[0]!r}")
            continue
        wanted = set().union(*(placeholders(i) for i in ids))
        for s in strings:
            if placeholders(s) - wanted:
                problems.append(f"unknown placeholder in {s!r}")
            if not isinstance(m.id, tuple) and placeholders(s) != wanted:
                problems.append(f"placeholders of {ids[0]!r} differ in {s!r}")
    problems += [f"{m.id!r}: {e}" for m, errors in catalog.check() for e in errors]
    assert problems == []


def test_plurals_follow_each_language() -> None:
    one, many = "%(num)d late day taken: the deadline is now %(deadline)s.", \
        "%(num)d late days taken: the deadline is now %(deadline)s."
    said = {lang: [trn(lang, one, many, n, deadline="D") for n in (0, 1, 2)] for lang in LANGUAGES}
    assert said["en"] == ["0 late days taken: the deadline is now D.",
                          "1 late day taken: the deadline is now D.",
                          "2 late days taken: the deadline is now D."]
    assert said["it"][1].startswith("Preso 1 giorno ") and said["it"][2].startswith("Presi 2 giorni ")
    # French counts zero as singular
    assert said["fr"][0].startswith("0 jour de retard pris") and "2 jours" in said["fr"][2]


def test_a_missing_translation_falls_back_to_english_only_there() -> None:
    assert tr("it", "Address confirmed.") == "Indirizzo confermato."
    assert tr("en", "Address confirmed.") == "Address confirmed."
    assert translations("xx") is translations("en")


# seed 002 calls the game master "l'arbitro" (the club's French, "l'arbitre"); the server that
# reads the mail is "il judge" / "le juge". A player must not read that the GM holds his orders
# when the judge does, so the two words follow the English ones: GM -> arbitro, judge -> judge.
GM_WORD = {"it": "arbitr", "fr": "arbitre"}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_gm_word_translates_gm_only(lang: str) -> None:
    catalog = _read(LOCALE / lang / "LC_MESSAGES" / "judge.po", locale=lang)
    wrong = []
    for m in catalog:
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        says_gm = any("GM" in i or "game master" in i.lower() for i in ids)
        if any(GM_WORD[lang] in s.lower() for s in strings) and not says_gm:
            wrong.append(ids[0])
    assert wrong == []


def test_the_reminder_says_the_judge_waits_for_the_players_orders() -> None:
    msg = ("Game %(game)s, %(title)s: the judge has no valid orders from you\n"
           "(%(units)s) yet. Orders are due %(deadline)s.")
    it = tr("it", msg, game="g", title="t", units="Germania", deadline="d")
    fr = tr("fr", msg, game="g", title="t", units="Allemagne", deadline="d")
    assert "il judge non ha ancora ricevuto tuoi ordini validi\n(Germania)" in it
    assert "le juge n'a pas encore reçu d'ordres valides de votre part\n(Allemagne)" in fr
