"""``Adjudication``: everything one phase decided (``outcomes.py`` re-exports it).

A module of its own so that the optional compiled build (setup.py) compiles it as a native
class, as ``order_result.py`` does for ``OrderResult``: one is made per phase, and as a Python
class with frozen fields it cost a batch about 20,000 machine instructions a phase (callgrind:
its ``__init__`` and filling in the results, each field set through ``object.__setattr__``).
Its fields are read-only properties: an assignment raises ``AttributeError``, in the pure
source and in the compiled build alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, final

from judge.adjudicator.field_value import FieldValue
from judge.adjudicator.order_result import OrderResult
from judge.adjudicator.orders import Unit
from judge.adjudicator.phase import Phase
from judge.adjudicator.position import Position

Explain = Callable[[], tuple[dict[str, list[OrderResult]], dict[str, OrderResult]]]


@final
class Adjudication(FieldValue):
    """Everything one phase decided; see ``adjudication.py`` for the contract.

    Immutable. A movement phase may hand over ``explain`` instead of the results: the results
    are then built on first read, from a resolution that is finished and cannot change, so a
    caller that only wants the next position (a program playing games) does not pay for
    explaining every order. Either way they are the same values.
    """

    __slots__ = ("_phase", "_position", "_destroyed", "_results", "_unit_results", "_explain")
    _NAMES = ("phase", "results", "unit_results", "position", "destroyed")

    def __init__(
        self,
        phase: Phase,
        results: dict[str, list[OrderResult]] | None,
        unit_results: dict[str, OrderResult] | None,
        position: Position,
        destroyed: tuple[Unit, ...] = (),
        explain: Explain | None = None,
    ) -> None:
        self._phase = phase
        self._position = position
        self._destroyed = destroyed
        self._results = results
        self._unit_results = unit_results
        self._explain = explain

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def position(self) -> Position:
        return self._position

    @property
    def destroyed(self) -> tuple[Unit, ...]:
        return self._destroyed

    def _fill(self) -> None:
        explain = self._explain
        assert explain is not None  # results and explain are never both None
        self._results, self._unit_results = explain()
        self._explain = None

    @property
    def results(self) -> dict[str, list[OrderResult]]:
        """Power -> an ``OrderResult`` for every order (submitted first, then generated)."""
        results = self._results
        if results is None:
            self._fill()
            results = self._results
            assert results is not None
        return results

    @property
    def unit_results(self) -> dict[str, OrderResult]:
        """Province -> the one result that governs the unit there."""
        unit_results = self._unit_results
        if unit_results is None:
            self._fill()
            unit_results = self._unit_results
            assert unit_results is not None
        return unit_results

    def _fields(self) -> tuple[Any, ...]:
        return (self.phase, self.results, self.unit_results, self.position, self.destroyed)

    def __hash__(self) -> int:
        # results are dicts: unhashable, as the dataclass it was
        raise TypeError("unhashable type: 'Adjudication'")

    def submitted(self, power: str) -> list[OrderResult]:
        return [r for r in self.results.get(power, ()) if not r.generated]

    def generated(self, power: str) -> list[OrderResult]:
        return [r for r in self.results.get(power, ()) if r.generated]
