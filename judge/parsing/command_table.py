"""Every mail command declared once: who may use it, what its arguments are, how they are read.

A command is one ``CommandSpec`` row of ``COMMANDS`` (after Mailman 3's ``eml_*`` commands, each
of which carries its own name, arguments and description), keyed by its ``Verb``. Its words in
the three languages and the argument syntax shown to players are translation data in
``command_words.json`` under the same verb (``CommandSpec.words``); its HELP line is prose, an
English msgid in its row here translated by the gettext catalogs (``judge.i18n``). Nothing
else about a command is written anywhere else. From this table come:

* parsing: ``commands.parse_mail`` reads a command's arguments with ``read_arguments``, and
  from ``following`` whether the plain lines after it are a power's orders;
* HELP and the command reference pages, docs/commands*.md (``command_rows``, ``reference_page``;
  ``scripts/command_table.py`` rewrites the pages and a test checks they are current);
* authorisation: ``role``, ``gm_may``, ``joiner_may``, ``after_create`` (the service refuses a
  command before its handler runs);
* the mail pipeline: ``secret`` (the password a command carries: checked or hashed before the
  write lock, masked in replies and in the stored raw mail), ``orders`` (it reads the stored
  orders), ``signon`` (it opens or switches a sign-on), ``adds_sender`` (the mail waits for the
  sender's address to be confirmed);
* the API's command door: ``api`` (which token, a seat's or the GM's, may send it);
* handlers: the service binds one to each verb (``judge.service.commands.registry``), and a test
  checks every verb that reaches the service has exactly one.

Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Flag, StrEnum, auto
from types import MappingProxyType
from typing import Any, Literal

from judge.adjudicator.phase import Phase
from judge.i18n import N_, tr
from judge.parsing.commands_lexicon import fold, lexicon, parse_power
from judge.parsing.commands_options import grey_words, value_of
from judge.parsing.commands_types import LANGS, Command, Problem, Role, Verb
from judge.rules.option_registry import EVERY_RULE_SET, OPTIONS, OptionSpec
from judge.rules.options import RuleSet

Fields = dict[str, Any]  # Command field -> value read from the words


class ArgumentProblem(Exception):  # noqa: N818  (a reason, not a crash: it becomes a Malformed item)
    """An argument could not be read: ``problem`` says why, ``detail`` quotes the words."""

    def __init__(self, problem: Problem, detail: str = "") -> None:
        super().__init__(problem.value)
        self.problem = problem
        self.detail = detail


Reader = Callable[[list[str]], Fields]


@dataclass(frozen=True)
class Arg:
    """One argument: its reader, whether it may be left out, how many words it may take.

    ``words=None`` takes the rest of the line (only the last argument may); such a reader does
    its own counting.
    """

    read: Reader
    optional: bool = False
    words: int | None = 1


class SecretUse(StrEnum):
    CHECKED = "checked"  # checked against the stored hash (SIGNON)
    NEW = "new"  # a new password: hashed, ahead of the write lock (CREATE, JOIN, SET PASSWORD)


@dataclass(frozen=True)
class Secret:
    """The argument of a command that is a password: never repeated in a reply, masked in the
    stored raw mail, its scrypt work done before the mail's write transaction."""

    field: Literal["password", "value"]  # the ``Command`` field that holds it
    use: SecretUse
    # a line the parser refused keeps this many words in the reply (the keyword and what
    # comes before the password), the rest is masked: SIGNON power game ****
    kept_words: int

    def of(self, cmd: Command) -> str | None:
        value: str | None = getattr(cmd, self.field)
        return value


class Orders(StrEnum):
    """What a command does with the orders of the sign-on in force. Any but ``NONE``: the
    order lines given above it in the mail are stored first (a bounded number of times)."""

    NONE = "none"
    READS = "reads"  # reads the stored set (STATUS, PREVIEW, PROCESS)
    CLEARS = "clears"  # empties it (CLEAR)
    BLOCK = "block"  # its block holds orders for the power it names (FOR ... END)


class SignOn(StrEnum):
    """What a command does to the sign-on in force (who the following lines act as)."""

    KEEPS = "keeps"
    OPENS = "opens"  # a new part of the mail begins: the sign-on before it is settled and closed
    SWITCHES = "switches"  # the same sign-on acts as another power: copies owed so far go first
    CLOSES = "closes"  # the mail's commands end here (the parser stops reading)


class Following(StrEnum):
    """What the parser reads the plain lines after the command as: a power's orders, or a
    stranger's words answered with the closest command."""

    AS_BEFORE = "as before"
    ORDERS_UNLESS_GM = "orders unless gm"  # its power's orders; not when it signs on as GM
    ORDERS = "orders"  # the orders of the power it names (the GM acting as that power)
    NOT_ORDERS = "not orders"  # nobody's orders: the sign-on before it no longer speaks


class Api(Flag):
    """Which API token may send the command (issue 27); the rest are the mail's alone."""

    NONE = 0
    SEAT = auto()  # a seat's token: that power's player speaking
    GM = auto()  # the GM's token


@dataclass(frozen=True)
class CommandSpec:
    """Everything about one mail command; the service only binds a handler to its verb.

    Its words in each language and the argument syntax players are shown are translation
    data under the same verb in ``command_words.json`` (``words``)."""

    verb: Verb
    role: Role
    args: tuple[Arg, ...] = ()
    closer: Verb | None = None  # the command opens a block of lines ended by this verb
    gm_may: bool = False  # a player command the GM may also use as GM, without BECOME
    # HELP's line for the command: an English msgid, shown through the catalogs (judge.i18n)
    help: str = ""
    secret: Secret | None = None  # which argument is a password
    orders: Orders = Orders.NONE
    signon: SignOn = SignOn.KEEPS
    # a player who JOINed in this same mail (no power before START) may send it: what
    # concerns him alone (his name for the archive)
    joiner_may: bool = False
    # may follow CREATE in the same mail, for the game just created, before any SIGNON
    after_create: bool = False
    # would add the sender's address to a game: held until the address is confirmed
    adds_sender: bool = False
    following: Following = Following.AS_BEFORE
    # a line of it the parser could not read still changes what follows (a broken CREATE
    # ends the sign-on before it as a good one would; a broken SIGNON signs nobody on)
    following_if_malformed: bool = False
    api: Api = Api.NONE
    # its keywords are its own (False: an option line, whose keywords are the options')
    own_words: bool = True

    @property
    def words(self) -> Mapping[str, Any]:
        """Its entry in ``command_words.json``: phrases per language, argument syntax."""
        found: Mapping[str, Any] = lexicon().raw["commands"][self.verb.value]
        return found

    @property
    def reads_orders(self) -> bool:
        return self.orders is not Orders.NONE

    @property
    def standalone(self) -> bool:
        """No arguments: the keyword must stand alone, else the line is something else
        (``FIN`` is the French END but also Finland's code in an order)."""
        return not self.args

    @property
    def least(self) -> int:
        return sum(1 for a in self.args if not a.optional)

    @property
    def most(self) -> int | None:
        if any(a.words is None for a in self.args):
            return None
        return sum(a.words or 0 for a in self.args)


# ---------------------------------------------------------------- argument readers

_HOURS = re.compile(r"^(\d+)([HDGJ]?)$")  # hours, or days: D (en), G (giorni), J (jours)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}( \d{1,2}:\d{2})?")


def game_name(word: str) -> str:
    return word.strip().lower()


def _game(words: list[str]) -> Fields:
    return {"game": game_name(words[0])}


def _password(words: list[str]) -> Fields:
    return {"password": words[0]}


def _value(words: list[str]) -> Fields:
    return {"value": words[0]}


# a display name: what the archive shows beside the power (never an address)
NAME_LENGTH = 40


def _display_name(words: list[str]) -> Fields:
    name = " ".join(words).strip()
    if not name:
        raise ArgumentProblem(Problem.MISSING_ARGUMENT)
    if len(name) > NAME_LENGTH or "@" in name or not name.isprintable():
        raise ArgumentProblem(Problem.BAD_VALUE, name[:NAME_LENGTH])
    return {"value": name}


def _help_topic(words: list[str]) -> Fields:
    """HELP VARIANTS (VARIANTI, VARIANTES): the installed variants instead of the commands."""
    if fold(words[0]) not in {fold(w) for w in lexicon().raw["values"]["variants"]}:
        raise ArgumentProblem(Problem.BAD_VALUE, words[0])
    return {"value": "variants"}


def _power(words: list[str]) -> Fields:
    power = parse_power(words[0])
    if power is None:
        raise ArgumentProblem(Problem.UNKNOWN_POWER, words[0])
    return {"power": power}


def _number(words: list[str]) -> Fields:
    if not words[0].isdigit():
        raise ArgumentProblem(Problem.NOT_A_NUMBER, words[0])
    return {"number": int(words[0])}


def _terms(words: list[str]) -> Fields:
    """PROPOSE's ``power kind [arguments]``: read whole by the negotiation grammar."""
    if len(words) < 2:
        raise ArgumentProblem(Problem.MISSING_ARGUMENT)
    return {"value": " ".join(words)}


def _phase(words: list[str]) -> Fields:
    try:
        return {"value": str(Phase.parse(words[0]))}
    except ValueError:
        raise ArgumentProblem(Problem.BAD_PHASE, words[0]) from None


def _phases(words: list[str]) -> Fields:
    """``S1901M`` or a range ``S1901M..F1902M`` (either end may be left open)."""
    ends = words[0].upper().split("..")
    try:
        phases = [str(Phase.parse(p)) for p in ends if p]
    except ValueError:
        raise ArgumentProblem(Problem.BAD_PHASE, words[0]) from None
    if not phases:  # "..": a range with neither end
        raise ArgumentProblem(Problem.BAD_PHASE, words[0])
    return {"value": "..".join(phases) if len(ends) == 1 else f"{phases[0]}..{phases[-1]}"}


FORCE_WORDS = frozenset({"FORCE", "FORZA", "FORZATO", "FORCER", "FORCEE"})


def _phase_forced(words: list[str]) -> Fields:
    """``phase [FORCE]``: process even while the game waits for a replacement (seed 002)."""
    forced = len(words) == 2 and words[1].upper() in FORCE_WORDS
    if len(words) > 1 and not forced:
        raise ArgumentProblem(Problem.TOO_MANY_ARGUMENTS, " ".join(words[1:]))
    fields = _phase(words[:1])
    return {**fields, "setting": "force"} if forced else fields


# REPLACE power COMPUTER: the computer takes the seat (issue 14; the option COMPUTER SEATS)
COMPUTER_WORDS = frozenset({"COMPUTER", "ORDINATEUR", "BOT"})
COMPUTER = "computer"


def _address(words: list[str]) -> Fields:
    if fold(words[0]) in COMPUTER_WORDS:
        return {"value": COMPUTER}
    if "@" not in words[0]:
        raise ArgumentProblem(Problem.BAD_VALUE, words[0])
    return {"value": words[0].strip("<>")}


def _date(words: list[str]) -> Fields:
    value = " ".join(words)
    if not _DATE.fullmatch(value):
        raise ArgumentProblem(Problem.BAD_DATE, value)
    return {"value": value}


# "2027-03-10 2027-03-14", "2027-03-10 TO 2027-03-14" (AL, A, AU: the words between two dates)
_ABSENCE_LINK = frozenset({"TO", "UNTIL", "AL", "FINO", "A", "AU", "JUSQU'AU", "-"})


def _absence(words: list[str]) -> Fields:
    """Two dates (the first and the last day away), or one date (one day)."""
    dates = [w for w in words if fold(w) not in _ABSENCE_LINK]
    if not 1 <= len(dates) <= 2 or not all(re.fullmatch(r"\d{4}-\d{2}-\d{2}", d) for d in dates):
        raise ArgumentProblem(Problem.BAD_DATE, " ".join(words))
    return {"value": f"{dates[0]} {dates[-1]}"}


def _hours(words: list[str]) -> Fields:
    """``48``, ``48H``, ``2D`` / ``2G`` / ``2J`` (days), or the same with a space."""
    m = _HOURS.match(fold("".join(words)))
    if not m:
        raise ArgumentProblem(Problem.NOT_A_NUMBER, " ".join(words))
    return {"number": int(m.group(1)) * (24 if m.group(2) in ("D", "G", "J") else 1)}


def _preferences(words: list[str]) -> Fields:
    prefs: list[str] = []
    for word in " ".join(words).replace(",", " ").split():
        power = parse_power(word)
        if power is None:
            raise ArgumentProblem(Problem.UNKNOWN_POWER, word)
        if power not in prefs:
            prefs.append(power)
    return {"powers": tuple(prefs)}


def _press_targets(words: list[str]) -> Fields:
    """``power[,power] [GREY]``: press to the GM is allowed."""
    names = " ".join(words).replace(",", " ").split()
    grey = bool(names) and fold(names[-1]) in grey_words()
    if grey:
        names = names[:-1]
    if not names:
        raise ArgumentProblem(Problem.MISSING_ARGUMENT)
    powers: list[str] = []
    for word in names:
        power = parse_power(word, allow_gm=True)
        if power is None:
            raise ArgumentProblem(Problem.UNKNOWN_POWER, word)
        powers.append(power)
    return {"powers": tuple(dict.fromkeys(powers)), "grey": grey}


def _grey(words: list[str]) -> Fields:
    if not (len(words) == 1 and fold(words[0]) in grey_words()):
        raise ArgumentProblem(Problem.TOO_MANY_ARGUMENTS, " ".join(words))
    return {"grey": True}


def _token(words: list[str]) -> Fields:
    """TOKEN's ``OFF [power]``: revoke instead of asking (a power: the GM revokes a seat's)."""
    if value_of("bool", words[0]) != "false":
        raise ArgumentProblem(Problem.BAD_VALUE, words[0])
    if len(words) == 1:
        return {"value": "off"}
    if len(words) > 2:
        raise ArgumentProblem(Problem.TOO_MANY_ARGUMENTS, " ".join(words[2:]))
    return {"value": "off", **_power(words[1:])}


# WEBHOOK's words after the URL: a format and events (in English, as Discord and Slack are)
WEBHOOK_WORDS = frozenset({"DISCORD", "SLACK", "JSON", "RESULTS", "DEADLINE", "MISSING", "START",
                           "END", "NOTICE"})


def _webhook(words: list[str]) -> Fields:
    """WEBHOOK's ``url [format] [events]``, or ``OFF``. The URL keeps its case (a Discord
    webhook's token is case-sensitive)."""
    if len(words) == 1 and value_of("bool", words[0]) == "false":
        return {"value": "off"}
    if len(words) > 1 + len(WEBHOOK_WORDS):
        raise ArgumentProblem(Problem.TOO_MANY_ARGUMENTS, " ".join(words[1:]))
    rest = [w.upper() for w in words[1:]]
    unknown = [w for w in rest if w not in WEBHOOK_WORDS]
    if unknown:
        raise ArgumentProblem(Problem.BAD_VALUE, unknown[0][:20])
    return {"value": words[0], "setting": tuple(w.lower() for w in rest)}


def _signon(words: list[str]) -> Fields:
    """``power|GM game password``, or njudge's ``Pgame password`` (power initial glued on)."""
    if len(words) == 2:
        power = parse_power(words[0][:1], allow_gm=True)
        if power is None or len(words[0]) < 2:
            raise ArgumentProblem(Problem.UNKNOWN_POWER, words[0])
        return {"power": power, "game": game_name(words[0][1:]), "password": words[1]}
    if len(words) < 3:
        raise ArgumentProblem(Problem.MISSING_ARGUMENT)
    if len(words) > 3:
        raise ArgumentProblem(Problem.TOO_MANY_ARGUMENTS, " ".join(words[3:]))
    power = parse_power(words[0], allow_gm=True)
    if power is None:
        raise ArgumentProblem(Problem.UNKNOWN_POWER, words[0])
    return {"power": power, "game": game_name(words[1]), "password": words[2]}


GAME = Arg(_game)
PASSWORD = Arg(_password)
POWER = Arg(_power)
NUMBER = Arg(_number)
PHASE = Arg(_phase)
VALUE = Arg(_value)
# CREATE's and JOIN's password: the word after the game
NEW_PASSWORD = Secret("password", SecretUse.NEW, kept_words=2)


# ---------------------------------------------------------------- the table

A, P, G = Role.ANYONE, Role.PLAYER, Role.GM

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(Verb.HELP, A, (Arg(_help_topic, optional=True),),
                help=N_("this list of commands; HELP VARIANTS: the maps this judge plays, with"
                        " their players and victory")),
    CommandSpec(Verb.LIST, A, (Arg(_game, optional=True),),
                help=N_("open games, 50 a page (LIST 2: the second), or one game's status: options,"
                        " deadlines, ending, and which powers have sent orders (never what)")),
    CommandSpec(Verb.HISTORY, A, (GAME, Arg(_phases, optional=True)),
                help=N_("bulletins of past phases")),
    CommandSpec(Verb.SUMMARY, A, (GAME,),
                help=N_("who plays, centres per phase")),
    CommandSpec(Verb.OBSERVE, A, (GAME,), adds_sender=True,
                help=N_("receive the game's bulletins and broadcasts")),
    CommandSpec(Verb.CREATE, A, (GAME, PASSWORD), secret=NEW_PASSWORD, signon=SignOn.OPENS,
                adds_sender=True, following=Following.NOT_ORDERS, following_if_malformed=True,
                help=N_("create a game; you become its GM")),
    CommandSpec(Verb.JOIN, A, (GAME, PASSWORD, Arg(_preferences, optional=True, words=None)),
                secret=NEW_PASSWORD, adds_sender=True,
                help=N_("join a forming game, with an optional preference list")),
    CommandSpec(Verb.SIGNON, A, (Arg(_signon, words=None),),
                secret=Secret("password", SecretUse.CHECKED, kept_words=3), signon=SignOn.OPENS,
                following=Following.ORDERS_UNLESS_GM,
                help=N_("sign on as a power (or as GM); the following lines are your orders")),
    CommandSpec(Verb.SIGNOFF, A, signon=SignOn.CLOSES,
                help=N_("end of commands (so is a '-- ' signature)")),
    CommandSpec(Verb.CLEAR, P, orders=Orders.CLEARS,
                help=N_("withdraw your orders for this phase")),
    CommandSpec(Verb.STATUS, P, orders=Orders.READS,
                help=N_("orders on file, units still without orders, your own FOR votes, late days left"
                        " (game and turn)")),
    CommandSpec(Verb.SET_WAIT, P,
                help=N_("no early processing of this phase")),
    CommandSpec(Verb.SET_NOWAIT, P,
                help=N_("allow early processing again")),
    CommandSpec(Verb.PRESS, P, (Arg(_press_targets, words=None),), closer=Verb.ENDPRESS,
                gm_may=True, api=Api.SEAT | Api.GM,
                help=N_("private press to some powers")),
    CommandSpec(Verb.BROADCAST, P, (Arg(_grey, optional=True, words=None),),
                closer=Verb.ENDPRESS, gm_may=True, api=Api.SEAT | Api.GM,
                help=N_("press to every player and observer")),
    CommandSpec(Verb.ENDPRESS, Role.BLOCK,
                help=N_("ends a press message")),
    CommandSpec(Verb.SET_PASSWORD, P, (VALUE,), gm_may=True,
                secret=Secret("value", SecretUse.NEW, kept_words=2),
                help=N_("change your password for this game")),
    CommandSpec(Verb.SET_ADDRESS, P, (VALUE,), gm_may=True,
                help=N_("change the address the judge writes to")),
    CommandSpec(Verb.SET_NAME, P, (Arg(_display_name, words=None),), gm_may=True,
                joiner_may=True,
                help=N_("the name the archive shows beside your power")),
    CommandSpec(Verb.TOKEN, P, (Arg(_token, optional=True, words=2),), gm_may=True,
                help=N_("a token for the JSON API, mailed to your registered address (TOKEN OFF: "
                        "revoke it; the GM: TOKEN OFF power)")),
    CommandSpec(Verb.LATE, P, (NUMBER,), api=Api.SEAT,
                help=N_("ask for late days for this phase")),
    CommandSpec(Verb.DRAW, P,
                help=N_("vote for a draw (secret)")),
    CommandSpec(Verb.NO_DRAW, P,
                help=N_("withdraw your draw vote")),
    CommandSpec(Verb.CONCEDE, P, (POWER,),
                help=N_("vote to concede the game to a power (secret)")),
    CommandSpec(Verb.FOR, P, (POWER,), closer=Verb.END, orders=Orders.BLOCK, api=Api.SEAT,
                help=N_("your secret orders for a power in ONP or Sommossa")),
    CommandSpec(Verb.RESIGN, P,
                help=N_("leave the game")),
    # the agreement itself is read by judge.bots.proposals (the same words in every language)
    CommandSpec(Verb.PROPOSE, P, (Arg(_terms, words=None),),
                help=N_("propose an agreement to a power (the computer powers answer at once and "
                        "remember who keeps his word)")),
    CommandSpec(Verb.ACCEPT, P, (Arg(_number, optional=True),),
                help=N_("accept a proposal made to you (the latest without a number)")),
    CommandSpec(Verb.REFUSE, P, (Arg(_number, optional=True),),
                help=N_("refuse a proposal made to you")),
    CommandSpec(Verb.APPROVE, P, api=Api.SEAT,
                help=N_("agree to the extension or pause asked by a GM who also plays a power")),
    CommandSpec(Verb.OPPOSE, P, api=Api.SEAT,
                help=N_("refuse the extension or pause asked by a GM who also plays a power")),
    CommandSpec(Verb.ABSENCE, P, (Arg(_absence, words=None),),
                help=N_("announce an absence (first and last day away): no deadline falls in it,"
                        " within the game's ABSENCE LIMIT")),
    CommandSpec(Verb.START, G,
                api=Api.GM,
                help=N_("assign the powers and start the game")),
    CommandSpec(Verb.SET_DEADLINE, G, (Arg(_date, words=2),),
                api=Api.GM,
                help=N_("move the current deadline (game time zone)")),
    CommandSpec(Verb.EXTEND, G, (Arg(_hours, words=2),),
                api=Api.GM,
                help=N_("push the current deadline back")),
    CommandSpec(Verb.PAUSE, G,
                api=Api.GM,
                help=N_("stop the clock")),
    CommandSpec(Verb.RESUME, G,
                api=Api.GM,
                help=N_("restart the clock")),
    CommandSpec(Verb.PROCESS, G, (Arg(_phase_forced, words=None),), orders=Orders.READS,
                api=Api.GM,
                help=N_("adjudicate the current phase now; while the game is suspended for a "
                        "replacement only with FORCE")),
    CommandSpec(Verb.PREVIEW, G, orders=Orders.READS,
                api=Api.GM,
                help=N_("the would-be results, to you only")),
    CommandSpec(Verb.ROLLBACK, G, (PHASE,),
                api=Api.GM,
                help=N_("go back to a processed phase")),
    CommandSpec(Verb.REPLACE, G, (POWER, Arg(_address)),
                api=Api.GM,
                help=N_("give a power to a new player")),
    CommandSpec(Verb.EJECT, G, (POWER,),
                api=Api.GM,
                help=N_("remove a power's player")),
    # not by the GM's token: acting as a power is that seat's token's business
    CommandSpec(Verb.BECOME, G, (POWER,), signon=SignOn.SWITCHES, following=Following.ORDERS,
                help=N_("act as a power (its player gets a copy)")),
    CommandSpec(Verb.GRANT, G, (POWER, NUMBER),
                api=Api.GM,
                help=N_("give a power extra late days")),
    CommandSpec(Verb.END, G,
                api=Api.GM,
                help=N_("END GAME ends the game: a second mail with the same command within 48 hours "
                        "confirms it (END alone only closes a FOR block)")),
    CommandSpec(Verb.WEBHOOK, G, (Arg(_webhook, words=None),),
                api=Api.GM,
                help=N_("post the game's events to a chat server or a program: WEBHOOK url "
                        "[DISCORD|SLACK|JSON] [RESULTS DEADLINE MISSING START END NOTICE]; "
                        "WEBHOOK OFF")),
    # a game option line (after CREATE, or in a GM session); its keywords are the options'
    CommandSpec(Verb.OPTION, G, after_create=True, api=Api.GM, own_words=False),
)

SPECS: Mapping[Verb, CommandSpec] = MappingProxyType({c.verb: c for c in COMMANDS})


def spec(verb: Verb) -> CommandSpec:
    return SPECS[verb]


def read_arguments(verb: Verb, rest: list[str]) -> Fields:
    """The Command fields the words after ``verb``'s keyword give; raises ``ArgumentProblem``."""
    command = SPECS[verb]
    if len(rest) < command.least:
        raise ArgumentProblem(Problem.MISSING_ARGUMENT)
    most = command.most
    if most is not None and len(rest) > most:
        raise ArgumentProblem(Problem.TOO_MANY_ARGUMENTS, " ".join(rest[most:]))
    fields: Fields = {}
    at = 0
    for arg in command.args:
        take = rest[at:] if arg.words is None else rest[at:at + arg.words]
        if not take and arg.optional:
            continue
        at += len(take)
        fields.update(arg.read(take))
    return fields


# ---------------------------------------------------------------- what players are shown

ROLE_ORDER = (Role.ANYONE, Role.PLAYER, Role.GM)


@dataclass(frozen=True)
class CommandRow:
    """One line of HELP or of the reference pages, in one language."""

    verb: Verb
    role: Role
    keywords: tuple[str, ...]  # every phrase of this language, the usual one first
    args: str
    help: str

    @property
    def keyword(self) -> str:
        return self.keywords[0]


def command_rows(lang: str, roles: tuple[Role, ...] = (*ROLE_ORDER, Role.BLOCK)) -> list[CommandRow]:
    """The commands of ``roles`` in table order, with their words and texts in ``lang``."""
    words = lexicon().raw["commands"]
    return [CommandRow(c.verb, c.role, tuple(words[c.verb.value][lang]),
                       words[c.verb.value]["args"][lang], tr(lang, c.help))
            for c in COMMANDS if c.own_words and c.role in roles]


@dataclass(frozen=True)
class OptionRow:
    key: str
    keywords: tuple[str, ...]
    values: str
    # the rule sets the option applies to (the registry's ``rule_sets``); empty: every one
    rule_sets: tuple[str, ...] = ()

    @property
    def keyword(self) -> str:
        return self.keywords[0]


def option_rows(lang: str) -> list[OptionRow]:
    return [OptionRow(spec.key, spec.words[lang], spec.values[lang], _rule_sets(spec))
            for spec in OPTIONS]


def _rule_sets(spec: OptionSpec) -> tuple[str, ...]:
    if spec.rule_sets == EVERY_RULE_SET:
        return ()
    return tuple(r.value for r in RuleSet if r in spec.rule_sets)


# The command reference pages (docs/commands*.md), one per language, written by
# scripts/command_table.py and checked by tests/parsing/test_command_table.py. Everything
# players read in them comes from the declaration and the catalogs (HELP's own headings and
# lines); only the pages' titles and column names are documentation of their own, here.
REFERENCE_FILES = {"en": "commands.md", "it": "commands.it.md", "fr": "commands.fr.md"}
LANGUAGE_NAMES = {"en": "English", "it": "Italiano", "fr": "Français"}
_PAGE_WORDS = {
    "en": {"title": "Mail commands", "command": "command", "also": "also", "what": "what",
           "option": "option", "values": "values", "rules": "rules", "every": "every rule set"},
    "it": {"title": "Comandi per posta", "command": "comando", "also": "anche",
           "what": "a che cosa serve", "option": "opzione", "values": "valori",
           "rules": "regole", "every": "tutte"},
    "fr": {"title": "Commandes par courrier", "command": "commande", "also": "aussi",
           "what": "à quoi elle sert", "option": "option", "values": "valeurs",
           "rules": "règles", "every": "toutes"},
}
REFERENCE_NOTE = ("<!-- generated from judge/parsing/command_table.py by "
                  "`python scripts/command_table.py`: do not edit -->")


def reference_page(lang: str) -> str:
    """The command reference in ``lang`` (Markdown): HELP's content as tables, each command
    with its other words and its words in the two other languages."""
    words = _PAGE_WORDS[lang]
    others = [other for other in LANGS if other != lang]

    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    def heading(msgid: str) -> str:
        return tr(lang, msgid).rstrip(" :")

    rows = {other: {row.verb: row for row in command_rows(other)} for other in LANGS}
    links = " · ".join(f"[{LANGUAGE_NAMES[other]}]({REFERENCE_FILES[other]})"
                       for other in LANGS)
    lines = [REFERENCE_NOTE, "", f"# {words['title']} ({LANGUAGE_NAMES[lang]})", "", links, "",
             tr(lang, 'Commands understood by this judge (one per line; SIGNOFF or a "-- " '
                      "signature ends them; lines starting // are comments):").rstrip(":") + ".",
             ""]
    titles = {Role.ANYONE: "Anyone:", Role.PLAYER: "Players, after SIGNON:",
              Role.GM: "The GM, after SIGNON GM game password:"}
    header = (f"| {words['command']} | {words['also']} | "
              + " | ".join(LANGUAGE_NAMES[other] for other in others)
              + f" | {words['what']} |")
    for role in ROLE_ORDER:
        lines += [f"## {heading(titles[role])}", "", header, "|---|---|---|---|---|"]
        # a block's closing word (ENDPRESS) belongs to the players' press commands
        shown = (role, Role.BLOCK) if role is Role.PLAYER else (role,)
        for row in command_rows(lang, shown):
            usage = f"{row.keyword} {row.args}".strip()
            elsewhere = " | ".join(cell(" / ".join(rows[other][row.verb].keywords))
                                   for other in others)
            lines.append(f"| `{cell(usage)}` | {cell(' / '.join(row.keywords[1:]))} | "
                         f"{elsewhere} | {cell(row.help)} |")
        lines.append("")
    lines += [f"## {heading('Game options (GM, one per line):')}", "",
              f"| {words['option']} | {words['also']} | "
              + " | ".join(LANGUAGE_NAMES[other] for other in others)
              + f" | {words['values']} | {words['rules']} |",
              "|---|---|---|---|---|---|"]
    options = {other: option_rows(other) for other in LANGS}
    for i, option in enumerate(options[lang]):
        elsewhere = " | ".join(cell(" / ".join(options[other][i].keywords)) for other in others)
        lines.append(f"| `{cell(option.keyword)}` | {cell(' / '.join(option.keywords[1:]))} | "
                     f"{elsewhere} | {cell(option.values)} | "
                     f"{', '.join(option.rule_sets) or words['every']} |")
    lines += ["", tr(lang, "After SIGNON, every line that is not a command is an order; each "
                           "mail gives the whole set for the phase."),
              tr(lang, "Keywords work in English, Italian and French."), ""]
    return "\n".join(lines)
