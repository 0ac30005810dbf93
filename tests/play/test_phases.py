"""The play page's account of a played phase (issue 29): every power's orders in full words
in the page's language, the dislodged and destroyed units said so; the colour legend; the
archive's centre chart with room for its legend."""

from __future__ import annotations

import re

import pytest

from judge.archive.chart import centre_chart
from judge.archive.pages import end_words
from judge.play.phases import legend, phase_view

# Fall 1901: France takes Burgundy from Germany's army (destroyed: the position after the
# phase gives it no retreat) and Belgium from England's army (dislodged: it may go to Holland)
BEFORE = {
    "phase": "F1901M", "variant": "standard",
    "units": {"FRANCE": ["A PAR", "A MAR", "A PIC", "F ENG"],
              "GERMANY": ["A BUR", "A MUN", "A RUH"], "ENGLAND": ["A BEL"]},
    "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "BER", "KIE"],
                "ENGLAND": ["LON", "EDI", "LVP"]},
    "dislodged": {},
}
OUTCOMES = {
    "FRANCE": [{"order": "A PAR - BUR", "result": "succeeds"},
               {"order": "A MAR S A PAR - BUR", "result": "succeeds"},
               {"order": "A PIC - BEL", "result": "succeeds"},
               {"order": "F ENG S A PIC - BEL", "result": "succeeds"}],
    "GERMANY": [{"order": "A BUR H", "result": "fails", "reason": "dislodged",
                 "dislodged_by": "A PAR"},
                {"order": "A MUN H", "result": "succeeds"},
                {"order": "A RUH H", "result": "succeeds"}],
    "ENGLAND": [{"order": "A BEL H", "result": "fails", "reason": "dislodged",
                 "dislodged_by": "A PIC"}],
}
AFTER = {
    "phase": "F1901R", "variant": "standard",
    "units": {"FRANCE": ["A BUR", "A MAR", "A BEL", "F ENG"], "GERMANY": ["A MUN", "A RUH"]},
    "centers": BEFORE["centers"],
    # Burgundy's army has nowhere to go: no retreat, so it is destroyed
    "dislodged": {"ENGLAND": {"A BEL": ["HOL"]}},
}
TURN = {"phase": "F1901M", "position_before": BEFORE, "outcomes": OUTCOMES,
        "position_after": AFTER}

EXPECTED = {
    "en": ("Army Paris -> Burgundy.", "dislodged: it must retreat",
           "destroyed: it had nowhere to retreat", "succeeds"),
    "fr": ("Armée Paris -> Bourgogne.", "délogée : elle doit faire retraite",
           "détruite : aucune retraite possible", "réussi"),
    "it": ("Armata Parigi -> Borgogna.", "scacciata: deve ritirarsi",
           "distrutta: non aveva dove ritirarsi", "riuscit"),
}


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_every_power_full_names_and_what_became_of_each_unit(lang: str) -> None:
    view = phase_view(TURN, "roma", lang, "standard")
    rows = {r["order"]: r for r in view["rows"]}
    assert set(rows) == {r["order"] for rs in OUTCOMES.values() for r in rs}
    words, dislodged, destroyed, succeeds = EXPECTED[lang]
    assert rows["A PAR - BUR"]["words"] == words
    assert rows["A PAR - BUR"]["text"].startswith(succeeds)
    assert (rows["A BEL H"]["fate"], rows["A BEL H"]["fate_text"]) == ("dislodged", dislodged)
    assert (rows["A BUR H"]["fate"], rows["A BUR H"]["fate_text"]) == ("destroyed", destroyed)
    assert rows["A MUN H"]["fate"] is None
    assert view["svg"].startswith("<svg") and 'data-province="BUR"' in view["svg"]


def test_the_legend_has_every_power_of_the_map_in_its_colour() -> None:
    entries = legend("standard", ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY",
                                  "RUSSIA", "TURKEY"), {"RUSSIA": 4, "FRANCE": 3}, "it")
    assert [e["power"] for e in entries][:2] == ["RUSSIA", "FRANCE"]
    assert len(entries) == 7 and len({e["colour"] for e in entries}) == 7
    assert all(re.fullmatch(r"#[0-9a-fA-F]{6}", e["colour"]) for e in entries)
    assert "Inghilterra" in [e["name"] for e in entries]


def test_the_centre_charts_legend_stays_inside_the_chart() -> None:
    names = {"AUSTRIA": "Autriche-Hongrie impériale", "ENGLAND": "Angleterre"}
    svg = centre_chart(["1901", "1902"], {"AUSTRIA": [3, 12], "ENGLAND": [3, 4]},
                       names=names)
    width = float(re.search(r'viewBox="0 0 ([0-9.]+) ', svg).group(1))  # type: ignore[union-attr]
    labels = re.findall(r'<text x="([0-9.]+)" y="[0-9.]+" fill="#[0-9a-f]+">([^<]+)<', svg)
    assert len(labels) == 2
    for x, text in labels:
        assert float(x) + 6.6 * len(text) <= width, (text, x, width)


@pytest.mark.parametrize(("reason", "lang", "said"), [
    ("player_out", "en", "the player had no unit and no centre left; France led"),
    ("player_out", "it", "il giocatore non aveva più né unità né centri; in testa: Francia"),
    ("no_enemy_centre", "fr", "Angleterre a pris tous les centres"),
])
def test_a_solo_games_own_ends_are_said(reason: str, lang: str, said: str) -> None:
    winners = ["FRANCE"] if reason == "player_out" else ["ENGLAND"]
    text = end_words({"reason": reason, "winners": winners, "phase": "F1905M",
                      "variant": "standard"}, lang)
    assert said in text, text
