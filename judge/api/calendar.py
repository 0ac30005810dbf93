"""Calendar feeds (issue 27 point 4): a game's coming deadlines as iCalendar (RFC 5545).

One VEVENT per coming deadline, its UID made of the game and the phase, so when the GM moves
a deadline (SET DEADLINE, EXTEND, late days) the calendar program updates the same event;
SEQUENCE is the deadline's epoch second, which grows whenever a deadline is pushed back.

Written by hand rather than with the ``icalendar`` package: a feed is a dozen property lines
whose values are a game name, a phase and UTC times; what RFC 5545 asks of such text
(CRLF line ends, escaping of ``\\ ; ,`` and new lines, lines folded at 75 octets) is the
twenty lines below, and the tests read every feed back with ``icalendar``'s parser.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from judge.i18n import N_, tr
from judge.storage import Session, playrepo, tokenrepo
from judge.storage.models import Game

# a deadline is shown as a short event ending at the deadline itself
EVENT_MINUTES = 30
RUNNING = ("active",)
SUMMARY = N_("%(game)s %(phase)s: deadline")
DESCRIPTION = N_("Orders for %(phase)s of game %(game)s are due.")


def _escape(text: str) -> str:
    return (text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n"))


def _fold(line: str) -> str:
    """A content line folded at 75 octets (continuations start with a space)."""
    data = line.encode("utf-8")
    if len(data) <= 75:
        return line
    parts: list[str] = []
    current = b""
    for char in line:
        encoded = char.encode("utf-8")
        if len(current) + len(encoded) > (75 if not parts else 74):
            parts.append(current.decode("utf-8"))
            current = b""
        current += encoded
    parts.append(current.decode("utf-8"))
    return "\r\n ".join(parts)


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def deadlines_of(session: Session, game: Game, now: datetime) -> list[tuple[str, datetime]]:
    """(phase, due) of ``game``'s coming deadlines: the open ``process`` deadlines, else the
    current phase's deadline."""
    if game.status not in RUNNING:
        return []
    due = [(d.phase, d.due_at) for d in playrepo.open_deadlines(session, game.id)
           if d.kind == "process"]
    if not due and game.deadline is not None:
        due = [(game.phase, game.deadline)]
    aware = [(phase, at if at.tzinfo else at.replace(tzinfo=UTC)) for phase, at in due]
    return [(phase, at) for phase, at in aware if at >= now - timedelta(hours=1)]


def games_of(store: Any, account_id: int | None) -> list[Game]:
    """The running games an account plays in or runs (at most 100)."""
    return tokenrepo.games_of_account(store.session, account_id, RUNNING)


def game_feed(session: Session, games: Iterable[Game], domain: str, now: datetime) -> bytes:
    """The iCalendar text of the coming deadlines of ``games`` (each said in its game's
    language)."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//judge//deadlines//EN",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
             f"X-WR-CALNAME:{_escape('Diplomacy deadlines')}"]
    for game in games:
        for phase, due in deadlines_of(session, game, now):
            lines += [
                "BEGIN:VEVENT",
                f"UID:{_escape(f'{game.name}-{phase}@{domain}')}",
                f"DTSTAMP:{_stamp(now)}",
                f"SEQUENCE:{int(due.timestamp())}",
                f"DTSTART:{_stamp(due - timedelta(minutes=EVENT_MINUTES))}",
                f"DTEND:{_stamp(due)}",
                f"SUMMARY:{_escape(tr(game.language, SUMMARY, game=game.name, phase=phase))}",
                f"DESCRIPTION:{_escape(tr(game.language, DESCRIPTION, game=game.name, phase=phase))}",
                "END:VEVENT",
            ]
    lines.append("END:VCALENDAR")
    return ("\r\n".join(_fold(line) for line in lines) + "\r\n").encode("utf-8")

