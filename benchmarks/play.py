"""The play page's costs over ASGI in-process (SQLite in a temp dir): start a game, show its
page, check a draft, submit a Spring (the phase played with six computer powers), the page
after a Spring and after a Fall whose winter was played at once (issue 29: each phase played
since the player's orders drawn with its map and every power's results), against the archive's
page of the same game as the peer. Prints milliseconds and ratios, asserts nothing.

    python benchmarks/play.py [--games N]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from judge.archive.webapp import ArchiveApp
from judge.play.webplay import PlayApp, game_token
from judge.settings import Settings
from judge.storage import Database


def call(app: Any, path: str, method: str = "GET", form: dict[str, str] | None = None,
         client: str = "10.0.0.1") -> tuple[int, dict[str, str], bytes]:
    path, _, query = path.partition("?")
    body = urlencode(form or {}).encode()
    scope = {"type": "http", "method": method, "path": path, "query_string": query.encode(),
             "headers": [], "client": (client, 1)}
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    headers = {k.decode(): v.decode() for k, v in sent[0]["headers"]}
    return sent[0]["status"], headers, b"".join(m.get("body", b"") for m in sent[1:])


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = fn()
    return (time.perf_counter() - start) * 1000, out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{Path(tmp) / 'play.db'}")
        db.migrate()
        app = PlayApp(db, Settings(web_games_per_client_per_hour=10_000,
                                   web_games_per_hour=10_000), ArchiveApp(db))
        times: dict[str, list[float]] = {k: [] for k in
                                         ("start", "page", "archive", "check", "submit",
                                          "page 1", "page 2")}
        for _ in range(args.games):
            _, _, page = call(app, "/play")
            token = re.search(rb'name="token" value="([^"]+)"', page).group(1).decode()  # type: ignore[union-attr]
            ms, (_, headers, _) = timed(lambda t=token: call(
                app, "/play", "POST", {"token": t, "power": "ENGLAND", "lang": "en"}))
            times["start"].append(ms)
            base = headers["location"]
            name, key = base.split("/")[2:4]
            times["page"].append(timed(lambda b=base: call(app, b))[0])
            times["archive"].append(timed(lambda n=name: call(app, f"/games/{n}"))[0])
            orders = {"orders": "F LON - NTH\nF EDI - NWG\nA LVP - YOR", "token": game_token(key)}
            times["check"].append(timed(lambda b=base, o=orders: call(
                app, b + "/check", "POST", o))[0])
            times["submit"].append(timed(lambda b=base, o=orders: call(
                app, b + "/orders", "POST", o))[0])
            times["page 1"].append(timed(lambda b=base: call(app, b))[0])
            # the Fall: the page then shows the Fall and the winter played with it
            call(app, base + "/orders", "POST", {"orders": "", "token": game_token(key)})
            times["page 2"].append(timed(lambda b=base: call(app, b))[0])
        peer = statistics.median(times["archive"])
        print(f"{args.games} games; milliseconds (median, max) and the median's ratio to the "
              "archive's game page")
        for what, values in times.items():
            med = statistics.median(values)
            print(f"  {what:8s} {med:8.1f} {max(values):8.1f}   x{med / peer:6.1f}")
        db.dispose()


if __name__ == "__main__":
    main()
