"""What each archive page shows, as plain data (pure: dicts from storage in, dicts out).

The same dicts feed the HTML templates and the ``.json`` URLs, so tools see exactly what
people see. Only turn snapshots are used: a phase still being played does not exist here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from judge.adjudicator.catalog import DEFAULT_VARIANT
from judge.adjudicator.catalog import variant as installed_variant
from judge.archive.chart import centre_chart
from judge.maps import render_svg, snapshot_from_turn

# addresses never reach the archive, even inside a bulletin text (blind games, spam harvesters)
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}
_KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}


# the words a reader sees for the stored codes of seats and of orders the judge made up
SEAT_WORDS = {"active": "playing", "onp1": "missed orders once (ONP)",
              "abandoned": "abandoned, replacement sought", "sommossa": "in Sommossa",
              "eliminated": "eliminated", "vacant": "no player",
              "computer": "played by the computer"}
SOURCE_WORDS = {"onp": "no orders: hold and mutual support",
                "majority": "abandoned: the other players' majority",
                "sommossa": "Sommossa: the other players' majority",
                "generated": "no orders: default",
                "computer": "ordered by the computer"}


def seat_words(status: str) -> str:
    return SEAT_WORDS.get(status, status.replace("_", " "))


def source_words(source: str) -> str:
    return SOURCE_WORDS.get(source, source.replace("_", " "))


def redact(text: str) -> str:
    return _ADDRESS.sub("[address hidden]", text)


def phase_title(phase: str) -> str:
    if len(phase) != 6:
        return phase
    return f"{_SEASONS.get(phase[0], phase[0])} {phase[1:5]} {_KINDS.get(phase[5], phase[5])}"


def _centres_by_power(position: Mapping[str, Any]) -> dict[str, int]:
    centres = position.get("centers") or {}
    # every power of the game's map (the position's JSON names its variant)
    counts = {p: 0 for p in installed_variant(position.get("variant") or DEFAULT_VARIANT).powers}
    for power, owned in centres.items():
        counts[power] = len(owned)
    return counts


def centre_history(turns: list[Mapping[str, Any]]) -> tuple[list[str], dict[str, list[int]]]:
    """Centre counts at the start and at the end of every played year."""
    if not turns:
        return [], {}
    first = turns[0]
    years = [f"{int(first['phase'][1:5]) - 1}" if first["phase"].startswith("S") else "start"]
    by_year: dict[str, dict[str, int]] = {years[0]: _centres_by_power(first["position_before"])}
    for turn in turns:
        year = turn["phase"][1:5]
        if year not in by_year:
            years.append(year)
        by_year[year] = _centres_by_power(turn["position_after"])
    powers = sorted({p for counts in by_year.values() for p in counts})
    active = [p for p in powers if any(by_year[y].get(p, 0) for y in years)]
    for counts in by_year.values():
        for p in powers:
            counts.setdefault(p, 0)
    return years, {p: [by_year[y][p] for y in years] for p in active}


def _public_game(game: Mapping[str, Any]) -> dict[str, Any]:
    keys = ("name", "variant", "status", "phase", "blind", "processed_phases", "players")
    return {k: game[k] for k in keys}


def game_list(games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {"games": [_public_game(g) for g in games]}


def game_page(game: Mapping[str, Any]) -> dict[str, Any]:
    turns = game["turns"]
    years, counts = centre_history(turns)
    latest = turns[-1]["position_after"] if turns else {}
    return {
        "game": _public_game(game),
        "phases": [{"phase": t["phase"], "title": phase_title(t["phase"])} for t in turns],
        "centres": {"years": years, "counts": counts},
        "current_centres": {
            p: sorted(cs) for p, cs in sorted((latest.get("centers") or {}).items())
        },
    }


def _order_rows(turn: Mapping[str, Any]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for power, results in sorted((turn.get("outcomes") or {}).items()):
        for r in results:
            rows.append(
                {
                    "power": power,
                    "order": str(r.get("order", "")),
                    "result": str(r.get("result", "")),
                    "reason": str(r.get("reason", "") or ""),
                    "refusal": str(r.get("refusal", "") or ""),
                    "source": str(r.get("source", "submitted") or "submitted"),
                }
            )
    return rows


def _bulletins(turn: Mapping[str, Any]) -> list[dict[str, str]]:
    out = []
    for kind, b in sorted((turn.get("bulletins") or {}).items()):
        if isinstance(b, Mapping):
            out.append(
                {"kind": kind, "subject": redact(str(b.get("subject", ""))),
                 "body": redact(str(b.get("body", "")))}
            )
        else:
            out.append({"kind": kind, "subject": "", "body": redact(str(b))})
    return out


def map_input(turn: Mapping[str, Any]) -> dict[str, Any]:
    return snapshot_from_turn(
        turn["phase"], turn["position_before"], turn.get("outcomes"), turn.get("position_after")
    )


def phase_page(data: Mapping[str, Any]) -> dict[str, Any]:
    turn = data["turn"]
    phases: list[str] = list(data["phases"])
    i = phases.index(turn["phase"])
    after = turn.get("position_after") or {}
    return {
        "game": _public_game(data),
        "phase": turn["phase"],
        "title": phase_title(turn["phase"]),
        "previous": phases[i - 1] if i > 0 else None,
        "next": phases[i + 1] if i + 1 < len(phases) else None,
        "orders": _order_rows(turn),
        "next_phase": after.get("phase"),
        "units_after": after.get("units") or {},
        "centres_after": after.get("centers") or {},
        "dislodged": after.get("dislodged") or {},
        "bulletins": _bulletins(turn),
    }


def phase_map(data: Mapping[str, Any]) -> str:
    """The SVG map of the phase page's turn."""
    snap = map_input(data["turn"])
    snap["title"] = str(data["name"])
    return render_svg(snap)


def game_chart(page: Mapping[str, Any]) -> str:
    return centre_chart(page["centres"]["years"], page["centres"]["counts"])
