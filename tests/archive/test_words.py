"""Play-test: the archive showed stored codes ("(onp1)", "(onp)") where readers want words,
and (issue 13 point 9) English words in an Italian or French game."""

from __future__ import annotations

from judge.archive.pages import outcome_words, seat_words, source_words, status_words
from judge.archive.webapp import _templates, page_language


def test_seat_statuses_and_order_sources_read_as_words() -> None:
    assert seat_words("onp1") == "missed orders once (ONP)"
    assert seat_words("vacant") == "no player"
    assert source_words("onp") == "no orders: hold and mutual support"
    assert source_words("something_new") == "something new"


def test_the_words_in_the_games_language() -> None:
    assert seat_words("onp1", "it") == "un turno senza ordini (ONP)"
    assert source_words("sommossa", "fr") == "Sommossa : majorité des autres joueurs"
    assert status_words("finished", "it") == "terminata"
    assert outcome_words("fails", "bounced", "", "it") == "fallito: rimbalzato"
    assert outcome_words("fails", "illegal", "not_adjacent", "fr") == \
        "échoué : non valide (non adjacent)"


def test_the_templates_use_the_words() -> None:
    env = _templates("it")
    assert env.filters["seat_words"]("abandoned") == "abbandonata, si cerca un sostituto"
    # the filter names places on the page's game's map (its ``variant``)
    page = env.from_string("{{ o|notation }}")
    assert page.render(o="F NTH - ENG", game={"variant": "standard"}) == "F MDN - MAN"
    assert env.globals["phase_title"]("F1901M") == "Autunno 1901 Movimenti"


def test_the_page_language() -> None:
    assert page_language("lang=fr", "", "it") == "fr"
    assert page_language("", "", "it") == "it"
    assert page_language("lang=xx", "fr-CH,fr;q=0.9,en;q=0.8", None) == "fr"
    assert page_language("", "de-DE", None) == "en"
