"""Turn processing: what the deadline (or the GM) makes happen to a game, in ONE transaction.

``process(session, game, now, settings)`` locks the game row, asks the rules what is due
(``judge.rules.due.decide``) and applies it: extend the deadline and charge late days, declare
a Sommossa, end the game, or adjudicate the phase -- store an immutable ``turn`` snapshot,
queue the bulletins (rendered after the commit: ``judge.service.rendering``), move the game to its next phase and deadline. Every
decision that changes the game is announced.

Idempotent: a ``turn`` row is unique per (game, phase), and a phase whose turn exists is never
adjudicated again; the caller's transaction commits game, turn, seats, deadlines and outbox
rows together or not at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from typing import Any

from judge.adjudicator.adjudication import Adjudication, Options, adjudicate
from judge.adjudicator.catalog import DEFAULT_VARIANT
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.jsonio import position_from_json, position_to_json
from judge.adjudicator.outcomes import Outcome
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Position
from judge.adjudicator.variant import Variant
from judge.bulletins.render import render
from judge.bulletins.views import Notice, TurnRecord, notice_view, results_view
from judge.rules.decision import Action, Decision, SeatChangeWhy, Why
from judge.rules.due import decide, needs_orders
from judge.rules.game_end import GameEnd, check_end
from judge.rules.generated import GeneratedWhy
from judge.rules.snapshot import GameSnapshot, SeatStatus
from judge.service import announce, computer_phase, deadlines, gamelog, rendering, webhooks
from judge.service.ending import finish_game
from judge.service.lot import draw_lot, undo_lot
from judge.service.snapshot_rows import (
    build_snapshot,
    chosen,
    game_options,
    lot_joins,
    rules_status,
    set_turn_state,
    storage_status,
    turn_state,
)
from judge.settings import Settings
from judge.storage import Session, recordrepo
from judge.storage.gamerepo import (
    audit,
    current_orders,
    current_orders_by_power,
    seats,
    submit_orders,
    turns,
)
from judge.storage.models import Game, Seat, Turn
from judge.storage.playrepo import turn_by_phase, votes
from judge.storage.turnrepo import lock_game as lock_game_row

# how a generated order is labelled in the bulletin
_SOURCE = {
    GeneratedWhy.ONP_MUTUAL_SUPPORT: "onp",
    GeneratedWhy.ONP_NOTHING_TO_SUPPORT: "onp",
    GeneratedWhy.ABANDONED_MAJORITY: "majority",
    GeneratedWhy.ABANDONED_NO_MAJORITY_HOLD: "majority",
    GeneratedWhy.SOMMOSSA_MAJORITY: "sommossa",
    GeneratedWhy.SOMMOSSA_NO_MAJORITY_HOLD: "sommossa",
    GeneratedWhy.SOMMOSSA_DISLODGED_REMOVED: "sommossa",
}


@dataclass(frozen=True)
class MissingOrders:
    """A power whose player sent no orders for a phase the GM processed: what follows for it
    (``outcome``: the seat change's why, or "automatic" for a retreat or adjustment phase's
    automatic orders, which cost no strike) and the late days it had left, which a GM's
    PROCESS does not spend (seed 002: they are spent when a deadline passes)."""

    power: str
    outcome: str
    late_days_left: int


@dataclass(frozen=True)
class TurnReport:
    """What ``process`` did, for the GM's reply and the logs."""

    action: str  # nothing | extended | adjudicated | sommossa | ended | done_already | inactive
    why: str
    phase: str
    next_phase: str | None = None
    given_subject: str = ""
    given_body: str = ""
    # a GM's PROCESS: the players who sent nothing, and what the house rules do to each
    missing: tuple[MissingOrders, ...] = ()
    # an adjudicated phase's bulletin is rendered after the commit (``rendering``): the
    # report renders the same stored view only if someone reads its text
    pending: tuple[str, str, dict[str, Any]] | None = field(default=None, repr=False,
                                                             compare=False)

    @cached_property
    def _text(self) -> tuple[str, str]:
        if self.pending is not None:
            return render(*self.pending)
        return self.given_subject, self.given_body

    @property
    def subject(self) -> str:
        return self._text[0]

    @property
    def body(self) -> str:
        """The results bulletin (the whole text for a preview)."""
        return self._text[1]


def lock_game(session: Session, game_id: int) -> Game:
    """The game row, locked until the transaction ends (SELECT ... FOR UPDATE on PostgreSQL;
    SQLite serialises writers with BEGIN IMMEDIATE already)."""
    game = lock_game_row(session, game_id)
    if game is None:
        raise LookupError(f"no game with id {game_id}")
    return game


def _forced(snapshot: GameSnapshot, now: datetime) -> GameSnapshot:
    """The GM's PROCESS / PREVIEW: the deadline counts as passed and no late day is charged."""
    seats = {p: replace(s, late_days_left=0) for p, s in snapshot.seats.items()}
    return replace(snapshot, now=now, deadline=min(snapshot.deadline, now), seats=seats,
                   suspended=False, extended=False)


def process(session: Session, game: Game, now: datetime, settings: Settings, *,
            preview: bool = False, force: bool = False) -> TurnReport:
    """Do what is due for ``game`` at ``now``; ``force`` processes the phase at once (GM)."""
    game = lock_game(session, game.id)
    phase = game.phase
    if game.status != "active":
        return TurnReport("inactive", game.status, phase)
    if turn_by_phase(session, game.id, phase) is not None:
        return TurnReport("done_already", "turn_exists", phase)
    gathered = build_snapshot(session, game, now)
    snapshot = _forced(gathered.snapshot, now) if (force or preview) else gathered.snapshot
    decision = decide(snapshot)
    missing: tuple[MissingOrders, ...] = ()
    if force and decision.action is Action.ADJUDICATE:
        # the log and the bulletin say the GM processed it, not that a deadline passed
        decision = replace(decision, why=Why.GM_PROCESS)
        missing = _missing_orders(gathered.snapshot, decision)
    if preview:
        if decision.action is not Action.ADJUDICATE:
            return TurnReport("nothing", decision.why.value, phase)
        return _preview(session, game, settings, snapshot, decision)
    if decision.action is Action.NOTHING:
        return TurnReport("nothing", decision.why.value, phase)
    if decision.action is Action.END_GAME and decision.game_end is not None:
        finish_game(session, game, now, settings, decision.game_end)
        report = TurnReport("ended", decision.why.value, phase)
    elif decision.action in (Action.EXTEND_DEADLINE, Action.DECLARE_SOMMOSSA):
        report = _move_deadline(session, game, now, settings, decision)
    else:
        report = _adjudicate(session, game, now, settings, gathered.submitted_texts, decision)
        report = replace(report, missing=missing) if missing else report
    gamelog.event(game, report.action, phase=phase, why=report.why, next=report.next_phase,
                  without_orders=",".join(m.power for m in missing) or None)
    return report


def _missing_orders(snapshot: GameSnapshot, decision: Decision) -> tuple[MissingOrders, ...]:
    """The played powers that owed orders and sent none, in the order of their names."""
    found = []
    movement = snapshot.position.phase.is_movement
    for power, seat in sorted(snapshot.seats.items()):
        if seat.holder is None or seat.has_orders or seat.status is not SeatStatus.ACTIVE \
                or not needs_orders(snapshot.position, power):
            continue
        update = decision.seat_updates.get(power)
        outcome = update.why.value if update is not None else "automatic"
        found.append(MissingOrders(power, outcome, seat.late_days_left if movement else 0))
    return tuple(found)


def _apply_seats(session: Session, game: Game, decision: Decision) -> list[Notice]:
    """Write the rules' seat changes; return what must be announced."""
    rows = {s.power: s for s in seats(session, game.id)}
    notices: list[Notice] = []
    for power, update in decision.seat_updates.items():
        row = rows.get(power)
        if row is None:
            continue
        strikes = row.strikes if update.strikes is None else update.strikes
        if update.status is not None:
            row.status = storage_status(update.status, strikes)
        elif row.status in ("active", "onp1"):
            row.status = "onp1" if strikes >= 1 else "active"
        row.strikes = strikes
        if update.late_days_charged:
            row.late_days_used += update.late_days_charged
            row.late_days_this_turn += update.late_days_charged
        kinds = {
            SeatChangeWhy.FIRST_ONP: ["onp1"],
            SeatChangeWhy.ABANDONED_AWAIT_REPLACEMENT: ["onp2", "replacement_call"],
            SeatChangeWhy.ABANDONED_SOMMOSSA: ["onp2", "sommossa"],
            SeatChangeWhy.NO_REPLACEMENT_SOMMOSSA: ["sommossa"],
            SeatChangeWhy.REPLACEMENT_TAKES_OVER: ["replacement_found"],
            SeatChangeWhy.LATE_DAY_CHARGED: ["late"],
        }.get(update.why, [])
        for kind in kinds:
            until = decision.new_deadline or decision.suspend_until
            notices.append(Notice(kind, power, days=update.late_days_charged, until=until))
    return notices


ABANDONED = (SeatChangeWhy.ABANDONED_AWAIT_REPLACEMENT, SeatChangeWhy.ABANDONED_SOMMOSSA)


def _count_records(session: Session, game: Game, position: Position,
                   submitted: Mapping[str, list[str]], decision: Decision) -> None:
    """Issue 30 point 6: each player who owed orders in this phase played it or missed it;
    a second ONP is an abandoned power. Counted before the seats change."""
    for row in seats(session, game.id):
        if row.account_id is None or row.status not in ("active", "onp1"):
            continue
        if needs_orders(position, row.power):
            if submitted.get(row.power):
                recordrepo.count(session, row.account_id, game.id, played=1)
            else:
                recordrepo.count(session, row.account_id, game.id, missed=1)
        update = decision.seat_updates.get(row.power)
        if update is not None and update.why in ABANDONED:
            recordrepo.count(session, row.account_id, game.id, abandoned=1)


def _move_deadline(session: Session, game: Game, now: datetime, settings: Settings,
                   decision: Decision) -> TurnReport:
    """Late days charged, a replacement found, or a Sommossa declared: same phase, new deadline."""
    assert decision.new_deadline is not None
    # issue 30: a late day or a suspension never ends on one of the game's days off
    due = deadlines.off_days_settled(game, decision.new_deadline)
    decision = replace(decision, new_deadline=due)
    notices = _apply_seats(session, game, decision)
    if decision.action is Action.EXTEND_DEADLINE and decision.why.value == "late_days_charged":
        set_turn_state(game, extended=True)
    else:
        set_turn_state(game, suspended=False, replacement_for=None)
    deadlines.schedule(session, game, game.phase, due, now)
    view = notice_view(announce.game_info(game, settings), game.phase, notices,
                       deadline=due,
                       seats=announce.seat_infos(_seat_rows(session, game), chosen(game)))
    subject, body = announce.broadcast(session, settings, now, game, "notice", view)
    announce.tell_club_list(session, settings, now, game, game.phase, notices,
                            due)
    audit(session, now, f"turn.{decision.action.value}", game.id, phase=game.phase,
          why=decision.why.value, deadline=due.isoformat())
    action = "sommossa" if decision.action is Action.DECLARE_SOMMOSSA else "extended"
    return TurnReport(action, decision.why.value, game.phase, game.phase, subject, body)


def game_variant(game: Game) -> Variant:
    return installed_variant(game.variant or DEFAULT_VARIANT)


def _seat_rows(session: Session, game: Game) -> list[Seat]:
    return seats(session, game.id)


def _sources(decision: Decision) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for power, made in decision.generated.items():
        for g in made:
            out.setdefault(power, {})[str(g.order)] = _SOURCE.get(g.why, "generated")
    return out


def outcomes_json(adj: Adjudication, sources: Mapping[str, Mapping[str, str]],
                  ) -> dict[str, list[dict[str, Any]]]:
    """Per power, every result as JSON, with where the order came from."""
    out: dict[str, list[dict[str, Any]]] = {}
    for power, results in adj.results.items():
        rows = []
        for r in results:
            row = r.to_json()
            row["source"] = ("generated" if r.generated
                             else sources.get(power, {}).get(str(r.order), "submitted"))
            rows.append(row)
        out[power] = rows
    return out


def _illegal(adj: Adjudication) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for power, results in adj.results.items():
        bad = [{"order": str(r.order), "refusal": r.refusal.value if r.refusal else ""}
               for r in results if r.outcome is Outcome.ILLEGAL]
        if bad:
            out[power] = bad
    return out


def _record(before: dict[str, Any], after: dict[str, Any], adj: Adjudication,
            sources: Mapping[str, Mapping[str, str]]) -> TurnRecord:
    return TurnRecord(phase=str(adj.phase), results=outcomes_json(adj, sources),
                      before=before, after=after)


def _preview(session: Session, game: Game, settings: Settings, snapshot: GameSnapshot,
             decision: Decision) -> TurnReport:
    """The would-be results, rendered for the GM only; nothing is stored or sent."""
    adj = adjudicate(snapshot.position, dict(decision.orders),
                     Options(snapshot.options.removal_distance, snapshot.joins,
                             snapshot.options.builds), snapshot.variant)
    record = _record(game.position, position_to_json(adj.position), adj, _sources(decision))
    view = results_view(announce.game_info(game, settings), record, preview=True,
                        seats=announce.seat_infos(_seat_rows(session, game), chosen(game)))
    subject, body = render("results", announce.game_info(game, settings).language, view)
    return TurnReport("preview", decision.why.value, game.phase, str(adj.position.phase),
                      subject, body)


def _adjudicate(session: Session, game: Game, now: datetime, settings: Settings,
                submitted: dict[str, list[str]], decision: Decision) -> TurnReport:
    if decision.suspend_until is not None:  # issue 30: a suspension never ends on a day off
        decision = replace(decision, suspend_until=deadlines.off_days_settled(
            game, decision.suspend_until))
    phase = game.phase
    snapshot_position = position_from_json(game.position)
    before = dict(game.position)
    variant = game_variant(game)
    rules = game_options(chosen(game))
    adj = adjudicate(snapshot_position, dict(decision.orders),
                     Options(rules.removal_distance, lot_joins(game), rules.builds),
                     variant)
    after = position_to_json(adj.position)
    sources = _sources(decision)
    computer_phase.mark_sources(session, game, decision.orders, sources)
    _count_records(session, game, snapshot_position, submitted, decision)
    notices = _apply_seats(session, game, decision)
    solo = computer_phase.solo_notice(game, adj.position)
    if solo is not None:
        notices.append(Notice("solo_won", solo))
    record = _record(before, after, adj, sources)
    # seed 001's two-player game: the lot is drawn as the game reaches the Fall 1914
    # adjustments, and announced in this bulletin, before anyone orders for Italy
    notices += draw_lot(session, game, adj.position.phase, now)

    ended: GameEnd | None = check_end(adj.position, game_options(chosen(game)).end, now,
                                      variant=variant, joins=lot_joins(game))
    next_phase = str(adj.position.phase)
    suspended = decision.suspend_until is not None
    due_at = None
    if ended is None:
        due_at = decision.suspend_until or deadlines.next_deadline(game, next_phase, now)
    info = announce.game_info(game, settings)
    seat_rows = _seat_rows(session, game)
    # a phase nobody has orders for (an adjustment without builds or removals to choose) is
    # processed at once: its bulletin must not announce a deadline the players will never see
    # (issue 13: a W1901A deadline mailed in the same second as the W1901A results)
    immediate = ended is None and not suspended and not any(
        rules_status(s)[0].value == "active" and needs_orders(adj.position, s.power)
        for s in seat_rows)
    view = results_view(info, record, seats=announce.seat_infos(seat_rows, chosen(game)),
                        notices=notices, deadline=None if immediate else due_at,
                        finished=ended is not None, immediate=immediate)
    turn = Turn(
        game_id=game.id, phase=phase, position_before=before,
        orders_submitted=submitted,
        orders_generated={p: [{"order": str(g.order), "why": g.why.value} for g in made]
                          for p, made in decision.generated.items()},
        orders_illegal=_illegal(adj), outcomes=record.results, position_after=after,
        # keyed by language (HISTORY and the archive read it so); one language per game.
        # Filled by the render job once the text is rendered, after this commit.
        bulletins={},
        created=now,
    )
    session.add(turn)
    session.flush()
    # the bulletin's text and the map of the phase just played (issue 7; retreats and
    # adjustments too, issue 13) are rendered after this transaction commits, off the game's
    # lock, the map once for every recipient (issue 16): a durable job commits with the turn
    job = rendering.queue_results(
        session, settings, now, game, event="results", language=info.language, view=view,
        addresses=announce.everyone(session, game), turn_id=turn.id,
        map_spec={"game": game.name, "phase": phase, "before": before,
                  "outcomes": record.results, "after": after, "language": game.language})
    # the club's list hears of a replacement called or found (seed 002); held, like every
    # mail queued after the results in this transaction, until the results have left
    announce.tell_club_list(session, settings, now, game, next_phase, notices, due_at)
    webhooks.emit(session, game, "results", phase, now, next=next_phase)  # issue 27
    # foreign orders for a power whose player is back are void (seed 002)
    for power in decision.drop_foreign_orders_for:
        for vote in votes(session, game.id, phase=phase, kind="sommossa_order"):
            if vote.target_power == power:
                session.delete(vote)
    game.position = after
    game.phase = next_phase
    for row in seat_rows:
        row.wait = False
        row.late_days_this_turn = 0
    state: dict[str, Any] = {"phase": next_phase}
    if suspended and decision.call_replacement_for:
        state.update(suspended=True, replacement_for=decision.call_replacement_for[0])
    options = dict(game.options or {})
    options["turn_state"] = state
    game.options = options
    audit(session, now, "turn.adjudicated", game.id, phase=phase, next_phase=next_phase,
          why=decision.why.value)
    session.flush()
    computer_phase.phase_played(session, game, snapshot_position, decision.orders,
                                adj.position, now, settings)
    if ended is not None:
        finish_game(session, game, now, settings, ended)
    else:
        assert due_at is not None
        # a look at once only when the new phase may be complete already: nobody has to
        # order, or orders for it were sent ahead. Otherwise the look was a second
        # transaction per game that found nothing (a storm's thousand games: a thousand);
        # orders stored later, the computer powers' below included, add their own look.
        look = immediate or bool(current_orders_by_power(session, game.id, next_phase))
        deadlines.schedule(session, game, next_phase, due_at, now, look=look)
        computer_phase.phase_started(session, game, now, settings)
    rendering.hold_rest(session, job, game)
    return TurnReport("adjudicated", decision.why.value, phase, next_phase,
                      pending=(job.event, job.language, job.view))


def rollback(session: Session, game: Game, phase: str, now: datetime,
             settings: Settings) -> TurnReport:
    """Go back to the start of ``phase``: its turn and every later one are undone.

    Nothing is lost: the undone snapshots are copied whole into the audit log before their
    rows go (the unique (game, phase) turn must be free for the phase to be played again).
    """
    game = lock_game(session, game.id)
    target = turn_by_phase(session, game.id, phase)
    if target is None:
        raise LookupError(f"phase {phase} of {game.name} has not been processed")
    undone = [t for t in turns(session, game.id) if t.id >= target.id]
    for turn in undone:
        audit(session, now, "turn.rolled_back", game.id, phase=turn.phase,
              snapshot={"position_before": turn.position_before,
                        "orders_submitted": turn.orders_submitted,
                        "orders_generated": turn.orders_generated,
                        "outcomes": turn.outcomes, "position_after": turn.position_after})
        session.delete(turn)
    # Orders already sent for the phases after ``phase`` were written against a board that is
    # undone: they must not come back silently when play reaches those phases again. They
    # are withdrawn by an empty version (earlier versions stay for the record).
    later = {t.phase for t in undone if t.id != target.id} | {game.phase}
    for later_phase in sorted(later - {phase}):
        for seat in seats(session, game.id):
            row = current_orders(session, game.id, later_phase, seat.power)
            if row is not None and row.orders:
                submit_orders(session, game.id, later_phase, seat.power, [], now,
                              source="rolled_back")
    game.position = dict(target.position_before)
    game.phase = phase
    # back before the two-player lot was drawn: it is drawn again when play gets there
    undo_lot(session, game, Phase.parse(phase), now)
    if game.status == "finished":
        game.status = "active"
    # The orders still on file for the phase were all in before: without this the phase
    # would be adjudicated again, unchanged, at the next wake-up (seconds after the GM's
    # ROLLBACK). Early processing waits until every power has sent orders again; at the
    # deadline the orders on file are used as they are.
    on_file = {s.power: row.version for s in seats(session, game.id)
               if (row := current_orders(session, game.id, phase, s.power)) is not None}
    options = dict(game.options or {})
    options["turn_state"] = {"phase": phase, "rollback_versions": on_file}
    game.options = options
    session.flush()
    due_at = deadlines.next_deadline(game, phase, now)
    deadlines.schedule(session, game, phase, due_at, now)
    # the promise ledger and trust go back with the board, in this same transaction
    computer_phase.rolled_back(session, game, phase, [t.phase for t in undone])
    computer_phase.phase_started(session, game, now, settings)
    return TurnReport("rolled_back", "gm", phase, phase)


def preview(session: Session, game: Game, now: datetime, settings: Settings) -> TurnReport:
    return process(session, game, now, settings, preview=True)


__all__ = ["TurnReport", "lock_game", "preview", "process", "rollback", "turn_state"]
