"""Fixtures shared by every test package.

Tests that need a real service (PostgreSQL, Dovecot, Chromium) call ``need_service``: on a
developer machine without it they skip with the reason; under ``JUDGE_REQUIRE_SERVICES=1``
(set by .ci/run) a missing service is a failure, so CI never passes by skipping.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# The suite runs the pure-Python adjudicator, the reference, even where the install compiled it
# (setup.py; before anything imports the judge): tests/adjudicator/test_compiled.py checks the
# compiled build against it, answer for answer. Judges the tests start as subprocesses inherit
# it. JUDGE_PURE_PYTHON=0 runs the suite on the compiled build instead.
os.environ.setdefault("JUDGE_PURE_PYTHON", "1")

from hypothesis import settings as hypothesis_settings

from judge.service.auth import configure as configure_password_cost
from judge.service.auth import forget_verified

# No timed assertions in tests (speed is measured by benchmarks/): hypothesis's per-example
# deadline is one, and it fails at random on a loaded machine.
hypothesis_settings.register_profile("judge", deadline=None)
hypothesis_settings.load_profile("judge")

# Passwords are hashed at the lowest cost the settings allow (2**10, not 2**14): the tests check
# what is hashed, when and how often, not scrypt's strength, and 16 MiB hashes were half of a
# service test's time. Judges the tests start as subprocesses read the same cost from the
# environment; the benchmarks keep the production cost.
TEST_HASH_LOG2_N = 10
os.environ.setdefault("JUDGE_PASSWORD_HASH_LOG2_N", str(TEST_HASH_LOG2_N))
configure_password_cost(TEST_HASH_LOG2_N)



@pytest.fixture(autouse=True)
def _fresh_password_memory() -> None:
    """Each test starts with no remembered password match (judge.service.auth): tests count
    scrypt checks, and a match remembered from another test would hide one."""
    forget_verified()


# the database fixtures (db, db_url, migrated databases) serve every test package
pytest_plugins = ["tests.dbfixtures"]

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
POSTGRES_URL = os.environ.get(
    "JUDGE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


def services_required() -> bool:
    return os.environ.get("JUDGE_REQUIRE_SERVICES", "") not in ("", "0", "false", "no")


def need_service(reason: str) -> None:
    """Skip (or, in CI, fail) because a service the test needs is missing."""
    if services_required():
        pytest.fail(f"required service missing: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return SHARED
