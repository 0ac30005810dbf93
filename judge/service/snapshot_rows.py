"""From database rows to the plain data the rules read, and back.

``build_snapshot`` gathers one game at one moment (position, seats, latest orders of the phase,
the secret orders others sent for a power in ONP or Sommossa, votes) into the rules'
``GameSnapshot``. The seat vocabulary differs on purpose: storage keeps ``onp1`` and
``abandoned`` so a GM reading the table sees them, the rules keep a strike count and
``awaiting_replacement``; the two mappings live here and nowhere else.

Runtime facts the rules need between wake-ups (the deadline already extended by late days, a
suspension for a replacement search) are kept in ``game.options["turn_state"]``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from judge.adjudicator.catalog import DEFAULT_VARIANT
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.jsonio import position_from_json
from judge.adjudicator.orders import NotationError, Order, parse_canonical
from judge.adjudicator.phase import Phase
from judge.rules.chosen_options import ChosenOptions
from judge.rules.options import EndConditions, GameOptions
from judge.rules.snapshot import GameSnapshot, ReplacementSearch, SeatState, SeatStatus
from judge.storage import Session
from judge.storage.gamerepo import current_orders_by_power, seats
from judge.storage.models import Game
from judge.storage.models import Seat as SeatRow
from judge.storage.playrepo import votes_of_kinds

log = logging.getLogger(__name__)

STATE_KEY = "turn_state"
LOT_KEY = "lot_record"  # seed 001's two-player lot: seed, seats, the winner, who Italy joins


def lot_joins(game: Game) -> str | None:
    """The power the two-player lot gave the neutral power to (None before the draw)."""
    record = (game.options or {}).get(LOT_KEY) or {}
    joins = record.get("joins")
    return str(joins) if joins else None


def chosen(game: Game) -> ChosenOptions:
    """The game's options, typed, defaults from the option registry for any it has not set."""
    return ChosenOptions.read(game.options or {})


def game_options(options: ChosenOptions) -> GameOptions:
    """The rules' options from the game's."""
    end_after = options.end.get("after")
    return GameOptions(
        rules=options.rules,
        late_bonus_days=options.late_bonus_days,
        late_max_per_turn=options.late_max_per_turn,
        replacement_wait=timedelta(hours=options.replacement_wait_hours),
        replacement_grace=timedelta(hours=options.replacement_grace_hours),
        resume_after_sommossa=timedelta(hours=options.sommossa_resume_hours),
        removal_distance=options.removal_distance,
        builds=options.builds,
        end=EndConditions(
            solo_centers=options.solo_centres,
            end_after=Phase.parse(end_after) if end_after else None,
            end_on=_end_on(options.end.get("on")),
            solo_player=(options.bots or {}).get("human"),
        ),
    )


def _end_on(value: object) -> datetime | None:
    """The stored end date; one that is not a date (stored before dates were checked) is
    ignored rather than failing every turn of the game."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        log.warning("game option end.on %r is not a date: ignored", value)
        return None


def turn_state(game: Game) -> dict[str, Any]:
    """The runtime flags of the current phase (reset when the phase changes)."""
    state = dict((game.options or {}).get(STATE_KEY) or {})
    if state.get("phase") != game.phase:
        state = {"phase": game.phase}
    return state


def set_turn_state(game: Game, **values: Any) -> None:
    state = turn_state(game)
    state.update(values)
    options = dict(game.options or {})
    options[STATE_KEY] = state
    game.options = options  # a new dict, so SQLAlchemy sees the JSON change


def rules_status(row: SeatRow) -> tuple[SeatStatus, int]:
    """Storage seat status -> (rules status, strikes)."""
    if row.status == "sommossa":
        return SeatStatus.SOMMOSSA, row.strikes
    if row.status in ("abandoned", "vacant"):
        return SeatStatus.AWAITING_REPLACEMENT, row.strikes
    if row.status == "eliminated":
        return SeatStatus.ELIMINATED, row.strikes
    return SeatStatus.ACTIVE, max(row.strikes, 1 if row.status == "onp1" else 0)


def storage_status(status: SeatStatus, strikes: int) -> str:
    if status is SeatStatus.SOMMOSSA:
        return "sommossa"
    if status is SeatStatus.AWAITING_REPLACEMENT:
        return "abandoned"
    if status is SeatStatus.ELIMINATED:
        return "eliminated"
    return "onp1" if strikes >= 1 else "active"


def late_days_left(row: SeatRow, options: ChosenOptions) -> int:
    return options.late_bonus_days - row.late_days_used


def parse_orders(texts: list[Any]) -> list[Order]:
    """Stored canonical orders; a row that is not canonical is skipped (it was refused)."""
    out: list[Order] = []
    for text in texts:
        try:
            out.append(parse_canonical(str(text)))
        except NotationError:
            continue
    return out


@dataclass(frozen=True)
class Gathered:
    """The rules snapshot plus the rows it was built from."""

    snapshot: GameSnapshot
    seat_rows: dict[str, SeatRow]
    submitted_texts: dict[str, list[str]]


def build_snapshot(session: Session, game: Game, now: datetime) -> Gathered:
    options = chosen(game)
    position = position_from_json(game.position)
    rows = {s.power: s for s in seats(session, game.id)}
    seat_data: dict[str, SeatState] = {}
    orders: dict[str, list[Order]] = {}
    texts: dict[str, list[str]] = {}
    state = turn_state(game)
    # after a ROLLBACK, orders sent before it do not allow early processing (turns.rollback)
    stale_versions = dict(state.get("rollback_versions") or {})
    on_file = current_orders_by_power(session, game.id, game.phase)  # one query
    for power, row in rows.items():
        status, strikes = rules_status(row)
        latest = on_file.get(power)
        # CLEAR stores an empty set: that is no orders again
        has = latest is not None and latest.source == "submitted" and bool(latest.orders)
        stale = latest is not None and latest.version <= int(stale_versions.get(power, 0))
        if has and latest is not None:
            texts[power] = [str(t) for t in latest.orders]
            orders[power] = parse_orders(latest.orders)
        seat_data[power] = SeatState(
            power=power, status=status, strikes=strikes,
            late_days_left=late_days_left(row, options),
            late_days_used_this_turn=row.late_days_this_turn,
            has_orders=has, wait=row.wait or stale, holder=row.account_id,
        )
    foreign: dict[str, dict[str, list[Order]]] = {}
    # the three kinds in one query, sorted out here
    cast = votes_of_kinds(session, game.id, ("sommossa_order", "draw", "concede"))
    for vote in cast:
        if vote.kind == "sommossa_order" and vote.phase == game.phase and vote.target_power:
            foreign.setdefault(vote.target_power, {})[vote.voter_power] = parse_orders(
                list((vote.payload or {}).get("orders", []))
            )
    draw = frozenset(v.voter_power for v in cast if v.kind == "draw")
    concessions = {v.voter_power: v.target_power
                   for v in cast if v.kind == "concede" and v.target_power}
    replacement = None
    if state.get("replacement_for"):
        power = state["replacement_for"]
        found = power in rows and rows[power].status == "active" and rows[power].account_id
        replacement = ReplacementSearch(power=power, found=bool(found))
    snapshot = GameSnapshot(
        position=position,
        deadline=game.deadline or now,
        now=now,
        seats=seat_data,
        orders=orders,
        foreign_orders=foreign,
        options=game_options(options),
        extended=bool(state.get("extended")),
        suspended=bool(state.get("suspended")),
        replacement=replacement,
        draw_votes=draw,
        concessions=concessions,
        variant=installed_variant(game.variant or DEFAULT_VARIANT),
        joins=lot_joins(game),
    )
    return Gathered(snapshot, rows, texts)
