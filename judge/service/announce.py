"""Who receives a game's bulletins, and queueing them into the outbox.

Players, the GM and observers get every bulletin. Each mail goes to one recipient so no
address is ever shown to anyone else; in a blind game the bulletin text names powers only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from judge.bulletins.render import render
from judge.bulletins.views import GameInfo, Notice, SeatInfo, notice_view
from judge.rules.chosen_options import ChosenOptions
from judge.service import webhooks
from judge.service.header_safety import addr_spec
from judge.service.snapshot_rows import chosen
from judge.service.uow import outbound_row
from judge.settings import Settings
from judge.storage import Session
from judge.storage.gamerepo import seats
from judge.storage.mailrepo import enqueue_outbound
from judge.storage.models import Game, OutboundMail, Seat
from judge.storage.playrepo import addresses_of_accounts
from judge.storage.turnrepo import account_address


def game_info(game: Game, settings: Settings) -> GameInfo:
    options = chosen(game)
    return GameInfo(
        name=game.name,
        judge=settings.judge_name or settings.address,
        language=game.language if game.language in ("en", "fr", "it") else "en",
        timezone=options.timezone,
        variant=game.variant,
        blind=options.blind,
    )


def seat_infos(rows: Iterable[Seat], options: ChosenOptions) -> list[SeatInfo]:
    bonus = options.late_bonus_days
    rows = list(rows)
    held: dict[int, list[str]] = {}
    for r in rows:
        if r.account_id is not None:
            held.setdefault(r.account_id, []).append(r.power)
    # a playing seat without an account is a computer power's (issue 14)
    return [SeatInfo(r.power, "computer" if r.account_id is None and r.status == "active"
                     else r.status, bonus - r.late_days_used, r.strikes,
                     tuple(sorted(p for p in held.get(r.account_id or -1, []) if p != r.power)))
            for r in rows]


def _address(session: Session, account_id: int | None) -> str | None:
    return account_address(session, account_id)


def player_addresses(session: Session, game: Game, powers: Sequence[str] | None = None,
                     ) -> list[str]:
    rows = [row for row in seats(session, game.id) if powers is None or row.power in powers]
    known = addresses_of_accounts(  # one query
        session, [row.account_id for row in rows if row.account_id is not None])
    return [known[row.account_id] for row in rows
            if row.account_id is not None and known.get(row.account_id)]


def gm_address(session: Session, game: Game) -> str | None:
    return _address(session, game.gm_account_id)


def observer_addresses(game: Game) -> list[str]:
    """Observers (OBSERVE) are kept as a list of addresses in the game options."""
    return [str(a) for a in (game.options or {}).get("observers", [])]


def everyone(session: Session, game: Game) -> list[str]:
    """Players, then the GM, then observers; each address once."""
    seen: dict[str, str] = {}
    gm = gm_address(session, game)
    for address in [*player_addresses(session, game), *([gm] if gm else []),
                    *observer_addresses(game)]:
        seen.setdefault(address.lower(), address)
    return list(seen.values())


def queue(session: Session, settings: Settings, now: datetime, game: Game,
          addresses: Iterable[str], subject: str, body: str, kind: str = "bulletin",
          attachments: list[dict[str, Any]] | None = None) -> list[OutboundMail]:
    rows = []
    for address in addresses:
        if addr_spec(address) is None:
            continue  # never a header built from something that is not one address
        row = outbound_row(settings, now, to=address, subject=subject, body=body, kind=kind,
                           game=game, attachments=attachments)
        enqueue_outbound(session, row)
        rows.append(row)
    return rows


def broadcast(session: Session, settings: Settings, now: datetime, game: Game, event: str,
              view: dict[str, Any], addresses: Iterable[str] | None = None,
              attachments: list[dict[str, Any]] | None = None) -> tuple[str, str]:
    """Render ``event`` in the game's language and queue it to ``addresses`` (default: all)."""
    subject, body = render(event, game_info(game, settings).language, view)
    targets = everyone(session, game) if addresses is None else list(addresses)
    queue(session, settings, now, game, targets, subject, body, attachments=attachments)
    _to_webhook(session, now, game, event, view, body)
    return subject, body


def _to_webhook(session: Session, now: datetime, game: Game, event: str, view: dict[str, Any],
                body: str) -> None:
    """The game's webhook hears what everyone hears (issue 27): the end, notices, and for a
    reminder the deadline (once a phase) and which powers have no orders yet (never what)."""
    phase = str(view.get("phase") or game.phase)
    if event == "end":
        webhooks.emit(session, game, "end", phase, now)
    elif event == "notice":
        webhooks.emit(session, game, "notice", phase, now, body=body)
    elif event == "reminder":
        webhooks.emit(session, game, "deadline", phase, now, once_per_phase=True,
                      deadline_text=view.get("deadline") or "")
        for power in view.get("missing") or []:
            webhooks.emit(session, game, "missing", phase, now, power=power)


# seed 002: "l'arbitro sospende la partita ... e lancia in M.L. una richiesta di sostituzione":
# the club's list hears of a replacement sought and of one found, and of nothing else
CLUB_LIST_NOTICES = ("replacement_call", "replacement_found")


def tell_club_list(session: Session, settings: Settings, now: datetime, game: Game, phase: str,
                   notices: Sequence[Notice], deadline: datetime | None) -> list[OutboundMail]:
    """Queue a notice of the replacement news among ``notices`` to the configured club list
    (``club_list_address``: set by the judge's keeper, hence confirmed). It names powers only,
    never a player or an address, so a blind game's secrets stay kept."""
    wanted = [n for n in notices if n.kind in CLUB_LIST_NOTICES]
    if not settings.club_list_address or not wanted:
        return []
    info = game_info(game, settings)
    subject, body = render("notice", info.language,
                           notice_view(info, phase, wanted, deadline=deadline))
    return queue(session, settings, now, game, [settings.club_list_address], subject, body)
