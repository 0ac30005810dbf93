"""Headless Chromium clicks through the archive of a finished game (Debian's chromium)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.archive.webapp import ArchiveApp
from tests.archive.played import EVIL_NAME, SECRET_ORDER, fresh_db, play
from tests.browser.webserver import serving
from tests.conftest import need_service

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]

pytestmark = pytest.mark.services


@pytest.fixture()
def archive_url(tmp_path: Path) -> Iterator[str]:
    db = fresh_db(str(tmp_path / "archive.db"))
    play(db, name="browsergame", years=2, seed=11)
    with serving(ArchiveApp(db)) as url:
        yield url
    db.dispose()


@pytest.fixture()
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        need_service("Debian chromium is not installed at /usr/bin/chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need_service("the playwright python package is not installed")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def test_click_through_to_a_phase(archive_url: str, browser: object, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})  # type: ignore[attr-defined]
    page.goto(archive_url + "/")
    page.screenshot(path=str(tmp_path / "games.png"), full_page=True)
    assert page.locator("table.games").get_by_text("browsergame").is_visible()
    assert "finished" in page.locator("table.games").inner_text()

    page.get_by_role("link", name="browsergame").click()
    page.wait_for_url("**/games/browsergame")
    assert page.locator("h1").inner_text().startswith("browsergame")
    assert page.locator("svg.chart polyline").count() == 7  # one line per power
    # player text is shown as text, never run as markup
    assert EVIL_NAME in page.locator("table.players").inner_text()
    page.screenshot(path=str(tmp_path / "game.png"), full_page=True)

    page.get_by_role("link", name="Fall 1901 Movement").click()
    page.wait_for_url("**/games/browsergame/F1901M")
    assert page.locator("h1").inner_text() == "Fall 1901 Movement"
    board = page.locator("#map svg")
    assert board.is_visible()
    box = board.bounding_box()
    assert box is not None and box["width"] > 500
    assert page.locator("#map svg g.unit").count() >= 22
    assert page.locator("#map svg .orders path, #map svg .orders circle").count() > 0
    rows = page.locator("#orders tbody tr")
    assert rows.count() >= 22
    outcomes = page.locator("#orders").inner_text()
    assert "succeeds" in outcomes and "fails" in outcomes
    assert SECRET_ORDER not in page.content()
    page.screenshot(path=str(tmp_path / "phase.png"), full_page=True)

    # the language switch (issue 13 point 9): the same page in Italian, codes and all
    page.get_by_role("link", name="Italiano").click()
    page.wait_for_url("**/games/browsergame/F1901M?lang=it")
    assert page.locator("html").get_attribute("lang") == "it"
    assert page.locator("h1").inner_text() == "Autunno 1901 Movimenti"
    italian = page.locator("#orders").inner_text()
    assert "riuscito" in italian and "fallito" in italian and "succeeds" not in italian
    assert "Ordini e risultati" in page.content()
    page.screenshot(path=str(tmp_path / "phase.it.png"), full_page=True)

    # the phone layout: the map shrinks to the screen instead of overflowing it
    phone = browser.new_page(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    phone.goto(archive_url + "/games/browsergame/F1901M")
    width = phone.locator("#map svg").bounding_box()["width"]
    assert width <= 390
    phone.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    for name in ("games.png", "game.png", "phase.png", "phone.png"):
        assert (tmp_path / name).stat().st_size > 1000
