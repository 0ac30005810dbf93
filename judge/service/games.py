"""Game-level use cases behind the mail commands: options, seats, addresses, start, deadlines.

Conventions other parts rely on:

* Before START a seat's ``power`` is a placeholder ``_1`` .. ``_7`` (the join order); START
  replaces it with the assigned power. ``is_assigned(seat)`` tells them apart.
* ``game.options["observers"]`` lists the addresses that asked to OBSERVE (bulletins and
  broadcasts go to them too); ``game.options["assignment_record"]`` keeps the seed and every lot
  drawn at START, so the assignment can be replayed (``judge.rules.assignment.replay_*``).
* In a blind game each seat's ``anon_token`` is ``<game>-<power>`` and its public address is
  ``<game>-<power>@<domain>``: ``public_address`` is what anyone else may ever see.
"""

from __future__ import annotations

import random
import re
import secrets
from dataclasses import asdict
from datetime import datetime
from typing import Any

from judge.adjudicator.catalog import DEFAULT_VARIANT
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.jsonio import position_from_json, position_to_json
from judge.adjudicator.position import Position
from judge.adjudicator.variant import Variant
from judge.rules import option_registry
from judge.rules.assignment import (
    RandomChooser,
    assign_by_lot,
    assign_by_preference,
    seat_label,
    seat_ranking,
)
from judge.rules.lateness import LateBalance
from judge.rules.option_registry import OptionType, shown_options
from judge.rules.options import GameOptions, RuleSet
from judge.service import deadlines, snapshot_rows
from judge.settings import Settings
from judge.storage import Session, gamerepo, playrepo
from judge.storage.models import Account, Game, Seat, default_game_options

GAME_NAME = re.compile(r"^[a-z][a-z0-9_]{1,30}$")
LANGUAGES = ("en", "it", "fr")
PLACEHOLDER = "_"


def valid_game_name(name: str) -> bool:
    # no '-' so that `<game>-<power>@domain` splits back unambiguously
    return bool(GAME_NAME.match(name))


def options(game: Game) -> dict[str, Any]:
    """The stored dict with CREATE's values for what is missing: for the option setters, which
    change it (an option is read with ``chosen``, the judge's bookkeeping from the dict)."""
    merged = default_game_options()
    merged.update(game.options or {})
    return merged


# a game's options as one typed value (judge.rules.chosen_options)
chosen = snapshot_rows.chosen


def update_options(game: Game, **changes: Any) -> None:
    # JSON columns do not track in-place mutation: assign a new dict
    new = dict(game.options or {})
    new.update(changes)
    game.options = new


def drop_absences(game: Game, account_id: int | None) -> None:
    """A player who leaves his seat takes his announced absences with him (issue 30): they
    no longer hold the game's deadlines back."""
    absences = (game.options or {}).get("absences") or []
    kept = [a for a in absences if a.get("account") != account_id]
    if account_id is not None and len(kept) != len(absences):
        update_options(game, absences=kept)


def rule_options(game: Game) -> GameOptions:
    # one reading of the option dict for the whole judge (the turns code uses the same)
    return snapshot_rows.game_options(chosen(game))


def is_blind(game: Game) -> bool:
    return chosen(game).blind


def press_mode(game: Game) -> str:
    return chosen(game).press


def observers(game: Game) -> list[str]:
    return list(options(game).get("observers", []))


def create_game(session: Session, name: str, password_hash: str, gm: Account, language: str,
                now: datetime) -> Game:
    first = installed_variant(DEFAULT_VARIANT)  # until the GM's VARIANT or PLAYERS line
    game = Game(name=name, variant=first.name, status="forming", language=language,
                options=default_game_options(), password_hash=password_hash,
                gm_account_id=gm.id, phase=str(first.first_phase), position={}, deadline=None,
                created=now)
    session.add(game)
    session.flush()
    gamerepo.audit(session, now, "create", game_id=game.id, actor_account_id=gm.id)
    return game


# the registry's refusal, raised by the options' setters (judge.rules.option_registry)
OptionRefused = option_registry.OptionRefused


class OptionNotForRules(ValueError):
    """An option that means nothing under the game's rule set (the registry's ``rule_sets``)."""

    def __init__(self, key: str, rules: RuleSet) -> None:
        super().__init__(key)
        self.rules = rules


def apply_option(game: Game, key: str, value: Any) -> None:
    """Set one option from a parsed option line: the registry's entry for ``key`` says which
    rule sets it applies to and what its setter stores (game columns or option-dict keys)."""
    spec = option_registry.option(key)
    rules = rule_options(game).rules
    if not spec.applies_to(rules):
        raise OptionNotForRules(key, rules)
    ctx = option_registry.OptionContext(options(game), game_variant(game),
                                        forming=game.status == "forming")
    changes = spec.set(value, ctx)
    for column in option_registry.GAME_COLUMNS & changes.keys():
        setattr(game, column, changes.pop(column))
    if changes:
        update_options(game, **changes)


def game_variant(game: Game) -> Variant:
    """The game's variant (``Game.variant``; ``judge variants`` lists the installed ones)."""
    return installed_variant(game.variant or DEFAULT_VARIANT)


def describe_options(game: Game) -> dict[str, Any]:
    """The options a player may see (LIST / SUMMARY), without the judge's bookkeeping: those
    the option registry shows for the game's rule set."""
    opts = options(game)
    shown: dict[str, Any] = {}
    for spec in shown_options(chosen(game).rules):
        if spec.key == "language":
            shown["language"] = game.language
        elif spec.key == "variant":
            shown["variant"] = game.variant or DEFAULT_VARIANT
        elif spec.type is OptionType.LATE_DAYS:
            # the parsed shape of LATEDAYS, which the replies' option_value reads
            shown["late_days"] = {"total": opts["late_bonus_days"],
                                  "per_turn": opts["late_max_per_turn"]}
        elif spec.type is OptionType.FLAG:
            shown[spec.key] = bool(opts.get(spec.key))
        else:
            shown[spec.key] = opts.get(spec.key, spec.default)
    return shown


# ---------------------------------------------------------------- seats and addresses


def is_assigned(seat: Seat) -> bool:
    return not seat.power.startswith(PLACEHOLDER)


def assigned_seats(session: Session, game: Game) -> list[Seat]:
    return [s for s in gamerepo.seats(session, game.id) if is_assigned(s)]


def playing_seats(session: Session, game: Game) -> list[Seat]:
    """Seats whose player still takes part (receives press, votes, may be CC'd)."""
    return [s for s in assigned_seats(session, game)
            if s.account_id is not None and s.status not in ("eliminated", "vacant")]


def address_of_account(session: Session, account_id: int | None) -> str | None:
    if account_id is None:
        return None
    account = session.get(Account, account_id)
    return account.address if account else None


def anon_address(game: Game, power: str, settings: Settings) -> str:
    return f"{game.name}-{power.lower()}@{settings.domain}"


def relay_secret(seat: Seat) -> str:
    """The seat's secret for relay addresses, made on first use (blind games)."""
    if not seat.relay_secret:
        seat.relay_secret = secrets.token_hex(8)
    return seat.relay_secret


def relay_address(game: Game, target: str, reader: Seat, settings: Settings) -> str:
    """The address ``reader``'s player writes to ``target`` at: only that player is ever
    told it, so a mail to it is known to come from the reader's seat (a From is not)."""
    return f"{game.name}-{target.lower()}-{relay_secret(reader)}@{settings.domain}"


def public_address(session: Session, game: Game, seat: Seat, settings: Settings) -> str:
    """The address others may see for a seat: the anonymous one in a blind game."""
    if is_blind(game):
        return anon_address(game, seat.power, settings)
    return address_of_account(session, seat.account_id) or "-"


def sees_addresses(session: Session, game: Game, viewer_id: int | None) -> bool:
    """Whether the account ``viewer_id`` (who asked) may see the players' real addresses
    (issue 25): the game's GM always; another player of the game only in a white-press game
    (where press shows them anyway); a stranger never; nobody in a blind game, where the
    anonymous addresses are all anyone sees. The answer goes to the asker's From, so a forged
    From shows them only to the mailbox of someone who may see them."""
    if viewer_id is None or is_blind(game):
        return False
    if viewer_id == game.gm_account_id:
        return True
    return press_mode(game) == "white" and any(
        s.account_id == viewer_id for s in playing_seats(session, game))


def address_shown(session: Session, game: Game, seat: Seat, settings: Settings,
                  sees: bool, viewer_id: int | None) -> str:
    """A seat's address as shown to a viewer (``sees_addresses``): empty when hidden."""
    if is_blind(game) or sees or (viewer_id is not None and viewer_id == seat.account_id):
        return public_address(session, game, seat, settings)
    return ""


def seat_of_address(session: Session, game: Game, address: str) -> Seat | None:
    account = playrepo.account_by_address(session, address)
    if account is None:
        return None
    found = playrepo.seats_of_account(session, game.id, account.id)
    return found[0] if found else None


def player_addresses(session: Session, game: Game) -> dict[str, str]:
    """Lower-cased real address -> power, for every playing seat (the CC check)."""
    seats = playing_seats(session, game)
    # one query for the accounts, not one per seat: every orders mail copied to anyone (the
    # judge's own address counts) asks this
    addresses = playrepo.addresses_of_accounts(
        session, [s.account_id for s in seats if s.account_id is not None])
    result: dict[str, str] = {}
    for seat in seats:
        address = addresses.get(seat.account_id) if seat.account_id is not None else None
        if address:
            result[address.lower()] = seat.power
    return result


def gm_address(session: Session, game: Game) -> str | None:
    return address_of_account(session, game.gm_account_id)


# ---------------------------------------------------------------- lateness


def late_balance(game: Game, seat: Seat) -> LateBalance:
    """Days left = the game's bonus - days spent (a GM grant lowers the count spent)."""
    return LateBalance(days_left=chosen(game).late_bonus_days - seat.late_days_used,
                       used_this_turn=seat.late_days_this_turn)


def store_late_balance(game: Game, seat: Seat, balance: LateBalance) -> None:
    seat.late_days_used = chosen(game).late_bonus_days - balance.days_left
    seat.late_days_this_turn = balance.used_this_turn


# ---------------------------------------------------------------- start


class StartRefused(ValueError):
    pass


def start_game(session: Session, game: Game, now: datetime, seed: int | None = None) -> dict[str, str]:
    """Assign the powers, set the opening position and the first deadline.

    Returns power -> seat placeholder. The generator's seed and every lot drawn are recorded in
    the game's options and the audit log.
    """
    seats = [s for s in gamerepo.seats(session, game.id) if not is_assigned(s)]
    variant = game_variant(game)
    if len(seats) != variant.players:
        raise StartRefused(str(len(seats)))
    seed = seed if seed is not None else secrets.randbits(63)
    chooser = RandomChooser(random.Random(seed))
    by_name = {s.power: s for s in seats}
    # the lot and the preference lists work over the variant's seats: a seat of seed 001's
    # games for two to four players is several powers, labelled "AUSTRIA+ENGLAND+GERMANY"
    labels = {seat_label(seat): seat for seat in variant.seats}
    # a BOTS game whose creator named his power: the preferences give it to him
    picked = chosen(game)
    named = (picked.bots or {}).get("power")
    if picked.assignment == "preferences" or named:
        wishes = {s.power: seat_ranking(list(s.preferences or []), variant.seats) for s in seats}
        assignment = assign_by_preference(wishes, chooser, list(labels))
    else:
        assignment = assign_by_lot(list(by_name), chooser, list(labels))
    given: dict[str, str] = {}
    # placeholders start with "_", so renaming a seat never collides with another's power
    for placeholder, label in assignment.powers.items():
        seat = by_name[placeholder]
        first, *more = labels[label]
        _take_power(seat, game, first)
        given[first] = placeholder
        for power in more:
            # one row per power (its own ONPs, late days and orders), the same player and
            # password: a person with three powers who sends nothing has three ONPs
            extra = Seat(game_id=game.id, power=power, account_id=seat.account_id,
                         password_hash=seat.password_hash,
                         preferences=list(seat.preferences or []))
            session.add(extra)
            _take_power(extra, game, power)
            given[power] = placeholder
    record = {"seed": seed, "method": picked.assignment,
              "players": {p: by_name[p].account_id for p in by_name},
              "powers": dict(assignment.powers),
              "lots": [asdict(lot) for lot in assignment.lots]}
    update_options(game, assignment_record=record)
    game.position = position_json(variant.initial_position())
    game.phase = str(variant.first_phase)
    game.status = "active"
    session.flush()
    deadlines.schedule(session, game, game.phase, deadlines.next_deadline(game, game.phase, now),
                       now)
    gamerepo.audit(session, now, "start", game_id=game.id, seed=seed,
                   powers=dict(assignment.powers))
    return given


def _take_power(seat: Seat, game: Game, power: str) -> None:
    seat.power = power
    seat.anon_token = f"{game.name}-{power.lower()}"
    seat.status = "active"


def position_json(position: Position) -> dict[str, Any]:
    return position_to_json(position)


def load_position(game: Game) -> Position:
    return position_from_json(game.position)


def local_time(game: Game, when: datetime) -> str:
    """A deadline as the game's players read it: local wall clock with the zone's name."""
    local = when.astimezone(deadlines.game_zone(game))
    return local.strftime("%Y-%m-%d %H:%M %Z")
