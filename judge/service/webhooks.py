"""Webhooks per game (issue 27 point 3): the GM's ``WEBHOOK url [format] [events]``.

A game's events are posted to one URL the GM gives, as Discord or Slack incoming webhooks
take them, or as a generic JSON signed with HMAC-SHA256 (``X-Judge-Signature: sha256=<hex>``
of the body, under the key mailed to the GM's address of record). Events: ``results`` (with
the map, a PNG, for Discord and JSON), ``deadline`` (one per phase, when the reminders go
out), ``missing`` (a power still without orders: never which orders, as LIST shows), ``start``,
``end`` and ``notice`` (what the judge announces to everyone). Every text is in the game's
language.

Emitting only writes a ``webhook_delivery`` row in the caller's transaction (durable, like
the outbox); ``judge.api.hooks`` posts them after the commit, retrying with backoff, dead
after ``webhook_tries`` (the GM told once). No amplification: one URL per game, set by its
GM, one post per event; nothing is fetched from the URL's side.

Address rules: ``http``/``https`` only, no user info, a host name that resolves, and every
address it resolves to public (not loopback, private, link-local, multicast, reserved or
unspecified) unless ``webhook_allow_private`` is set: checked when the GM sets the hook and
again at every delivery, which connects to the very address checked (no second look-up for
a DNS answer to change).
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from judge.i18n import N_, tr
from judge.storage import Session, webhookrepo
from judge.storage.models import Game, Webhook, WebhookDelivery
from judge.storage.models_api import WEBHOOK_EVENTS, WEBHOOK_KINDS
from judge.templating import power_name

MAX_URL = 500
SECRET_BYTES = 32
TEXT_CHARS = 1800  # Discord takes 2000 characters of content, Slack more

_TEXTS = {
    "results": N_("%(game)s: %(phase)s is played; the game is now at %(next)s."),
    "deadline": N_("%(game)s: orders for %(phase)s are due %(deadline)s."),
    "missing": N_("%(game)s: %(power)s has no orders yet for %(phase)s."),
    "start": N_("%(game)s has started: %(phase)s, orders due %(deadline)s."),
    "end": N_("%(game)s is over."),
    "notice": N_("%(game)s, %(phase)s: a notice from the judge."),
}


class HookRefused(ValueError):
    """The URL cannot take webhooks: ``reason`` is a short code, the message says why."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(detail or reason)
        self.reason = reason


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with the query
    address: str  # the address checked, to connect to


def parse_url(url: str) -> tuple[str, str, int, str]:
    if len(url) > MAX_URL or not url.isascii() or any(c.isspace() for c in url):
        raise HookRefused("bad_url")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username \
            or parts.password:
        raise HookRefused("bad_url")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise HookRefused("bad_url") from None
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port, path


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not (ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_multicast
                or ip.is_reserved or ip.is_unspecified)


def resolve(url: str, allow_private: bool) -> Target:
    """The URL's parts and one address to connect to; refused when the host does not
    resolve, or resolves to any address that is not public (unless ``allow_private``)."""
    scheme, host, port, path = parse_url(url)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise HookRefused("no_address", host) from None
    addresses = [str(info[4][0]) for info in infos]
    if not addresses:
        raise HookRefused("no_address", host)
    if not allow_private and not all(_public(a) for a in addresses):
        raise HookRefused("private_address", host)
    return Target(scheme, host, port, path, addresses[0])


def kind_of(url: str, asked: str | None) -> str:
    if asked in WEBHOOK_KINDS:
        return str(asked)
    host = (urlsplit(url).hostname or "").lower()
    if host in ("discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com"):
        return "discord"
    if host == "hooks.slack.com":
        return "slack"
    return "json"


def set_hook(session: Session, game: Game, url: str, kind: str, events: list[str],
             now: datetime, allow_private: bool) -> str:
    """The game's webhook (replacing any); returns the new signing key (to mail the GM)."""
    resolve(url, allow_private)
    webhookrepo.delete_hook(session, game.id)
    secret = secrets.token_hex(SECRET_BYTES)
    chosen = [e for e in WEBHOOK_EVENTS if e in events] or list(WEBHOOK_EVENTS)
    webhookrepo.add(session, Webhook(game_id=game.id, url=url, kind=kind, events=chosen,
                                     secret=secret, created=now))
    return secret


def remove_hook(session: Session, game: Game) -> bool:
    return webhookrepo.delete_hook(session, game.id)


def emit(session: Session, game: Game, event: str, phase: str, now: datetime,
         once_per_phase: bool = False, **data: Any) -> WebhookDelivery | None:
    """Queue ``event`` for the game's webhook, if it has one that wants it."""
    hook = webhookrepo.hook_of_game(session, game.id)
    if hook is None or event not in (hook.events or []):
        return None
    if once_per_phase and webhookrepo.delivered_before(session, hook.id, event, phase):
        return None
    data = {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in data.items()}
    row = WebhookDelivery(webhook_id=hook.id, event=event, phase=phase[:8],
                          data={"game": game.name, "language": game.language, **data},
                          next_attempt_at=now, created=now)
    webhookrepo.add(session, row)
    return row


def text(event: str, phase: str, data: dict[str, Any]) -> str:
    """The event said in its game's language (``data['language']``)."""
    lang = str(data.get("language") or "en")
    values = {"game": data.get("game", ""), "phase": phase, "next": data.get("next", ""),
              "deadline": data.get("deadline_text") or data.get("deadline") or "",
              "power": power_name(str(data.get("power", "")), lang)}
    said = tr(lang, _TEXTS.get(event, _TEXTS["notice"]), **values)
    extra = str(data.get("body") or "")
    return (said + ("\n" + extra if extra else ""))[:TEXT_CHARS]
