"""Press: relayed at once, stored, never showing what the game hides.

* Grey press hides the sender's power (the game must allow it: option ``press grey``).
* In a blind game nobody sees a real address: a player's copy of press carries as Reply-To
  the relay address ``<game>-<sender power>-<reader's secret>@<domain>``, or nothing when grey;
  a mail sent to such an address is relayed to that power's player as press from the seat
  whose secret it carries. The secret is mailed to that seat's player only, so unlike a From
  it cannot be forged.
* With the option ``gm_reads_press`` the GM gets a copy of private press too.
* Grey press is not relayed at once: it leaves with the next batch, on the hour
  (``GREY_PRESS_BATCH``), with every other grey message of that hour, so that its arrival
  time does not point at the mail (and the white press) it came with.
* Press is no amplifier (issue 25): the blocks one mail sends the same reader leave as ONE
  mail (its grey blocks as one more, in the hour's batch: joined with the white they would
  name their sender), and a seat sends at most ``press_per_seat_per_day`` messages in 24
  hours; a block past it is not sent and the reply says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from judge.bots.freepress import answer_letter, read_letter
from judge.parsing.commands import GM, Command, Verb
from judge.parsing.commands_lexicon import lexicon
from judge.service import games
from judge.service.answers import CommandRefusal, Done
from judge.service.commands import reply_text
from judge.service.commands.session import MailSession
from judge.storage import guardrepo, playrepo
from judge.storage.models import Game, Press, Seat

BROADCAST = "*"
GREY_PRESS_BATCH = timedelta(hours=1)


def grey_release(now: datetime) -> datetime:
    """The next batch time strictly after ``now``: the start of the next hour."""
    step = int(GREY_PRESS_BATCH.total_seconds())
    seconds = int(now.timestamp())
    return datetime.fromtimestamp((seconds // step + 1) * step, tz=now.tzinfo)


def within_budget(s: MailSession, game: Game, sender: str) -> bool:
    """Whether ``sender`` may send one more press message today; if not, the refusal is
    said (this mail's blocks already stored count: they are in the session)."""
    cap = s.settings.press_per_seat_per_day
    if guardrepo.press_sent_since(s.session, game.id, sender, s.now - timedelta(days=1)) < cap:
        return True
    s.say(CommandRefusal.PRESS_LIMIT, game=game.name, cap=cap)
    return False


def send_press(s: MailSession, cmd: Command) -> None:
    assert s.actor is not None
    game = s.actor.game
    sender = s.actor.power or GM
    mode = games.press_mode(game)
    if mode == "none" and not (s.actor.gm and s.actor.seat is None):
        s.say(CommandRefusal.NO_PRESS, game=game.name)
        return
    if cmd.grey and mode != "grey":
        s.say(CommandRefusal.NO_GREY_PRESS, game=game.name)
        return
    seats = [seat for seat in games.playing_seats(s.session, game) if seat.power != sender]
    broadcast = cmd.verb is Verb.BROADCAST
    if not broadcast:
        seats = [seat for seat in seats if seat.power in cmd.powers]
    gm = games.gm_address(s.session, game)
    to_gm = not broadcast and GM in cmd.powers and sender != GM and gm is not None
    # computer powers have no address: they read (and answer) white press written to them
    machines = [] if broadcast or cmd.grey or s.actor.power is None else \
        computer_readers(s, game, sender, cmd.powers)
    if not seats and not machines and not broadcast and not to_gm:
        s.say(CommandRefusal.NO_RECIPIENTS, powers=list(cmd.powers))
        return
    to_powers = [BROADCAST] if broadcast else sorted({seat.power for seat in seats} |
                                                     set(machines))
    if to_gm:
        to_powers.append(GM)
    addresses = [games.address_of_account(s.session, seat.account_id) for seat in seats]
    extra: list[str] = []
    if gm and sender != GM and (to_gm or broadcast or games.chosen(game).gm_reads_press):
        extra.append(gm)
    if broadcast:
        extra.extend(games.observers(game))
    if not within_budget(s, game, sender):
        return
    deliver(s, game, sender, to_powers, list(cmd.body), cmd.grey,
            [a for a in addresses if a] + extra)
    s.say(Done.PRESS_SENT, powers=to_powers, broadcast=broadcast, grey=cmd.grey)
    if machines:
        computers_answer(s, game, sender, machines, list(cmd.body))


def computer_readers(s: MailSession, game: Game, sender: str,
                     powers: Sequence[str]) -> list[str]:
    """The computer powers still in the game among ``powers`` (not ``sender``)."""
    council = s.store.load_council(game.id)
    if council is None:
        return []
    seats = {seat.power: seat for seat in games.assigned_seats(s.session, game)}
    return sorted(p for p in set(powers) & set(council.characters)
                  if p != sender and p in seats and seats[p].account_id is None
                  and seats[p].status not in ("eliminated", "vacant"))


def computers_answer(s: MailSession, game: Game, sender: str, readers: Sequence[str],
                     body: list[str]) -> None:
    """Each computer power among ``readers`` answers ``sender``'s free-text press at once, in
    its character and the game's language, saying what it understood (``bots.freepress``):
    said in the reply and kept as press from it (the inbox and the archive show it). Grey
    press gets no answer: the computer power does not know who wrote."""
    council = s.store.load_council(game.id)
    if council is None:
        return
    people = council.people()
    variant = games.game_variant(game).name
    text = "\n".join(body)
    for reader in readers:
        reading = read_letter(text, game.language, sender, reader, variant=variant)
        said = answer_letter(reading, people[reader], sender, reader, game.language,
                             variant=variant)
        s.session.add(Press(game_id=game.id, phase=game.phase, from_power=reader,
                            to_powers=[sender], grey=False, body=said, created=s.now))
        s.say(Done.NEGOTIATION, text=said)


def deliver(s: MailSession, game: Game, sender: str, to_powers: Sequence[str],
            body: list[str], grey: bool, addresses: Sequence[str]) -> None:
    """Store the press and queue it to ``addresses`` (each once, never back to the sender).

    In a blind game a player's copy names, as Reply-To, the relay address of the sender's
    power with the reader's own secret: answering it is authenticated press (see
    ``relay_anonymous``)."""
    s.session.add(Press(game_id=game.id, phase=game.phase, from_power=sender,
                        to_powers=list(to_powers), grey=grey, body="\n".join(body),
                        created=s.now))
    lang = reply_text.check_lang(game.language)
    relayed = not grey and games.is_blind(game) and sender != GM
    subject = reply_text.message(lang, "subject_press", game=game.name,
                             sender=None if grey else sender,
                             broadcast=BROADCAST in to_powers)
    seen = {s.account.address.lower()}
    for address in addresses:
        if address.lower() in seen:
            continue
        seen.add(address.lower())
        reader = games.seat_of_address(s.session, game, address) if relayed else None
        reply_to = games.relay_address(game, sender, reader, s.settings) \
            if reader is not None else None
        text = reply_text.page(lang, "press", game=game.name, sender=None if grey else sender,
                           to_powers=list(to_powers), broadcast=BROADCAST in to_powers,
                           phase=game.phase, body=body, reply_to=reply_to)
        # one mail per reader for the whole inbound mail (sent when it is finished)
        s.send_joined(("press", address.lower(), "grey" if grey else "white"), address,
                      subject, text, game, "press",
                      headers={"Reply-To": reply_to} if reply_to else None,
                      not_before=grey_release(s.now) if grey else None)


def _anonymous_targets(s: MailSession) -> tuple[list[Seat], str | None]:
    """The seats whose relay addresses the mail was sent to, and the secret they carried
    (``<game>-<power>-<secret>@``; None when written without one)."""
    domain = s.settings.domain.lower()
    found: list[Seat] = []
    secret: str | None = None
    for address in (*s.mail.to, *s.mail.cc):
        local, _, dom = address.lower().rpartition("@")
        if dom != domain or "-" not in local:
            continue
        parts = local.split("-")
        token = "-".join(parts[:2])
        seat = playrepo.seat_by_token(s.session, token)
        if seat is not None and seat not in found:
            found.append(seat)
            if len(parts) == 3 and parts[2]:
                secret = secret or parts[2]
    return found, secret


def relay_anonymous(s: MailSession) -> bool:
    """A mail to relay addresses of a blind game is press to those powers; True if so.

    The sender is the seat whose secret the address carries, never whoever the From names:
    a mail without a valid secret is refused, whatever its From."""
    targets, secret = _anonymous_targets(s)
    if not targets:
        return False
    game = s.session.get(Game, targets[0].game_id)
    assert game is not None  # a seat's game (a foreign key)
    s.touch(game)
    s.begin(None)
    targets = [t for t in targets if t.game_id == game.id]
    if game.status not in ("active", "paused") or not games.is_blind(game):
        s.say(CommandRefusal.GAME_NOT_ACTIVE, game=game.name)
        return True
    mine = guardrepo.seat_by_relay_secret(s.session, game.id, secret) if secret else None
    if mine is None or mine.account_id is None or mine.status == "vacant":
        s.say(CommandRefusal.RELAY_NOT_AUTHENTICATED)
        return True
    s.signed = True  # the secret was mailed to that seat's player alone
    if games.press_mode(game) == "none":
        s.say(CommandRefusal.NO_PRESS, game=game.name)
        return True
    sender = mine.power
    targets = [t for t in targets if t.power != sender and t.account_id is not None]
    addresses = [games.address_of_account(s.session, t.account_id) for t in targets]
    extra = []
    gm = games.gm_address(s.session, game)
    if gm and games.chosen(game).gm_reads_press:
        extra.append(gm)
    powers = sorted(t.power for t in targets)
    if not powers:
        s.say(CommandRefusal.NO_RECIPIENTS, powers=[])
        return True
    body = [line for line in s.mail.text.splitlines()] if not s.mail.lines else list(
        s.mail.lines)
    if not within_budget(s, game, sender):
        return True
    deliver(s, game, sender, powers, body, False, [a for a in addresses if a] + extra)
    s.say(Done.PRESS_SENT, powers=powers, broadcast=False, grey=False)
    return True


# ---------------------------------------------------------------- a reply to a press mail


def answered_press(s: MailSession) -> Game | None:
    """The game whose press mail this mail answers (a player pressed "reply": the judge
    reads commands, so his text would only be "not understood"), if it answers one sent to
    its sender. Only the press's recipient is told, so the game's name goes to no one else."""
    return s.store.press_answered(s.mail.references, s.account.address)


def reply_hint(s: MailSession, game: Game) -> dict[str, object]:
    """What the hint on answering press says: the commands, in the reply's language, and the
    writer's own power when he has one in the game (he knows it; a blind game's others are
    not named)."""
    lang = s.lang
    seat = games.seat_of_address(s.session, game, s.account.address)
    own = seat.power if seat is not None and games.is_assigned(seat) else None
    return {"game": game.name, "power": own,
            "signon": lexicon().keyword(Verb.SIGNON, lang),
            "press": lexicon().keyword(Verb.PRESS, lang),
            "endpress": lexicon().keyword(Verb.ENDPRESS, lang)}
