"""The GM's commands (after ``SIGNON GM game password``, or right after CREATE)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from judge.bulletins.views import end_view
from judge.parsing.command_table import COMPUTER
from judge.parsing.commands import Command, Verb, lexicon
from judge.rules.gm_clock import extension_refused, pause_allowance
from judge.rules.option_registry import locked_after_start
from judge.service import (
    announce,
    clock_vote,
    computer,
    deadlines,
    ending,
    gamelog,
    games,
    gm_time,
    snapshot_rows,
    turns,
    usecases,
)
from judge.service.answers import CommandRefusal, Done
from judge.service.commands import guard
from judge.service.commands.registry import handles
from judge.service.commands.session import Actor, MailSession
from judge.service.header_safety import addr_spec
from judge.storage.models import Game, Seat

# options that make no sense to change once the powers are handed out
LOCKED_AFTER_START = locked_after_start()  # from the option registry
# a pause shorter than this is refused: a GM who has used up his pause time is told so rather
# than pausing for a few minutes (issue 30)
MIN_PAUSE_HOURS = 1.0


def _game(s: MailSession) -> Game:
    assert s.actor is not None
    return s.actor.game


def _everyone(s: MailSession, game: Game) -> list[str]:
    return announce.everyone(s.session, game)


def _tell_all(s: MailSession, about: Game, key: Done, /, **params: object) -> None:
    """A notice to every player, the GM and the observers, except the sender (answered)."""
    for address in _everyone(s, about):
        if address.lower() != s.account.address.lower():
            s.notify(address, about, key, **params)


@handles(Verb.OPTION)
def option_command(s: MailSession, cmd: Command) -> None:
    game = s.creating if s.creating is not None and (
        s.actor is None or s.actor.game is s.creating) else _game(s)
    assert game is not None and cmd.option is not None
    keyword = lexicon().option_keyword(cmd.option, s.lang)
    if game.status != "forming" and cmd.option in LOCKED_AFTER_START:
        s.say(CommandRefusal.OPTIONS_LOCKED, option=keyword)
        return
    try:
        games.apply_option(game, cmd.option, cmd.setting)
    except games.OptionNotForRules as exc:
        # the registry declares where each option means something (its rule sets)
        s.say(CommandRefusal.OPTION_NOT_FOR_RULES, option=keyword, rules=str(exc.rules))
        return
    except games.OptionRefused as exc:
        s.say(CommandRefusal.BAD_OPTION, option=keyword, value=str(exc))
        return
    # the value as set; the reply's template says it in the game's language
    s.say(Done.OPTION_SET, option=keyword, name=cmd.option, value=cmd.setting)


@handles(Verb.START)
def start_command(s: MailSession, cmd: Command) -> None:
    game = _game(s)
    # a solo game against the computer gets its computer seats before the powers are drawn
    solo = game.status == "forming" and computer.solo_options(game) is not None
    if solo:
        computer.prepare_solo_seats(s.session, game)
    try:
        game = usecases.start_game(s.session, s.caller, _game(s))
    except usecases.Denied as denied:
        s.refused(denied)
        return
    if solo:
        computer.seat_solo_computers(s.session, game,
                                     int(games.options(game)["assignment_record"]["seed"]))
        computer.phase_started(s.session, game, s.now, s.settings)
    deadline = games.local_time(game, game.deadline) if game.deadline else ""
    rows = []
    told: set[int] = set()
    assigned = games.assigned_seats(s.session, game)
    for seat in assigned:
        public = games.public_address(s.session, game, seat, s.settings)
        if seat.account_id is None:
            public = computer.SEAT_WORD.get(game.language, "computer")
        rows.append({"power": seat.power, "address": public})
        address = games.address_of_account(s.session, seat.account_id)
        if address and seat.account_id not in told:
            # one mail per player, naming every power he holds (seed 001's fewer-player games)
            told.add(seat.account_id or 0)
            others = [o.power for o in assigned
                      if o.account_id == seat.account_id and o.power != seat.power]
            blind = games.is_blind(game)
            anon = games.anon_address(game, seat.power, s.settings) if blind else None
            relay = games.relay_address(game, "POWER", seat, s.settings) if blind else None
            s.notify(address, game, Done.STARTED, game=game.name, power=seat.power,
                     deadline=deadline, anon=anon, seats=[], gm=False, relay=relay,
                     others=others, phase=game.phase)
    s.say(Done.STARTED, game=game.name, power=None, deadline=deadline, anon=None, seats=rows,
          gm=True, phase=game.phase)
    for address in games.observers(game):
        s.notify(address, game, Done.STARTED, game=game.name, power=None, deadline=deadline,
                 anon=None, seats=rows, gm=False, phase=game.phase)


def _reschedule(s: MailSession, game: Game, due: datetime) -> None:
    deadlines.schedule(s.session, game, game.phase, due, s.now)
    when = games.local_time(game, due)
    s.say(Done.DEADLINE_SET, game=game.name, phase=game.phase, deadline=when)
    _tell_all(s, game, Done.DEADLINE_SET, game=game.name, phase=game.phase, deadline=when)


def _extension_refused(s: MailSession, game: Game, due: datetime) -> bool:
    """Issue 30: whether the hours ``due`` adds to the current deadline pass the game's
    EXTENSION LIMIT (the sender is told which cap and what is left); an earlier deadline adds
    none."""
    refused = extension_refused(gm_time.use(game), gm_time.limits(game, "extension_limit"),
                                game.phase, _added_hours(game, due))
    if refused is not None:
        cap, left = refused
        s.say(CommandRefusal.CLOCK_LIMIT, game=game.name, cap=cap.value, left=int(left))
    return refused is not None


def _added_hours(game: Game, due: datetime) -> float:
    return max((due - (game.deadline or due)).total_seconds() / 3600, 0.0)


def _pause_refused(s: MailSession, game: Game) -> bool:
    allowance, cap = pause_allowance(gm_time.use(game), gm_time.limits(game, "pause_limit"),
                                     game.phase)
    if allowance is not None and cap is not None and allowance < MIN_PAUSE_HOURS:
        s.say(CommandRefusal.CLOCK_LIMIT, game=game.name, cap=cap.value, left=int(allowance))
        return True
    return False


def apply_extension(s: MailSession, game: Game, due: datetime) -> None:
    """Move the deadline to ``due`` (checked against the caps), count it, tell everyone."""
    hours = _added_hours(game, due)
    if hours:
        gm_time.record_extension(game, s.now, hours)
        s.store.audit(s.now, "extend", game_id=game.id, actor_account_id=s.account.id,
                      hours=round(hours, 2))
    _reschedule(s, game, due)


def apply_pause(s: MailSession, game: Game) -> None:
    """Stop the clock (checked against the caps) and tell everyone until when at most."""
    until = gm_time.pause(s.session, game, s.now)
    s.store.audit(s.now, "pause", game_id=game.id, actor_account_id=s.account.id)
    when = games.local_time(game, until) if until is not None else None
    s.say(Done.PAUSED, game=game.name, until=when)
    _tell_all(s, game, Done.PAUSED, game=game.name, until=when)


def _asked_of_players(s: MailSession, game: Game, action: str, due: datetime | None) -> bool:
    """Issue 30: a GM who also plays a power moves the clock only with the agreement of a
    majority of the other players. True when the request went to them (a vote by mail:
    APPROVE / OPPOSE) instead of being applied."""
    voters = clock_vote.voters(s.session, game)
    if not clock_vote.gm_plays(s.session, game) or not voters:
        return False
    clock_vote.open_vote(game, action, due, s.now)
    when = games.local_time(game, due) if due is not None else None
    s.say(Done.CLOCK_VOTE_ASKED, game=game.name, action=action, deadline=when)
    for address in clock_vote.voter_addresses(s.session, game):
        s.notify(address, game, Done.CLOCK_VOTE_OPEN, game=game.name, action=action,
                 deadline=when)
    return True


@handles(Verb.SET_DEADLINE)
def set_deadline_command(s: MailSession, cmd: Command) -> None:
    game = _game(s)
    if game.status != "active":
        s.say(CommandRefusal.GAME_NOT_ACTIVE, game=game.name)
        return
    text = cmd.value or ""
    try:
        local = datetime.strptime(text if " " in text else f"{text} 00:00", "%Y-%m-%d %H:%M")
    except ValueError:
        s.say(CommandRefusal.MALFORMED, problem="bad_date", detail=text, keyword=cmd.text.split()[0])
        return
    due = local.replace(tzinfo=deadlines.game_zone(game)).astimezone(UTC)
    if due <= s.now:
        s.say(CommandRefusal.MALFORMED, problem="bad_date", detail=text, keyword=cmd.text.split()[0])
        return
    if _extension_refused(s, game, due):
        return
    # a GM who plays may bring a deadline closer alone; moving it later needs the others
    if _added_hours(game, due) and _asked_of_players(s, game, "extend", due):
        return
    apply_extension(s, game, due)


@handles(Verb.EXTEND)
def extend_command(s: MailSession, cmd: Command) -> None:
    game = _game(s)
    if game.status != "active":
        s.say(CommandRefusal.GAME_NOT_ACTIVE, game=game.name)
        return
    base = max(game.deadline or s.now, s.now)
    # issue 30: an extension, like any computed deadline, skips the game's days off
    due = deadlines.off_days_settled(game, deadlines.wall_clock_after(
        base, float(cmd.number or 0), deadlines.game_zone(game)))
    if _extension_refused(s, game, due) or _asked_of_players(s, game, "extend", due):
        return
    apply_extension(s, game, due)


@handles(Verb.PAUSE)
def pause_command(s: MailSession, cmd: Command) -> None:
    game = _game(s)
    if game.status != "active":
        s.say(CommandRefusal.GAME_NOT_ACTIVE, game=game.name)
        return
    if _pause_refused(s, game) or _asked_of_players(s, game, "pause", None):
        return
    apply_pause(s, game)


def approved(s: MailSession, game: Game, action: str, due: datetime | None) -> None:
    """The other players agreed to the playing GM's request: apply it now, if the caps and
    the game still allow it (the voter who tipped the vote is answered)."""
    if game.status != "active":
        s.say(CommandRefusal.GAME_NOT_ACTIVE, game=game.name)
    elif action == "pause":
        if not _pause_refused(s, game):
            apply_pause(s, game)
    elif due is None or due <= max(s.now, game.deadline or s.now):
        # the deadline moved past the request meanwhile (late days): it is not brought back
        if game.deadline is not None:
            s.say(Done.DEADLINE_SET, game=game.name, phase=game.phase,
                  deadline=games.local_time(game, game.deadline))
    elif not _extension_refused(s, game, due):
        apply_extension(s, game, due)


@handles(Verb.RESUME)
def resume_command(s: MailSession, cmd: Command) -> None:
    game = _game(s)
    if game.status != "paused":
        s.say(CommandRefusal.GAME_NOT_ACTIVE, game=game.name)
        return
    due = gm_time.resume(s.session, game, s.now, "gm")
    when = games.local_time(game, due)
    s.store.audit(s.now, "resume", game_id=game.id, actor_account_id=s.account.id)
    s.say(Done.RESUMED, game=game.name, deadline=when)
    _tell_all(s, game, Done.RESUMED, game=game.name, deadline=when)


@handles(Verb.PROCESS)
def process_command(s: MailSession, cmd: Command) -> None:
    try:
        report = usecases.process_phase(s.session, _game(s), cmd.value or "", s.now, s.settings,
                                        force=cmd.setting == "force")
    except usecases.Denied as denied:
        s.say(denied.reason, **denied.params)
        return
    s.say(Done.PROCESSED, phase=report.phase, action=report.action, why=report.why,
          next_phase=report.next_phase,
          missing=[{"power": m.power, "outcome": m.outcome, "late_days_left": m.late_days_left}
                   for m in report.missing])


@handles(Verb.PREVIEW)
def preview_command(s: MailSession, cmd: Command) -> None:
    game = _game(s)
    if game.status != "active":
        s.say(CommandRefusal.GAME_NOT_ACTIVE, game=game.name)
        return
    report = turns.preview(s.session, game, s.now, s.settings)
    s.say(Done.PREVIEW, phase=report.phase, action=report.action, body=report.body,
          why=report.why)


@handles(Verb.ROLLBACK)
def rollback_command(s: MailSession, cmd: Command) -> None:
    game = _game(s)
    # an ended game's final bulletin made the secret votes public: going back cannot hide
    # them again, and the GM must know it before play resumes
    made_public = ending.revealed_votes(s.session, game) if game.status == "finished" else None
    try:
        turns.rollback(s.session, game, cmd.value or "", s.now, s.settings)
    except LookupError:
        s.say(CommandRefusal.NO_SUCH_TURN, game=game.name, phase=cmd.value or "")
        return
    when = games.local_time(game, game.deadline) if game.deadline else ""
    s.say(Done.ROLLED_BACK, game=game.name, phase=game.phase, deadline=when)
    if made_public is not None:
        s.say(Done.ROLLBACK_OF_ENDED_GAME, game=game.name,
              powers=sorted({str(v["target"]) for v in made_public}), count=len(made_public))
    _tell_all(s, game, Done.ROLLED_BACK, game=game.name, phase=game.phase, deadline=when)


def _assigned_seat(s: MailSession, game: Game, power: str | None) -> Seat | None:
    seat = s.store.seat_by_power(game.id, power or "")
    if seat is None:
        s.say(CommandRefusal.POWER_NOT_IN_GAME, game=game.name, power=power)
    return seat


@handles(Verb.REPLACE)
def replace_command(s: MailSession, cmd: Command) -> None:
    """The new player confirms the address and chooses the password in the same answer
    (``CONFIRM token password``): no password is made up here or mailed to anyone."""
    game = _game(s)
    seat = _assigned_seat(s, game, cmd.power)
    if seat is None:
        return
    if cmd.value == COMPUTER:
        _seat_computer(s, game, seat)
        return
    address = addr_spec(cmd.value or "")
    if address is None:
        s.say(CommandRefusal.BAD_ADDRESS)
        return
    if s.address_changed:
        s.say(CommandRefusal.TOO_MANY, what="addresses")
        return
    s.address_changed = True
    s.store.audit(s.now, "replace", game_id=game.id, actor_account_id=s.account.id,
                   power=seat.power)
    guard.ask_address(s, game, seat.power, address, "replace")


def _seat_computer(s: MailSession, game: Game, seat: Seat) -> None:
    """REPLACE power COMPUTER: a vacant or abandoned seat goes to a computer power, which
    orders from the current phase on (only when the game's option allows it)."""
    if not games.chosen(game).computer_seats:
        s.say(CommandRefusal.NO_COMPUTER_SEATS, game=game.name)
        return
    if seat.status not in ("vacant", "abandoned", "sommossa") and seat.account_id is not None:
        s.say(CommandRefusal.SEAT_NOT_FREE, game=game.name, power=seat.power)
        return
    old = games.address_of_account(s.session, seat.account_id)
    personality = computer.seat_computer(s.session, game, seat, s.now)
    gamelog.event(game, "player replaced by the computer", power=seat.power)
    if games.options(game).get("turn_state", {}).get("replacement_for") == seat.power:
        # the search is over: the game is no longer suspended for this seat
        snapshot_rows.set_turn_state(game, suspended=False, replacement_for=None)
    computer.phase_started(s.session, game, s.now, s.settings)
    s.say(Done.COMPUTER_SEATED, game=game.name, power=seat.power, personality=personality)
    _tell_all(s, game, Done.COMPUTER_SEATED, game=game.name, power=seat.power,
              personality=personality)
    if old:
        s.notify(old, game, Done.COMPUTER_SEATED, game=game.name, power=seat.power,
                 personality=personality)


@handles(Verb.EJECT)
def eject_command(s: MailSession, cmd: Command) -> None:
    game = _game(s)
    seat = _assigned_seat(s, game, cmd.power)
    if seat is None:
        return
    old = games.address_of_account(s.session, seat.account_id)
    seat.status = "vacant"
    s.store.audit(s.now, "eject", game_id=game.id, actor_account_id=s.account.id,
                   power=seat.power)
    s.say(Done.EJECTED, game=game.name, power=seat.power)
    if old:
        s.notify(old, game, Done.EJECTED, game=game.name, power=seat.power)


@handles(Verb.BECOME)
def become_command(s: MailSession, cmd: Command) -> None:
    assert s.actor is not None
    game = _game(s)
    seat = _assigned_seat(s, game, cmd.power)
    if seat is None:
        return
    s.actor = Actor(game=game, seat=seat, gm=True, first_entry=len(s.entries) - 1)
    player = games.address_of_account(s.session, seat.account_id)
    if player and player.lower() != s.account.address.lower() and seat.status != "vacant":
        s.actor.copy_to.add(player)
    s.say(Done.BECAME, game=game.name, power=seat.power)


@handles(Verb.GRANT)
def grant_command(s: MailSession, cmd: Command) -> None:
    game = _game(s)
    seat = _assigned_seat(s, game, cmd.power)
    if seat is None:
        return
    seat.late_days_used -= cmd.number or 0
    left = games.late_balance(game, seat).days_left
    s.say(Done.GRANTED, game=game.name, power=seat.power, days=cmd.number, days_left=left)
    player = games.address_of_account(s.session, seat.account_id)
    if player:
        s.notify(player, game, Done.GRANTED, game=game.name, power=seat.power,
                 days=cmd.number, days_left=left)


# END alone also closes a FOR block and is a common sign-off: only these end a game, and only
# when a second mail repeats it within END_CONFIRM_HOURS
END_GAME_WORDS = frozenset({"END GAME", "FINE PARTITA", "FIN PARTIE", "FIN DE PARTIE"})
END_CONFIRM_HOURS = 48


def _end_confirmed(s: MailSession, game: Game, cmd: Command) -> bool:
    """Ask for a second mail the first time; True when this mail is that confirmation."""
    if " ".join(cmd.text.upper().split()) not in END_GAME_WORDS:
        s.say(CommandRefusal.END_NEEDS_GAME_WORD, game=game.name)
        return False
    pending = games.options(game).get("end_requested") or {}
    mail_id = s.mail.message_id or f"at {s.now.isoformat()}"
    asked = datetime.fromisoformat(pending["at"]) if pending.get("at") else None
    if (asked is None or pending.get("mail") == mail_id
            or s.now - asked > timedelta(hours=END_CONFIRM_HOURS)):
        games.update_options(game, end_requested={"at": s.now.isoformat(), "mail": mail_id})
        s.say(Done.END_TO_CONFIRM, game=game.name, hours=END_CONFIRM_HOURS)
        return False
    games.update_options(game, end_requested=None)
    return True


@handles(Verb.END)
def end_command(s: MailSession, cmd: Command) -> None:
    game = _game(s)
    if game.status == "finished":
        s.say(CommandRefusal.GAME_NOT_ACTIVE, game=game.name)
        return
    if not _end_confirmed(s, game, cmd):
        return
    counts: dict[str, int] = {}
    if game.position:
        position = games.load_position(game)
        counts = {p: len(position.centers_of(p)) for p in position.powers()}
    game.status = "finished"
    game.deadline = None
    deadlines.clear(s.session, game)
    view = end_view(announce.game_info(game, s.settings), ending.last_played(s.session, game),
                    winners=(), reason="gm", centers=counts,
                    scores=ending.position_scores(game, counts), scoring=ending.scoring_of(game),
                    votes=ending.revealed_votes(s.session, game))
    announce.broadcast(s.session, s.settings, s.now, game, "end", view)
    s.store.audit(s.now, "game.ended", game.id, actor_account_id=s.account.id,
                   reason="gm", phase=game.phase)
    s.say(Done.ENDED, game=game.name)
