"""One style for every vocabulary of "why" (issue 11 point 3): adjudicator outcomes and
refusals, parse errors and notes, command problems, service refusals, rule decisions.

A reason code is a ``StrEnum`` member whose value is its name in lower case, in snake_case:
``CommandRefusal.WRONG_PASSWORD == "wrong_password"``. The value is what is stored, logged and
looked up as a message key, so one style means a code reads the same everywhere.
"""

from __future__ import annotations

import re
from enum import StrEnum

import pytest

from judge.adjudicator.outcomes import Outcome
from judge.adjudicator.refusals import Refusal
from judge.bots.proposals import PressError
from judge.parsing.commands_types import Problem
from judge.parsing.errors import Note, ParseError
from judge.rules.decision import SeatChangeWhy, Why
from judge.rules.game_end import EndReason
from judge.rules.generated import GeneratedWhy
from judge.rules.lateness import AskAheadRefusal
from judge.rules.onp import AbandonmentOutcome
from judge.service.answers import CommandRefusal, Done

VOCABULARIES: list[type[StrEnum]] = [
    Outcome, Refusal, ParseError, Note, Problem, CommandRefusal, Done, Why, SeatChangeWhy,
    GeneratedWhy, EndReason, AskAheadRefusal, AbandonmentOutcome, PressError,
]
SNAKE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")


@pytest.mark.parametrize("vocabulary", VOCABULARIES, ids=lambda v: v.__name__)
def test_reason_codes_are_their_names_in_snake_case(vocabulary: type[StrEnum]) -> None:
    assert len(vocabulary) > 1
    odd = [(m.name, m.value) for m in vocabulary
           if not SNAKE.fullmatch(m.value) or m.name != m.value.upper()]
    assert odd == []
