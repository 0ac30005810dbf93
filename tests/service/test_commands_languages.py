"""Every reply in the game's language; every outcome has a text in en, it and fr."""

from __future__ import annotations

import pytest

from judge.service.answers import CommandRefusal, Done
from judge.service.commands import reply_text
from judge.storage import Database
from tests.service.commands_harness import GM, PLAYERS, Harness, password_of


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_every_outcome_has_a_message(lang: str) -> None:
    missing = [k.value for k in (*Done, *CommandRefusal) if not reply_text.has_message(lang, k.value)]
    assert missing == []
    for extra in ("subject_notice", "subject_copy", "subject_press"):
        assert reply_text.has_message(lang, extra)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Commands understood", "Players, after SIGNON"]),
    ("it", ["Comandi di questo judge", "ISCRIVI partita password"]),
    ("fr", ["Commandes de ce juge", "INSCRIRE partie motdepasse"]),
])
def test_help_is_generated_per_language(db: Database, lang: str, words: list[str]) -> None:
    h = Harness(db)
    keyword = {"en": "HELP", "it": "AIUTO", "fr": "AIDE"}[lang]
    body = h.reply("someone@example.net", keyword)
    for word in words:
        assert word in body


def test_italian_game_answers_in_italian(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("partita", options="LINGUA it", lang="it")
    assert h.game("partita").language == "it"
    italia = players["ITALY"]
    body = h.reply(italia, f"SIGNON ITALY partita {password_of(italia)}\nA Ven - Tri\nSTATUS")
    assert "Accesso come Italia" in body and "Ordini per S1901M registrati" in body
    assert "A VEN - TRI" in body
    assert "Non capito" in h.reply(GM, "SIGNON GM partita gmpass\nBLABLA")
    notice = next(m for m in h.outbox if m.to == italia and "avviso" in m.subject)
    assert "Giochi con Italia" in notice.body


def test_french_game_answers_in_french(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("partie", options="LANGUE fr\nPRESSE grise", lang="fr")
    france = players["FRANCE"]
    body = h.reply(france, f"CONNEXION FRANCE partie {password_of(france)}\nA Par - Bou\n"
                           "NULLE\nPRESSE A ANGLETERRE GRISE\nBonjour\nFIN PRESSE")
    assert "Connecté comme France" in body and "A PAR - BOU" in body  # seed 000 codes
    assert "vote pour la nulle" in body and "Presse grise envoyée à l'Angleterre" in body
    press = next(m for m in h.outbox if m.to == players["ENGLAND"] and m.kind == "press")
    assert "Presse dans la partie partie" in press.body and "France" not in press.body


def test_language_of_a_mail_without_game_follows_its_keywords(db: Database) -> None:
    h = Harness(db)
    assert "Non esiste una partita" in h.reply(PLAYERS[0], "ISCRIVI nessuna pw")
    assert "Il n'y a pas de partie" in h.reply(PLAYERS[0], "INSCRIRE aucune pw")
