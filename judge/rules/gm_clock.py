"""Limits on the GM's clock (issue 30 point 4): how much a GM may extend and pause.

A club's complaint: one game sat 85 days on repeated extensions. The options ``EXTENSION LIMIT``
and ``PAUSE LIMIT`` cap the hours of extension and of pause per phase and per game; what a game
has used is kept in its option dict (``ClockUse``), the phase counters starting again at each new
phase. Pure: the service passes the hours asked and the stored use, and stores what comes back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from typing import Any


class ClockCap(StrEnum):
    """Which cap a GM's EXTEND, SET DEADLINE or PAUSE would pass."""

    PHASE_EXTENSION = "phase_extension"
    GAME_EXTENSION = "game_extension"
    PHASE_PAUSE = "phase_pause"
    GAME_PAUSE = "game_pause"


@dataclass(frozen=True)
class Limits:
    """Hours allowed per phase and per game; None: no cap."""

    phase: float | None = None
    game: float | None = None

    @classmethod
    def from_option(cls, value: Mapping[str, Any] | None) -> Limits:
        value = value or {}
        phase, game = value.get("phase"), value.get("game")
        return cls(None if phase is None else float(phase), None if game is None else float(game))


@dataclass(frozen=True)
class ClockUse:
    """Hours of extension and pause the GM has used, in ``phase`` and in the whole game."""

    phase: str = ""
    extended_phase: float = 0.0
    extended_game: float = 0.0
    paused_phase: float = 0.0
    paused_game: float = 0.0

    @classmethod
    def from_json(cls, value: Mapping[str, Any] | None) -> ClockUse:
        return cls(**{k: v for k, v in (value or {}).items() if k in cls.__dataclass_fields__})

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def in_phase(self, phase: str) -> ClockUse:
        """The use as seen in ``phase``: a new phase starts its counters at zero."""
        if phase == self.phase:
            return self
        return replace(self, phase=phase, extended_phase=0.0, paused_phase=0.0)


def _left(limit: float | None, used: float) -> float | None:
    return None if limit is None else max(limit - used, 0.0)


def extension_refused(use: ClockUse, limits: Limits, phase: str, hours: float,
                      ) -> tuple[ClockCap, float] | None:
    """The cap ``hours`` more of extension would pass, with the hours still allowed under it;
    None when the extension is allowed."""
    now = use.in_phase(phase)
    for cap, left in ((ClockCap.PHASE_EXTENSION, _left(limits.phase, now.extended_phase)),
                      (ClockCap.GAME_EXTENSION, _left(limits.game, now.extended_game))):
        if left is not None and hours > left + 1e-9:
            return cap, left
    return None


def pause_allowance(use: ClockUse, limits: Limits, phase: str,
                    ) -> tuple[float | None, ClockCap | None]:
    """How many hours a pause may last now (None: no cap) and the cap that sets it."""
    now = use.in_phase(phase)
    phase_left = _left(limits.phase, now.paused_phase)
    game_left = _left(limits.game, now.paused_game)
    if phase_left is None and game_left is None:
        return None, None
    if game_left is None or (phase_left is not None and phase_left <= game_left):
        return phase_left, ClockCap.PHASE_PAUSE
    return game_left, ClockCap.GAME_PAUSE


def extended(use: ClockUse, phase: str, hours: float) -> ClockUse:
    now = use.in_phase(phase)
    return replace(now, extended_phase=now.extended_phase + hours,
                   extended_game=now.extended_game + hours)


def paused(use: ClockUse, phase: str, hours: float) -> ClockUse:
    now = use.in_phase(phase)
    return replace(now, paused_phase=now.paused_phase + hours,
                   paused_game=now.paused_game + hours)


class VoteOutcome(StrEnum):
    """Where the other players' vote on a playing GM's request stands."""

    APPROVED = "approved"  # more than half of them agreed
    REJECTED = "rejected"  # half or more refused: a majority can no longer agree
    OPEN = "open"


def vote_outcome(yes: int, no: int, voters: int) -> VoteOutcome:
    """A majority of the other players (more than half of them) must agree."""
    if 2 * yes > voters:
        return VoteOutcome.APPROVED
    if 2 * no >= voters:
        return VoteOutcome.REJECTED
    return VoteOutcome.OPEN
