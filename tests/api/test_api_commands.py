"""Mail command lines sent with a token (issue 27 point 1): a real HTTP client against a
running judge. The GM's commands and a seat's press, late days and FOR blocks go through the
mail's command pipeline, answered with the mail reply's sentences in the asked language; a
line the token may not send is refused unrun; the mail's line cap holds. On SQLite and
PostgreSQL."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import httpx
import pytest
from sqlalchemy import select

from judge.settings import Settings
from judge.storage.models import Account, Game, Seat
from tests.api.conftest import WebTable
from tests.api.test_api_clients import GAME, TOKEN, ask_token
from tests.e2e.players import GM, GM_PASSWORD, address, form_game

PRESS_CAP = 2


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The mail tests' settings, with a small daily press cap to reach."""
    return dataclasses.replace(settings, press_per_seat_per_day=PRESS_CAP)


async def gm_token(table: WebTable) -> str:
    before = len(table.mails_to(GM))
    await table.send(GM, f"SIGNON GM {GAME} {GM_PASSWORD}\nTOKEN\n")
    found = TOKEN.findall("\n".join(m.body for m in table.mails_to(GM)[before:]))
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
async def test_the_gm_commands_by_token_are_the_mail_commands(table: WebTable) -> None:
    await form_game(table, GAME, [])
    auth = {"Authorization": f"Bearer {await gm_token(table)}"}
    deadline = table.deadline(GAME)
    async with httpx.AsyncClient(base_url=table.base, timeout=30) as client:
        sent = {"commands": ["EXTEND 24", "START", "SIGNON FRANCE apigame x", "A PAR H",
                             "LATE 1"]}
        answer = await client.post(f"/api/v1/games/{GAME}/gm?lang=fr", json=sent, headers=auth)
        assert answer.status_code == 200, answer.text
        done = answer.json()
        assert done["power"] == "GM"
        # echoed as the mail reply echoes them: a password masked
        assert [a["line"] for a in done["answers"]] == [
            "EXTEND 24", "START", "SIGNON FRANCE apigame ****", "A PAR H", "LATE 1"]
        assert table.deadline(GAME) == deadline + timedelta(hours=24)
        # the GM's lines are run, the rest is refused unrun, in French
        refused = [a["messages"] for a in done["answers"][2:]]
        assert all(m == ["Non appliqué : cette ligne n'est pas acceptée avec ce jeton ; "
                         "envoyez-la par courrier."] for m in refused)
        assert table.game(GAME).phase == "S1901M"
        assert done["answers"][2]["reasons"] == ["not_by_token"]

        # REPLACE by token follows the mail's rules: the new address is only asked to
        # confirm (the seat is not given to it yet), and one address change a request
        newbie = "newbie@players.test"
        replaced = (await client.post(f"/api/v1/games/{GAME}/gm", headers=auth, json={
            "commands": [f"REPLACE FRANCE {newbie}", "REPLACE ITALY other@players.test"]}
            )).json()["answers"]
        await table.settle()
        assert replaced[0]["reasons"] == ["confirm_sent"]
        assert replaced[1]["reasons"] == ["too_many"]
        asked = table.mails_to(newbie)
        assert len(asked) == 1 and "CONFIRM" in asked[0].body.upper()
        assert table.mails_to("other@players.test") == []
        with table.db.reading() as session:
            france = session.scalar(select(Seat).join(Game).where(
                Game.name == GAME, Seat.power == "FRANCE"))
            assert france is not None and france.account_id is not None
            holder = session.get(Account, france.account_id)
            assert holder is not None and holder.address == address("FRANCE")

        # the same line by mail is answered with the same sentence (the game speaks English)
        english = await client.post(f"/api/v1/games/{GAME}/gm", json={"commands": ["START"]},
                                    headers=auth)
        said = english.json()["answers"][0]["messages"]
        assert said and said != done["answers"][1]["messages"]
        await table.send(GM, f"SIGNON GM {GAME} {GM_PASSWORD}\nSTART\n")
        assert said[0] in table.mails_to(GM)[-1].body

        # the GM's press, as the GM's mail sends it
        said = (await client.post(f"/api/v1/games/{GAME}/gm", headers=auth, json={
            "commands": ["BROADCAST", "Welcome, all.", "ENDPRESS"]})).json()["answers"]
        assert said[0]["reasons"] == ["press_sent"]
        await table.settle()
        assert any("Welcome, all." in m.body for m in table.mails_to(address("RUSSIA")))

        # PAUSE by token stops the clock as by mail; every player is told by mail
        before = len(table.mails_to(address("ENGLAND")))
        paused = await client.post(f"/api/v1/games/{GAME}/gm", json={"commands": ["PAUSE"]},
                                   headers=auth)
        assert paused.status_code == 200
        assert table.game(GAME).status == "paused"
        await table.settle()
        assert len(table.mails_to(address("ENGLAND"))) > before

        # the mail's line cap: the lines past it are not read, and the answer says how many
        # (an item may hold several lines, as a press block does)
        cap = table.settings.max_command_lines
        many = {"commands": ["\n".join(["hello"] * 10)] * (cap // 10 + 1)}
        capped = (await client.post(f"/api/v1/games/{GAME}/gm", json=many,
                                    headers=auth)).json()["answers"]
        # (a paragraph of chat is answered once, its lines quoted together, as by mail)
        assert len(capped) == 2 and capped[0]["line"] == "\n".join(["hello"] * cap)
        assert capped[-1]["line"] is None and str(cap) in capped[-1]["messages"][0]
        assert "10" in capped[-1]["messages"][0]

        opt = (await client.post(f"/api/v1/games/{GAME}/gm", headers=auth, json={
            "commands": ["PRESS none", "BLIND yes"]})).json()["answers"]
        # option lines as by mail: set while the option may change, refused once it may not
        assert [a["reasons"] for a in opt] == [["option_set"], ["options_locked"]]
        await table.send(GM, f"SIGNON GM {GAME} {GM_PASSWORD}\nBLIND yes\n")
        assert opt[1]["messages"][0] in table.mails_to(GM)[-1].body
        # a seat's token is no GM's
        seat = {"Authorization": f"Bearer {await ask_token(table, 'ITALY')}"}
        refused_seat = await client.post(f"/api/v1/games/{GAME}/gm",
                                         json={"commands": ["RESUME"]}, headers=seat)
        assert refused_seat.status_code == 403 and refused_seat.json()["reason"] == "not_gm"
        assert table.game(GAME).status == "paused"
        # and the GM's token speaks for no seat
        gm_as_seat = await client.post(f"/api/v1/games/{GAME}/commands",
                                       json={"commands": ["LATE 1"]}, headers=auth)
        assert gm_as_seat.status_code == 403


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
async def test_a_seats_press_late_days_and_for_blocks_by_token(table: WebTable) -> None:
    await form_game(table, GAME, [])
    auth = {"Authorization": f"Bearer {await ask_token(table, 'FRANCE')}"}
    deadline = table.deadline(GAME)
    before = len(table.mails_to(address("ENGLAND")))
    async with httpx.AsyncClient(base_url=table.base, timeout=30) as client:
        sent = {"commands": ["PRESS TO ENGLAND", "Shall we split the Channel?", "ENDPRESS",
                             "FOR TURKEY\nA CON - BUL\nEND", "LATE 1", "EXTEND 24"]}
        answer = await client.post(f"/api/v1/games/{GAME}/commands?lang=it", json=sent,
                                   headers=auth)
        assert answer.status_code == 200, answer.text
        done = answer.json()
        assert done["power"] == "FRANCE"
        lines = [a["line"] for a in done["answers"]]
        assert lines == ["PRESS TO ENGLAND", "FOR TURKEY", "LATE 1", "EXTEND 24"]
        assert done["answers"][0]["messages"] == ["Stampa inviata a Inghilterra."]
        # Turkey is in no Sommossa: the FOR block gets the mail's refusal (for_not_open)
        assert done["answers"][1]["messages"] == ["Ora non si possono inviare ordini per Turchia."]
        # the press went to England by mail, with its text and no address of France
        await table.settle()
        press = table.mails_to(address("ENGLAND"))[before:]
        assert any("Shall we split the Channel?" in m.body for m in press)
        assert all(address("FRANCE") not in m.text for m in press)
        assert all("@" not in " ".join(a["messages"]) for a in done["answers"])
        # the late day moved the deadline as LATE by mail does
        assert lines[-2] == "LATE 1"
        assert table.deadline(GAME) > deadline
        # a GM command is not a seat's to send
        assert lines[-1] == "EXTEND 24"
        assert done["answers"][-1]["messages"][0] == \
            "Non applicato: questa riga non è accettata con questo token; inviala per posta."

        # the seat's daily press cap counts what was sent by token as what was sent by mail
        more = {"commands": ["PRESS TO GERMANY", "Hello.", "ENDPRESS",
                             "PRESS TO ITALY", "Ciao.", "ENDPRESS"]}
        capped = (await client.post(f"/api/v1/games/{GAME}/commands", json=more,
                                    headers=auth)).json()["answers"]
        assert [a["reasons"] for a in capped] == [["press_sent"], ["press_limit"]]
        await table.settle()
        assert not any("Ciao." in m.body for m in table.mails_to(address("ITALY")))
