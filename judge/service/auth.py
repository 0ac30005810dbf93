"""Passwords: salted scrypt hashes (memory-hard, standard library), compared in constant time.

Stored form: ``scrypt$<n>$<r>$<p>$<salt hex>$<hash hex>``, so the cost can be raised later and
old hashes still verify.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

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


def verify_password(password: str, stored: str) -> bool:
    """True when ``password`` matches ``stored``; an empty or unreadable hash never matches."""
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
