"""Reading a batch of order lines: one :class:`ParsedOrder` per order, and the batch rules.

The batch rules need every order of the mail at once: two orders for one unit (the later one
wins and both say so), a unit type written in one order and left out in another, a support "in
place" of a unit that the same mail orders to move, a bare Italian support that the rest of the
mail settles.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from judge.adjudicator.catalog import DEFAULT_VARIANT, variant
from judge.adjudicator.orders import (
    Build,
    Disband,
    Move,
    Order,
    SupportHold,
    SupportMove,
    UnitType,
    Waive,
)
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Position
from judge.parsing.completion import complete
from judge.parsing.errors import Note, ParseError, ParseFailure
from judge.parsing.grammar import Draft, OrderKind, power_header, read, split_orders, unglue
from judge.parsing.lexicon import lexicon
from judge.parsing.messages import describe, render
from judge.parsing.reading import Context
from judge.parsing.text import split_raw, tokenize


@dataclass
class ParsedOrder:
    """One order as read: the canonical order, or why it was refused; plus notes."""

    line_no: int  # 1-based number of the input line it came from
    text: str  # the order as the player wrote it (or its words, when a line was cut further)
    lang: str
    order: Order | None = None
    error: ParseError | None = None
    error_params: dict[str, Any] = field(default_factory=dict)
    notes: list[tuple[Note, dict[str, Any]]] = field(default_factory=list)
    power: str | None = None  # a "Germany:" label written before the order
    replaced: bool = False  # a later order for the same unit replaced this one
    # the variant whose map names the provinces in the messages (never assumed standard)
    variant: str = field(kw_only=True)

    @property
    def ok(self) -> bool:
        return self.order is not None and self.error is None

    @property
    def canonical(self) -> str | None:
        return str(self.order) if self.ok else None

    @property
    def message(self) -> str | None:
        """The refusal in the player's language, or None."""
        return render(self.error, self.error_params, self.lang, variant=self.variant) if self.error else None

    @property
    def note_messages(self) -> list[str]:
        return [render(note, params, self.lang, variant=self.variant) for note, params in self.notes]

    @property
    def understood(self) -> str | None:
        """The order with province names of the player's language, for the reply echo."""
        return describe(self.order, self.lang, variant=self.variant) if self.ok and self.order is not None else None

    def reply(self) -> str:
        """``A PAR - BUR`` or ``ERROR: <Reason>: <message>``."""
        if self.ok:
            return str(self.order)
        assert self.error is not None
        return f"ERROR: {self.error.value}: {self.message}"

    def fail(self, failure: ParseFailure) -> None:
        self.order, self.error, self.error_params = None, failure.reason, failure.params


@dataclass
class ParseReport:
    lang: str
    items: list[ParsedOrder]
    line_count: int

    @property
    def orders(self) -> list[Order]:
        """The orders that stand: read without error and not replaced by a later one."""
        return [i.order for i in self.items if i.ok and not i.replaced and i.order is not None]

    def orders_by_power(self, default: str | None = None) -> dict[str | None, list[Order]]:
        """The standing orders grouped by the power a label gave them (else ``default``)."""
        grouped: dict[str | None, list[Order]] = {}
        for item in self.items:
            if item.ok and not item.replaced and item.order is not None:
                grouped.setdefault(item.power or default, []).append(item.order)
        return grouped

    @property
    def errors(self) -> list[ParsedOrder]:
        return [i for i in self.items if i.error is not None]

    def for_line(self, line_no: int) -> list[ParsedOrder]:
        return [i for i in self.items if i.line_no == line_no]

    def reply_lines(self) -> list[str]:
        """One line per input line: its orders' replies joined by ``; `` (empty for blank)."""
        by_line: dict[int, list[str]] = {}
        for item in self.items:
            by_line.setdefault(item.line_no, []).append(item.reply())
        return ["; ".join(by_line.get(n, [])) for n in range(1, self.line_count + 1)]


def parse_orders(
    lines: Iterable[str] | str,
    lang: str,
    position: Position | None = None,
    power: str | None = None,
    phase: Phase | str | None = None,
    rules: str | None = None,
    *,
    variant: str | None = None,
) -> ParseReport:
    """Read order lines in ``lang``; see the package docstring for the contract."""
    # the words of the position's map (a variant may have other provinces than the standard's)
    variant = _variant_of(position, variant)
    lex = lexicon(lang, variant)
    if isinstance(lines, str):
        lines = lines.splitlines()
    if isinstance(phase, str):
        phase = Phase.parse(phase)
    if phase is None and position is not None:
        phase = position.phase
    items: list[ParsedOrder] = []
    drafts: list[Draft | None] = []
    line_count = 0
    label: str | None = None
    for line_no, line in enumerate(lines, start=1):
        line_count = line_no
        previous: Draft | None = None
        pieces = split_raw(line)
        if not pieces and line.strip():
            item = ParsedOrder(line_no, line.strip(), lang, variant=variant)
            item.fail(ParseFailure(ParseError.EMPTY))
            items.append(item)
            drafts.append(None)
        for piece in pieces:
            runs = split_orders(unglue(tokenize(piece), lex), lex)
            for run in runs:
                header = power_header(run, lex)
                if header is not None:
                    label = header  # "Germany:" alone names the power of the orders below
                    continue
                text = piece if len(runs) == 1 else " ".join(run)
                item = ParsedOrder(line_no, text, lang, variant=variant)
                draft: Draft | None = None
                try:
                    draft = read(run, lex)
                except ParseFailure as failure:
                    item.fail(failure)
                if draft is not None:
                    draft.label = draft.label or label
                    if (
                        draft.kind is OrderKind.BARE
                        and previous
                        and previous.kind in (OrderKind.BUILD, OrderKind.REMOVE)
                    ):
                        draft.kind = previous.kind  # "builds F Kie and A Mun"
                    item.power = draft.label
                    item.notes.extend((Note.COMMENT_IGNORED, {"text": c}) for c in draft.comments)
                    item.notes.extend(
                        (Note.READ_IN_GAME_NOTATION, {"word": word, "province": code})
                        for word, code in draft.readings
                    )
                    previous = draft
                items.append(item)
                drafts.append(draft)
    # the club's house rules (seed 002) want the coast and a hold-or-move word in every
    # support; without a rule set named, the language decides as before (Italian players)
    needs_hold_word = lex.support_needs_hold_word if rules is None else rules == "italian"
    ctx = _context(drafts, variant, position, phase, power, needs_hold_word)
    ctx.coast_required = rules == "italian"
    for item, draft in zip(items, drafts, strict=True):
        if draft is None:
            continue
        try:
            order, notes = complete(draft, ctx)
        except ParseFailure as failure:
            item.fail(failure)
            continue
        item.order = order
        item.notes.extend(notes)
    _replace_duplicates(items)
    _check_supports(items)
    if position is not None and phase is not None and phase.is_adjustment:
        _check_adjustment_counts(items, position, power)
    return ParseReport(lang, items, line_count)


def parse_order(
    text: str,
    lang: str,
    position: Position | None = None,
    power: str | None = None,
    phase: Phase | str | None = None,
    rules: str | None = None,
    *,
    variant: str | None = None,
) -> ParsedOrder:
    """Read a single order (the first one, if the text holds several)."""
    report = parse_orders([text], lang, position, power, phase, rules, variant=variant)
    if not report.items:
        item = ParsedOrder(1, text, lang, variant=_variant_of(position, variant))
        item.fail(ParseFailure(ParseError.EMPTY))
        return item
    return report.items[0]


def _variant_of(position: Position | None, variant: str | None) -> str:
    """The variant whose map the orders are read on: the position's, else the one named.

    Reading with neither (tests, ``judge parse`` without ``--variant``) is on the standard
    map, said here once rather than by a default deep in the lexicon.
    """
    if position is not None:
        if variant is not None and variant != position.variant:
            raise ValueError(f"variant {variant!r} but the position is of {position.variant!r}")
        return position.variant
    return variant if variant is not None else DEFAULT_VARIANT


def _context(
    drafts: list[Draft | None],
    variant_name: str,
    position: Position | None,
    phase: Phase | None,
    power: str | None,
    needs_hold_word: bool,
) -> Context:
    # the map of the variant the orders are read on (the position's when there is one)
    board = variant(variant_name).board
    ctx = Context(board, position, phase, power, support_needs_hold_word=needs_hold_word)
    for draft in drafts:
        if draft is None or draft.place is None:
            continue
        province = draft.place.province
        if draft.unit_type is not None:
            ctx.known_types.setdefault(province, draft.unit_type)
        if draft.other is not None and draft.other_type is not None:
            ctx.known_types.setdefault(draft.other.province, draft.other_type)
        if draft.kind is OrderKind.CONVOY and draft.other is not None:
            ctx.known_types.setdefault(draft.other.province, UnitType.ARMY)
        ctx.batch_kinds[province] = draft.kind
        if draft.kind is OrderKind.MOVE and draft.target is not None:
            ctx.moving_into.add(draft.target.province)
    return ctx


def _unit_key(order: Order) -> str | None:
    if isinstance(order, Waive):
        return None
    return order.location.split("/", 1)[0]


def _replace_duplicates(items: list[ParsedOrder]) -> None:
    latest: dict[str, ParsedOrder] = {}
    for item in items:
        if not item.ok or item.order is None:
            continue
        key = _unit_key(item.order)
        if key is None:
            continue
        earlier = latest.get(key)
        if earlier is not None and earlier.order is not None:
            unit = f"{item.order.unit_type.value} {item.order.location}"  # type: ignore[union-attr]
            earlier.replaced = True
            earlier.notes.append((Note.REPLACED_BY_LATER, {"unit": unit}))
            item.notes.append((Note.REPLACES_EARLIER, {"unit": unit}))
        latest[key] = item


def _check_supports(items: list[ParsedOrder]) -> None:
    standing = {
        _unit_key(i.order): i.order
        for i in items
        if i.ok and not i.replaced and i.order is not None
    }
    for item in items:
        order = item.order
        if not item.ok or item.replaced:
            continue
        if isinstance(order, SupportHold):
            theirs = standing.get(order.supported)
            if isinstance(theirs, Move):
                item.fail(
                    ParseFailure(ParseError.SUPPORT_HOLD_OF_MOVING_UNIT, province=order.supported)
                )
        elif isinstance(order, SupportMove):
            theirs = standing.get(order.supported)
            if theirs is not None and not (
                isinstance(theirs, Move) and theirs.target.split("/", 1)[0] == order.target
            ):
                unit = f"{order.supported_type.value} {order.supported}"
                item.notes.append((Note.SUPPORT_DOES_NOT_MATCH, {"unit": unit, "order": str(theirs)}))


def _check_adjustment_counts(
    items: list[ParsedOrder], position: Position, power: str | None
) -> None:
    """Builds beyond what a power is owed, or removals beyond what it owes, are refused."""
    owed = position.adjustment_counts(variant(position.variant).board)
    used: dict[tuple[str, type], int] = {}
    for item in items:
        order = item.order
        if not item.ok or item.replaced or not isinstance(order, Build | Disband):
            continue
        owner = item.power or power
        if owner is None:
            unit = position.units.get(order.location.split("/", 1)[0])
            owner = unit.power if unit is not None else None
        if owner is None:
            continue
        key = (owner, type(order))
        used[key] = used.get(key, 0) + 1
        allowed = owed.get(owner, 0) if isinstance(order, Build) else -owed.get(owner, 0)
        if used[key] > allowed:
            error = (
                ParseError.TOO_MANY_BUILDS if isinstance(order, Build) else ParseError.TOO_MANY_REMOVALS
            )
            item.fail(ParseFailure(error, power=owner))
