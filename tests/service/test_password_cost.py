"""The cost of new password hashes is a setting; stored hashes keep their own cost."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from judge.service import auth
from judge.settings import ConfigError, Settings
from tests.conftest import TEST_HASH_LOG2_N


@pytest.fixture
def restore_cost() -> Iterator[None]:
    yield
    auth.configure(TEST_HASH_LOG2_N)


def test_new_hashes_take_the_configured_cost_and_old_ones_still_verify(
        restore_cost: None) -> None:
    auth.configure(11)
    cheap = auth.hash_password("sekrit")
    assert cheap.split("$")[1] == str(2**11)
    auth.configure(14)
    dear = auth.hash_password("sekrit")
    assert dear.split("$")[1] == str(2**14)
    # raising the cost leaves the hashes already stored readable
    assert auth.verify_password("sekrit", cheap) and auth.verify_password("sekrit", dear)
    assert not auth.verify_password("Sekrit", cheap)


@pytest.mark.parametrize("log2_n", [9, 21])
def test_a_cost_out_of_range_is_refused(log2_n: int) -> None:
    with pytest.raises(ValueError):
        auth.configure(log2_n)
    with pytest.raises(ConfigError, match="password_hash_log2_n"):
        Settings(password_hash_log2_n=log2_n).validate()


def test_the_default_is_the_production_cost() -> None:
    assert Settings().password_hash_log2_n == 14 and auth.N == 2**14


def test_a_match_is_remembered_and_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: a password that matched is not run through scrypt again for a while; a wrong
    one always is, a new stored hash (a new password, a new salt) is, and so is a match whose
    time is up."""
    stored = auth.hash_password("sekrit")
    calls: list[bytes] = []
    real = auth.hashlib.scrypt

    def counting(password: bytes, **kw: object) -> bytes:
        calls.append(password)
        return real(password, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(auth.hashlib, "scrypt", counting)
    assert auth.verify_password("sekrit", stored) and len(calls) == 1
    assert auth.verify_password("sekrit", stored) and len(calls) == 1  # remembered
    for _ in range(3):
        assert not auth.verify_password("Sekrit", stored)
    assert len(calls) == 4  # every wrong password costs its scrypt
    again = auth.hash_password("sekrit")
    calls.clear()
    assert auth.verify_password("sekrit", again) and len(calls) == 1  # another hash: checked
    assert not auth.verify_password("sekrit", "") and not auth.verify_password("sekrit", "x$y")
    # nothing of the password itself is kept
    assert all(b"sekrit" not in key for key in auth._verified)
    monkeypatch.setattr(auth.time, "monotonic", lambda: 1e12)  # long after
    calls.clear()
    assert auth.verify_password("sekrit", stored) and len(calls) == 1
