"""The standard variant, built explicitly through the catalog for tests that play on it.

The judge reads no global board or power list (tests/test_no_global_board.py); a test that
plays on the standard map says so by using ``STANDARD`` (its ``board``, ``powers``,
``initial_position()`` and ``position(...)``).
"""

from __future__ import annotations

from judge.adjudicator.catalog import variant
from judge.adjudicator.variant import Variant

STANDARD: Variant = variant("standard")
