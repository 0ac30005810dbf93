"""Issue 28: the server log tells a game's story at INFO (processed, player replaced, GM
commands: game name and phase on each line) and not the scheduler's routine; it never holds a
password or, in a blind game, a player's address."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from judge.logfilter import CHATTY_LOGGERS, quiet_chatter
from judge.storage import Database
from tests.service.commands_harness import GM, PLAYERS, Harness


@pytest.fixture
def restore_levels() -> Iterator[None]:
    before = {name: logging.getLogger(name).level for name in CHATTY_LOGGERS}
    yield
    for name, level in before.items():
        logging.getLogger(name).setLevel(level)


def test_the_schedulers_routine_is_debug_only(restore_levels: None) -> None:
    logging.getLogger().setLevel(logging.INFO)
    quiet_chatter("info")
    jobs = logging.getLogger("apscheduler.executors.default")
    assert not jobs.isEnabledFor(logging.INFO) and jobs.isEnabledFor(logging.WARNING)
    assert not logging.getLogger("mail.log").isEnabledFor(logging.INFO)
    assert logging.getLogger("judge.events").isEnabledFor(logging.INFO)
    logging.getLogger().setLevel(logging.DEBUG)
    quiet_chatter("DEBUG")
    assert jobs.isEnabledFor(logging.DEBUG)


def test_a_blind_games_events_are_logged_without_addresses_or_passwords(
        db: Database, caplog: pytest.LogCaptureFixture) -> None:
    h = Harness(db)
    with caplog.at_level(logging.DEBUG):
        players = h.started_game("club", "BLIND\nCOMPUTER SEATS")
        h.mail(GM, "SIGNON GM club gmpass\nEJECT ITALY\nREPLACE ITALY COMPUTER\n"
                   "PROCESS S1901M")
    events = [r.getMessage() for r in caplog.records
              if r.name == "judge.events" and r.levelno == logging.INFO]
    assert "game club S1901M: GM command (verb=START)" in events
    assert "game club S1901M: GM command (verb=EJECT)" in events
    assert "game club S1901M: player replaced by the computer (power=ITALY)" in events
    assert any(e.startswith("game club S1901M: adjudicated (next=F1901M") for e in events), events
    processed = next(e for e in events if "adjudicated" in e)
    assert "why=gm_process" in processed
    secrets = [*PLAYERS, GM, "gmpass", *(f"pw{i}" for i in range(1, 8))]
    for record in caplog.records:
        text = record.getMessage()
        assert not any(secret in text for secret in secrets), text
    assert len(players) == 7
