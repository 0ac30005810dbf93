"""Retreat-phase bulletins: retreats, disbands, and retreats that clash."""

from __future__ import annotations

from judge.bulletins.render import render
from judge.bulletins.views import TurnRecord, results_view
from tests.bulletins.cases import DEADLINE, game


def retreat_record() -> TurnRecord:
    before = {"phase": "F1901R",
              "units": {"GERMANY": ["A MUN"], "FRANCE": ["A RUH"], "AUSTRIA": ["A TRI"],
                        "TURKEY": ["A BUL"]},
              "centers": {"GERMANY": ["BER", "KIE", "MUN"], "FRANCE": ["PAR"]},
              "dislodged": {"GERMANY": {"A RUH": ["KIE", "HOL"]}, "FRANCE": {"F BEL": []},
                            "AUSTRIA": {"A SER": ["ALB"]}, "TURKEY": {"A GRE": ["ALB"]}}}
    after = {"phase": "W1901A",
             "units": {"GERMANY": ["A MUN", "A KIE"], "FRANCE": ["A RUH"],
                       "AUSTRIA": ["A TRI"], "TURKEY": ["A BUL"]},
             "centers": {"GERMANY": ["BER", "KIE", "MUN"], "FRANCE": ["PAR", "BEL"]}}
    results = {
        "GERMANY": [{"order": "A RUH R KIE", "result": "succeeds"}],
        "FRANCE": [{"order": "F BEL D", "result": "succeeds", "generated": True}],
        "AUSTRIA": [{"order": "A SER R ALB", "result": "fails", "reason": "bounced"}],
        "TURKEY": [{"order": "A GRE R ALB", "result": "fails", "reason": "bounced"}],
    }
    return TurnRecord(phase="F1901R", results=results, before=before, after=after)


def test_retreats_in_english() -> None:
    view = results_view(game("en"), retreat_record(), deadline=DEADLINE)
    _, body = render("results", "en", view)
    assert "Germany: Army Ruhr RETREAT Kiel." in body
    assert "France:  Fleet Belgium DISBAND.  (*default*)" in body
    assert "Austria: Army Serbia RETREAT Albania.  (*bounce*)" in body
    assert "France:   2  Belgium, Paris  (+Belgium)" in body
    assert "dislodged" not in body  # nobody waits to retreat after a retreat phase


def test_retreats_in_seed_000_notation() -> None:
    view = results_view(game("fr"), retreat_record(), deadline=DEADLINE)
    _, body = render("results", "fr", view)
    assert "ALLEMAGNE:   A RHE r KIE" in body
    assert "FRANCE:   F BEL (d)" in body
    assert "AUTRICHE:   A SER (a)" in body
    assert "TURQUIE:   A GRE (a)" in body
