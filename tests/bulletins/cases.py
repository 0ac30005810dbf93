"""Hand-written turn snapshots for the bulletin tests (the adjudicator's JSON shapes)."""

from __future__ import annotations

from datetime import UTC, datetime

from judge.bulletins.views import GameInfo, Notice, SeatInfo, TurnRecord

DEADLINE = datetime(2026, 12, 7, 19, 0, tzinfo=UTC)


def game(lang: str) -> GameInfo:
    return GameInfo(name="demo", judge="judge@example.org", language=lang,
                    timezone="Europe/Rome", variant="standard")


def fall_record() -> TurnRecord:
    """Fall 1901: a bounce, a cut support, a dislodgement with retreats, centres changing."""
    before = {
        "phase": "F1901M",
        "units": {"FRANCE": ["A BUR", "A SPA", "F MAO"],
                  "GERMANY": ["A MUN", "A RUH", "F DEN"],
                  "ENGLAND": ["F NTH", "A YOR", "F NWG"]},
        "centers": {"FRANCE": ["BRE", "MAR", "PAR"], "GERMANY": ["BER", "KIE", "MUN"],
                    "ENGLAND": ["EDI", "LON", "LVP"]},
    }
    after = {
        "phase": "F1901R",
        "units": {"FRANCE": ["A BUR", "A POR", "F MAO"],
                  "GERMANY": ["A MUN", "F DEN"],
                  "ENGLAND": ["F NTH", "A NWY", "F BAR"]},
        "centers": {"FRANCE": ["BRE", "MAR", "PAR", "POR"],
                    "GERMANY": ["BER", "KIE", "MUN", "DEN"],
                    "ENGLAND": ["EDI", "LON", "LVP", "NWY"]},
        "dislodged": {"GERMANY": {"A RUH": ["HOL", "KIE"]}},
    }
    results = {
        "ENGLAND": [
            {"order": "A YOR - NWY", "result": "succeeds"},
            {"order": "F NTH C A YOR - NWY", "result": "succeeds"},
            {"order": "F NWG - BAR", "result": "succeeds"},
        ],
        "FRANCE": [
            {"order": "A BUR - RUH", "result": "succeeds"},
            {"order": "A SPA - POR", "result": "succeeds"},
            {"order": "F MAO S A BUR - RUH", "result": "succeeds"},
        ],
        "GERMANY": [
            {"order": "A MUN S A RUH", "result": "fails", "reason": "support_cut"},
            {"order": "A RUH H", "result": "fails", "reason": "dislodged",
             "dislodged_by": "A BUR"},
            {"order": "F DEN H", "result": "succeeds", "generated": True},
        ],
    }
    # France's A BUR moved to RUH in this story: put it there
    after["units"]["FRANCE"] = ["A RUH", "A POR", "F MAO"]
    results["FRANCE"][0] = {"order": "A BUR - RUH", "result": "succeeds"}
    return TurnRecord(phase="F1901M", results=results, before=before, after=after,
                      illegal={"GERMANY": [{"text": "F KIE - MOS", "reason": "no unit in Kiel"}]})


SEATS = [SeatInfo("ENGLAND", "active", 10), SeatInfo("FRANCE", "active", 9),
         SeatInfo("GERMANY", "onp1", 10, strikes=1)]
NOTICES = [Notice("onp1", "GERMANY")]
