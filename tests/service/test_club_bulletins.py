"""Issue 13 point 11 as conversations: the bulletins a club reads.

Each power's units and centres after the phase; the retreat and adjustment bulletins with their
map too; the final bulletin with the scores of the game's scoring system (SCORING option).
Golden files tests/golden/bulletins/club_*; JUDGE_UPDATE_GOLDEN=1 rewrites them.
"""

from __future__ import annotations

import pytest

from judge.storage import Database, gamerepo
from judge.storage.models import OutboundMail
from tests.bulletins.test_golden import check_golden
from tests.service.commands_harness import GM, Harness, password_of

SIGNON = {"en": "SIGNON", "it": "ACCEDI", "fr": "CONNEXION"}
LANGUAGE = {"en": "", "it": "LINGUA it", "fr": "LANGUE fr"}
PROCESS = {"en": "PROCESS", "it": "ELABORA", "fr": "TRAITER"}


def _move_unit(db: Database, power: str, old: str, new: str) -> None:
    with db.session() as s:
        game = gamerepo.game_by_name(s, "club")
        assert game is not None
        position = dict(game.position)
        units = {p: list(v) for p, v in position["units"].items()}
        units[power] = [new if u == old else u for u in units[power]]
        position["units"] = units
        game.position = position


def _bulletin(db: Database, phase: str, to: str) -> OutboundMail:
    """The results bulletin of ``phase`` as mailed to ``to``."""
    with db.session() as s:
        rows = [m for m in s.query(OutboundMail).filter_by(kind="bulletin", to_addr=to)
                if phase in m.subject]
        assert rows, f"no bulletin of {phase} to {to}"
        s.expunge(rows[-1])
        return rows[-1]


@pytest.mark.parametrize("lang", ["it", "fr", "en"])
def test_a_retreat_bulletin_has_its_map_and_every_power_its_units(db: Database,
                                                                   lang: str) -> None:
    h = Harness(db)
    players = h.started_game("club", LANGUAGE[lang], lang=lang)
    # Italy dislodges the fleet in Trieste: a retreat phase follows
    _move_unit(db, "ITALY", "A ROM", "A TYR")
    italy, austria = players["ITALY"], players["AUSTRIA"]
    # Tyrolia is ALP in French (TYR is the Tyrrhenian Sea there)
    tyrolia = {"fr": "ALP"}.get(lang, "TYR")
    h.mail(italy, f"{SIGNON[lang]} ITALY club {password_of(italy)}\n"
                  f"A VEN - TRI\nA {tyrolia} S A VEN - TRI\nF NAP - ION")
    h.mail(austria, f"{SIGNON[lang]} AUSTRIA club {password_of(austria)}\n"
                    "F TRI H\nA VIE - GAL\nA BUD - SER")
    gm = f"{SIGNON[lang]} GM club gmpass\n"
    h.mail(GM, gm + f"{PROCESS[lang]} S1901M")
    assert h.game("club").phase == "S1901R"
    h.mail(austria, f"{SIGNON[lang]} AUSTRIA club {password_of(austria)}\nF TRI - ALB")
    h.mail(GM, gm + f"{PROCESS[lang]} S1901R")
    assert h.game("club").phase == "F1901M"
    movement, retreat = _bulletin(db, "S1901M", italy), _bulletin(db, "S1901R", italy)
    for mail in (movement, retreat):
        (picture,) = mail.attachments
        assert picture["mime"] == "image/png" and picture["data_b64"]
    assert retreat.attachments[0]["filename"] == "club-S1901R.png"
    check_golden(f"club_retreats.{lang}.txt", retreat.subject, retreat.body)


SCORING = {"hundred": ("PUNTEGGIO cento", "100 punti: 1 a giocatore, 1 a centro"),
           "sum_of_squares": ("PUNTEGGIO quadrati", "somma dei quadrati"),
           "draw_size": ("PUNTEGGIO patta", "100 punti divisi tra i vincitori")}


@pytest.mark.parametrize("system", sorted(SCORING))
def test_the_final_bulletin_scores_by_the_games_system(db: Database, system: str) -> None:
    h = Harness(db)
    option, heading = SCORING[system]
    players = h.started_game("club", f"LINGUA it\n{option}", lang="it")
    gm = "ACCEDI ARBITRO club gmpass\n"
    h.mail(GM, gm + "FINE PARTITA")
    h.mail(GM, gm + "FINE PARTITA")
    assert h.game("club").status == "finished"
    end = _bulletin(db, "fine della partita", players["ITALY"])
    assert heading in end.body
    check_golden(f"club_end_scores.{system}.it.txt", end.subject, end.body)
