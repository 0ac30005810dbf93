"""The archive shows processed phases only: never orders on file, votes, press or addresses."""

from __future__ import annotations

import json

from judge.archive.webapp import ArchiveApp
from tests.archive.asgi import get
from tests.archive.played import SECRET_ADDRESS, SECRET_ORDER, SECRET_PRESS


async def every_page(app: ArchiveApp) -> dict[str, str]:
    paths = ["/", "/index.json"]
    for game in json.loads((await get(app, "/index.json"))[2])["games"]:
        name = game["name"]
        paths += [f"/games/{name}", f"/games/{name}.json"]
        data = json.loads((await get(app, f"/games/{name}.json"))[2])
        for phase in data["phases"]:
            base = f"/games/{name}/{phase['phase']}"
            paths += [base, base + ".json", base + ".svg"]
    pages = {}
    for path in paths:
        status, _, body = await get(app, path)
        assert status == 200, path
        pages[path] = body.decode()
    return pages


async def test_unprocessed_orders_votes_press_and_addresses_never_appear(app: ArchiveApp) -> None:
    pages = await every_page(app)
    assert len(pages) > 20
    for path, text in pages.items():
        for secret in (SECRET_ORDER, "ZZZ", "SECRET VOTE", SECRET_PRESS, SECRET_ADDRESS,
                       "secret.example", "players.example"):
            assert secret not in text, (secret, path)
    # the bulletin's address was there to be hidden, not missing by chance
    assert "[address hidden]" in pages["/games/archtest/S1901M"]


async def test_the_current_phase_has_no_page(app: ArchiveApp) -> None:
    data = json.loads((await get(app, "/games/archtest.json"))[2])
    assert data["game"]["phase"] == "S1903M"
    assert "S1903M" not in [p["phase"] for p in data["phases"]]
    assert (await get(app, "/games/archtest/S1903M"))[0] == 404
    assert (await get(app, "/games/archtest/S1903M.json"))[0] == 404
