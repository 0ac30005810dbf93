"""Lines that once raised or stored a value that broke the game later: now refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from judge.parsing.commands import parse_mail
from judge.rules.chosen_options import ChosenOptions
from judge.service.snapshot_rows import game_options


@pytest.mark.parametrize("line", ["ENDING 2025-02-30", "ENDING 0000-00-00", "ENDING 2026-13-01",
                                  "CHIUSURA 2025-02-29", "CLOTURE 1999-00-10"])
def test_impossible_end_dates_are_refused(line: str) -> None:
    parsed = parse_mail([line])
    assert parsed.commands() == []
    assert len(parsed.items) == 1


def test_a_real_end_date_is_taken() -> None:
    (command,) = parse_mail(["ENDING 2028-02-29"]).commands()
    assert command.option == "end" and command.setting == {"on": "2028-02-29"}


def test_a_bad_end_date_stored_earlier_does_not_stick_the_game() -> None:
    options = game_options(ChosenOptions.read({"end": {"on": "2025-02-30"}}))
    assert options.end.end_on is None
    ok = game_options(ChosenOptions.read({"end": {"on": "2028-02-29"}}))
    assert ok.end.end_on is not None and ok.end.end_on.replace(tzinfo=UTC) > datetime(
        2028, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize("line", ["HISTORY g1 ..", "HISTORY g1 ...", "HISTORY g1 ....."])
def test_history_with_an_empty_range_is_refused(line: str) -> None:
    parsed = parse_mail([line])
    assert parsed.commands() == []
    assert len(parsed.items) == 1
