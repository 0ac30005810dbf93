"""Webhooks as a chat server and a program receive them (issue 27 point 3): a real HTTP
receiver on 127.0.0.1 (allowed by ``webhook_allow_private``, as JUDGE_WEBHOOK_ALLOW_PRIVATE=1
allows it), the judge served whole, the GM's WEBHOOK by mail."""

from __future__ import annotations

import asyncio
import email.parser
import email.policy
import hashlib
import hmac
import json
import re
import threading
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from sqlalchemy import select

from judge.service import webhooks
from judge.storage.models import WebhookDelivery
from tests.api.conftest import WebTable
from tests.e2e.players import GM, GM_PASSWORD, address, form_game, holds, orders
from tests.standard_variant import STANDARD

GAME = "hookgame"
KEY = re.compile(r"^([0-9a-f]{64})$", re.MULTILINE)


class Receiver:
    """Records every POST; answers ``status``."""

    def __init__(self, status: int = 204) -> None:
        self.status = status
        self.posts: list[dict[str, Any]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the stdlib's name)
                size = int(self.headers.get("Content-Length", "0"))
                receiver.posts.append({"path": self.path, "headers": dict(self.headers),
                                       "body": self.rfile.read(size)})
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    async def wait_for(self, count: int, table: WebTable) -> list[dict[str, Any]]:
        for _ in range(600):
            if len(self.posts) >= count:
                return self.posts
            await asyncio.sleep(0.05)
        raise AssertionError(f"{len(self.posts)} posts received, {count} expected")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


def deliveries(table: WebTable) -> list[tuple[str, str]]:
    with table.db.reading() as session:
        return [(d.event, d.status) for d in session.scalars(select(WebhookDelivery))]


async def failure_recorded(table: WebTable) -> None:
    """Wait until a failed post is written back (its retry scheduled)."""
    for _ in range(600):
        with table.db.reading() as session:
            if session.scalars(select(WebhookDelivery).where(
                    WebhookDelivery.status == "pending", WebhookDelivery.tries >= 1)).first():
                return
        await asyncio.sleep(0.05)
    raise AssertionError("the failed post was not recorded")


async def play_spring(table: WebTable) -> None:
    for power in STANDARD.powers:
        await orders(table, GAME, power, holds(table, GAME, power))
    await table.later(timedelta(minutes=10))


def multipart(post: dict[str, Any]) -> dict[str, EmailMessage]:
    raw = (f"Content-Type: {post['headers']['Content-Type']}\r\n\r\n").encode() + post["body"]
    message = email.parser.BytesParser(policy=email.policy.default).parsebytes(raw)
    assert isinstance(message, EmailMessage) and message.is_multipart()
    parts: dict[str, EmailMessage] = {}
    for part in message.iter_parts():
        assert isinstance(part, EmailMessage)
        parts[str(part.get_param("name", header="content-disposition"))] = part
    return parts


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
async def test_results_reach_a_discord_channel_with_the_map(table: WebTable,
                                                            receiver: Receiver) -> None:
    await form_game(table, GAME, [])
    before = len(table.mails_to(GM))
    await table.send(GM, f"SIGNON GM {GAME} {GM_PASSWORD}\n"
                         f"WEBHOOK {receiver.url}/api/webhooks/1/AbC DISCORD\n")
    mails = table.mails_to(GM)[before:]
    assert any("now posts results" in m.body for m in mails), [m.body for m in mails]
    # the signing key went to the GM's registered address, in a mail of its own
    keys = [k for m in mails for k in KEY.findall(m.body)]
    assert len(keys) == 1
    assert not any(keys[0] in m.body for m in mails if "now posts" in m.body)

    await play_spring(table)
    posts = await receiver.wait_for(1, table)
    post = posts[0]
    assert post["path"] == "/api/webhooks/1/AbC"  # the URL's case kept
    parts = multipart(post)
    payload = json.loads(parts["payload_json"].get_content())
    assert GAME in payload["content"] and "S1901M" in payload["content"]
    assert payload["allowed_mentions"] == {"parse": []}
    image = parts["files[0]"]
    assert image.get_content_type() == "image/png"
    assert image.get_content().startswith(b"\x89PNG")
    assert payload["embeds"][0]["image"]["url"] == f"attachment://{image.get_filename()}"

    # WEBHOOK OFF: nothing more is posted
    await table.send(GM, f"SIGNON GM {GAME} {GM_PASSWORD}\nWEBHOOK OFF\n")
    for power in STANDARD.powers:
        await orders(table, GAME, power, holds(table, GAME, power))
    await table.later(timedelta(minutes=10))
    assert table.game(GAME).phase == "S1902M"
    assert deliveries(table) == []  # nothing queued, so nothing can be posted
    assert len(receiver.posts) == 1


async def test_signed_json_and_a_dead_webhook_told_to_the_gm_once(table: WebTable,
                                                                   receiver: Receiver) -> None:
    await form_game(table, GAME, [])
    before = len(table.mails_to(GM))
    await table.send(GM, f"SIGNON GM {GAME} {GM_PASSWORD}\nWEBHOOK {receiver.url}/j JSON "
                         "RESULTS\n")
    key = KEY.findall("\n".join(m.body for m in table.mails_to(GM)[before:]))[0]
    await play_spring(table)
    post = (await receiver.wait_for(1, table))[0]
    mac = hmac.new(key.encode(), post["body"], hashlib.sha256).hexdigest()
    assert post["headers"]["X-Judge-Signature"] == f"sha256={mac}"
    data = json.loads(post["body"])
    assert (data["event"], data["game"], data["phase"]) == ("results", GAME, "S1901M")
    assert data["data"] == {"next": "F1901M"}
    assert data["map_png"]  # the map, base64

    # the receiver fails from now on: tried webhook_tries (2) times, then dead, GM told once
    receiver.status = 500
    for power in STANDARD.powers:
        await orders(table, GAME, power, holds(table, GAME, power))
    await table.later(timedelta(minutes=10))
    await receiver.wait_for(2, table)
    await failure_recorded(table)  # the retry is set from the clock before it moves
    await table.later(timedelta(minutes=1))  # past the first retry's 30 s
    await receiver.wait_for(3, table)
    for _ in range(200):
        told = [m for m in table.mails_to(GM) if "did not take an event" in m.body]
        if told:
            break
        await asyncio.sleep(0.05)
        await table.settle()
    assert len(told) == 1 and "127.0.0.1" in told[0].body
    assert key not in told[0].body


@pytest.mark.parametrize("allow_private", [False])
async def test_a_private_address_is_refused(table: WebTable, receiver: Receiver) -> None:
    await form_game(table, GAME, [])
    await table.send(GM, f"SIGNON GM {GAME} {GM_PASSWORD}\nWEBHOOK {receiver.url}/x\n")
    reply = table.mails_to(GM)[-1].body
    assert "loopback, private or link-local" in reply
    assert not KEY.findall(reply)
    await play_spring(table)
    assert deliveries(table) == []
    assert receiver.posts == []
    assert address("FRANCE")  # the players got their results as ever
    assert table.last_to(address("FRANCE"), "S1901M")


@pytest.mark.parametrize("url, reason", [
    ("http://10.1.2.3/hook", "private_address"),
    ("http://169.254.169.254/latest/meta-data", "private_address"),
    ("http://[::1]:8080/x", "private_address"),
    ("http://[::ffff:127.0.0.1]/x", "private_address"),
    ("http://0.0.0.0/x", "private_address"),
    ("ftp://example.org/x", "bad_url"),
    ("http://user:pw@example.org/x", "bad_url"),
    ("http://example.org:99999/x", "bad_url"),
    ("http://no-such-host.invalid/x", "no_address"),
])
def test_addresses_refused(url: str, reason: str) -> None:
    with pytest.raises(webhooks.HookRefused) as refused:
        webhooks.resolve(url, allow_private=False)
    assert refused.value.reason == reason
