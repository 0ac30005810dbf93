"""Issue 14 as conversations: negotiating with the computer powers by mail, the exact reply out
(golden files in tests/golden/replies/bots_*), in English, Italian and French; then the ledger
after an adjudication, and the GM's computer stand-in for an abandoned seat in a club game.

Set JUDGE_UPDATE_GOLDEN=1 to rewrite the files after a deliberate change.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import delete, select

from judge.service import computer
from judge.storage import Database, gamerepo, playrepo
from judge.storage.models import OrderSet, Press, Turn
from judge.storage.models_bots import Agreement, BotSeat
from judge.storage.models_bots import Trust as TrustRow
from tests.service.commands_harness import GM, PLAYERS, Harness, password_of
from tests.service.test_commands_golden import check_golden

HUMAN = "FRANCE"
# fixed characters, so the answers (which follow from trust and character only) are golden
CHARACTERS = {"AUSTRIA": "loyal", "ENGLAND": "opportunist", "GERMANY": "aggressive",
              "ITALY": "cautious", "RUSSIA": "vengeful", "TURKEY": "loyal"}
WORDS: dict[str, dict[str, str]] = {
    "en": {"create": "CREATE", "lang": "LANGUAGE en", "bots": "BOTS FRANCE", "start": "START",
           "signon": "SIGNON"},
    "it": {"create": "CREA", "lang": "LINGUA it", "bots": "AUTOMI FRANCIA", "start": "INIZIA",
           "signon": "ACCEDI"},
    "fr": {"create": "CREER", "lang": "LANGUE fr", "bots": "ROBOTS FRANCE",
           "start": "COMMENCER", "signon": "CONNEXION"},
}
# the five kinds of seed 003, an unknown kind, and an answer to nothing
TALKS = {
    "en": ["PROPOSE ENGLAND PEACE", "PROPOSE GERMANY DMZ BUR",
           "PROPOSE ITALY SHARE PIE FRANCE TYR ITALY", "PROPOSE AUSTRIA ALLIANCE AGAINST GERMANY",
           "PROPOSE RUSSIA SUPPORT A PAR - BUR", "PROPOSE TURKEY WAR", "ACCEPT 99"],
    "it": ["PROPONI INGHILTERRA PACE", "PROPONI GERMANIA ZONA NEUTRA BORGOGNA",
           "PROPONI ITALIA SPARTIZIONE PIEMONTE FRANCIA TIROLO ITALIA",
           "PROPONI AUSTRIA ALLEANZA CONTRO GERMANIA", "PROPONI RUSSIA APPOGGIO A PAR - BOR",
           "PROPONI TURCHIA GUERRA", "ACCETTO 99"],
    "fr": ["PROPOSER ANGLETERRE PAIX", "PROPOSER ALLEMAGNE ZONE NEUTRE BOURGOGNE",
           "PROPOSER ITALIE PARTAGE PIEMONT FRANCE TYROL ITALIE",
           "PROPOSER AUTRICHE ALLIANCE CONTRE ALLEMAGNE", "PROPOSER RUSSIE SOUTIEN A PAR - BOU",
           "PROPOSER TURQUIE GUERRE", "ACCEPTER 99"],
}


def _solo(db: Database, lang: str, name: str = "solo") -> Harness:
    """A started solo game with France for the GM, fixed characters and no proposal yet."""
    h = Harness(db)
    w = WORDS[lang]
    h.mail(GM, f"{w['create']} {name} gmpass\n{w['lang']}\n{w['bots']}\n{w['start']}")
    with db.session() as s:
        game = gamerepo.game_by_name(s, name)
        assert game is not None and game.status == "active"
        for row in s.scalars(select(BotSeat).where(BotSeat.game_id == game.id)):
            row.personality = CHARACTERS[row.power]
        # the opening letters (drawn from the game's seed) would shift the numbers
        s.execute(delete(Agreement).where(Agreement.game_id == game.id))
        s.execute(delete(Press).where(Press.game_id == game.id))
    return h


def _rows(db: Database, model: Any, name: str = "solo") -> list[Any]:
    with db.session() as s:
        game = gamerepo.game_by_name(s, name)
        assert game is not None
        return list(s.scalars(select(model).where(model.game_id == game.id)))


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_negotiating_with_the_computer_powers(db: Database, lang: str) -> None:
    h = _solo(db, lang)
    sent = h.mail(GM, "\n".join([f"{WORDS[lang]['signon']} FRANCE solo gmpass", *TALKS[lang]]))
    reply = next(m.body for m in sent if m.to == GM and m.kind == "reply")
    check_golden(f"bots_negotiation.{lang}.txt", reply)
    ledger = {a.number: (a.partner, a.kind, a.status) for a in _rows(db, Agreement)}
    assert ledger == {
        1: ("ENGLAND", "peace", "active"),  # the opportunist trusts enough at 0
        2: ("GERMANY", "dmz", "refused"),  # the aggressive one does not
        3: ("ITALY", "share", "refused"),  # nor the cautious one
        4: ("AUSTRIA", "alliance", "active"),
        5: ("RUSSIA", "support", "refused"),  # a support costs a move: more trust needed
    }
    # the accepted alliance is announced to everyone, in the game's language
    news = [m for m in sent if m.kind == "bulletin" and "AUSTRIA" not in m.subject]
    assert news and all(m.to == GM for m in news)
    assert any("Austria" in m.body or "Autriche" in m.body for m in news)


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_the_ledger_judges_after_the_phase(db: Database, lang: str) -> None:
    """France promises England peace, then orders a move into London, a centre England owns:
    the ledger sees it when the phase is adjudicated (by the very mail with the orders),
    England's trust in France falls and England declares war on France, to everyone."""
    h = _solo(db, lang)
    w = WORDS[lang]
    reply = h.reply(GM, f"{w['signon']} FRANCE solo gmpass\n{TALKS[lang][0]}")
    assert "1" in reply
    with db.session() as s:  # France's fleet stands in the Channel already
        game = gamerepo.game_by_name(s, "solo")
        assert game is not None
        position = dict(game.position)
        position["units"] = {p: ["F ENG" if u == "F BRE" else u for u in us]
                             for p, us in position["units"].items()}
        game.position = position
    sent = h.mail(GM, f"{w['signon']} FRANCE solo gmpass\nF ENG - LON\nA PAR H\nA MAR H")
    assert h.game("solo").phase == "F1901M"
    (peace,) = _rows(db, Agreement)
    assert (peace.status, peace.broken_by, peace.evidence) == ("broken", HUMAN, "F ENG - LON")
    trust = {(t.holder, t.other): (t.value, t.betrayals) for t in _rows(db, TrustRow)}
    value, betrayals = trust[("ENGLAND", HUMAN)]
    assert value < 0 and betrayals == 1
    war = [m for m in sent if m.kind == "bulletin" and m.to == GM and "S1901M" not in m.subject]
    check_golden(f"bots_war.{lang}.txt", war[0].body if war else "")


def test_gm_seats_the_computer_in_an_abandoned_seat(db: Database) -> None:
    """Club game (point 5b): off by default (the Sommossa stays); with COMPUTER SEATS the GM's
    REPLACE power COMPUTER gives the seat to a computer power, which orders at once, and the
    bulletin marks its orders."""
    h = Harness(db)
    h.mail(GM, "CREATE club gmpass\nLANGUAGE en")
    for i, player in enumerate(PLAYERS, start=1):
        h.mail(player, f"JOIN club pw{i}")
    h.mail(GM, "SIGNON GM club gmpass\nSTART")
    players = {h.power_of("club", p): p for p in PLAYERS}
    del players["ITALY"]
    with db.session() as s:
        game = gamerepo.game_by_name(s, "club")
        assert game is not None
        seat = playrepo.seat_by_power(s, game.id, "ITALY")
        assert seat is not None
        seat.status = "abandoned"
    refused = h.reply(GM, "SIGNON GM club gmpass\nREPLACE ITALY COMPUTER")
    check_golden("bots_seat_refused.en.txt", refused)
    h.mail(GM, "SIGNON GM club gmpass\nCOMPUTER SEATS yes")
    taken = h.reply(GM, "SIGNON GM club gmpass\nREPLACE GERMANY COMPUTER")
    assert "still has a player" in taken
    sent = h.mail(GM, "SIGNON GM club gmpass\nREPLACE ITALY COMPUTER")
    reply = next(m.body for m in sent if m.to == GM and m.kind == "reply")
    check_golden("bots_seat_taken.en.txt", reply)
    told = {m.to for m in sent if "Italy is now played by the computer" in m.body}
    assert told >= {*players.values(), GM}  # every player, and the GM in his reply
    seats = h.seats("club")
    assert seats["ITALY"].account_id is None and seats["ITALY"].status == "active"
    italy = [r for r in _rows(db, OrderSet, "club") if r.power == "ITALY"]
    assert italy and italy[-1].orders and italy[-1].submitted_by_id is None
    # every other power orders; the GM processes; Italy's orders are the computer's
    for power, address in players.items():
        units = h.game("club").position["units"][power]
        h.mail(address, f"SIGNON {power} club {password_of(address)}\n" + "\n".join(
            f"{u} H" for u in units))
    sent = h.mail(GM, "SIGNON GM club gmpass\nPROCESS S1901M")
    bulletin = next(m for m in sent if "S1901M results" in m.subject)
    italian = [line for line in bulletin.body.splitlines()
               if line.startswith("Italy:") and "late day" not in line]
    assert italian and all("(*computer*)" in line for line in italian)
    assert "Italy:   10 late day(s) left, played by the computer." in bulletin.body
    spring = next(t for t in _rows(db, Turn, "club") if t.phase == "S1901M")
    assert {r["source"] for r in spring.outcomes["ITALY"]} == {"computer"}
    (row,) = _rows(db, BotSeat, "club")
    with db.session() as s:
        game = gamerepo.game_by_name(s, "club")
        assert game is not None
        assert computer.computer_powers(s, game) == {"ITALY": row.personality}

