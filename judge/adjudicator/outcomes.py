"""What happened to each order, and why: enough for a reply to explain every failure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass

from judge.adjudicator.adjustments import RemovalDistance
from judge.adjudicator.order_result import OrderResult as OrderResult
from judge.adjudicator.order_result import Outcome as Outcome
from judge.adjudicator.orders import Unit
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Position


@dataclass(frozen=True, slots=True)
class Options:
    """Rule variants the seeds leave open (see the README's adjudication choices)."""

    removal_distance: RemovalDistance = RemovalDistance.HOME
    # seed 001's two-player game: the power the neutral one joined when the lot was drawn
    joins: str | None = None


class Adjudication:
    """Everything one phase decided; see ``adjudication.py`` for the contract.

    Immutable. A movement phase may hand over ``explain`` instead of the results: the results
    are then built on first read, from a resolution that is finished and cannot change, so a
    caller that only wants the next position (a program playing games) does not pay for
    explaining every order. Either way they are the same values.
    """

    __slots__ = ("phase", "position", "destroyed", "_results", "_unit_results", "_explain")

    phase: Phase
    position: Position
    destroyed: tuple[Unit, ...]
    _results: dict[str, list[OrderResult]] | None
    _unit_results: dict[str, OrderResult] | None
    _explain: Callable[[], tuple[dict[str, list[OrderResult]], dict[str, OrderResult]]] | None

    def __init__(
        self,
        phase: Phase,
        results: dict[str, list[OrderResult]] | None,
        unit_results: dict[str, OrderResult] | None,
        position: Position,
        destroyed: tuple[Unit, ...] = (),
        explain: Callable[[], tuple[dict[str, list[OrderResult]], dict[str, OrderResult]]]
        | None = None,
    ) -> None:
        init = object.__setattr__
        init(self, "phase", phase)
        init(self, "position", position)
        init(self, "destroyed", destroyed)
        init(self, "_results", results)
        init(self, "_unit_results", unit_results)
        init(self, "_explain", explain)

    def _fill(self) -> None:
        assert self._explain is not None  # results and explain are never both None
        results, unit_results = self._explain()
        object.__setattr__(self, "_results", results)
        object.__setattr__(self, "_unit_results", unit_results)
        object.__setattr__(self, "_explain", None)

    @property
    def results(self) -> dict[str, list[OrderResult]]:
        """Power -> an ``OrderResult`` for every order (submitted first, then generated)."""
        if self._results is None:
            self._fill()
        assert self._results is not None
        return self._results

    @property
    def unit_results(self) -> dict[str, OrderResult]:
        """Province -> the one result that governs the unit there."""
        if self._unit_results is None:
            self._fill()
        assert self._unit_results is not None
        return self._unit_results

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _fields(self) -> tuple[object, ...]:
        return (self.phase, self.results, self.unit_results, self.position, self.destroyed)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Adjudication) or other.__class__ is not Adjudication:
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # results are dicts, as in the dataclass it was

    def __reduce__(self) -> tuple[type[Adjudication], tuple[object, ...]]:
        # pickled and copied with its results, as the dataclass it was (no closure to carry)
        return (Adjudication, self._fields())

    def __repr__(self) -> str:
        return (
            f"Adjudication(phase={self.phase!r}, results={self.results!r}, "
            f"unit_results={self.unit_results!r}, position={self.position!r}, "
            f"destroyed={self.destroyed!r})"
        )

    def submitted(self, power: str) -> list[OrderResult]:
        return [r for r in self.results.get(power, ()) if not r.generated]

    def generated(self, power: str) -> list[OrderResult]:
        return [r for r in self.results.get(power, ()) if r.generated]
