"""One mail's one context (``MailSession``): its handling and its command run, who is acting,
what was said back, copies owed to others.

Replies are collected as ``(key, params)`` and rendered at the end, in the language of the game
the mail dealt with (else the language its keywords were written in), so that a mail that
starts with ``SIGNON`` in English to an Italian game is answered in Italian throughout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from judge.parsing.commands import Command, Malformed, OrderLine, ParsedMail
from judge.service import confirm
from judge.service.answers import CommandRefusal, Done
from judge.service.caller import Caller, Denied, Prepared
from judge.service.commands import reply_text
from judge.service.mail_commands import echo_of
from judge.service.store import Store
from judge.service.uow import ANONYMOUS, SIGNED, UNREAD, MailContext
from judge.storage.models import Account, Game, Seat

# between the parts of a joined mail (press blocks to one reader)
JOIN_LINE = "\n" + "-" * 40 + "\n\n"
# commands that re-read the order set (STATUS, PREVIEW, CLEAR, PROCESS) answered per mail:
# each re-reads every order line above it, so without a bound a mail of STATUS/order pairs
# costs the square of its length in parsing and in reply text
READS_PER_MAIL = 3


@dataclass
class JoinedMail:
    """One outgoing mail made of the parts one inbound mail sent the same reader."""

    to: str
    subject: str
    texts: list[str]
    game: Game
    kind: str
    headers: dict[str, str]
    not_before: datetime | None


@dataclass
class ReplyEntry:
    echo: str | None
    messages: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    # a GM command's answer (PREVIEW shows everyone's orders): never in a player's copy
    gm_only: bool = False


@dataclass
class Actor:
    """Who the lines after a SIGNON act as."""

    game: Game
    seat: Seat | None  # None: the GM acting as GM
    gm: bool  # signed on as GM (possibly acting as a power through BECOME)
    first_entry: int  # where this signon's part of the reply starts (for copies)
    copy_to: set[str] = field(default_factory=set)  # players of record owed a copy
    # every order line of this signon: a mail's lines are ONE set, even when a STATUS
    # between them made the judge store what came before
    order_lines: list[OrderLine] = field(default_factory=list)
    stored: list[str] | None = None  # the set this signon last stored
    # a player with several powers (seed 001): what this signon last stored for each
    stored_by: dict[str, list[str]] = field(default_factory=dict)
    sent_for: bool = False  # a FOR block was sent (the own units may still lack orders)

    @property
    def power(self) -> str | None:
        return self.seat.power if self.seat is not None else None


@dataclass(eq=False)
class MailSession(MailContext):
    """One mail's one context: the mail and its handling (``MailContext``: its commands read
    once, the work prepared for it, what it queued) and its command run (who acts, what is
    said back, what is owed to others). The inbox builds it; ``start_run`` opens the run.
    Sign-ons begin and end in ``signon_parts``."""

    entries: list[ReplyEntry] = field(default_factory=list)
    actor: Actor | None = None
    auth_failed: bool = False
    creating: Game | None = None  # option lines after CREATE apply to this game
    # the game this mail JOINed: a joiner has no power before START, hence no SIGNON, yet
    # the commands about himself (SET NAME) may come in the same mail (issue 28)
    joined: Game | None = None
    pending_orders: list[OrderLine] = field(default_factory=list)
    lang_game: Game | None = None
    # the language a mail with no game and no keyword is answered in when something else
    # says it (a confirmation's answer: the request's language, or CONFERMA's)
    lang_hint: str | None = None
    after: list[Any] = field(default_factory=list)  # callbacks run once the reply is written
    reply_subject: str | None = None
    finished: bool = False  # set when the mail gets no reply at all
    # the mail proved who wrote it (a right password, a confirmation's token, a relay
    # secret): its answer is not counted in the budget strangers can fill (issue 25)
    signed: bool = False
    reads_left: int = READS_PER_MAIL
    address_changed: bool = False
    # bounded commands of other modules: name -> how many this mail used
    counted_by: dict[str, int] = field(default_factory=dict)
    joined_mail: dict[tuple[str, ...], JoinedMail] = field(default_factory=dict)  # send_joined
    # set by ``start_run``: the run needs the sender's account, which the first mail creates,
    # and a mail the inbox answers without a run (over its cap, a loop) must not create one
    store: Store = field(init=False)  # the one door to storage a handler has
    account: Account = field(init=False)
    requests: confirm.Requests = field(init=False)
    # who asks and what this mail may still cost: the use cases' limits (one password
    # check per power, the scrypt budget, the sign-ons cap) hold for the whole mail
    caller: Caller = field(init=False)

    def start_run(self) -> None:
        """Open the command run: the sender's account, the bounds the use cases keep."""
        self.store = Store(self.session)
        self.account = self.store.account_for(self.mail.from_addr, self.now, self.mail.from_name)
        self.requests = confirm.Requests(self, self.account.id)
        self.caller = Caller(self.account, self.now, self.settings,
                             prepared=self.prepared or Prepared())

    @property
    def parsed(self) -> ParsedMail:
        return self.commands().parsed

    # ------------------------------------------------------------ language and output

    @property
    def lang(self) -> str:
        if self.lang_game is not None:
            return reply_text.check_lang(self.lang_game.language)
        if self.lang_hint is not None:
            return reply_text.check_lang(self.lang_hint)
        return reply_text.check_lang(self.parsed.lang or self.account_games_language
                                     or self.account.language)

    @cached_property
    def account_games_language(self) -> str | None:
        # a mail naming no game and using no command word (a chatty one) is answered in the
        # language of the writer's games, not in the judge's default
        return self.store.latest_game_language(self.account.id)

    def touch(self, game: Game) -> None:
        if self.lang_game is None:
            self.lang_game = game

    def begin(self, item: Command | OrderLine | Any) -> ReplyEntry:
        self.entries.append(ReplyEntry(echo=echo_of(item)))
        return self.entries[-1]

    def say(self, key: Done | CommandRefusal, **params: Any) -> None:
        if not self.entries:
            self.entries.append(ReplyEntry(echo=None))
        self.entries[-1].messages.append((key.value, params))

    def render_entries(self, entries: list[ReplyEntry], lang: str) -> list[dict[str, Any]]:
        return [{"echo": e.echo,
                 "messages": [reply_text.message(lang, k, **p) for k, p in e.messages]}
                for e in entries]

    def notify(self, to: str, about: Game | None, key: Done | CommandRefusal, /,
               **params: Any) -> None:
        """A short notice to someone other than the sender, in the game's language."""
        lang = reply_text.check_lang(about.language if about else self.lang)
        body = reply_text.page(lang, "notice", game=about.name if about else None,
                           text=reply_text.message(lang, key.value, **params))
        subject = reply_text.message(lang, "subject_notice", game=about.name if about else "")
        self.send(to, subject, body, game=about)

    def reply_kind(self) -> str:
        """Which daily budget the answer counts in (``judge.service.uow``)."""
        if self.signed or self.creating is not None:
            return SIGNED
        if any(isinstance(item, Command | OrderLine | Malformed) for item in self.parsed.items):
            return ANONYMOUS
        return UNREAD

    # ------------------------------------------------------------ joined mails

    def send_joined(self, key: tuple[str, ...], to: str, subject: str, text: str,
                    game: Game, kind: str, headers: dict[str, str] | None = None,
                    not_before: datetime | None = None) -> None:
        """Queue ``text`` to ``to`` as part of ONE mail per ``key`` for this whole inbound
        mail (issue 25: forty press blocks to one reader are one mail, not forty). The parts
        are joined when the mail is finished; the subject and headers are the first part's,
        a header the parts disagree on is left out."""
        found = self.joined_mail.get(key)
        if found is None:
            self.joined_mail[key] = JoinedMail(to, subject, [text], game, kind, dict(headers or {}),
                                      not_before)
            return
        found.texts.append(text)
        for name, value in list(found.headers.items()):
            if (headers or {}).get(name) != value:
                del found.headers[name]

    def flush_joined(self) -> None:
        joined, self.joined_mail = self.joined_mail, {}
        for part in joined.values():
            row = self.send(part.to, part.subject, JOIN_LINE.join(part.texts),
                                game=part.game, kind=part.kind)
            if row is None:
                continue
            if part.not_before is not None:
                row.next_attempt_at = part.not_before
            if part.headers:
                row.headers = {**(row.headers or {}), **part.headers}

    def deliver(self) -> None:
        """Send the notices the use cases left for others (the GM told a seat is locked)."""
        for notice in self.caller.take_notices():
            self.notify(notice.to, notice.game, notice.key, **notice.params)

    def refused(self, denied: Denied) -> None:
        """Answer a use case's refusal (in the language of the game it concerned)."""
        if denied.about is not None:
            self.touch(denied.about)
        self.say(denied.reason, **denied.params)
        self.deliver()

    # ------------------------------------------------------------ bounded work

    def hash(self, password: str) -> str | None:
        """A new password's hash, or None (refusal said) when the mail's budget is spent."""
        try:
            return self.caller.new_hash(password)
        except Denied as denied:
            self.refused(denied)
            return None

    def check(self, game: Game, power: str, password: str, stored: str) -> bool | None:
        """One password check per power per mail: True/False, or None (refusal said) when
        this power's password was already tried in this mail with another value."""
        try:
            return self.caller.check(game, power, password, stored)
        except Denied as denied:
            self.say(denied.reason, **denied.params)
            return None
