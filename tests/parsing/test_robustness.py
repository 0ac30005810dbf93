"""Whatever a mail holds, the reader answers every order with an order or a reason."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.parsing import LANGS, parse_orders
from tests.standard_variant import STANDARD

WORDS = st.sampled_from(
    [
        "A", "F", "Par", "Bur", "-", "S", "C", "H", "XXX", "APP", "TR", "T", "r", "d", "+", "(",
        ")", "/", "nc", "sc", "ec", "CN", "Spa", "StP", "Bul", "MAO", "Mid", "NTH", "Lon", "Bel",
        "via", "convoy", "Germany:", "Francia", ",", ";", ".", "=>", "→", "xyz", "Gal", "Var",
        "Liv", "MAR", "TOU", "Tyr", "Build", "Remove", "Waive", "et", "e", "and", "Sévastopol",
        "Mer du Nord", "Mid-Atlantic", "1.", "!", "Swi", "costa nord", "côte sud",
    ]
)  # fmt: skip
LINES = st.lists(st.lists(WORDS, max_size=9).map(" ".join), max_size=6)


@settings(max_examples=300, deadline=None)
@given(lines=LINES, lang=st.sampled_from(LANGS), with_position=st.booleans())
def test_every_order_gets_an_order_or_a_reason(
    lines: list[str], lang: str, with_position: bool
) -> None:
    position = STANDARD.initial_position() if with_position else None
    report = parse_orders(lines, lang, position=position, power="FRANCE")
    assert len(report.reply_lines()) == len(lines)
    for item in report.items:
        assert (item.order is None) != (item.error is None)
        reply = item.reply()
        assert reply
        if item.error is not None:
            assert reply.startswith(f"ERROR: {item.error.value}: ")
            assert item.message
        for note in item.note_messages:
            assert note


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=60), lang=st.sampled_from(LANGS))
def test_arbitrary_text_never_raises(text: str, lang: str) -> None:
    report = parse_orders([text], lang)
    assert all(item.reply() for item in report.items)
