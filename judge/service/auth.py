"""Passwords: salted scrypt hashes (memory-hard, standard library), compared in constant time.

Stored form: ``scrypt$<n>$<r>$<p>$<salt hex>$<hash hex>``, so the cost can be raised later and
old hashes still verify.

A password that matched is remembered for ``VERIFIED_SECONDS`` (issue 16): a player sends
several order mails in a few minutes, each with its SIGNON, and a check costs ~45 ms of CPU
(scrypt at the production cost), which capped order mails at ~21/s on two cores. The memory
holds, per match, an HMAC-SHA256 of (stored hash, password) under a key drawn at random when the
process starts and never written anywhere, and when it expires; never the password. What the
cache keeps: the stored hash is part of the key, so a new password (a new salt) is checked
afresh; only matches are kept, so every wrong password still costs a full scrypt and counts
towards the lockout (checked before the password, in ``usecases``), and the per-request scrypt
budget (``caller.py``) is charged as before. The risk it adds is to someone who can read the
live process's memory: he could test guesses against a recent player's entry with a fast
hash; that reader already sees the same passwords in clear in the mails being handled.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict

# n=2**14, r=8 needs 16 MiB per hash: slow for an attacker with a stolen table, quick enough
# for a judge that checks a password a few times per mail. The cost of NEW hashes is the
# process-wide ``password_hash_log2_n`` setting (``configure``, called where the judge starts):
# a crypto parameter of the installation, not of a call; each stored hash names its own.
N, R, P = 2**14, 8, 1
SALT_BYTES = 16
KEY_BYTES = 32
_cost = {"n": N}


def _maxmem(n: int, r: int) -> int:
    # scrypt's working set is 128 * r * n bytes; OpenSSL wants a little more than that
    return max(64 * 1024 * 1024, 2 * 128 * r * n)


def configure(log2_n: int) -> None:
    """Set the cost of hashes made from now on (``password_hash_log2_n``)."""
    if not 10 <= log2_n <= 20:
        raise ValueError("password_hash_log2_n must be between 10 and 20")
    _cost["n"] = 2**log2_n


def hash_password(password: str, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else secrets.token_bytes(SALT_BYTES)
    n = _cost["n"]
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=R, p=P,
                            dklen=KEY_BYTES, maxmem=_maxmem(n, R))
    return f"scrypt${n}${R}${P}${salt.hex()}${digest.hex()}"


VERIFIED_SECONDS = 600.0
VERIFIED_ENTRIES = 4096
_verified_key = secrets.token_bytes(32)
_verified: OrderedDict[bytes, float] = OrderedDict()  # fingerprint -> monotonic expiry
_verified_lock = threading.Lock()  # the drain and the web's threads check passwords


def _fingerprint(password: str, stored: str) -> bytes:
    message = stored.encode("utf-8") + b"\0" + password.encode("utf-8")
    return hmac.new(_verified_key, message, "sha256").digest()


def forget_verified() -> None:
    """Drop every remembered match (tests; an operator's reload could too)."""
    with _verified_lock:
        _verified.clear()


def verify_password(password: str, stored: str) -> bool:
    """True when ``password`` matches ``stored``; an empty or unreadable hash never matches.
    A match made in the last ``VERIFIED_SECONDS`` is answered from memory (module docstring)."""
    fingerprint = _fingerprint(password, stored)
    now = time.monotonic()
    with _verified_lock:
        until = _verified.get(fingerprint)
        if until is not None and until > now:
            return True
    if not _scrypt_matches(password, stored):
        return False
    with _verified_lock:
        _verified[fingerprint] = now + VERIFIED_SECONDS
        _verified.move_to_end(fingerprint)
        while len(_verified) > VERIFIED_ENTRIES:
            _verified.popitem(last=False)
    return True


def _scrypt_matches(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt_hex, digest_hex = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = bytes.fromhex(digest_hex)
        digest = hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt_hex),
                                n=int(n), r=int(r), p=int(p), dklen=len(expected),
                                maxmem=_maxmem(int(n), int(r)))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(digest, expected)
