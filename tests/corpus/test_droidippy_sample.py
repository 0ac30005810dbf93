"""The sample of real Droidippy games (../shared/corpora/droidippy_sample.tar.xz) replayed
phase by phase through ``judge adjudicate``: every phase agrees with the record, or differs for
a documented reason (DATC 3.0's 6.G.8 against Droidippy's DATC 2.x "via convoy" rule, a phase
missing from the record). The whole corpus: ``python -m tests.corpus.droidippy --full``."""

from __future__ import annotations

import pytest

from tests.corpus.droidippy import SAMPLE, read_record, replay_archive, replay_game


def test_sample_replays_with_no_unexplained_disagreement() -> None:
    if not SAMPLE.exists():
        pytest.fail(f"corpus sample missing: {SAMPLE}", pytrace=False)
    result = replay_archive(SAMPLE)
    assert result.unexplained == []
    assert result.phases > 10_000
    # every kind of phase was really compared, and nearly all agree outright
    assert min(result.kinds[k] for k in "MRA") > 1_000
    assert result.agreed >= result.phases - sum(result.known.values())
    assert result.not_compared == {}


RECORD = """PHASE 1901 Spring Movement
POSITIONS
England: fleet lon
England: supply lon
France: fleet bre
France: supply bre
ORDERS
lon move eng
bre move eng
PHASE 1901 Fall Movement
POSITIONS
England: fleet lon
England: supply lon
France: fleet bre
France: supply bre
ORDERS
"""


def test_a_wrong_record_is_reported() -> None:
    """The comparison is not vacuous: a record whose next position is wrong is caught."""
    phases = read_record(RECORD)
    assert replay_game("right", phases).agreed == 1
    phases[1].units["ENG"] = phases[1].units.pop("LON")  # pretend the fleet got through
    result = replay_game("wrong", phases)
    assert result.agreed == 0 and len(result.unexplained) == 1
    assert "ENGLAND F ENG" in result.unexplained[0]
