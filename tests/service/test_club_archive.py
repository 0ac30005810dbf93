"""Issue 13 point 12 as conversations: SET NAME (IMPOSTA NOME, REGLER NOM) gives the display name
the archive shows beside the power; the end of a game, told by mail, shows in the archive with
the FOR orders made public. Golden files tests/golden/replies/club_name.*."""

from __future__ import annotations

import json

import pytest

from judge.archive.webapp import ArchiveApp
from judge.storage import Database
from tests.archive.asgi import get
from tests.service.commands_harness import GM, Harness, password_of
from tests.service.test_commands_golden import check_golden

SIGNON = {"en": "SIGNON", "it": "ACCEDI", "fr": "CONNEXION"}
LANGUAGE = {"en": "", "it": "LINGUA it", "fr": "LANGUE fr"}
SET_NAME = {"en": "SET NAME", "it": "IMPOSTA NOME", "fr": "REGLER NOM"}


@pytest.mark.parametrize("lang", ["it", "fr", "en"])
async def test_set_name_shows_in_the_archive(db: Database, lang: str) -> None:
    h = Harness(db)
    players = h.started_game("club", LANGUAGE[lang], lang=lang)
    italy = players["ITALY"]
    signon = f"{SIGNON[lang]} ITALY club {password_of(italy)}\n"
    reply = h.reply(italy, signon + f"{SET_NAME[lang]} Marco Rossi\n"
                    f"{SET_NAME[lang]} marco@example.org\n{SET_NAME[lang]} " + "x" * 41)
    check_golden(f"club_name.{lang}.txt", reply)
    data = json.loads((await get(ArchiveApp(db), "/games/club.json"))[2])
    names = {p["power"]: p["name"] for p in data["game"]["players"]}
    assert names["ITALY"] == "Marco Rossi"
    assert "marco@example.org" not in json.dumps(data)


async def test_the_end_told_by_mail_shows_in_the_archive(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("club", "LINGUA it\nBUIO", lang="it")
    italy = players["ITALY"]
    h.mail(italy, f"ACCEDI ITALY club {password_of(italy)}\nIMPOSTA NOME Marco Rossi")
    gm = "ACCEDI ARBITRO club gmpass\n"
    archive = ArchiveApp(db)
    during = json.loads((await get(archive, "/games/club.json"))[2])
    assert during["game"]["players"] is None  # blind while played
    h.mail(GM, gm + "FINE PARTITA")
    h.mail(GM, gm + "FINE PARTITA")
    assert h.game("club").status == "finished"
    after = json.loads((await get(archive, "/games/club.json"))[2])
    assert after["game"]["ended"]["reason"] == "gm"
    assert {p["power"]: p["name"] for p in after["game"]["players"]}["ITALY"] == "Marco Rossi"
    page = (await get(archive, "/games/club"))[2].decode()
    assert "La partita è terminata il " in page and "Marco Rossi" in page


JOIN = {"en": "JOIN", "it": "ISCRIVI", "fr": "INSCRIRE"}
CREATE = {"en": "CREATE", "it": "CREA", "fr": "CREER"}
WAIT = {"en": "SET WAIT", "it": "IMPOSTA ATTESA", "fr": "REGLER ATTENTE"}


@pytest.mark.parametrize("lang", ["it", "fr", "en"])
async def test_set_name_goes_in_the_join_mail(db: Database, lang: str) -> None:
    """Issue 28: a player without a power cannot sign on, so SET NAME in his JOIN mail applies
    to him; what needs a power is refused as waiting for the start, not with "sign on"."""
    from tests.service.commands_harness import PLAYERS

    h = Harness(db)
    h.mail(GM, f"{CREATE[lang]} club gmpass\n{LANGUAGE[lang]}")
    first = PLAYERS[0]
    reply = h.reply(first, f"{JOIN[lang]} club pw1\n{SET_NAME[lang]} Marco Rossi\n{WAIT[lang]}")
    check_golden(f"club_join_name.{lang}.txt", reply)
    sign_on_first = {"en": "sign on first", "it": "prima accedi", "fr": "connectez-vous d'abord"}[lang]
    assert sign_on_first not in reply.lower()
    for i, player in enumerate(PLAYERS[1:], start=2):
        h.mail(player, f"{JOIN[lang]} club pw{i}")
    h.mail(GM, "SIGNON GM club gmpass\nSTART")
    data = json.loads((await get(ArchiveApp(db), "/games/club.json"))[2])
    names = {p["power"]: p["name"] for p in data["game"]["players"]}
    assert names[h.power_of("club", first)] == "Marco Rossi"
