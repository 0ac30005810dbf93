"""The order grammar: tokens of one order -> a :class:`Draft` (what the text says, no more).

The grammar is the same in every language; only the lexicon differs. A draft may leave things
open (unit type, coasts, whether a bare support means "holds"): the position-aware step in
``completion.py`` settles those or refuses the order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from judge.adjudicator.orders import UnitType
from judge.parsing.errors import ParseError, ParseFailure
from judge.parsing.lexicon import (
    COAST,
    CONJUNCTION,
    FILLER,
    POWER,
    PROVINCE,
    Lexicon,
)
from judge.parsing.text import IGNORED_PUNCTUATION, SEPARATORS


class OrderKind(StrEnum):
    HOLD = "hold"
    MOVE = "move"
    SUPPORT = "support"
    CONVOY = "convoy"
    RETREAT = "retreat"
    DISBAND = "disband"
    BUILD = "build"
    REMOVE = "remove"
    WAIVE = "waive"
    BARE = "bare"  # a unit and nothing else: a build or removal when the line says so


@dataclass
class Place:
    province: str
    coast: str | None = None  # "NC" / "SC" / "EC"

    @property
    def location(self) -> str:
        return f"{self.province}/{self.coast}" if self.coast else self.province


@dataclass
class Draft:
    kind: OrderKind
    unit_type: UnitType | None = None
    place: Place | None = None
    other_type: UnitType | None = None  # the supported or convoyed unit
    other: Place | None = None
    target: Place | None = None
    via: bool = False
    hold_word: bool = False  # a support that says the supported unit holds
    label: str | None = None  # "Germany:" before the order
    comments: list[str] = field(default_factory=list)
    # province words that other notations read otherwise, as read here: (word, code)
    readings: list[tuple[str, str]] = field(default_factory=list)


_UNIT_WORDS = frozenset({"army", "fleet"})
_ORDER_WORDS = frozenset(
    {"hold", "move", "support", "convoy", "retreat", "disband", "build", "remove", "waive"}
)
_PREFIX_WORDS = frozenset({"build", "remove", "waive", "disband"})
_COAST_LETTERS = {"n": "N", "s": "S", "e": "E", "w": "W"}
_PROVINCE = frozenset({PROVINCE})
_POWER = frozenset({POWER})
_COAST = frozenset({COAST})
_FILLER = frozenset({FILLER})
_CONJUNCTION = frozenset({CONJUNCTION})
_ACTION = frozenset({"support", "convoy"})
_UNIT = _UNIT_WORDS
_ORDER = _ORDER_WORDS
_VIA = frozenset({"via"})
_HOLD = frozenset({"hold"})
_MOVE = frozenset({"move"})


def unglue(tokens: tuple[str, ...], lex: Lexicon) -> tuple[str, ...]:
    """Split words like ``parbur`` or ``pruholds`` (arrows lost in copying) into known words."""
    out: list[str] = []
    for tok in tokens:
        # "SA(War)", "CA(Lon)": a support or convoy letter glued to the unit letter
        if (
            len(tok) == 2
            and tok not in lex.vocabulary
            and lex.match((tok[0],), 0, _ACTION)
            and lex.match((tok[1],), 0, _UNIT)
        ):
            out.extend((tok[0], tok[1]))
            continue
        if tok in lex.vocabulary or not tok.isalpha() or len(tok) < 5:
            out.append(tok)
            continue
        for cut in range(2, len(tok) - 1):
            left, right = tok[:cut], tok[cut:]
            if left in lex.single_provinces and right in lex.vocabulary:
                out.extend((left, right))
                break
        else:
            out.append(tok)
    return tuple(out)


def split_orders(tokens: tuple[str, ...], lex: Lexicon) -> list[tuple[str, ...]]:
    """Cut a line's tokens into one token run per order.

    Orders are separated by ``,`` ``;`` or a full stop, by "and" before a unit or a province,
    and by a power label (``Germany:``) in the middle of a run.
    """
    runs: list[list[str]] = [[]]
    i = 0
    n = len(tokens)
    depth = 0  # inside a comment "( ... )" nothing separates
    powers = lex.first_words.get(POWER, set())
    conjunctions = lex.first_words.get(CONJUNCTION, set())
    while i < n:
        tok = tokens[i]
        depth += (tok == "(") - (tok == ")")
        if tok in SEPARATORS and depth <= 0:
            runs.append([])
            i += 1
            continue
        if tok in IGNORED_PUNCTUATION:
            i += 1
            continue
        if runs[-1] and depth <= 0:
            if tok in powers:
                power = lex.match(tokens, i, _POWER)
                if power and power.end < n and tokens[power.end] == ":":
                    runs.append([])
            if tok in conjunctions:
                conj = lex.match(tokens, i, _CONJUNCTION)
                if conj and lex.match(tokens, conj.end, _UNIT | _PROVINCE):
                    runs.append([])
                    i = conj.end
                    continue
        runs[-1].append(tok)
        i += 1
    return [run for run in map(_strip_list_marker, runs) if run]


def _strip_list_marker(run: list[str]) -> tuple[str, ...]:
    """Drop a list number in front of an order: ``1) A Par - Bur``, ``2: F Bre - Mid``."""
    i = 0
    while i < len(run) and (run[i].isdigit() or (i and run[i] in (")", ":"))):
        i += 1
    return tuple(run[i:])


class _Reader:
    def __init__(self, tokens: tuple[str, ...], lex: Lexicon) -> None:
        self.tokens = tokens
        self.n = len(tokens)
        self.lex = lex
        self.i = 0
        self.readings: list[tuple[str, str]] = []

    # --- small helpers -------------------------------------------------------------------
    def at_end(self) -> bool:
        return self.i >= self.n  # split_orders has already dropped "!" and "?"

    def peek(self) -> str | None:
        return None if self.at_end() else self.tokens[self.i]

    def take(self, categories: frozenset[str]) -> str | None:
        if self.at_end():
            return None
        m = self.lex.match(self.tokens, self.i, categories)
        if m is None:
            return None
        self.i = m.end
        return m.value

    def skip_fillers(self) -> None:
        while not self.at_end() and self.lex.match(self.tokens, self.i, _FILLER):
            self.i = self.lex.match(self.tokens, self.i, _FILLER).end  # type: ignore[union-attr]

    def rest(self) -> str:
        return " ".join(self.tokens[self.i :])

    # --- pieces --------------------------------------------------------------------------
    def unit_type(self) -> UnitType | None:
        word = self.take(_UNIT)
        if word == "army":
            return UnitType.ARMY
        if word == "fleet":
            return UnitType.FLEET
        return None

    def foreign_unit(self) -> tuple[UnitType | None, Place]:
        """``[German] A Par`` / ``A Par`` / ``Par``: the unit another order refers to."""
        self.take(_POWER)
        kind = self.unit_type()
        self.take(_POWER)
        return kind, self.place()

    def place(self) -> Place:
        if self.at_end():
            raise ParseFailure(ParseError.INCOMPLETE_ORDER)
        # British postal notation wraps the province: "A(Pru)", "F(Spa)(sc)"
        if self.tokens[self.i] == "(":
            m = self.lex.match(self.tokens, self.i + 1, _PROVINCE)
            if m and m.end < self.n and self.tokens[m.end] == ")":
                self.i = m.end + 1
                return Place(m.value, self.coast(m.value))
        m = self.lex.match(self.tokens, self.i, _PROVINCE)
        if m is None:
            self.skip_fillers()
            m = self.lex.match(self.tokens, self.i, _PROVINCE)
        if m is None:
            word = self.tokens[self.i] if not self.at_end() else ""
            if word in self.lex.ambiguous:
                raise ParseFailure(ParseError.AMBIGUOUS_PROVINCE, word=word)
            raise ParseFailure(ParseError.UNKNOWN_PROVINCE, word=self.unknown_words())
        if m.end == self.i + 1 and self.tokens[self.i] in self.lex.conflicts:
            self.readings.append((self.tokens[self.i], m.value))
        self.i = m.end
        return Place(m.value, self.coast(m.value))

    def unknown_words(self) -> str:
        """The words that failed to name a province, up to the next sign or order word."""
        words: list[str] = []
        j = self.i
        while j < len(self.tokens) and len(words) < 4:
            tok = self.tokens[j]
            if not tok.isalnum():
                break
            if words and self.lex.match(self.tokens, j, _ORDER | _UNIT | _VIA | _COAST):
                break
            words.append(tok)
            j += 1
        return " ".join(words) if words else (self.tokens[self.i] if not self.at_end() else "")

    def coast(self, province: str) -> str | None:
        tok = self.peek()
        direction: str | None = None
        if tok == "/":
            nxt = self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else ""
            m = self.lex.match(self.tokens, self.i + 1, _COAST)
            if m:
                direction, self.i = m.value, m.end
            elif nxt in _COAST_LETTERS:
                direction, self.i = _COAST_LETTERS[nxt], self.i + 2
            else:
                raise ParseFailure(ParseError.NO_SUCH_COAST, province=province, coast=nxt)
        elif tok == "(":
            m = self.lex.match(self.tokens, self.i + 1, _COAST)
            nxt = self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else ""
            if m and m.end < len(self.tokens) and self.tokens[m.end] == ")":
                direction, self.i = m.value, m.end + 1
            elif (
                nxt in _COAST_LETTERS
                and self.i + 2 < len(self.tokens)
                and self.tokens[self.i + 2] == ")"
            ):
                direction, self.i = _COAST_LETTERS[nxt], self.i + 3
        elif tok is not None:
            m = self.lex.match(self.tokens, self.i, _COAST)
            if m:
                direction, self.i = m.value, m.end
        if direction is None:
            return None
        coast = self.lex.coast(province, direction)
        if coast is None:
            raise ParseFailure(ParseError.NO_SUCH_COAST, province=province, coast=direction)
        return coast

    # --- the order -----------------------------------------------------------------------
    def order(self) -> Draft:
        label = self.label()
        draft = self.prefixed() or self.unit_order()
        draft.label = label
        self.trailing(draft)
        draft.readings = self.readings
        return draft

    def label(self) -> str | None:
        m = self.lex.match(self.tokens, self.i, _POWER)
        if m is None:
            return None
        if m.end < len(self.tokens) and self.tokens[m.end] == ":":
            self.i = m.end + 1
            return m.value
        # "Germany builds F Kie", "AUTRICHE A ROU:BUD": a label without its colon
        if self.lex.match(self.tokens, m.end, frozenset(_PREFIX_WORDS) | _UNIT):
            self.i = m.end
            return m.value
        return None

    def prefixed(self) -> Draft | None:
        """Adjustment orders written verb first: ``Build A Par``, ``+ F TOU``, ``- A UKR``."""
        tok = self.peek()
        if tok == "-":
            start = self.i
            self.i += 1
            self.skip_fillers()
            unit_type = self.unit_type()
            place = self.place()
            if self.at_end() or self.peek() == "(":
                return Draft(OrderKind.REMOVE, unit_type, place)
            self.i = start + 1  # "- A Par - Bur": a list dash before a whole order
            return None
        else:
            word = self.take(frozenset(_PREFIX_WORDS))
            if word is None:
                return None
            if word == "waive":
                return Draft(OrderKind.WAIVE)
            kind = {"build": OrderKind.BUILD, "remove": OrderKind.REMOVE, "disband": OrderKind.DISBAND}[word]
        self.skip_fillers()
        unit_type = self.unit_type()
        return Draft(kind, unit_type, self.place())

    def unit_order(self) -> Draft:
        # "La flotta di Napoli ...", "l'armée de Paris ...": an article before the unit word
        start = self.i
        self.skip_fillers()
        if self.i > start and not self.lex.match(self.tokens, self.i, _UNIT):
            self.i = start
        unit_type = self.unit_type()
        self.take(_POWER)
        place = self.place()
        draft = Draft(OrderKind.BARE, unit_type, place)
        if self.at_end():
            return draft
        word = self.take(_ORDER)
        if word is None:
            if self.peek() == "(":
                return draft
            # "A Par Bur": a move written without its sign
            if self.lex.match(self.tokens, self.i, _PROVINCE):
                draft.kind, draft.target = OrderKind.MOVE, self.place()
                return draft
            raise ParseFailure(ParseError.UNRECOGNISED_ORDER, word=self.unknown_words())
        if word == "hold":
            draft.kind = OrderKind.HOLD
        elif word == "move":
            draft.kind, draft.target = OrderKind.MOVE, self.place()
        elif word == "support":
            draft.kind = OrderKind.SUPPORT
            draft.other_type, draft.other = self.foreign_unit()
            if self.take(_HOLD):
                draft.hold_word = True
            elif self.take(_MOVE) or self.lex.match(self.tokens, self.i, _PROVINCE):
                draft.target = self.place()
        elif word == "convoy":
            draft.kind = OrderKind.CONVOY
            draft.other_type, draft.other = self.foreign_unit()
            if not self.take(_MOVE) and not self.lex.match(self.tokens, self.i, _PROVINCE):
                if self.lex.match(self.tokens, self.i, frozenset({"support"})):
                    raise ParseFailure(ParseError.SUPPORT_CANNOT_BE_CONVOYED)
                raise ParseFailure(ParseError.INCOMPLETE_ORDER)
            draft.target = self.place()
        elif word == "retreat":
            draft.kind, draft.target = OrderKind.RETREAT, self.place()
        elif word == "disband":
            draft.kind = OrderKind.DISBAND
        elif word == "build":
            draft.kind = OrderKind.BUILD
        elif word == "remove":
            draft.kind = OrderKind.REMOVE
        else:
            raise ParseFailure(ParseError.UNRECOGNISED_ORDER, word=self.rest())
        return draft

    def trailing(self, draft: Draft) -> None:
        while not self.at_end():
            if draft.kind is OrderKind.MOVE and self.take(_VIA):
                draft.via = True
                continue
            if self.peek() == "(":
                close = (
                    self.tokens.index(")", self.i)
                    if ")" in self.tokens[self.i :]
                    else len(self.tokens)
                )
                draft.comments.append(" ".join(self.tokens[self.i + 1 : close]))
                self.i = close + 1
                continue
            raise ParseFailure(ParseError.TRAILING_TEXT, text=self.rest())


def power_header(tokens: tuple[str, ...], lex: Lexicon) -> str | None:
    """The power, if ``tokens`` are only a power's name (``Germany:``, ``FRANCE``)."""
    m = lex.match(tokens, 0, _POWER)
    if m is None:
        return None
    rest = tokens[m.end :]
    return m.value if rest in ((), (":",)) else None


def read(tokens: tuple[str, ...], lex: Lexicon) -> Draft:
    """Read one order's tokens (already split by :func:`split_orders`)."""
    return _Reader(tokens, lex).order()
