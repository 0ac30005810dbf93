"""The storage the mail command handlers see: one narrow, session-bound door.

The handlers (``judge.service.commands``) never import the concrete repositories of
``judge.storage``; an import-linter contract (``.importlinter``, "command handlers reach
storage only through the service") holds them to this class, to the use cases
(``judge.service.usecases``) and to the service modules. So what a handler may read or write
is listed here, in one place, and a handler can be run against another store.

Every method works inside the caller's transaction (the one that handles the mail); nothing
here commits. Rows are the ``judge.storage.models`` entities.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from judge.bots.council import Council
from judge.storage import Session, botrepo, gamerepo, guardrepo, mailrepo, playrepo
from judge.storage.models import (
    Account,
    AuditLog,
    Confirmation,
    Game,
    OrderSet,
    Seat,
    Turn,
    Vote,
)

# a reply names its parent last in References; a long thread's older ones are not read
REFERENCES_READ = 10


class Store:
    def __init__(self, session: Session) -> None:
        self.session = session

    # ------------------------------------------------------------ rows

    def add(self, row: Any) -> None:
        """A new row (a vote, a seat), written with the transaction; flushed at once so
        that what follows in the same mail sees it."""
        self.session.add(row)
        self.session.flush()

    # ------------------------------------------------------------ accounts

    def press_answered(self, references: Sequence[str], address: str) -> Game | None:
        """The game of the press mail ``address`` was sent and this mail answers (its
        References name that mail), if any. Only the last references count (bounded work)."""
        game_id = mailrepo.game_of_mail_to(self.session, references[-REFERENCES_READ:],
                                           "press", address)
        return self.session.get(Game, game_id) if game_id is not None else None

    def account_for(self, address: str, now: datetime, display_name: str = "") -> Account:
        return gamerepo.account_for(self.session, address, now, display_name)

    def account_by_address(self, address: str) -> Account | None:
        return playrepo.account_by_address(self.session, address)

    def is_confirmed(self, address: str) -> bool:
        return guardrepo.is_confirmed(self.session, address)

    def confirm_account(self, address: str, now: datetime) -> Account:
        return guardrepo.confirm_account(self.session, address, now)

    # ------------------------------------------------------------ games and seats

    def game_by_name(self, name: str) -> Game | None:
        return gamerepo.game_by_name(self.session, name)

    def game_by_id(self, game_id: int) -> Game | None:
        return guardrepo.game_by_id(self.session, game_id)

    def games_with_status(self, statuses: Sequence[str]) -> list[Game]:
        return playrepo.games_with_status(self.session, statuses)

    def games_page(self, statuses: Sequence[str], page: int, per_page: int,
                   ) -> tuple[list[tuple[Game, int]], int]:
        """One page of games by name, each with how many people play it; and the total."""
        return playrepo.games_page(self.session, statuses, page, per_page)

    def latest_game_language(self, account_id: int) -> str | None:
        return playrepo.latest_game_language(self.session, account_id)

    def seats(self, game_id: int) -> list[Seat]:
        return gamerepo.seats(self.session, game_id)

    def seat_by_power(self, game_id: int, power: str) -> Seat | None:
        return playrepo.seat_by_power(self.session, game_id, power)

    def seats_of_account(self, game_id: int, account_id: int) -> list[Seat]:
        """The seats one person holds in a game (seed 001: several in small games)."""
        return playrepo.seats_of_account(self.session, game_id, account_id)

    def stored_hash(self, game_name: str, power: str) -> str | None:
        return playrepo.stored_hash(self.session, game_name, power)

    def turns(self, game_id: int) -> list[Turn]:
        return gamerepo.turns(self.session, game_id)

    # ------------------------------------------------------------ orders and votes

    def current_orders(self, game_id: int, phase: str, power: str) -> OrderSet | None:
        return gamerepo.current_orders(self.session, game_id, phase, power)

    def submit_orders(self, game_id: int, phase: str, power: str, orders: list[str],
                      now: datetime, submitted_by_id: int | None = None) -> OrderSet:
        return gamerepo.submit_orders(self.session, game_id, phase, power, orders, now,
                                      submitted_by_id=submitted_by_id)

    def votes(self, game_id: int, phase: str | None = None, kind: str | None = None,
              voter_power: str | None = None) -> list[Vote]:
        return playrepo.votes(self.session, game_id, phase, kind, voter_power)

    def delete_votes(self, game_id: int, phase: str | None, kind: str, voter_power: str,
                     target_power: str | None = None) -> int:
        return playrepo.delete_votes(self.session, game_id, phase, kind, voter_power,
                                     target_power)

    # ------------------------------------------------------------ computer powers

    def load_council(self, game_id: int) -> Council | None:
        return botrepo.load_council(self.session, game_id)

    def save_council(self, game_id: int, council: Council) -> None:
        botrepo.save_council(self.session, game_id, council)

    # ------------------------------------------------------------ the record

    def audit(self, now: datetime, action: str, game_id: int | None = None,
              actor_account_id: int | None = None, **detail: Any) -> AuditLog:
        return gamerepo.audit(self.session, now, action, game_id, actor_account_id, **detail)

    def pending_signon(self, game_id: int, power: str, now: datetime) -> Confirmation | None:
        """The confirmation that releases mail held for a locked seat, if one waits."""
        return guardrepo.pending_signon(self.session, game_id, power, now)

    def requeue_held(self, inbound_id: int) -> bool:
        """A mail held for its sender's confirmation goes back to the inbox."""
        return guardrepo.requeue_held(self.session, inbound_id)
