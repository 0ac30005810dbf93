"""Bulletin views: plain dicts built from a turn snapshot, ready for the templates.

PURE: no database, no clock, no mail. The service layer hands in what it stored in the turn
row (position JSON before and after, the adjudicator's results per power) plus the game's
facts (name, zone, seats); every choice about what a reader sees is made here, so the
templates only lay text out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from judge.adjudicator.catalog import DEFAULT_VARIANT
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.phase import Phase
from judge.bulletins.names import (
    UNIT_NAMES,
    format_deadline,
    phase_title,
    place_abbr,
    place_name,
    power_name,
)
from judge.bulletins.notation import Mark, classify, render_order
from judge.i18n import NC_, trp


@dataclass(frozen=True)
class GameInfo:
    name: str
    judge: str  # the judge's name or address, for the ``::`` header
    language: str
    timezone: str
    variant: str  # the game's variant: its power names and map
    blind: bool = False


@dataclass(frozen=True)
class SeatInfo:
    power: str
    status: str  # active | onp1 | abandoned | sommossa | eliminated | vacant | computer
    late_days_left: int
    strikes: int = 0
    # the other powers the same player holds (seed 001's games for two to four players)
    partners: tuple[str, ...] = ()


@dataclass(frozen=True)
class Notice:
    """Something the rules decided and the bulletin must announce (ONP, Sommossa, delay...)."""

    kind: str  # see NOTICE_KINDS
    power: str | None = None
    days: int = 0
    until: datetime | None = None
    detail: str = ""


NOTICE_KINDS = (
    "onp1",  # first missed orders: mutual-support holds given, everyone may send FOR orders
    "onp2",  # second missed orders: the power is abandoned
    "replacement_call",  # game suspended while a replacement is sought
    "replacement_found",
    "sommossa",  # power declared in Sommossa
    "late",  # late days charged and the deadline moved
    "extension",  # GM extension
    "game_end",
    "solo_won",  # a solo game's player reached the winning count (the game goes on)
    "computer_seated",  # the GM gave a seat to the computer
    "lot",  # seed 001's two-player lot: ``power`` joins the player of ``detail`` (a power)
)


@dataclass(frozen=True)
class TurnRecord:
    """What a bulletin needs from one processed phase (the turn row's JSON, as stored)."""

    phase: str
    results: Mapping[str, Sequence[Mapping[str, Any]]]  # power -> [{order, result, reason?}]
    before: Mapping[str, Any]  # position JSON before the phase
    after: Mapping[str, Any]  # position JSON after (its "phase" is the next phase)
    sources: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # power -> order -> src
    illegal: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)


def header(game: GameInfo, next_phase: str | None, deadline: datetime | None) -> dict[str, Any]:
    return {
        "judge": game.judge,
        "game": game.name,
        "variant": game.variant.title(),
        "variant_name": game.variant or DEFAULT_VARIANT,  # its power names (judge.templating)
        "phase": next_phase,
        "deadline": format_deadline(deadline, game.timezone, game.language) if deadline else None,
        "timezone": game.timezone,
    }


def _units_by_location(position: Mapping[str, Any]) -> dict[str, str]:
    """``{"BUR": "A BUR", "STP": "F STP/SC"}``: units by province, from position JSON."""
    found: dict[str, str] = {}
    for units in position.get("units", {}).values():
        for unit in units:
            found[unit.split()[1].split("/")[0]] = unit
    return found


def _dislodged(position: Mapping[str, Any]) -> dict[str, dict[str, list[str]]]:
    return {p: dict(d) for p, d in position.get("dislodged", {}).items()}


def _centers(position: Mapping[str, Any]) -> dict[str, list[str]]:
    return {p: sorted(cs) for p, cs in position.get("centers", {}).items()}


def _order_unit(canonical: str) -> str | None:
    """``A MAR S A PAR - BUR`` -> ``MAR`` (the ordered unit's province)."""
    words = canonical.split()
    if len(words) >= 2 and words[0] in ("A", "F"):
        return words[1].split("/")[0]
    return None


def order_lines(record: TurnRecord, lang: str, powers: Sequence[str]) -> list[dict[str, Any]]:
    """Per power, its orders with outcomes, in the language's notation."""
    phase = Phase.parse(record.phase)
    dislodged = _dislodged(record.after) if phase.is_movement else {}
    after_units = _units_by_location(record.after)
    variant = str(record.before.get("variant") or DEFAULT_VARIANT)
    out: list[dict[str, Any]] = []
    for power in powers:
        results = record.results.get(power, ())
        sources = record.sources.get(power, {})
        lines = []
        for r, fate in zip(results, unit_fates(phase, results, dislodged.get(power, {}),
                                               after_units), strict=True):
            mark = classify(r["result"], r.get("reason"))
            is_dislodged, annihilated = fate is not None, fate == "destroyed"
            source = r.get("source") or sources.get(r["order"]) or (
                "generated" if r.get("generated") else "submitted")
            line = render_order(
                r["order"], mark, lang, variant=variant,
                adjustment=phase.is_adjustment, dislodged=is_dislodged,
                annihilated=annihilated, source=source,
            )
            lines.append(str(line))
        for bad in record.illegal.get(power, ()):
            lines.append(_illegal_line(bad, lang))
        if lines:
            out.append({"power": power, "name": power_name(power, lang, variant), "orders": lines})
    return out


def unit_fates(phase: Phase, results: Sequence[Mapping[str, Any]],
               dislodged: Mapping[str, Sequence[str]],
               after_units: Mapping[str, str]) -> list[str | None]:
    """For each of one power's ``results`` in a movement phase, what became of the unit:
    ``"dislodged"`` (it must retreat), ``"destroyed"`` (dislodged with nowhere to go, or gone
    without moving), or None. ``dislodged``: the power's dislodged units after the phase with
    their retreats; ``after_units``: every unit after it, by province."""
    if not phase.is_movement:
        return [None] * len(results)
    moved_away = {
        _order_unit(r["order"]) for r in results
        if " - " in r["order"] and classify(r["result"], r.get("reason")) is Mark.SUCCEEDS
    }
    pushed = {u.split()[1].split("/")[0]: rs for u, rs in dislodged.items()}
    fates: list[str | None] = []
    for r in results:
        prov = _order_unit(r["order"])
        is_dislodged = prov in pushed or bool(r.get("dislodged_by"))
        annihilated = prov is not None and (
            (is_dislodged and not pushed.get(prov))
            or (prov not in pushed and prov not in moved_away and prov not in after_units)
        )
        fates.append("destroyed" if annihilated else "dislodged" if is_dislodged else None)
    return fates


_ILLEGAL = NC_("bulletin", "not accepted")  # French bulletins mark it (i), as seed 000


def _illegal_line(bad: Mapping[str, Any], lang: str) -> str:
    text = str(bad.get("text", ""))
    reason = str(bad.get("reason", ""))
    if lang == "fr":
        return f"{text} (i)" + (f" [{reason}]" if reason else "")
    said = trp(lang, *_ILLEGAL)
    return f"{text}  (*{said}: {reason}*)" if reason else f"{text}  (*{said}*)"


def _namer(lang: str, position: Mapping[str, Any]) -> Callable[[str, str], str]:
    """How a bulletin names a place on the position's map (French: short codes, seed 000)."""
    name = place_abbr if lang == "fr" else place_name
    variant = str(position.get("variant") or DEFAULT_VARIANT)
    return lambda location, lang: name(location, lang, variant)


def _variant(position: Mapping[str, Any]) -> str:
    """The variant a position's JSON names (the standard one when it names none)."""
    return str(position.get("variant") or DEFAULT_VARIANT)


def _powers(*positions: Mapping[str, Any]) -> list[str]:
    """The powers of the game's map: those of the variant the position's JSON names (a
    position knows its map), and any power it mentions. No global power list."""
    found: set[str] = set()
    for position in positions:
        found.update(installed_variant(position.get("variant") or DEFAULT_VARIANT).powers)
        for key in ("centers", "units", "dislodged"):
            found.update((position.get(key) or {}).keys())
    return sorted(found)


def dislodged_lines(record: TurnRecord, lang: str) -> list[dict[str, Any]]:
    """Units waiting to retreat after a movement phase, each with where it may go."""
    if not Phase.parse(record.phase).is_movement:
        return []
    found = []
    for power in _powers(record.after):
        for unit, retreats in sorted(_dislodged(record.after).get(power, {}).items()):
            kind, loc = unit.split()
            shown = _namer(lang, record.after)
            kind_word = kind if lang == "fr" else UNIT_NAMES[lang][kind]
            found.append({
                "power": power_name(power, lang, _variant(record.after)),
                "unit": f"{kind_word} {shown(loc, lang)}",
                "retreats": [shown(r, lang) for r in retreats],
            })
    return found


def center_lines(record: TurnRecord, lang: str) -> list[dict[str, Any]]:
    """Ownership after the phase, with the centres gained and lost in it."""
    before, after = _centers(record.before), _centers(record.after)
    shown = _namer(lang, record.after)
    rows = []
    for power in _powers(record.before, record.after):
        now_held = after.get(power, [])
        was_held = before.get(power, [])
        if not now_held and not was_held:
            continue
        rows.append({
            "power": power_name(power, lang, _variant(record.after)),
            "count": len(now_held),
            "centers": [shown(c, lang) for c in now_held],
            "gained": [shown(c, lang) for c in now_held if c not in was_held],
            "lost": [shown(c, lang) for c in was_held if c not in now_held],
        })
    return rows


def position_lines(record: TurnRecord, lang: str) -> list[dict[str, Any]]:
    """Every power's units and centre count after the phase (issue 13: a player checks the
    position in the bulletin, not by replaying the orders)."""
    return standing_lines(record.after, lang)


def standing_lines(position: Mapping[str, Any], lang: str) -> list[dict[str, Any]]:
    """Every power's units and centre count in a position (JSON), in the language's words."""
    centers = _centers(position)
    shown = _namer(lang, position)
    rows = []
    for power in _powers(position):
        units = sorted(position.get("units", {}).get(power, []))
        if not units and not centers.get(power):
            continue
        words = []
        for unit in units:
            kind, loc = unit.split()
            kind_word = kind if lang == "fr" else UNIT_NAMES[lang][kind]
            words.append(f"{kind_word} {shown(loc, lang)}")
        rows.append({"power": power_name(power, lang, _variant(position)), "code": power,
                     "centres": len(centers.get(power, [])), "units": words})
    return rows


def adjustment_lines(record: TurnRecord, lang: str) -> list[dict[str, Any]]:
    """Builds (positive) and removals (negative) due in the adjustment phase that follows."""
    next_phase = record.after.get("phase")
    if not next_phase or not Phase.parse(next_phase).is_adjustment:
        return []
    centers = _centers(record.after)
    v = installed_variant(_variant(record.after))
    owner = {c: p for p, cs in centers.items() for c in cs}
    raw_homes = record.after.get("homes")
    homes = {p: tuple(h) for p, h in raw_homes.items()} if raw_homes else v.homes
    rows = []
    for power in _powers(record.after):
        units = len(record.after.get("units", {}).get(power, []))
        owned = len(centers.get(power, []))
        # 1900's partisan site counts for the builds, not as a centre (Board.partisan_sites)
        partisan = len(v.board.partisan_sites(power, owner, homes)) if v.board.partisans else 0
        if units or owned:
            rows.append({"power": power_name(power, lang, _variant(record.after)),
                         "centers": owned, "units": units,
                         "delta": owned + partisan - units})
    return rows


def seat_lines(seats: Sequence[SeatInfo], lang: str, variant: str) -> list[dict[str, Any]]:
    return [
        {"power": power_name(s.power, lang, variant), "status": s.status,
         "late_days_left": s.late_days_left, "strikes": s.strikes,
         "partners": [power_name(p, lang, variant) for p in s.partners]}
        for s in sorted(seats, key=lambda s: s.power)
    ]


def notice_items(notices: Sequence[Notice], game: GameInfo) -> list[dict[str, Any]]:
    lang, variant = game.language, game.variant or DEFAULT_VARIANT
    return [
        {"kind": n.kind, "power": power_name(n.power, lang, variant) if n.power else "",
         "days": n.days,
         "detail": power_name(n.detail, lang, variant) if n.kind == "lot" else n.detail,
         "until": format_deadline(n.until, game.timezone, lang) if n.until else ""}
        for n in notices
    ]


def results_view(
    game: GameInfo,
    record: TurnRecord,
    *,
    seats: Sequence[SeatInfo] = (),
    notices: Sequence[Notice] = (),
    deadline: datetime | None = None,
    finished: bool = False,
    preview: bool = False,
    immediate: bool = False,
) -> dict[str, Any]:
    """Everything the results bulletin of one phase shows; ``immediate``: nobody has orders to
    give in the next phase, which is processed at once (no deadline to announce)."""
    lang = game.language
    phase = Phase.parse(record.phase)
    next_phase = None if finished else record.after.get("phase")
    show_centers = phase.season.value in ("F", "W")
    return {
        "header": header(game, next_phase, deadline),
        "phase": record.phase,
        "title": phase_title(record.phase, lang),
        "kind": phase.kind.value,
        "orders": order_lines(record, lang, _powers(record.before, record.after)),
        "dislodged": dislodged_lines(record, lang),
        "centers": center_lines(record, lang) if show_centers else [],
        "adjustments": adjustment_lines(record, lang),
        "positions": position_lines(record, lang),
        "seats": seat_lines(seats, lang, game.variant or DEFAULT_VARIANT),
        "notices": notice_items(notices, game),
        "next_phase": next_phase,
        "next_title": phase_title(next_phase, lang) if next_phase else "",
        "deadline": header(game, next_phase, deadline)["deadline"],
        "finished": finished,
        "preview": preview,
        "immediate": immediate,
    }


def notice_view(
    game: GameInfo,
    phase: str,
    notices: Sequence[Notice],
    *,
    deadline: datetime | None = None,
    seats: Sequence[SeatInfo] = (),
    missing: Sequence[str] = (),
) -> dict[str, Any]:
    """A short announcement (delay, suspension, Sommossa, reminder) outside a results bulletin."""
    lang = game.language
    return {
        "header": header(game, phase, deadline),
        "phase": phase,
        "title": phase_title(phase, lang),
        "notices": notice_items(notices, game),
        "seats": seat_lines(seats, lang, game.variant or DEFAULT_VARIANT),
        "missing": [power_name(p, lang, game.variant or DEFAULT_VARIANT) for p in missing],
        "deadline": format_deadline(deadline, game.timezone, lang) if deadline else None,
    }


def end_view(
    game: GameInfo,
    phase: str,
    *,
    winners: Sequence[str],
    reason: str,
    centers: Mapping[str, int],
    scores: Mapping[str, Any] | None = None,
    votes: Sequence[Mapping[str, Any]] = (),
    scoring: str = "",
) -> dict[str, Any]:
    """The end of the game: result, final centre counts, and the secret votes made public.

    Seed 002: Sommossa orders sent by the players are published only when the game is over.
    ``reason`` is the rules' EndReason value (solo, draw, concession ...).
    """
    lang, variant = game.language, game.variant or DEFAULT_VARIANT
    return {
        "header": header(game, None, None),
        "phase": phase,
        # no phase played yet (the GM ended the game early): no "after ..." to say
        "title": phase_title(phase, lang) if phase else "",
        "reason": reason,
        "scoring": scoring,  # the game option: hundred | draw_size | sum_of_squares
        "winners": [power_name(p, lang, variant) for p in winners],
        "centers": [{"power": power_name(p, lang, variant), "count": centers.get(p, 0),
                     "score": _score((scores or {}).get(p))}
                    for p in sorted({*installed_variant(variant).powers,
                                     *centers})],
        "votes": [{"phase": v["phase"], "voter": power_name(v["voter"], lang, variant),
                   "target": power_name(v["target"], lang, variant) if v.get("target") else "",
                   "orders": list(v.get("orders", []))} for v in votes],
    }


def _score(value: Any) -> str | None:
    """Scores are fractions (3 1/2 points): print them as seed 000 writes them."""
    if value is None:
        return None
    whole, part = divmod(value.numerator, value.denominator) if hasattr(value, "numerator") \
        else (value, 0)
    if not part:
        return str(whole)
    return f"{whole} {part}/{value.denominator}" if whole else f"{part}/{value.denominator}"


def letters_view(game: GameInfo, phase: str, sender: str, to: Sequence[str],
                 lines: Sequence[str]) -> dict[str, Any]:
    """A computer power's letter (issue 14): ``to`` empty is a letter to everyone."""
    lang, variant = game.language, game.variant or DEFAULT_VARIANT
    return {
        "header": header(game, phase, None),
        "phase": phase,
        "sender": power_name(sender, lang, variant),
        "to": [power_name(p, lang, variant) for p in to],
        "lines": list(lines),
    }
