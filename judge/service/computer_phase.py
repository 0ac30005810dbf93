"""What the computer powers do in each phase (issue 14), called by turn processing
(``judge.service.turns``): their orders and proposals when a phase starts, the ledger judged
after it is played, put back by a ROLLBACK, their orders marked as theirs, the solo announced,
and the letters they write. ``judge.service.computer`` (seats, the solo game's pace, proposals)
builds on this module and re-exports its names; this one never calls turn processing, so
turns can call it.

Everything here runs inside the caller's transaction.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from judge.adjudicator.jsonio import position_from_json
from judge.adjudicator.orders import Order
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Position
from judge.bots.council import Council
from judge.bots.diplomat import Letter, render_letter
from judge.bots.draws import wants_draw
from judge.bulletins.views import letters_view
from judge.rules.due import needs_orders
from judge.rules.game_end import solo_won
from judge.service import announce, draw_vote, games, order_sets
from judge.settings import Settings
from judge.storage import Session, botrepo, gamerepo, playrepo
from judge.storage.models import Game, Press

SOURCE = "computer"  # how a computer power's order is marked in bulletins and the archive
BROADCAST = "*"


# ---------------------------------------------------------------- who is a computer power


def solo_options(game: Game) -> dict[str, Any] | None:
    """The BOTS option of a solo game (``{"power": chosen or None, "human": power}``)."""
    value = games.chosen(game).bots
    return None if value is None else dict(value)


def computer_powers(session: Session, game: Game) -> dict[str, str]:
    """Power -> personality of every computer power of the game."""
    return botrepo.bot_powers(session, game.id)


def game_seed(game: Game) -> int:
    """The game's stream for its computer powers' choices (drawn once, kept in the options)."""
    return int((games.options(game).get("computer") or {}).get("seed", game.id))


def _rng(game: Game, what: str) -> random.Random:
    # one stream per game, phase and purpose: replaying a phase gives the same orders
    return random.Random(f"{game_seed(game)}:{game.phase}:{what}")


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
        order_sets.submit_orders(session, game, power, [str(o) for o in orders], now,
                               by_account_id=None)
    botrepo.save_council(session, game.id, council)
    vote_draws(session, game, position, now, council.characters)
    send_letters(session, game, now, settings, letters)


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
    order_sets.submit_orders(session, game, power, [str(o) for o in orders], now,
                             by_account_id=None)


def vote_draws(session: Session, game: Game, position: Position, now: datetime,
               people: Mapping[str, str]) -> None:
    """Once a year, as the Spring starts: each computer power votes a draw when the game has
    stalled and nobody can win it (``draws.wants_draw``), and withdraws its vote when that no
    longer holds, through the use case a player's DRAW and NODRAW go through; the game ends
    as any game does once every survivor's vote is in."""
    if not position.phase.is_movement or position.phase.season_rank != 0 or not people:
        return
    history = centre_history(session, game)
    victory = games.rule_options(game).end.solo_centers or games.game_variant(game).victory
    cast = {v.voter_power for v in playrepo.votes(session, game.id, kind="draw")}
    for power in sorted(people):
        seat = playrepo.seat_by_power(session, game.id, power)
        if seat is None or seat.account_id is not None:
            continue  # a seat a person took back
        want = wants_draw(history, power, victory)
        if want != (power in cast):
            draw_vote.vote_draw(session, game, seat, now, want)


def centre_history(session: Session, game: Game) -> list[dict[str, str]]:
    """The supply centres' owners at the start of the game and at the end of each game year
    played since (the turns kept for the archive; a ROLLBACK removes its turns)."""
    variant = games.game_variant(game)
    history: list[dict[str, str]] = []
    for turn in gamerepo.turns(session, game.id):
        if not history:
            history.append(dict(position_from_json(turn.position_before, variant).centers))
        before = Phase.parse(str(turn.position_before["phase"])).year
        if Phase.parse(str(turn.position_after["phase"])).year != before:
            # the year changed: its centres are counted
            history.append(dict(position_from_json(turn.position_after, variant).centers))
    return history


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
