"""Play-test: the archive showed stored codes ("(onp1)", "(onp)") where readers want words."""

from __future__ import annotations

from judge.archive.pages import seat_words, source_words
from judge.archive.webapp import _templates


def test_seat_statuses_and_order_sources_read_as_words() -> None:
    assert seat_words("onp1") == "missed orders once (ONP)"
    assert seat_words("vacant") == "no player"
    assert source_words("onp") == "no orders: hold and mutual support"
    assert source_words("something_new") == "something new"


def test_the_templates_use_the_words() -> None:
    env = _templates()
    assert env.filters["seat_words"] is seat_words
    assert env.filters["source_words"] is source_words
