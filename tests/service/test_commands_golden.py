"""Replies against golden files in tests/golden/replies/ (reviewed in diffs), one per language.

Set JUDGE_UPDATE_GOLDEN=1 to rewrite the files after a deliberate change.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judge.storage import Database
from tests.service.commands_harness import GM, PLAYERS, Harness
from tests.standard_variant import STANDARD

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "replies"

SESSIONS = {
    "en": ("CREATE golden gmpass\nASSIGNMENT preferences\nPRESS grey",
           "JOIN golden {pw} {power}",
           "SIGNON FRANCE golden {pw}\nA Par - Bur\nA Mar - Spa\nF Bre - Zzz\nSTATUS\n"
           "PRESS TO ENGLAND GREY\nTea?\nENDPRESS\nDRAW\nSTATSU\nSIGNOFF"),
    "it": ("CREA golden gmpass\nASSEGNAZIONE preferenze\nLINGUA it\nSTAMPA grigia",
           "ISCRIVI golden {pw} {power}",
           "ACCEDI FRANCIA golden {pw}\nA Par - Bor\nA Mar - Spa\nF Bre - Zzz\nSTATO\n"
           "STAMPA A INGHILTERRA GRIGIA\nTè?\nFINE STAMPA\nPATTA\nSTATSU\nESCI"),
    "fr": ("CREER golden gmpass\nATTRIBUTION preferences\nLANGUE fr\nPRESSE grise",
           "INSCRIRE golden {pw} {power}",
           "CONNEXION FRANCE golden {pw}\nA Par - Bou\nA Marseille - Espagne\nF Bre - Zzz\nETAT\n"
           "PRESSE A ANGLETERRE GRISE\nThé ?\nFIN PRESSE\nNULLE\nSTATSU\nDECONNEXION"),
}


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("JUDGE_UPDATE_GOLDEN") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_player_session_reply(db: Database, lang: str) -> None:
    create, join, session = SESSIONS[lang]
    h = Harness(db)
    h.mail(GM, create)
    for i, (player, power) in enumerate(zip(PLAYERS, STANDARD.powers, strict=True), start=1):
        h.mail(player, join.format(pw=f"pw{i}", power=power))
    start = h.reply(GM, "SIGNON GM golden gmpass\nSTART")
    france = PLAYERS[STANDARD.powers.index("FRANCE")]
    pw = f"pw{PLAYERS.index(france) + 1}"
    sent = h.mail(france, session.format(pw=pw))
    reply = next(m for m in sent if m.to == france)
    press = next(m for m in sent if m.kind == "press")
    check_golden(f"start.{lang}.txt", start)
    check_golden(f"player_session.{lang}.txt", f"Subject: {reply.subject}\n\n{reply.body}")
    check_golden(f"grey_press.{lang}.txt", f"Subject: {press.subject}\n\n{press.body}")
    # the echo writes Burgundy as the game's players do (BOU in French, BOR in Italian)
    burgundy = {"en": "A PAR - BUR", "it": "A PAR - BOR", "fr": "A PAR - BOU"}[lang]
    assert burgundy in reply.body and "****" in reply.body and pw not in reply.body
