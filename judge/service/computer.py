"""Computer powers in a game played by mail (issue 14): who they are, when they order, what
they write, and the solo game against six of them.

* **Seats.** A computer power is a seat without an account (nobody can sign on as it) and a
  ``bot_seat`` row with its personality. A solo game (CREATE option ``BOTS``) has one at every
  seat but the creator's; in a club game the GM may seat one in a vacant or abandoned seat
  (``REPLACE power COMPUTER``) when the option ``computer_seats`` allows it.
* **Orders.** Each computer power orders at the start of every phase (after START, after each
  adjudication, after a ROLLBACK) through ``usecases.submit_orders``, the use case a player's
  mail goes through, so its orders are read, checked and versioned like anybody's. The
  bulletins and the archive mark them as the computer's (order source ``computer``).
* **Diplomacy.** The game's ``Council`` (``judge.bots.council``) is loaded and saved with the
  phase: after each adjudication the ledger judges the promises and trust moves (the council as
  it stood before is kept per phase, and a ROLLBACK puts it back); each Spring the
  computer powers propose; every ``Letter`` they write is stored as press and mailed in the
  game's language (a broadcast to everyone, a proposal or an answer to its addressee).
* **The solo game.** The phase is processed as soon as the player's orders are in (the mail that
  brought them processes it, and the phases after it where the player has nothing to order);
  the end rules are ``EndConditions.solo_player``'s.

Everything here runs inside the caller's transaction.
"""

from __future__ import annotations

import logging
import random
import secrets
from datetime import datetime

from judge.bots.council import Council
from judge.bots.diplomat import Letter
from judge.bots.ledger import Agreement, Status
from judge.bots.personality import PERSONALITIES, assign
from judge.bots.proposals import Proposal
from judge.bots.proposals import render as render_proposal
from judge.service import games, turns
from judge.service.computer_phase import (
    BROADCAST,
    SOURCE,
    computer_powers,
    game_seed,
    mark_sources,
    phase_played,
    phase_started,
    reorder,
    rolled_back,
    send_letters,
    solo_notice,
    solo_options,
)
from judge.settings import Settings
from judge.storage import Session, botrepo, gamerepo, recordrepo
from judge.storage.models import Game, Press, Seat
from judge.storage.turnrepo import savepoint

# what a phase does for the computer powers lives in computer_phase (turn processing calls
# it, and this module calls turn processing); its names are part of this module's API
__all__ = ["BROADCAST", "PHASES_PER_MAIL", "SEAT_WORD", "SOURCE", "advance", "computer_powers",
           "game_seed", "mark_sources", "offer", "phase_played", "phase_started",
           "prepare_solo_seats", "reorder", "rolled_back", "seat_computer", "seat_solo_computers",
           "send_letters", "solo_notice", "solo_options"]

log = logging.getLogger(__name__)

# how a computer power's seat is shown in START and LIST replies, in place of an address
SEAT_WORD = {"en": "computer", "it": "computer", "fr": "ordinateur"}
# phases one mail may process in a row in a solo game (a movement phase, its retreats, the
# winter): bounded work per mail
PHASES_PER_MAIL = 3


# ---------------------------------------------------------------- who is a computer power


# ---------------------------------------------------------------- the solo game's seats


def prepare_solo_seats(session: Session, game: Game) -> None:
    """Before START in a BOTS game: the creator's seat if he has none (his password is the
    game's), then one seat without an account for each power nobody joined for, all as
    placeholders for the lot."""
    existing = gamerepo.seats(session, game.id)
    count = games.game_variant(game).players
    taken = {s.power for s in existing}
    free = iter(f"{games.PLACEHOLDER}{n}" for n in range(1, count + 1)
                if f"{games.PLACEHOLDER}{n}" not in taken)
    chosen = (solo_options(game) or {}).get("power")
    seated = len(existing)
    if seated < count and all(s.account_id != game.gm_account_id for s in existing):
        session.add(Seat(game_id=game.id, power=next(free), account_id=game.gm_account_id,
                         status="active", password_hash=game.password_hash,
                         preferences=[chosen] if chosen else []))
        seated += 1
    for _ in range(count - seated):
        session.add(Seat(game_id=game.id, power=next(free), account_id=None,
                         status="active", password_hash="", preferences=[]))
    session.flush()


def seat_solo_computers(session: Session, game: Game, seed: int) -> None:
    """After the lot: every seat without an account is a computer power with a character.
    With one person at the table it is a solo game (``bots.human``: the end rules change)."""
    seats = games.assigned_seats(session, game)
    humans = [s.power for s in seats if s.account_id is not None]
    machines = [s.power for s in seats if s.account_id is None]
    council = Council(assign(machines, random.Random(seed)))
    botrepo.save_council(session, game.id, council)
    bots = dict(solo_options(game) or {})
    bots["human"] = humans[0] if len(humans) == 1 else None
    games.update_options(game, bots=bots, computer={"seed": seed})


def seat_computer(session: Session, game: Game, seat: Seat, now: datetime) -> str:
    """The GM gives a vacant or abandoned seat to the computer: returns its personality."""
    if not (games.options(game).get("computer") or {}).get("seed"):
        # the game's stream for its computer powers' choices, drawn once and kept
        games.update_options(game, computer={"seed": secrets.randbits(31)})
    council = botrepo.load_council(session, game.id) or Council({})
    taken = set(council.characters.values())
    rng = random.Random(f"{game_seed(game)}:{seat.power}")
    free = [n for n in sorted(PERSONALITIES) if n not in taken] or sorted(PERSONALITIES)
    name = rng.choice(free)
    council.characters[seat.power] = name
    botrepo.save_council(session, game.id, council)
    recordrepo.count(session, seat.account_id, game.id, replaced=1)  # issue 30's record
    games.drop_absences(game, seat.account_id)
    seat.account_id = None
    seat.password_hash = ""
    seat.status = "active"
    seat.strikes = 0
    gamerepo.audit(session, now, "computer.seated", game_id=game.id, power=seat.power,
                   personality=name)
    return name


# ---------------------------------------------------------------- each phase


def advance(session: Session, game: Game, now: datetime, settings: Settings) -> list[str]:
    """In a solo game, process every phase that waits for nobody (the player's orders are in,
    or he has nothing to order); returns the phases processed."""
    done: list[str] = []
    if solo_options(game) is None:
        return done
    for _ in range(PHASES_PER_MAIL):
        if game.status != "active":
            break
        try:
            # the mail's own work (orders stored, the reply) commits even if the phase fails:
            # the failure is logged and the early sweep tries the phase again
            with savepoint(session):
                report = turns.process(session, game, now, settings)
        except Exception:
            log.exception("solo game %s: processing %s after the player's mail failed",
                          game.name, game.phase)
            break
        if report.action != "adjudicated":
            break
        done.append(report.phase)
    return done


# ---------------------------------------------------------------- proposals


def offer(session: Session, game: Game, council: Council, deal: Proposal, now: datetime,
          settings: Settings, *, machine: bool) -> tuple[Agreement, list[Letter]]:
    """A player's proposal recorded in the ledger (and as press); a computer power answers at
    once. Returns the agreement and the answers addressed to the proposer (the caller says
    them: in the mail's reply, or on the play page); letters to everyone (an alliance made
    known) are sent here. The caller saves ``council``."""
    agreement = council.propose(deal, game.phase)
    session.add(Press(game_id=game.id, phase=game.phase, from_power=deal.proposer,
                      to_powers=[deal.partner], grey=False,
                      body=render_proposal(deal, game.language,
                                           variant=games.game_variant(game).name),
                      created=now))
    if not machine:
        return agreement, []
    letters = council.answer_pending(games.load_position(game), games.game_variant(game))
    send_letters(session, game, now, settings, [letter for letter in letters if not letter.to])
    if agreement.status is Status.ACTIVE:
        reorder(session, game, council, deal.partner, now)
    return agreement, [letter for letter in letters if letter.to == (deal.proposer,)]


