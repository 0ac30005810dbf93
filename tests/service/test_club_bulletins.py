"""Issue 13 point 11 as conversations: the bulletins a club reads.

Each power's units and centres after the phase; the retreat and adjustment bulletins with their
map too; the final bulletin with the scores of the game's scoring system (SCORING option).
Golden files tests/golden/bulletins/club_*; JUDGE_UPDATE_GOLDEN=1 rewrites them.
"""

from __future__ import annotations

import pytest

from judge.service.wakeups import sweep_early
from judge.storage import Database, blobrepo, gamerepo
from judge.storage.models import OutboundMail
from tests.bulletins.test_golden import check_golden
from tests.service.commands_harness import GM, Harness, password_of
from tests.service.games import move_unit

SIGNON = {"en": "SIGNON", "it": "ACCEDI", "fr": "CONNEXION"}
LANGUAGE = {"en": "", "it": "LINGUA it", "fr": "LANGUE fr"}
PROCESS = {"en": "PROCESS", "it": "ELABORA", "fr": "TRAITER"}




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
    move_unit(db, "ITALY", "A ROM", "A TYR")
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
        # the map is stored once, by its sha256, and the message references it (issue 16)
        assert picture["mime"] == "image/png" and picture["blob"] == mail.blob_sha256
        with db.session() as s:
            assert blobrepo.blobs(s, [picture["blob"]])[picture["blob"]].startswith(b"\x89PNG")
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


def _edit_position(db: Database, centre_of: dict[str, str], unit_of: dict[str, str]) -> None:
    """Give powers a centre (no unit there) and a unit more."""
    with db.session() as s:
        game = gamerepo.game_by_name(s, "club")
        assert game is not None
        position = dict(game.position)
        centers = {p: list(v) for p, v in position["centers"].items()}
        units = {p: list(v) for p, v in position["units"].items()}
        for power, centre in centre_of.items():
            centers[power] = sorted({*centers.get(power, []), centre})
        for power, unit in unit_of.items():
            units[power] = [*units.get(power, []), unit]
        position["centers"], position["units"] = centers, units
        game.position = position


def _seats(db: Database, statuses: dict[str, str]) -> None:
    """Seat statuses as the test wants them (the others' missed orders forgotten)."""
    with db.session() as s:
        game = gamerepo.game_by_name(s, "club")
        assert game is not None
        for seat in gamerepo.seats(s, game.id):
            seat.status = statuses.get(seat.power, "active")
            seat.strikes = 0


@pytest.mark.parametrize("lang", ["it", "en"])
def test_no_deadline_is_announced_for_a_phase_processed_at_once(db: Database, lang: str) -> None:
    """Issue 13 point 13: a W1901A deadline mailed in the same second as the W1901A results.
    Austria (in Sommossa) loses Trieste and owes a removal, which the judge makes;
    Italy owes a build it cannot make (its home centres are full): nobody has anything to order
    in W1901A, which is processed at once, so the F1901M bulletin announces no deadline."""
    h = Harness(db)
    players = h.started_game("club", LANGUAGE[lang], lang=lang)
    move_unit(db, "AUSTRIA", "F TRI", "F ADR")
    _edit_position(db, {"ITALY": "GRE"}, {"ITALY": "A PIE"})
    italy = players["ITALY"]
    signon = f"{SIGNON[lang]} ITALY club {password_of(italy)}\n"
    gm = f"{SIGNON[lang]} GM club gmpass\n"
    h.mail(italy, signon + "A VEN H\nA ROM H\nF NAP H\nA PIE H")
    _seats(db, {"AUSTRIA": "sommossa"})
    h.mail(GM, gm + f"{PROCESS[lang]} S1901M")
    _seats(db, {"AUSTRIA": "sommossa"})
    h.mail(italy, signon + "A VEN - TRI\nA PIE - VEN\nA ROM H\nF NAP H")
    h.mail(GM, gm + f"{PROCESS[lang]} F1901M")
    assert h.game("club").phase == "W1901A"
    fall = _bulletin(db, "F1901M", italy)
    check_golden(f"club_at_once.{lang}.txt", fall.subject, fall.body)
    said = {"it": "viene risolto subito", "en": "it is processed at once"}[lang]
    assert said in fall.body and ":: Deadline:" not in fall.body
    # and so it is: the scheduler's next sweep processes W1901A
    sweep_early(db, h.settings, h.now)
    assert h.game("club").phase == "S1902M"


# the final bulletin's scores in a French and an English game too (point 11, each language)
END_WORDS = {"fr": ("LANGUE fr\nDECOMPTE cent", "CONNEXION ARBITRE club gmpass\n", "FIN PARTIE",
                    "fin de la partie"),
             "en": ("SCORING hundred", "SIGNON GM club gmpass\n", "END GAME", "game over")}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_final_bulletin_scores_in_the_games_language(db: Database, lang: str) -> None:
    h = Harness(db)
    options, gm, end_game, subject = END_WORDS[lang]
    players = h.started_game("club", options, lang=lang)
    h.mail(GM, gm + end_game)
    h.mail(GM, gm + end_game)
    assert h.game("club").status == "finished"
    end = _bulletin(db, subject, players["ITALY"])
    check_golden(f"club_end_scores.hundred.{lang}.txt", end.subject, end.body)
