"""Orders by mail: the order set of a signon, CLEAR, STATUS, FOR ... END, and the CC rule.

A mail's order lines after a SIGNON are the power's whole set for the phase: they are read in
the game's language against the current position and stored as a new ``order_set`` version
(earlier versions stay). Only the orders that were understood are stored; every refused line
is answered with its reason.
"""

from __future__ import annotations

from typing import Any

from judge.adjudicator.phase import Phase
from judge.parsing.commands import Command, OrderLine, Verb, closest_command, lexicon
from judge.parsing.errors import Note, ParseError
from judge.parsing.messages import in_notation
from judge.parsing.messages import render as render_reason
from judge.parsing.report import ParsedOrder, ParseReport, parse_orders
from judge.rules.lateness import days_spendable
from judge.service import games, usecases
from judge.service.answers import CommandRefusal, Done
from judge.service.commands.registry import handles
from judge.service.commands.session import MailSession, ReplyEntry
from judge.service.usecases import EXCLUDED, ORDERS_OPEN, without_orders
from judge.storage.models import Game, Vote

# order refusals that suggest the line was a mistyped command rather than an order
NOT_AN_ORDER = frozenset({ParseError.UNKNOWN_PROVINCE, ParseError.UNRECOGNISED_ORDER})
# seat statuses in which the other players send orders for the power (seed 002)
FOR_OPEN = ("onp1", "abandoned", "sommossa")
# notes worth telling the player: the judge read the line otherwise than written, or the
# order will likely not do what was meant. The others (a unit type filled in, a comment
# skipped...) would only clutter every reply.
TOLD_NOTES = frozenset({Note.REPLACED_BY_LATER, Note.SUPPORT_DOES_NOT_MATCH, Note.NEEDS_CONVOY,
                        Note.COAST_FILLED_IN, Note.READ_AS_RETREAT, Note.READ_AS_SUPPORT_HOLD,
                        Note.READ_AS_BUILD, Note.READ_IN_GAME_NOTATION, Note.COAST_MISSING_HOLDS})
# message parameters that hold a power: shown by the power's name in the game's language
_POWER_PARAMS = ("owner", "power")
# ... and those that hold a canonical unit or order: shown in the game's notation
_ORDER_PARAMS = ("unit", "order")


def _say_report(s: MailSession, report: ParseReport, first_new_line: int = 1) -> list[str]:
    """Answer the refused lines (those from ``first_new_line`` on); return what stands."""
    for item in report.items:
        if item.error is None or item.line_no < first_new_line:
            continue
        suggestion = closest_command(item.text) if item.error in NOT_AN_ORDER else None
        if suggestion is not None:
            s.say(CommandRefusal.NOT_UNDERSTOOD, suggestion=lexicon().keyword(suggestion, s.lang))
        else:
            s.say(Done.ORDER_ERROR, line=item.text, reason=_reason(item, s.lang))
    for item in report.items:
        if item.error is not None or item.line_no < first_new_line:
            continue
        for note, params in item.notes:
            if note in TOLD_NOTES:
                s.say(Done.ORDER_NOTE, line=item.text,
                      note=render_reason(note, _localised(params, s.lang, item.variant), s.lang,
                                          variant=item.variant))
    return [str(order) for order in report.orders]


def _localised(params: dict[str, Any], lang: str, variant: str) -> dict[str, Any]:
    """The parser names powers and units canonically (GERMANY, A WAR); a reply names them
    as the game's players do (Germania, A VAR in French)."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key in _POWER_PARAMS and isinstance(value, str):
            value = lexicon().power_name(value, lang, variant)
        elif key in _ORDER_PARAMS and isinstance(value, str):
            value = in_notation([value], lang, variant=variant)[0]
        out[key] = value
    return out


def _reason(item: ParsedOrder, lang: str) -> str:
    assert item.error is not None
    params = _localised(item.error_params, lang, item.variant)
    return render_reason(item.error, params, lang, variant=item.variant)


def _notation(orders: list[str], game: Game) -> list[str]:
    """Canonical orders as ``game``'s players write them, on the game's own map."""
    return in_notation(orders, game.language, variant=games.game_variant(game).name)


def refusal_text(item: ParsedOrder, lang: str) -> str:
    """Why an order line was refused, in ``lang``, as a mail reply says it (the play page)."""
    return _reason(item, lang)


def flush_orders(s: MailSession) -> None:
    """Store the order lines collected for the current signon, if any."""
    lines, s.pending_orders = s.pending_orders, []
    actor = s.actor
    if not lines or actor is None or actor.seat is None:
        return
    game, seat = actor.game, actor.seat
    s.entries.append(ReplyEntry(echo="\n".join(line.text for line in lines)))
    first_new = len(actor.order_lines) + 1
    every_line = [*actor.order_lines, *lines]
    held = held_powers(s, game, seat.power)
    if len(held) > 1:
        actor.order_lines = every_line
        _flush_several(s, actor, held, every_line, first_new)
        return
    try:
        outcome = usecases.submit_orders(s.session, game, seat.power,
                                         [line.text for line in every_line], s.now,
                                         by_account_id=s.account.id, previous=actor.stored,
                                         prepared=s.caller.prepared)
    except usecases.Denied as denied:
        s.say(denied.reason, **denied.params)
        return
    actor.order_lines = every_line
    _say_report(s, outcome.report, first_new)
    if outcome.all_refused:
        s.say(CommandRefusal.NO_VALID_ORDERS)
        return
    if outcome.version is None:
        return  # the new lines changed nothing (all refused): no new version
    actor.stored = outcome.stored
    s.say(Done.ORDERS_STORED, phase=game.phase, version=outcome.version,
          orders=_notation(outcome.stored, game),
          missing=_notation(outcome.missing, game))


def held_powers(s: MailSession, game: Game, power: str) -> list[str]:
    """The powers the signed-on player holds in ``game``: seed 001's games for two to four
    players give one person several, and one SIGNON (with any of them) orders them all."""
    seat = s.store.seat_by_power(game.id, power)
    if seat is None or seat.account_id is None:
        return [power]
    rows = s.store.seats_of_account(game.id, seat.account_id)
    powers = sorted(r.power for r in rows if games.is_assigned(r) and r.status not in EXCLUDED)
    return powers if power in powers else [power]


def route_orders(game: Game, powers: list[str], texts: list[str]) -> dict[str, list[int]]:
    """Which of ``powers`` each order line is for (line indexes per power): the power whose
    unit (or home centre, for a build) the line names; a line none of them can give goes to
    the first power whose unit it names, else to the first power (which says what is wrong)."""
    position = games.load_position(game)
    rules = games.chosen(game).rules
    reports = {p: parse_orders(texts, game.language, position=position, power=p, rules=rules)
               for p in powers}
    errors = {p: {item.line_no: item.error for item in r.items} for p, r in reports.items()}
    routed: dict[str, list[int]] = {}
    for index in range(len(texts)):
        line_no = index + 1
        fine = [p for p in powers if errors[p].get(line_no) is None]
        own = [p for p in powers if errors[p].get(line_no) is not ParseError.NOT_YOUR_UNIT]
        target = (fine or own or powers)[0]
        routed.setdefault(target, []).append(index)
    return routed


def _flush_several(s: MailSession, actor: Any, powers: list[str], every_line: list[OrderLine],
                   first_new: int) -> None:
    """One mail's order lines for several powers of the same player: each power's lines are
    that power's whole set (a power the mail says nothing about keeps what it had)."""
    game = actor.game
    routed = route_orders(game, powers, [line.text for line in every_line])
    new = {i for i in range(len(every_line)) if i + 1 >= first_new}
    stored_any = False
    for power in powers:
        indexes = routed.get(power, [])
        if not indexes or not new.intersection(indexes):
            continue  # nothing new for this power in this part of the mail
        mine = [every_line[i].text for i in indexes]
        first = next(n for n, i in enumerate(indexes, start=1) if i in new)
        try:
            outcome = usecases.submit_orders(s.session, game, power, mine, s.now,
                                             by_account_id=s.account.id,
                                             previous=actor.stored_by.get(power))
        except usecases.Denied as denied:
            s.say(denied.reason, **denied.params)
            continue
        _say_report(s, outcome.report, first)
        if outcome.version is None:
            continue
        stored_any = True
        actor.stored_by[power] = outcome.stored
        s.say(Done.ORDERS_STORED, phase=game.phase, version=outcome.version,
              orders=_notation(outcome.stored, game),
              missing=_notation(outcome.missing, game))
    if not stored_any and not any(actor.stored_by.values()):
        s.say(CommandRefusal.NO_VALID_ORDERS)


def warn_unordered_units(s: MailSession) -> None:
    """A signon that sent FOR blocks and no orders of its own: say the own units have none."""
    actor = s.actor
    if actor is None or actor.seat is None or not actor.sent_for or actor.order_lines:
        return
    game, seat = actor.game, actor.seat
    if game.status not in ORDERS_OPEN or seat.status in EXCLUDED or not game.phase.endswith("M"):
        return
    row = s.store.current_orders(game.id, game.phase, seat.power)
    if row is not None and row.orders:
        return
    missing = without_orders(games.load_position(game), seat.power, [])
    if missing:
        s.say(Done.OWN_UNITS_WITHOUT_ORDERS, missing=_notation(missing, game),
              second=seat.status == "onp1")


@handles(Verb.CLEAR)
def clear_command(s: MailSession, cmd: Command) -> None:
    assert s.actor is not None and s.actor.seat is not None
    s.pending_orders = []  # flushed already: CLEAR reads_orders
    s.actor.order_lines = []
    s.actor.stored = []
    game, seat = s.actor.game, s.actor.seat
    if game.status not in ORDERS_OPEN:
        s.say(CommandRefusal.NO_ORDERS_ACCEPTED, game=game.name, status=game.status)
        return
    s.store.submit_orders(game.id, game.phase, seat.power, [], s.now,
                           submitted_by_id=s.account.id)
    s.say(Done.CLEARED, phase=game.phase)


@handles(Verb.STATUS)
def status_command(s: MailSession, cmd: Command) -> None:
    assert s.actor is not None and s.actor.seat is not None
    game, seat = s.actor.game, s.actor.seat
    orders: list[str] = []
    missing: list[str] = []
    adjustment = 0
    if game.status in ("active", "paused") and game.position:
        position = games.load_position(game)
        row = s.store.current_orders(game.id, game.phase, seat.power)
        orders = list(row.orders) if row else []
        missing = without_orders(position, seat.power, orders)
        if position.phase.is_adjustment:
            adjustment = position.adjustment_counts(games.game_variant(game).board).get(
                seat.power, 0
            )
    balance = games.late_balance(game, seat)
    late_turn = (days_spendable(Phase.parse(game.phase), balance, games.rule_options(game))
                 if game.status in ORDERS_OPEN else 0)
    # the writer's own secret FOR votes of this phase (seed 002): only he may see them
    votes = [{"power": v.target_power,
              "orders": _notation(list((v.payload or {}).get("orders", [])), game)}
             for v in s.store.votes(game.id, kind="sommossa_order")
             if v.phase == game.phase and v.voter_power == seat.power]
    s.say(Done.STATUS, game=game.name, power=seat.power, phase=game.phase, status=game.status,
          orders=_notation(orders, game),
          missing=_notation(missing, game), adjustment=adjustment, wait=seat.wait,
          late_left=balance.days_left, late_turn=late_turn, for_votes=votes,
          deadline=games.local_time(game, game.deadline) if game.deadline else None)


@handles(Verb.FOR)  # the reply echoes the orders written above the block first
def for_command(s: MailSession, cmd: Command) -> None:
    assert s.actor is not None and s.actor.seat is not None and cmd.power
    game, seat = s.actor.game, s.actor.seat
    s.actor.sent_for = True
    if seat.status in EXCLUDED:
        s.say(CommandRefusal.OUT_OF_GAME, game=game.name, power=seat.power, status=seat.status)
        return
    target = s.store.seat_by_power(game.id, cmd.power)
    # only movement phases take the others' orders (seed 002): a retreat or adjustment of
    # a power in ONP or Sommossa follows the automatic rules
    if (game.status != "active" or target is None or target.status not in FOR_OPEN
            or target.power == seat.power or not game.phase.endswith("M")):
        s.say(CommandRefusal.FOR_NOT_OPEN, power=cmd.power)
        return
    # read before the write transaction when the drain prepared it (usecases.read_orders)
    report, _ = usecases.read_orders(game, target.power, list(cmd.body), s.caller.prepared)
    stored = _say_report(s, report)
    if not stored and report.errors:
        # a block of refused lines must not wipe out the orders voted earlier
        s.say(CommandRefusal.NO_VALID_ORDERS)
        return
    s.store.delete_votes(game.id, game.phase, "sommossa_order", seat.power,
                          target.power)
    s.store.add(Vote(game_id=game.id, phase=game.phase, kind="sommossa_order",
                       voter_power=seat.power, target_power=target.power,
                       payload={"orders": stored}, created=s.now))
    s.say(Done.FOR_RECORDED, power=target.power, orders=_notation(stored, game))


def refuse_cc(s: MailSession) -> bool:
    """Seed 002: an orders mail copied to another player of the game is refused, GM told."""
    mail = s.mail
    # the judge's own address is no copy: without it, a plain orders mail asks nothing more
    # (the check cost four queries per mail, issue 16)
    copied = {a.lower() for a in (*mail.to, *mail.cc)} - {mail.from_addr.lower(),
                                                          s.settings.address.lower()}
    if not copied:
        return False
    has_orders = any(isinstance(i, OrderLine) or (isinstance(i, Command) and i.verb is Verb.FOR)
                     for i in s.parsed.items)
    if not has_orders:
        return False
    for cmd in s.parsed.commands():
        if cmd.verb is not Verb.SIGNON or not cmd.game:
            continue
        game = s.store.game_by_name(cmd.game)
        if game is None:
            continue
        # nothing about the other players' addresses is looked at, let alone said, before
        # the sender proved the seat is theirs: a wrong password is answered as such
        stored = s.store.stored_hash(game.name, cmd.power or "")
        if not stored or not s.check(game, cmd.power or "", cmd.password or "", stored):
            continue
        players = games.player_addresses(s.session, game)
        others = {a: p for a, p in players.items() if p != cmd.power}
        hit = sorted(others[a] for a in copied if a in others)
        if not hit:
            continue
        s.touch(game)
        s.begin(cmd)
        # the sender is told "another player", never which power an address plays
        s.say(CommandRefusal.CC_REFUSED, game=game.name, powers=[], gm=False, power=cmd.power)
        gm = games.gm_address(s.session, game)
        if gm:
            s.notify(gm, game, CommandRefusal.CC_REFUSED, game=game.name, powers=hit, gm=True,
                     power=cmd.power)
        s.store.audit(s.now, "cc_refused", game_id=game.id,
                       actor_account_id=s.account.id, power=cmd.power, copied=hit)
        return True
    return False
