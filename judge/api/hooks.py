"""Posting the games' webhook events (``judge.service.webhooks`` queues them): a Runner over
the ``webhook_delivery`` table, like the outbox over ``outbound_mail``.

Each round takes the due deliveries (at most ``BATCH``), posts each in a worker thread, and
records the outcome: a 2xx answer is ``sent``; anything else (refused address, no answer in
``TIMEOUT`` seconds, an error status) is tried again after 30 s, doubling, at most an hour,
until ``webhook_tries`` tries, then ``dead`` and the GM told once per webhook by mail (the
GM's address of record, in the game's language). A delivery is claimed before its post
(several judge nodes may share the queue); it is at least once: a judge stopped between the
post and its record posts it again once the claim (``CLAIM``) runs out.

The transport is the standard library's ``http.client``, connected to the address the
host name was checked to resolve to (``webhooks.resolve``), with TLS verified against the
host name; at most ``MAX_ANSWER`` bytes of the answer are read; redirects are not followed.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import http.client
import json
import logging
import secrets
import socket
import ssl
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from judge.archive import pages
from judge.maps import render_png
from judge.runner import Runner
from judge.service import games, webhooks
from judge.service.commands import reply_text
from judge.service.uow import outbound_row
from judge.settings import Settings
from judge.storage import Database, Session, webhookrepo
from judge.storage.archive_queries import turn_archive
from judge.storage.mailrepo import enqueue_outbound

log = logging.getLogger(__name__)

BATCH = 10
TIMEOUT = 10.0
MAX_ANSWER = 64 * 1024
FIRST_RETRY = timedelta(seconds=30)
LAST_RETRY = timedelta(hours=1)
USER_AGENT = "judge-webhooks/1"
# a post in hand is not taken by another node for this long (the post's timeout and more)
CLAIM = timedelta(seconds=60)


class Post:
    """One request to send: body bytes and headers (the content type among them)."""

    def __init__(self, body: bytes, content_type: str, headers: dict[str, str] | None = None,
                 ) -> None:
        self.body, self.content_type = body, content_type
        self.headers = headers or {}


def build(kind: str, event: str, phase: str, data: dict[str, Any], secret: str,
          png: bytes | None) -> Post:
    """The request for one event in the webhook's format."""
    said = webhooks.text(event, phase, data)
    if kind == "slack":
        return Post(json.dumps({"text": said}).encode(), "application/json")
    if kind == "discord":
        payload: dict[str, Any] = {"content": said, "username": "judge",
                                   "allowed_mentions": {"parse": []}}
        if png is None:
            return Post(json.dumps(payload).encode(), "application/json")
        name = f"{data.get('game', 'game')}-{phase}.png"
        payload["embeds"] = [{"title": f"{data.get('game', '')} {phase}",
                              "image": {"url": f"attachment://{name}"}}]
        payload["attachments"] = [{"id": 0, "filename": name}]
        return _multipart({"payload_json": ("", "application/json",
                                            json.dumps(payload).encode())},
                          {"files[0]": (name, "image/png", png)})
    body = json.dumps({
        "event": event, "game": data.get("game"), "phase": phase, "text": said,
        "data": {k: v for k, v in data.items() if k not in ("game", "language")},
        "map_png": base64.b64encode(png).decode() if png is not None else None,
    }, ensure_ascii=False, sort_keys=True).encode()
    mac = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return Post(body, "application/json", {"X-Judge-Signature": f"sha256={mac}",
                                           "X-Judge-Event": event})


def _multipart(fields: dict[str, tuple[str, str, bytes]],
               files: dict[str, tuple[str, str, bytes]]) -> Post:
    boundary = secrets.token_hex(16)
    parts = []
    for name, (_, mime, value) in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n'
                     f"Content-Type: {mime}\r\n\r\n".encode() + value + b"\r\n")
    for name, (filename, mime, value) in files.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                     f'filename="{filename}"\r\nContent-Type: {mime}\r\n\r\n'.encode()
                     + value + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return Post(b"".join(parts), f"multipart/form-data; boundary={boundary}")


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to the address already checked, the certificate verified for the host name."""

    def __init__(self, target: webhooks.Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout,
                         context=ssl.create_default_context())
        self.target = target

    def connect(self) -> None:
        raw = socket.create_connection((self.target.address, self.target.port), self.timeout)
        self.sock = self._context.wrap_socket(  # type: ignore[attr-defined]
            raw, server_hostname=self.target.host)


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, target: webhooks.Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self.target = target

    def connect(self) -> None:
        self.sock = socket.create_connection((self.target.address, self.target.port),
                                             self.timeout)


def post(url: str, request: Post, allow_private: bool) -> tuple[bool, str]:
    """POST ``request`` to ``url``: (delivered, what went wrong). Blocking: a worker thread."""
    try:
        target = webhooks.resolve(url, allow_private)
    except webhooks.HookRefused as exc:
        return False, f"refused: {exc.reason}"
    connection: http.client.HTTPConnection = (
        _PinnedHTTPS(target, TIMEOUT) if target.scheme == "https"
        else _PinnedHTTP(target, TIMEOUT))
    try:
        connection.request("POST", target.path, body=request.body, headers={
            "Content-Type": request.content_type, "User-Agent": USER_AGENT,
            **request.headers})
        answer = connection.getresponse()
        answer.read(MAX_ANSWER)
        if 200 <= answer.status < 300:
            return True, ""
        return False, f"HTTP {answer.status}"
    except (OSError, http.client.HTTPException) as exc:
        return False, f"{type(exc).__name__}: {exc}"[:200]
    finally:
        connection.close()


class HookRunner(Runner):
    """Delivers due webhook events until ``stopping`` is set."""

    name = "webhooks"

    def __init__(self, db: Database, settings: Settings, stopping: asyncio.Event,
                 now: Callable[[], datetime], wake: asyncio.Event | None = None,
                 poll_seconds: float = 1.0) -> None:
        super().__init__(stopping, wake, poll_seconds)
        self.db, self.settings, self.now = db, settings, now

    async def one_round(self) -> float | None:
        with self.db.reading() as session:
            due = [(d.id, h.id) for d, h in webhookrepo.due(session, self.now(), BATCH)]
        for delivery_id, _ in due:
            await asyncio.to_thread(self.deliver, delivery_id)
        return 0 if len(due) == BATCH else None

    def deliver(self, delivery_id: int) -> None:
        with self.db.session() as session:
            # taken for this post (several judge nodes may poll the same queue)
            now = self.now()
            if not webhookrepo.claim(session, delivery_id, now, now + CLAIM):
                return
        with self.db.reading() as session:
            found = webhookrepo.delivery(session, delivery_id)
            if found is None or found[0].status != "pending":
                return
            row, hook = found
            event, phase, data = row.event, row.phase, dict(row.data or {})
            url, kind, secret = hook.url, hook.kind, hook.secret
        png = self._map(data, phase) if event == "results" and kind != "slack" else None
        done, error = post(url, build(kind, event, phase, data, secret, png),
                           self.settings.webhook_allow_private)
        with self.db.session() as session:
            found = webhookrepo.delivery(session, delivery_id)
            if found is None:
                return
            row, hook = found
            now = self.now()
            row.tries += 1
            if done:
                row.status, row.sent_at, row.last_error = "sent", now, ""
                return
            row.last_error = error[:300]
            if row.tries >= self.settings.webhook_tries:
                row.status = "dead"
                log.warning("webhook of game %s: event %s dead after %d tries (%s)",
                            data.get("game"), event, row.tries, error)
                if not hook.gm_told:
                    hook.gm_told = True
                    self._tell_gm(session, hook.game_id, url, error, now)
                return
            wait = min(LAST_RETRY, FIRST_RETRY * (2 ** (row.tries - 1)))
            row.next_attempt_at = now + wait

    def _map(self, data: dict[str, Any], phase: str) -> bytes | None:
        turn = turn_archive(self.db, str(data.get("game", "")), phase)
        if turn is None:
            return None
        return render_png(pages.phase_map(turn, str(data.get("language") or "en")))

    def _tell_gm(self, session: Session, game_id: int, url: str, error: str,
                 now: datetime) -> None:
        game = webhookrepo.game_of(session, game_id)
        if game is None:
            return
        to = games.gm_address(session, game)
        if to is None:
            return
        lang = reply_text.check_lang(game.language)
        host = webhooks.parse_url(url)[1]
        text = reply_text.message(lang, "webhook_dead", game=game.name, host=host,
                                  error=error, tries=self.settings.webhook_tries)
        body = reply_text.page(lang, "notice", game=game.name, text=text)
        subject = reply_text.message(lang, "subject_notice", game=game.name)
        enqueue_outbound(session, outbound_row(self.settings, now, to=to, subject=subject,
                                               body=body, kind="notice", game=game))
