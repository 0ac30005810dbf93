"""The canonical notation: ``parse_canonical`` reads word by word exactly what the patterns of
``orders.PATTERNS`` say, and orders are values (equal, hashed, pickled and printed by fields)."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from judge.adjudicator import orders
from judge.adjudicator.orders import (
    PATTERNS,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    NotationError,
    Retreat,
    SupportHold,
    SupportMove,
    UnitType,
    Waive,
    parse_canonical,
)

A, F = UnitType.ARMY, UnitType.FLEET

# words that make orders, near misses and noise
WORDS = [
    "A", "F", "a", "f", "X", "PAR", "par", "StP/sc", "STP/NC", "SPA/EC", "BUR/XX", "STP/",
    "PA", "PARI", "P4R", "PÄR", "ÿ", "H", "S", "C", "-", "R", "D", "B", "VIA", "via", "WAIVE",
    "waive", "h", "--", "MAR", "BEL", "LON",
]


def _by_patterns(text: str) -> tuple[type, tuple[str | None, ...]] | None:
    norm = " ".join(text.upper().split())
    if norm == "WAIVE":
        return (Waive, ())
    for pattern, kind in PATTERNS:
        m = pattern.match(norm)
        if m:
            return (kind, m.groups())
    return None


def _fields(order: object) -> tuple[type, tuple[str | None, ...]]:
    """The order as the patterns' groups would give it."""
    def value(v: object) -> str | None:
        return v.value if isinstance(v, UnitType) else v  # type: ignore[return-value]

    kind = type(order)
    got = [value(v) for v in order._fields()]  # type: ignore[attr-defined]
    if kind is Move:
        got[3] = " VIA" if got[3] else None
    if kind is SupportHold:
        got.append(None)  # the optional " H" group (not kept)
    return (kind, tuple(got))


def test_word_reader_agrees_with_the_patterns() -> None:
    rng = random.Random(16)
    texts = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8))) for _ in range(20_000)]
    # and every shape of a good order, so each branch is reached with good words too
    for shape in ("A PAR H", "F STP/SC D", "A PAR B", "A PAR - BUR", "A LON - BEL VIA",
                  "F SPA/EC S A MAR", "A PAR S F BRE H", "A MAR S A PAR - BUR",
                  "F NTH C A LON - NWY", "A BUR R GAS", "waive", "  a   par  -  bur  "):
        texts.append(shape)
    readable = 0
    for text in texts:
        expected = _by_patterns(text)
        orders._ORDER_TEXTS.clear()  # read each text afresh
        if expected is None:
            with pytest.raises(NotationError):
                parse_canonical(text)
            continue
        readable += 1
        order = parse_canonical(text)
        kind, groups = expected
        if kind is SupportHold:
            groups = groups[:4] + (None,)
        got_kind, got = _fields(order)
        assert got_kind is kind, text
        if kind is not Waive:
            assert got == groups, text
    assert readable > 100


def test_orders_are_values() -> None:
    examples = [
        Hold(A, "PAR"), Move(A, "PAR", "BUR"), Move(A, "LON", "BEL", via_convoy=True),
        SupportHold(F, "BRE", A, "PAR"), SupportMove(A, "MAR", A, "PAR", "BUR"),
        Convoy(F, "NTH", "LON", "NWY"), Retreat(A, "BUR", "GAS"), Disband(F, "STP/SC"),
        Build(A, "PAR"), Waive(),
    ]
    for order in examples:
        again = parse_canonical(str(order))
        assert again == order and hash(again) == hash(order) and (again != order) is False
        assert pickle.loads(pickle.dumps(order)) == order
        assert copy.deepcopy(order) == order
    assert Hold(A, "PAR") != Disband(A, "PAR") and Hold(A, "PAR") != "A PAR H"
    assert len(set(examples)) == len(examples)
    assert repr(Move(A, "PAR", "BUR")) == (
        "Move(unit_type=<UnitType.ARMY: 'A'>, location='PAR', target='BUR', via_convoy=False)"
    )
