"""Who plays which power: by lot, or from secret preference lists (seeds 000 and 002).

Preference lists: a power ranked first by a single player goes to that player; a power ranked
first by several goes to one of them by lot; then the same with the second choices of those still
without a power, and so on. Every lot drawn is recorded, so the assignment can be audited and
replayed from the record without the random generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Lot:
    """One drawing: ``prize`` went to ``winner`` among ``contenders`` (sorted)."""

    prize: str  # a power (preference ties) or a player (plain lot: the player draws a power)
    contenders: tuple[str, ...]
    winner: str


@dataclass(frozen=True, slots=True)
class Assignment:
    powers: dict[str, str]  # player -> power
    lots: tuple[Lot, ...]


class Chooser(Protocol):
    lots: list[Lot]  # every drawing made so far, in order

    def choose(self, prize: str, contenders: tuple[str, ...]) -> str: ...


class RandomChooser:
    """Draws with an injected generator and keeps the record."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self.lots: list[Lot] = []

    def choose(self, prize: str, contenders: tuple[str, ...]) -> str:
        winner = self._rng.choice(contenders)
        self.lots.append(Lot(prize, contenders, winner))
        return winner


class RecordMismatch(ValueError):
    """A recorded draw does not fit the assignment it is said to come from."""


class RecordedChooser:
    """Replays a record, checking each drawing is the one the record holds."""

    def __init__(self, lots: Sequence[Lot]) -> None:
        self._lots = list(lots)
        self.lots: list[Lot] = []

    def choose(self, prize: str, contenders: tuple[str, ...]) -> str:
        if not self._lots:
            raise RecordMismatch(f"no recorded draw for {prize} among {contenders}")
        lot = self._lots.pop(0)
        if lot.prize != prize or lot.contenders != contenders or lot.winner not in contenders:
            raise RecordMismatch(f"record has {lot}, the draw is {prize} among {contenders}")
        self.lots.append(lot)
        return lot.winner

    def finished(self) -> bool:
        return not self._lots


def seat_label(powers: Sequence[str]) -> str:
    """A seat as the lot and the record name it: its powers, ``AUSTRIA+ENGLAND+GERMANY``."""
    return "+".join(powers)


def seat_ranking(ranking: Sequence[str], seats: Sequence[Sequence[str]]) -> list[str]:
    """A player's preference list over powers read as one over seats (seed 001's games for
    fewer players): a seat ranks where its first-named power does; powers no seat holds
    (the neutral ones) are skipped."""
    out: list[str] = []
    for power in ranking:
        for seat in seats:
            label = seat_label(seat)
            if power in seat and label not in out:
                out.append(label)
    return out


def assign_by_lot(
    players: Sequence[str], chooser: Chooser, powers: Sequence[str]
) -> Assignment:
    """Each player in turn (sorted) draws one of the powers still in the cup."""
    if len(players) > len(powers):
        raise ValueError(f"{len(players)} players for {len(powers)} powers")
    cup = sorted(powers)
    result: dict[str, str] = {}
    for player in sorted(players):
        power = chooser.choose(player, tuple(cup))
        cup.remove(power)
        result[player] = power
    return Assignment(result, tuple(chooser.lots))


def assign_by_preference(
    preferences: Mapping[str, Sequence[str]],
    chooser: Chooser,
    powers: Sequence[str],
) -> Assignment:
    """Preference lists, most wanted first; players left over (short lists) draw by lot."""
    if len(preferences) > len(powers):
        raise ValueError(f"{len(preferences)} players for {len(powers)} powers")
    for player, ranking in preferences.items():
        if len(set(ranking)) != len(ranking) or not set(ranking) <= set(powers):
            raise ValueError(f"{player}: a preference list names each power at most once")
    result: dict[str, str] = {}
    depth = max((len(p) for p in preferences.values()), default=0)
    for rank in range(depth):
        for power in powers:
            if power in result.values():
                continue
            wanting = tuple(
                sorted(
                    player
                    for player, ranking in preferences.items()
                    if player not in result and rank < len(ranking) and ranking[rank] == power
                )
            )
            if len(wanting) == 1:
                result[wanting[0]] = power
            elif wanting:
                result[chooser.choose(power, wanting)] = power
    left_players = [p for p in preferences if p not in result]
    left_powers = [p for p in powers if p not in result.values()]
    if left_players:
        rest = assign_by_lot(left_players, chooser, left_powers)
        result.update(rest.powers)
    return Assignment(result, tuple(chooser.lots))


def replay_preference(
    preferences: Mapping[str, Sequence[str]], lots: Sequence[Lot], powers: Sequence[str]
) -> Assignment:
    """Audit: the assignment the record gives; RecordMismatch if the record does not fit."""
    chooser = RecordedChooser(lots)
    assignment = assign_by_preference(preferences, chooser, powers)
    if not chooser.finished():
        raise RecordMismatch("the record holds drawings the assignment never made")
    return assignment


def replay_lot(
    players: Sequence[str], lots: Sequence[Lot], powers: Sequence[str]
) -> Assignment:
    chooser = RecordedChooser(lots)
    assignment = assign_by_lot(players, chooser, powers)
    if not chooser.finished():
        raise RecordMismatch("the record holds drawings the assignment never made")
    return assignment
