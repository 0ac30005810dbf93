"""What a map shows, read from plain dicts (the JSON shapes of ``judge adjudicate``).

Accepted input (every key optional except ``phase``)::

    {"phase": "F1901M",
     "units": {"ENGLAND": ["F LON", "A LVP"]},
     "centers": {"ENGLAND": ["LON", "EDI", "LVP"]},
     "dislodged": {"FRANCE": {"A BUR": ["GAS"]}},      # or a plain list of units
     "results": {"ENGLAND": [{"order": "F LON - NTH", "result": "succeeds"}]},
     "orders": {"ENGLAND": ["F LON - NTH"]}}            # orders without outcomes

For a movement phase, ``dislodged`` names the units the orders dislodged (drawn in place with a
mark); for a retreat phase they are the units waiting to retreat (drawn beside the occupant).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.adjudicator.orders import NotationError, Order, Unit, parse_canonical, parse_unit
from judge.adjudicator.phase import Phase


@dataclass(frozen=True)
class DrawnOrder:
    power: str
    order: Order
    succeeded: bool | None  # None: not resolved yet (orders shown without outcomes)
    text: str


@dataclass(frozen=True)
class MapSnapshot:
    phase: Phase
    units: tuple[Unit, ...]
    centers: Mapping[str, str]  # centre -> owner
    dislodged: tuple[Unit, ...] = ()
    orders: tuple[DrawnOrder, ...] = ()
    title: str = ""
    unreadable: tuple[str, ...] = field(default=())  # order texts the map could not draw
    variant: str = "standard"  # whose map and drawing (``judge/variants/<name>/``)
    language: str = "en"  # of the title, the province labels and the tooltips

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MapSnapshot:
        phase = Phase.parse(str(data["phase"]))
        units = tuple(
            parse_unit(text, power)
            for power, texts in (data.get("units") or {}).items()
            for text in texts
        )
        centers = {
            centre: power
            for power, owned in (data.get("centers") or {}).items()
            for centre in owned
        }
        dislodged: list[Unit] = []
        for power, entries in (data.get("dislodged") or {}).items():
            # either {"A BUR": [retreats]} or ["A BUR", ...]
            for text in entries:
                dislodged.append(parse_unit(text, power))
        drawn: list[DrawnOrder] = []
        unreadable: list[str] = []
        for power, rows in (data.get("results") or {}).items():
            for row in rows:
                text = str(row.get("order", ""))
                if str(row.get("reason", "")) == "illegal":
                    continue  # an illegal order did nothing: the bulletin lists it, the map not
                _add(drawn, unreadable, power, text, _succeeded(row))
        for power, texts in (data.get("orders") or {}).items():
            for text in texts:
                _add(drawn, unreadable, power, str(text), None)
        return cls(
            phase=phase,
            units=units,
            centers=centers,
            dislodged=tuple(dislodged),
            orders=tuple(drawn),
            title=str(data.get("title", "")),
            language=str(data.get("language", "en")),
            unreadable=tuple(unreadable),
            variant=str(data.get("variant") or "standard"),
        )


def _succeeded(row: Mapping[str, Any]) -> bool:
    result = str(row.get("result", "")).lower()
    return result in ("succeeds", "success", "succeeded", "ok", "resolved")


def _add(drawn: list[DrawnOrder], unreadable: list[str], power: str, text: str, ok: bool | None) -> None:
    try:
        drawn.append(DrawnOrder(power, parse_canonical(text), ok, text))
    except NotationError:
        # illegal or garbled text is listed in the bulletin, never drawn
        unreadable.append(text)


def snapshot_from_turn(
    phase: str,
    position_before: Mapping[str, Any],
    outcomes: Mapping[str, Any] | None = None,
    position_after: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The map input for one processed phase, from a turn snapshot's JSON columns.

    ``position_before`` holds ``units``/``centers`` (and ``dislodged`` in a retreat phase);
    ``outcomes`` is the adjudicator's ``results`` (or a dict holding it); for a movement phase
    the units dislodged by these orders come from ``position_after['dislodged']``.
    """
    results = outcomes or {}
    if "results" in results and isinstance(results["results"], Mapping):
        results = results["results"]
    kind = phase[-1:].upper()
    dislodged: Mapping[str, Any]
    if kind == "R":
        dislodged = position_before.get("dislodged") or {}
    elif kind == "M":
        dislodged = (position_after or {}).get("dislodged") or {}
    else:
        dislodged = {}
    return {
        "phase": phase,
        "units": position_before.get("units") or {},
        "centers": position_before.get("centers") or {},
        "dislodged": dislodged,
        "results": results,
        "variant": position_before.get("variant") or "standard",
    }
