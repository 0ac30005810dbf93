"""One mail's command session: who is acting, what was said back, copies owed to others.

Replies are collected as ``(key, params)`` and rendered at the end, in the language of the game
the mail dealt with (else the language its keywords were written in), so that a mail that
starts with ``SIGNON`` in English to an Italian game is answered in Italian throughout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judge.parsing.commands import Command, OrderLine, ParsedMail, Verb
from judge.service.commands import render
from judge.service.commands.outcomes import Done, Refusal
from judge.service.uow import MailContext
from judge.storage import gamerepo
from judge.storage.models import Account, Game, Seat

MASKED = "****"


@dataclass
class Entry:
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
    sent_for: bool = False  # a FOR block was sent (the own units may still lack orders)

    @property
    def power(self) -> str | None:
        return self.seat.power if self.seat is not None else None


class MailSession:
    def __init__(self, ctx: MailContext, parsed: ParsedMail) -> None:
        self.ctx = ctx
        self.parsed = parsed
        self.session = ctx.session
        self.now = ctx.now
        self.settings = ctx.settings
        self.account: Account = gamerepo.account_for(ctx.session, ctx.mail.from_addr, ctx.now,
                                                     ctx.mail.from_name)
        self.entries: list[Entry] = []
        self.actor: Actor | None = None
        self.auth_failed = False
        self.creating: Game | None = None  # option lines after CREATE apply to this game
        self.pending_orders: list[OrderLine] = []
        self.lang_game: Game | None = None
        self.after: list[Any] = []  # callbacks run once the reply is written (copies)

    # ------------------------------------------------------------ language and output

    @property
    def lang(self) -> str:
        if self.lang_game is not None:
            return render.check_lang(self.lang_game.language)
        return render.check_lang(self.parsed.lang or self.account.language)

    def touch(self, game: Game) -> None:
        if self.lang_game is None:
            self.lang_game = game

    def begin(self, item: Command | OrderLine | Any) -> Entry:
        self.entries.append(Entry(echo=echo_of(item)))
        return self.entries[-1]

    def say(self, key: Done | Refusal, **params: Any) -> None:
        if not self.entries:
            self.entries.append(Entry(echo=None))
        self.entries[-1].messages.append((key.value, params))

    def render_entries(self, entries: list[Entry], lang: str) -> list[dict[str, Any]]:
        return [{"echo": e.echo,
                 "messages": [render.message(lang, k, **p) for k, p in e.messages]}
                for e in entries]

    def notify(self, to: str, about: Game | None, key: Done | Refusal, /,
               **params: Any) -> None:
        """A short notice to someone other than the sender, in the game's language."""
        lang = render.check_lang(about.language if about else self.lang)
        body = render.page(lang, "notice", game=about.name if about else None,
                           text=render.message(lang, key.value, **params))
        subject = render.message(lang, "subject_notice", game=about.name if about else "")
        self.ctx.send(to, subject, body, game=about)

    # ------------------------------------------------------------ signing on

    def sign_on(self, actor: Actor) -> None:
        self.close_actor()
        self.actor = actor
        self.auth_failed = False
        self.touch(actor.game)

    def settle(self) -> None:
        """Store the orders collected so far and send the copies owed up to here."""
        # orders.py imports this module: import it late to break the cycle
        from judge.service.commands.orders import flush_orders

        flush_orders(self)
        actor = self.actor
        if actor is None:
            return
        part = [e for e in self.entries[actor.first_entry:] if not e.gm_only]
        for address in sorted(actor.copy_to):
            lang = render.check_lang(actor.game.language)
            body = render.page(lang, "copy", game=actor.game.name,
                               power=actor.power or "GM", gm=actor.gm,
                               entries=self.render_entries(part, lang))
            subject = render.message(lang, "subject_copy", game=actor.game.name)
            self.ctx.send(address, subject, body, game=actor.game)
        actor.first_entry = len(self.entries)
        actor.copy_to = set()

    def close_actor(self) -> None:
        """The signon ends: settle it and forget who was acting."""
        from judge.service.commands.orders import warn_unordered_units

        self.settle()
        warn_unordered_units(self)
        self.actor = None

    def finish(self) -> None:
        self.close_actor()
        if not any(e.messages for e in self.entries):
            self.say(Done.NOTHING)
        lang = self.lang
        body = render.page(lang, "reply", entries=self.render_entries(self.entries, lang))
        self.ctx.reply(body, lang=lang)


def echo_of(item: Any) -> str | None:
    """The line as it is repeated in the reply, with any password masked."""
    if isinstance(item, OrderLine):
        return item.text
    if not isinstance(item, Command):
        return getattr(item, "text", None)
    words = item.text.split()
    if item.verb in (Verb.CREATE, Verb.JOIN, Verb.SIGNON) and item.password:
        # the password is the word after the game (or after the njudge "Pgame" word)
        for i in range(len(words) - 1, -1, -1):
            if words[i] == item.password:
                words[i] = MASKED
                break
    if item.verb is Verb.SET_PASSWORD and item.value:
        words = [MASKED if w == item.value else w for w in words]
    return " ".join(words)
