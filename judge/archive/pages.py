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
from judge.bulletins import names
from judge.i18n import N_, tr
from judge.maps import render_svg, snapshot_from_turn
from judge.templating import power_name

# addresses never reach the archive, even inside a bulletin text (blind games, spam harvesters)
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")

# the words a reader sees for the stored codes (English msgids of the catalogs; the page's
# language is applied where they are shown): seats, orders the judge made up, outcomes
SEAT_WORDS = {"active": N_("playing"), "onp1": N_("missed orders once (ONP)"),
              "abandoned": N_("abandoned, replacement sought"), "sommossa": N_("in Sommossa"),
              "eliminated": N_("eliminated"), "vacant": N_("no player"),
              "computer": N_("played by the computer")}
SOURCE_WORDS = {"onp": N_("no orders: hold and mutual support"),
                "majority": N_("abandoned: the other players' majority"),
                "sommossa": N_("Sommossa: the other players' majority"),
                "generated": N_("no orders: default"),
                "computer": N_("ordered by the computer")}
GAME_STATUS_WORDS = {"forming": N_("forming"), "active": N_("in play"), "paused": N_("paused"),
                     "finished": N_("finished")}
RESULT_WORDS = {"succeeds": N_("succeeds"), "fails": N_("fails")}
REASON_WORDS = {
    "bounced": N_("bounced"), "no_convoy_route": N_("no convoy route"),
    "convoy_disrupted": N_("convoy disrupted"), "convoy_paradox": N_("convoy paradox"),
    "dislodged": N_("dislodged"), "support_cut": N_("support cut"),
    "void": N_("void: the order it helps was not given"), "illegal": N_("illegal"),
}
REFUSAL_WORDS = {
    "unknown_location": N_("unknown place"), "wrong_phase": N_("not an order of this phase"),
    "no_unit": N_("no unit there"), "not_your_unit": N_("not the power's unit"),
    "wrong_unit_type": N_("wrong unit type"),
    "move_to_own_province": N_("a move to its own province"),
    "not_adjacent": N_("not adjacent"), "no_fleets_to_convoy": N_("no fleets to convoy"),
    "army_to_sea": N_("an army cannot go to sea"), "fleet_to_land": N_("a fleet cannot go inland"),
    "missing_coast": N_("coast not given"), "wrong_coast": N_("that coast cannot be reached"),
    "support_self": N_("a unit cannot support itself"),
    "support_own_province": N_("support for an attack on the supporter"),
    "no_supported_unit": N_("no unit to support"),
    "wrong_supported_type": N_("the supported unit is of another type"),
    "support_unreachable": N_("the supporter cannot reach that province"),
    "supported_move_impossible": N_("the supported move is impossible"),
    "convoy_by_army": N_("an army cannot convoy"),
    "convoy_not_at_sea": N_("only a fleet at sea can convoy"),
    "no_convoyed_army": N_("no army to convoy"),
    "convoy_target_not_coastal": N_("a convoy must end on a coast"),
    "convoy_not_on_route": N_("the fleet is not on a convoy route"),
    "not_dislodged": N_("the unit was not dislodged"),
    "retreat_not_allowed": N_("retreat not allowed there"),
    "no_builds_available": N_("no build available"), "no_removals_needed": N_("no removal due"),
    "not_a_home_center": N_("not a home centre"), "center_not_owned": N_("centre not owned"),
    "center_occupied": N_("centre occupied"), "fleet_inland": N_("a fleet cannot be built inland"),
    "too_many_builds": N_("too many builds"), "already_built_there": N_("already built there"),
    "too_many_removals": N_("too many removals"), "duplicate_order": N_("a second order for the unit"),
    "neutral_power": N_("a neutral power's unit"),
}


def _word(table: Mapping[str, str], code: str, lang: str) -> str:
    return tr(lang, table[code]) if code in table else code.replace("_", " ")


def seat_words(status: str, lang: str = "en") -> str:
    return _word(SEAT_WORDS, status, lang)


def source_words(source: str, lang: str = "en") -> str:
    return _word(SOURCE_WORDS, source, lang)


def status_words(status: str, lang: str = "en") -> str:
    return _word(GAME_STATUS_WORDS, status, lang)


def outcome_words(result: str, reason: str, refusal: str, lang: str = "en") -> str:
    """``fails: bounced``, ``non riuscito: rimbalzato``; a refusal's reason in brackets."""
    text = _word(RESULT_WORDS, result, lang)
    if reason:
        text = tr(lang, "%(result)s: %(reason)s", result=text,
                  reason=_word(REASON_WORDS, reason, lang))
    if refusal:
        text = f"{text} ({_word(REFUSAL_WORDS, refusal, lang)})"
    return text


def end_words(ended: Mapping[str, Any], lang: str = "en") -> str:
    """How a finished game ended, as its archive page says it."""
    reason = str(ended.get("reason", ""))
    winners = ", ".join(power_name(p, lang, ended.get("variant")) for p in ended.get("winners") or [])
    if reason == "gm":
        how = tr(lang, "the GM ended it")
    elif reason == "solo":
        how = tr(lang, "%(power)s won alone", power=winners)
    elif reason == "last_survivor":
        how = tr(lang, "%(power)s was the last power standing", power=winners)
    elif reason == "concession":
        how = tr(lang, "the other powers conceded to %(power)s", power=winners)
    elif reason == "draw":
        how = tr(lang, "a draw between %(powers)s", powers=winners)
    elif reason == "player_out":
        how = tr(lang, "the player had no unit and no centre left; %(powers)s led",
                 powers=winners)
    elif reason == "no_enemy_centre":
        how = tr(lang, "%(power)s took every centre", power=winners)
    elif reason in ("end_phase_passed", "end_date_reached"):
        how = tr(lang, "its last phase was played (the option chosen for its end)")
    else:
        how = tr(lang, "the game is over")
    at = str(ended.get("at") or "")[:10]
    phase = str(ended.get("phase") or "")
    if at:
        return tr(lang, "The game ended on %(date)s, in %(phase)s: %(how)s.", date=at,
                  phase=phase_title(phase, lang), how=how)
    return tr(lang, "The game ended in %(phase)s: %(how)s.", phase=phase_title(phase, lang),
              how=how)


def redact(text: str, lang: str = "en") -> str:
    return _ADDRESS.sub(tr(lang, "[address hidden]"), text)


def phase_title(phase: str, lang: str = "en") -> str:
    if not _PHASE_CODE.match(phase):
        return phase
    return names.phase_title(phase, lang)


_PHASE_CODE = re.compile(r"^[SFW]\d{4}[MRA]$")


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
    keys = ("name", "variant", "status", "phase", "language", "blind", "processed_phases",
            "players", "ended", "revealed")
    return {k: game[k] for k in keys}


def game_list(games: Sequence[Mapping[str, Any]], page: int = 1, total: int | None = None,
              per_page: int | None = None) -> dict[str, Any]:
    """One page of the index: its games and where it is among the pages."""
    count = len(games) if total is None else total
    size = per_page or max(1, len(games))
    pages = max(1, -(-count // size))
    return {"games": [_public_game(g) for g in games], "page": page, "pages": pages,
            "total": count}


def game_page(game: Mapping[str, Any]) -> dict[str, Any]:
    turns = game["turns"]
    years, counts = centre_history(turns)
    latest = turns[-1]["position_after"] if turns else {}
    return {
        "game": _public_game(game),
        "gm_clock": list(game.get("gm_clock") or []),
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


def _bulletins(turn: Mapping[str, Any], lang: str) -> list[dict[str, str]]:
    out = []
    for kind, b in sorted((turn.get("bulletins") or {}).items()):
        if isinstance(b, Mapping):
            out.append(
                {"kind": kind, "subject": redact(str(b.get("subject", "")), lang),
                 "body": redact(str(b.get("body", "")), lang)}
            )
        else:
            out.append({"kind": kind, "subject": "", "body": redact(str(b), lang)})
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
        "bulletins": _bulletins(turn, str(data.get("language", "en"))),
    }


def phase_map(data: Mapping[str, Any], lang: str = "en") -> str:
    """The SVG map of the phase page's turn, its title and province codes in ``lang``."""
    snap = map_input(data["turn"])
    snap["title"] = str(data["name"])
    snap["language"] = lang
    return render_svg(snap)


def game_chart(page: Mapping[str, Any], lang: str = "en") -> str:
    """The centre chart on the game's map, its powers and its label in the page's language."""
    variant = str(page["game"].get("variant") or DEFAULT_VARIANT)
    counts = page["centres"]["counts"]
    return centre_chart(page["centres"]["years"], counts, variant,
                        names={p: power_name(p, lang, variant) for p in counts},
                        label=tr(lang, "Supply centres per year"))
