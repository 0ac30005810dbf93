"""Issue 13 point 9: the archive in the game's language: every label, outcome word, seat
status and phase title, the orders in the game's notation, the right ``lang`` attribute, and a
language switch on every page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.archive.webapp import ArchiveApp
from judge.storage import Database
from tests.archive.asgi import get
from tests.archive.played import fresh_db, play

# English words of the archive's pages that must not show on an Italian or French page
# (a whole text between tags; "Centres" and "Phases" are French words too)
WORDS = ("Players|Power|Player|Orders and results|Order|Result|succeeds|fails|fails: bounced|"
         "Fall 1901 Movement|Spring 1901 Movement|finished|Diplomacy archive")
ENGLISH = {"it": re.compile(rf">\s*({WORDS}|Centres|Phases)\s*<"),
           "fr": re.compile(rf">\s*({WORDS})\s*<")}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> ArchiveApp:
    path: Path = tmp_path_factory.mktemp("archive-lang") / "archive.db"
    db: Database = fresh_db(str(path))
    play(db, name="roma", years=1, seed=7, language="it")
    play(db, name="paris", years=1, seed=5, language="fr")
    return ArchiveApp(db)


def _visible(html: str) -> str:
    """The page without its map and chart (their SVG has its own tests)."""
    return re.sub(r"<svg.*?</svg>", "", html, flags=re.S)


@pytest.mark.parametrize(("game", "lang", "words"), [
    ("roma", "it", ("Giocatori", "Potenza", "Fasi", "Primavera 1901 Movimenti", "terminata")),
    ("paris", "fr", ("Joueurs", "Puissance", "Phases", "Printemps 1901 Mouvements", "terminée")),
])
async def test_a_game_page_speaks_the_games_language(app: ArchiveApp, game: str, lang: str,
                                                     words: tuple[str, ...]) -> None:
    html = (await get(app, f"/games/{game}"))[2].decode()
    assert f'<html lang="{lang}">' in html
    for word in words:
        assert word in html, word
    assert not ENGLISH[lang].search(_visible(html)), ENGLISH[lang].search(_visible(html))


@pytest.mark.parametrize(("game", "lang", "title", "outcomes", "order"), [
    ("roma", "it", "Autunno 1901 Movimenti", ("riuscito", "fallito"), "Ordini e risultati"),
    ("paris", "fr", "Automne 1901 Mouvements", ("réussi", "échoué"), "Ordres et résultats"),
])
async def test_a_phase_page_speaks_the_games_language(app: ArchiveApp, game: str, lang: str,
                                                      title: str, outcomes: tuple[str, str],
                                                      order: str) -> None:
    html = (await get(app, f"/games/{game}/F1901M"))[2].decode()
    assert f'<html lang="{lang}">' in html
    assert f"<h1>{title}</h1>" in html
    assert order in html
    for word in outcomes:
        assert word in html
    assert not ENGLISH[lang].search(_visible(html)), ENGLISH[lang].search(_visible(html))
    # the map too: its title in the language
    assert re.search(rf"<title>{game}( :|:) {title}</title>", html)


async def test_the_orders_column_is_in_the_games_notation(app: ArchiveApp) -> None:
    html = (await get(app, "/games/roma/S1901M"))[2].decode()
    codes = re.findall(r"<code>([^<]*)</code>", html)
    # Italian codes: the North Sea is MDN, the Channel MAN, Tyrolia TIR
    assert codes and not any(" NTH" in c or " ENG" in c for c in codes)
    assert any(re.search(r"\b(MDN|TIR|MAN|BOE|VIE|VEN|NAP|ROM)\b", c) for c in codes)


async def test_the_language_switch(app: ArchiveApp) -> None:
    html = (await get(app, "/games/roma/F1901M?lang=en"))[2].decode()
    assert '<html lang="en">' in html and "<h1>Fall 1901 Movement</h1>" in html
    for code, name in (("en", "English"), ("it", "Italiano"), ("fr", "Français")):
        assert f'href="?lang={code}" hreflang="{code}" lang="{code}"' in html
        assert name in html
    assert 'hreflang="en" lang="en" aria-current="true"' in html
    # the list of games follows the reader's browser when no game is in question
    fr = (await get(app, "/", headers=[(b"accept-language", b"fr-FR,fr;q=0.9")]))[2].decode()
    assert '<html lang="fr">' in fr and "Parties" in fr
    default = (await get(app, "/"))[2].decode()
    assert '<html lang="en">' in default and ">Games<" in default


# issue 28: the 404 page is a page of the archive, in the reader's language
@pytest.mark.parametrize(("accept", "lang", "title"), [
    ("fr-FR,fr;q=0.9,en;q=0.5", "fr", "Page introuvable"),
    ("it-IT,it;q=0.8", "it", "Pagina non trovata"),
    ("de-DE", "en", "Page not found"),
])
async def test_the_404_page_speaks_the_readers_language(app: ArchiveApp, accept: str, lang: str,
                                                        title: str) -> None:
    for path in ("/games/nessuna", "/games/roma/S1950M", "/nowhere"):
        status, headers, body = await get(app, path,
                                          headers=[(b"accept-language", accept.encode())])
        html = body.decode()
        assert status == 404 and headers["content-type"].startswith("text/html")
        assert f'<html lang="{lang}">' in html and f"<h1>{title}</h1>" in html
        assert 'href="/"' in html  # back to the list of games
    status, headers, body = await get(app, "/games/nessuna.json")
    assert status == 404 and headers["content-type"] == "application/json"


@pytest.mark.parametrize(("game", "names", "label"), [
    ("roma", ("Inghilterra", "Francia"), "Centri per anno"),
    ("paris", ("Angleterre", "Allemagne"), None),
])
async def test_the_centre_chart_names_powers_in_the_pages_language(
        app: ArchiveApp, game: str, names: tuple[str, ...], label: str | None) -> None:
    html = (await get(app, f"/games/{game}"))[2].decode()
    chart = re.search(r'<svg class="chart".*?</svg>', html, flags=re.S)
    assert chart is not None
    for name in names:
        assert f"<title>{name}</title>" in chart[0], name
    assert "<title>England</title>" not in chart[0] and "Supply centres per year" not in chart[0]
    if label:
        assert f'aria-label="{label}"' in chart[0]
