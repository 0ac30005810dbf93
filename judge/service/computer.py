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
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from judge.adjudicator.orders import Order
from judge.adjudicator.position import Position
from judge.bots.council import Council
from judge.bots.diplomat import Letter, render_letter
from judge.bots.ledger import Agreement, Status
from judge.bots.personality import PERSONALITIES, assign
from judge.bots.proposals import Proposal
from judge.bots.proposals import render as render_proposal
from judge.bulletins.views import letters_view
from judge.rules.due import needs_orders
from judge.rules.game_end import solo_won
from judge.service import announce, games, turns, usecases
from judge.settings import Settings
from judge.storage import botrepo, gamerepo, recordrepo
from judge.storage.models import Game, Press, Seat
from judge.storage.turnrepo import savepoint

Session = Any  # a judge.storage session (SQLAlchemy stays inside judge.storage)

log = logging.getLogger(__name__)

SOURCE = "computer"  # how a computer power's order is marked in bulletins and the archive
# how a computer power's seat is shown in START and LIST replies, in place of an address
SEAT_WORD = {"en": "computer", "it": "computer", "fr": "ordinateur"}
BROADCAST = "*"
# phases one mail may process in a row in a solo game (a movement phase, its retreats, the
# winter): bounded work per mail
PHASES_PER_MAIL = 3


# ---------------------------------------------------------------- who is a computer power


def solo_options(game: Game) -> dict[str, Any] | None:
    """The BOTS option of a solo game (``{"power": chosen or None, "human": power}``)."""
    value = games.options(game).get("bots")
    return dict(value) if isinstance(value, dict) else None


def computer_powers(session: Session, game: Game) -> dict[str, str]:
    """Power -> personality of every computer power of the game."""
    return botrepo.bot_powers(session, game.id)


def _seed(game: Game) -> int:
    return int((games.options(game).get("computer") or {}).get("seed", game.id))


def _rng(game: Game, what: str) -> random.Random:
    # one stream per game, phase and purpose: replaying a phase gives the same orders
    return random.Random(f"{_seed(game)}:{game.phase}:{what}")


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
    rng = random.Random(f"{_seed(game)}:{seat.power}")
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


def phase_started(session: Session, game: Game, now: datetime, settings: Settings) -> None:
    """The computer powers' proposals (in Spring) and orders for the game's current phase."""
    if game.status != "active":
        return
    council = botrepo.load_council(session, game.id)
    if council is None or not council.characters:
        return
    position = games.load_position(game)
    variant = games.game_variant(game)
    letters = council.bot_initiatives(position, _rng(game, "talk"), variant)
    given = council.orders(position, _rng(game, "orders"), variant)
    for power, orders in sorted(given.items()):
        if not needs_orders(position, power):
            continue
        # the same use case as a player's mail: read, checked and stored as a new version
        usecases.submit_orders(session, game, power, [str(o) for o in orders], now,
                               by_account_id=None)
    botrepo.save_council(session, game.id, council)
    send_letters(session, game, now, settings, letters)


def phase_played(session: Session, game: Game, before: Position,
                 orders: Mapping[str, Sequence[Order]], after: Position, now: datetime,
                 settings: Settings) -> None:
    """After an adjudication: promises judged, trust moved, wars and coalitions announced.
    The council as it stood before is kept first, for a ROLLBACK to this phase."""
    council = botrepo.load_council(session, game.id)
    if council is None:
        return
    botrepo.save_snapshot(session, game.id, str(before.phase), council)
    letters = council.after_phase(before, orders, after)
    botrepo.save_council(session, game.id, council)
    send_letters(session, game, now, settings, letters)


def rolled_back(session: Session, game: Game, phase: str, undone: Sequence[str]) -> None:
    """ROLLBACK to ``phase``: the ledger, trust and coalitions as they were when ``phase`` was
    played (``undone``: the phases whose turns the ROLLBACK removed). Called before
    ``phase_started``, which then has the computer powers order again from that state."""
    botrepo.restore_snapshot(session, game.id, phase, undone)


def mark_sources(session: Session, game: Game, orders: Mapping[str, Sequence[Order]],
                 sources: dict[str, dict[str, str]]) -> None:
    """Every order a computer power gave is shown as the computer's."""
    for power in computer_powers(session, game):
        for order in orders.get(power, ()):
            sources.setdefault(power, {}).setdefault(str(order), SOURCE)


def solo_notice(game: Game, after: Position) -> str | None:
    """The power that has just reached the solo count in a solo game (said once)."""
    bots = solo_options(game)
    if not bots or bots.get("won"):
        return None
    if not solo_won(after, games.rule_options(game).end):
        return None
    bots["won"] = str(after.phase)
    games.update_options(game, bots=bots)
    return str(bots.get("human"))


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


def reorder(session: Session, game: Game, council: Council, power: str,
            now: datetime) -> None:
    """A computer power that has just made a deal orders again: its orders for the phase
    were given when the phase began, before the word it gave now (England broke three deals
    of three the turn it made them). Nothing to do for a player's power, or when the power has
    nothing to order."""
    if power not in council.characters or game.status != "active":
        return
    position = games.load_position(game)
    if not needs_orders(position, power):
        return
    rng = _rng(game, f"orders:{power}:{len(council.agreements)}")
    orders = council.orders_of(power, position, rng, games.game_variant(game))
    usecases.submit_orders(session, game, power, [str(o) for o in orders], now,
                           by_account_id=None)


# ---------------------------------------------------------------- letters


def send_letters(session: Session, game: Game, now: datetime, settings: Settings,
                 letters: Sequence[Letter]) -> None:
    """Store each letter as press and mail it, in the game's language, to the players it is
    for (a broadcast to every player, the GM and the observers). Letters between computer
    powers reach nobody's mailbox; what they agree is announced by the alliance letters."""
    if not letters or games.press_mode(game) == "none":
        return  # a game without press hears nothing from its computer powers either
    info = announce.game_info(game, settings)
    people = computer_powers(session, game)
    addresses = _human_addresses(session, game, people)
    variant_name = games.game_variant(game).name
    for letter in letters:
        to = list(letter.to)
        targets = (announce.everyone(session, game) if not to
                   else [addresses[p] for p in to if p in addresses])
        if not targets:
            continue  # between computer powers only
        text = render_letter(letter, info.language, variant=variant_name)
        session.add(Press(game_id=game.id, phase=game.phase, from_power=letter.sender,
                          to_powers=to or [BROADCAST], grey=False, body=text, created=now))
        view = letters_view(info, game.phase, letter.sender, to, [text])
        announce.broadcast(session, settings, now, game, "letters", view, addresses=targets)


def _human_addresses(session: Session, game: Game, people: Mapping[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for seat in games.playing_seats(session, game):
        if seat.power in people:
            continue
        address = games.address_of_account(session, seat.account_id)
        if address:
            out[seat.power] = address
    return out
