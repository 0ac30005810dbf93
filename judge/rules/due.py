"""The one entry point for the service layer: given a snapshot, what is due now, and why.

Called whenever something changes (orders in, a deadline reached, a vote). Order of concerns:
the game may be over; a suspension for a replacement may be running or ending; otherwise the
phase is processed when its deadline has passed (after charging late days to the powers that
have some) or earlier when every order is in.

Applying a decision (the service's part): EXTEND_DEADLINE -> set the deadline, add each seat's
``late_days_charged`` to its used days and take it from its balance, mark the phase extended.
ADJUDICATE -> adjudicate ``orders``, store ``generated`` with their reasons, apply
``seat_updates``, delete the foreign orders of ``drop_foreign_orders_for``; for the next phase
reset every seat's days used this turn (lateness.new_turn) and has_orders; if ``suspend_until``
is set, that is the next deadline, with ``suspended`` and a ReplacementSearch for
``call_replacement_for``. DECLARE_SOMMOSSA / REPLACEMENT_FOUND -> apply the seat update, end the
suspension, set ``new_deadline``. Eliminated powers: game_end.eliminated(next position).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.orders import Order
from judge.adjudicator.position import Position
from judge.rules.decision import Action, Decision, SeatChangeWhy, SeatUpdate, Why
from judge.rules.defaults import free_home_centers
from judge.rules.fill import Standing, generate_orders
from judge.rules.game_end import check_end
from judge.rules.generated import GeneratedOrder
from judge.rules.lateness import LateBalance, days_spendable, extended_deadline
from judge.rules.onp import AbandonmentOutcome, after_abandonment, keeps_three_and_two
from judge.rules.options import RuleSet
from judge.rules.snapshot import GameSnapshot, ReplacementSearch, SeatState, SeatStatus
from judge.rules.votes import eligible_votes


def needs_orders(position: Position, power: str) -> bool:
    """Whether ``power`` has anything to order in this phase."""
    phase = position.phase
    if phase.is_movement:
        return bool(position.units_of(power))
    if phase.is_retreat:
        return any(d.unit.power == power for d in position.dislodged.values())
    owed = position.owed(power, installed_variant(position.variant).board)
    return owed < 0 or (owed > 0 and bool(free_home_centers(position, power)))


def may_take_over(position: Position, seat: SeatState) -> bool:
    """A replacement player may take an abandoned power (awaiting one, or in Sommossa) while
    it keeps three centres, two of them at home (seed 002)."""
    abandoned = seat.status in (SeatStatus.AWAITING_REPLACEMENT, SeatStatus.SOMMOSSA)
    return abandoned and keeps_three_and_two(position, seat.power)


def decide(snapshot: GameSnapshot) -> Decision:
    s = snapshot
    end = check_end(s.position, s.options.end, s.now, s.draw_votes, s.concessions,
                    s.variant, s.joins)
    if end is not None:
        return Decision(Action.END_GAME, Why.GAME_OVER, game_end=end)
    if s.suspended and s.replacement is not None:
        return _suspension(s, s.replacement)
    phase = s.position.phase
    needing = [
        p
        for p in s.powers
        if s.seat(p).status is SeatStatus.ACTIVE and needs_orders(s.position, p)
    ]
    missing = [p for p in needing if not s.seat(p).has_orders]
    if s.now < s.deadline:
        if missing:
            return Decision(Action.NOTHING, Why.BEFORE_DEADLINE, wake_at=s.deadline)
        if s.extended:
            return _adjudicate(s, Why.LATE_POWERS_ALL_IN)
        if any(s.seat(p).wait for p in needing) or _votes_open(s):
            return Decision(Action.NOTHING, Why.WAITING_FOR_PLAYERS, wake_at=s.deadline)
        return _adjudicate(s, Why.ALL_ORDERS_IN)
    if phase.is_movement:
        chargeable = [p for p in missing if days_spendable(phase, _balance(s.seat(p)), s.options)]
        if chargeable:
            return Decision(
                Action.EXTEND_DEADLINE,
                Why.LATE_DAYS_CHARGED,
                new_deadline=extended_deadline(s.deadline, s.now),
                seat_updates={
                    p: SeatUpdate(SeatChangeWhy.LATE_DAY_CHARGED, late_days_charged=1)
                    for p in chargeable
                },
            )
    return _adjudicate(s, Why.DEADLINE_PASSED)


def _balance(seat: SeatState) -> LateBalance:
    return LateBalance(seat.late_days_left, seat.late_days_used_this_turn)


def _votes_open(s: GameSnapshot) -> bool:
    """Others are voting for a power nobody plays: only the deadline closes the vote."""
    return s.position.phase.is_movement and any(
        s.seat(p).status in (SeatStatus.SOMMOSSA, SeatStatus.AWAITING_REPLACEMENT)
        and s.position.units_of(p)
        for p in s.powers
    )


def _suspension(s: GameSnapshot, search: ReplacementSearch) -> Decision:
    power = search.power
    start = max(s.deadline, s.now)
    if search.found:
        # seed 002: "sospende la partita per una settimana ... Se il sostituto viene trovato, si
        # proroga la partita ancora di una settimana": the week of the search, then one more
        # for the newcomer's diplomacy. Decided as soon as he is found, so every player learns
        # it (and the new deadline) at once rather than when the search would have ended.
        return Decision(
            Action.EXTEND_DEADLINE,
            Why.REPLACEMENT_FOUND,
            new_deadline=start + s.options.replacement_grace,
            seat_updates={
                power: SeatUpdate(
                    SeatChangeWhy.REPLACEMENT_TAKES_OVER, status=SeatStatus.ACTIVE, strikes=0
                )
            },
        )
    if s.now < s.deadline:
        return Decision(Action.NOTHING, Why.SUSPENDED_FOR_REPLACEMENT, wake_at=s.deadline)
    return Decision(
        Action.DECLARE_SOMMOSSA,
        Why.NO_REPLACEMENT,
        new_deadline=start + s.options.resume_after_sommossa,
        seat_updates={
            power: SeatUpdate(SeatChangeWhy.NO_REPLACEMENT_SOMMOSSA, status=SeatStatus.SOMMOSSA)
        },
    )


def _adjudicate(s: GameSnapshot, why: Why) -> Decision:
    position = s.position
    rules = s.options.rules
    voters = {p for p in s.powers if s.seat(p).status is SeatStatus.ACTIVE}
    board = s.variant.rules_at(position.phase, s.joins).board
    orders: dict[str, tuple[Order, ...]] = {}
    generated: dict[str, tuple[GeneratedOrder, ...]] = {}
    updates: dict[str, SeatUpdate] = {}
    dropped: list[str] = []
    calls: list[str] = []
    for power in s.powers:
        seat = s.seat(power)
        if seat.status is SeatStatus.ELIMINATED:
            continue
        submitted = tuple(s.orders.get(power, ()))
        standing = _standing(s, seat, updates, dropped, calls)
        own = submitted if standing is Standing.PLAYING else ()
        votes = one_vote_per_player(
            s, power, eligible_votes(s.foreign_orders.get(power, {}), voters - {power}))
        made = generate_orders(position, power, own, standing, rules, votes, board,
                               s.options.removal_distance)
        if own or made:
            orders[power] = own + tuple(g.order for g in made)
        if made:
            generated[power] = tuple(made)
    return Decision(
        Action.ADJUDICATE,
        why,
        seat_updates=updates,
        orders=orders,
        generated=generated,
        drop_foreign_orders_for=tuple(dropped),
        call_replacement_for=tuple(calls),
        suspend_until=s.now + s.options.replacement_wait if calls else None,
    )


def _standing(
    s: GameSnapshot,
    seat: SeatState,
    updates: dict[str, SeatUpdate],
    dropped: list[str],
    calls: list[str],
) -> Standing:
    """Who gives this power's orders now; records the seat changes that follow."""
    power = seat.power
    if seat.status is SeatStatus.SOMMOSSA:
        return Standing.SOMMOSSA
    movement = s.position.phase.is_movement
    if seat.status is SeatStatus.AWAITING_REPLACEMENT:
        return Standing.ABANDONED if movement else Standing.PLAYING
    if not movement or s.options.rules is not RuleSet.ITALIAN or not s.position.units_of(power):
        return Standing.PLAYING
    if seat.has_orders:
        if seat.strikes > 0:
            updates[power] = SeatUpdate(SeatChangeWhy.ORDERS_RECEIVED, strikes=0)
            dropped.append(power)
        return Standing.PLAYING
    strikes = seat.strikes + 1
    if strikes == 1:
        updates[power] = SeatUpdate(SeatChangeWhy.FIRST_ONP, strikes=1)
        return Standing.FIRST_ONP
    if after_abandonment(s.position, power) is AbandonmentOutcome.AWAIT_REPLACEMENT:
        updates[power] = SeatUpdate(
            SeatChangeWhy.ABANDONED_AWAIT_REPLACEMENT,
            status=SeatStatus.AWAITING_REPLACEMENT,
            strikes=strikes,
        )
        calls.append(power)
    else:
        updates[power] = SeatUpdate(
            SeatChangeWhy.ABANDONED_SOMMOSSA, status=SeatStatus.SOMMOSSA, strikes=strikes
        )
    return Standing.ABANDONED


def one_vote_per_player(s: GameSnapshot, target: str, votes: Mapping[str, Sequence[Order]],
                        ) -> dict[str, Sequence[Order]]:
    """Votes for ``target``'s units count once per person (seed 001's players hold several
    powers): the player of ``target`` votes not at all, and a player who voted through two of
    his powers counts once (the first power, in the map's order)."""
    own = s.seat(target).holder
    out: dict[str, Sequence[Order]] = {}
    seen: set[int] = set()
    for voter in sorted(votes):
        holder = s.seat(voter).holder
        if holder is not None and (holder == own or holder in seen):
            continue
        if holder is not None:
            seen.add(holder)
        out[voter] = votes[voter]
    return out


def with_orders(snapshot: GameSnapshot, power: str, orders: tuple[Order, ...]) -> GameSnapshot:
    """The snapshot after ``power`` sent ``orders`` (for callers and tests)."""
    seats = dict(snapshot.seats)
    seats[power] = replace(snapshot.seat(power), has_orders=True)
    submitted = dict(snapshot.orders)
    submitted[power] = orders
    return replace(snapshot, seats=seats, orders=submitted)
