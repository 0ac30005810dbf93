"""The archive's pages and their JSON twins, read through the ASGI app in-process."""

from __future__ import annotations

import json

from judge.archive.webapp import ArchiveApp
from tests.archive.asgi import get
from tests.archive.played import EVIL_NAME


async def test_game_list_shows_status_phase_and_players_unless_blind(app: ArchiveApp) -> None:
    status, headers, body = await get(app, "/index.json")
    assert status == 200 and headers["content-type"] == "application/json"
    games = {g["name"]: g for g in json.loads(body)["games"]}
    assert games["archtest"]["status"] == "finished"
    assert games["archtest"]["phase"] == "S1903M"
    assert {p["power"] for p in games["archtest"]["players"]} == {
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"}
    assert games["blindgame"]["players"] is None
    status, headers, html = await get(app, "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    text = html.decode()
    assert '<meta name="viewport"' in text
    assert 'href="/games/archtest"' in text
    assert "Player Austria" in text
    assert "blind game" in text


async def test_player_text_is_escaped_everywhere(app: ArchiveApp) -> None:
    for path in ("/", "/games/archtest"):
        html = (await get(app, path))[2].decode()
        assert "<script>" not in html
        assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; Evil &amp; Co" in html
    data = json.loads((await get(app, "/games/archtest.json"))[2])
    assert EVIL_NAME in [p["name"] for p in data["game"]["players"]]


async def test_game_page_has_chart_and_phases(app: ArchiveApp) -> None:
    data = json.loads((await get(app, "/games/archtest.json"))[2])
    assert [p["phase"] for p in data["phases"]][:2] == ["S1901M", "F1901M"]
    assert data["centres"]["years"] == ["1900", "1901", "1902"]
    counts = data["centres"]["counts"]
    assert [counts[p][0] for p in ("AUSTRIA", "RUSSIA")] == [3, 4]
    assert all(len(v) == 3 for v in counts.values())
    html = (await get(app, "/games/archtest"))[2].decode()
    assert '<svg class="chart"' in html
    assert html.count("<polyline") == len(counts)
    assert 'href="/games/archtest/F1901M"' in html


async def test_phase_page_has_map_orders_outcomes_and_bulletin(app: ArchiveApp) -> None:
    data = json.loads((await get(app, "/games/archtest/F1901M.json"))[2])
    assert data["phase"] == "F1901M"
    assert data["previous"] == "S1901M" and data["next"] == "W1901A"
    assert len(data["orders"]) == 22
    assert {o["result"] for o in data["orders"]} == {"succeeds", "fails"}
    assert data["bulletins"][0]["subject"] == "archtest F1901M results"
    html = (await get(app, "/games/archtest/F1901M"))[2].decode()
    assert '<div class="map" id="map"><svg' in html
    for row in data["orders"]:
        assert row["order"] in html
    status, headers, svg = await get(app, "/games/archtest/F1901M.svg")
    assert status == 200 and headers["content-type"] == "image/svg+xml"
    assert svg.count(b'class="unit"') == 22
    status, headers, png = await get(app, "/games/archtest/f1901m.png")
    assert status == 200 and png.startswith(b"\x89PNG")


async def test_unknown_things_are_404_and_writes_are_refused(app: ArchiveApp) -> None:
    for path in ("/games/nosuch", "/games/archtest/S1950M", "/games/archtest/XYZ",
                 "/games/archtest/F1901M.exe", "/admin", "/games/archtest/F1901M/x"):
        assert (await get(app, path))[0] == 404, path
    status, headers, _ = await get(app, "/", method="POST")
    assert status == 405 and headers["allow"] == "GET, HEAD"
    status, headers, body = await get(app, "/games/archtest", method="HEAD")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0
    assert "default-src 'none'" in headers["content-security-policy"]
