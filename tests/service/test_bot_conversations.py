"""Issue 14 as conversations: negotiating with the computer powers by mail, the exact reply out
(golden files in tests/golden/replies/bots_*), in English, Italian and French; then the ledger
after an adjudication, and the GM's computer stand-in for an abandoned seat in a club game.

Set JUDGE_UPDATE_GOLDEN=1 to rewrite the files after a deliberate change.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import delete, select

from judge.service import computer, turns
from judge.storage import Database, gamerepo, playrepo
from judge.storage.models import OrderSet, Press, Turn
from judge.storage.models_bots import AgreementRecord as Agreement
from judge.storage.models_bots import BotSeat
from judge.storage.models_bots import TrustRecord as TrustRow
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


def games_options(h: Harness, name: str) -> dict[str, Any]:
    return dict(h.game(name).options or {})


def _rows(db: Database, model: Any, name: str = "solo") -> list[Any]:
    with db.session() as s:
        game = gamerepo.game_by_name(s, name)
        assert game is not None
        return list(s.scalars(select(model).where(model.game_id == game.id)))


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_negotiating_with_the_computer_powers(db: Database, lang: str) -> None:
    h = _solo(db, lang)
    sent = h.mail(GM, "\n".join([f"{WORDS[lang]['signon']} FRANCE solo gmpass", *TALKS[lang]]))
    reply = next(m.body for m in sent if m.to == GM and m.kind.startswith("reply"))
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


def _fleet_in_the_channel(db: Database) -> None:
    """France's fleet of Brest stands in the English Channel already."""
    with db.session() as s:
        game = gamerepo.game_by_name(s, "solo")
        assert game is not None
        position = dict(game.position)
        position["units"] = {p: ["F ENG" if u == "F BRE" else u for u in us]
                             for p, us in position["units"].items()}
        game.position = position


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_the_ledger_judges_after_the_phase(db: Database, lang: str) -> None:
    """France promises England peace, then orders a move into London, a centre England owns:
    the ledger sees it when the phase is adjudicated (by the very mail with the orders),
    England's trust in France falls and England declares war on France, to everyone."""
    h = _solo(db, lang)
    w = WORDS[lang]
    reply = h.reply(GM, f"{w['signon']} FRANCE solo gmpass\n{TALKS[lang][0]}")
    assert "1" in reply
    _fleet_in_the_channel(db)
    sent = h.mail(GM, f"{w['signon']} FRANCE solo gmpass\nF ENG - LON\nA PAR H\nA MAR H")
    assert h.game("solo").phase == "F1901M"
    (peace,) = _rows(db, Agreement)
    assert (peace.status, peace.broken_by, peace.evidence) == ("broken", HUMAN, "F ENG - LON")
    trust = {(t.holder, t.other): (t.value, t.betrayals) for t in _rows(db, TrustRow)}
    value, betrayals = trust[("ENGLAND", HUMAN)]
    assert value < 0 and betrayals == 1
    war = [m for m in sent if m.kind == "bulletin" and m.to == GM and "S1901M" not in m.subject]
    check_golden(f"bots_war.{lang}.txt", war[0].body if war else "")


def test_rollback_restores_the_ledger_and_trust(db: Database) -> None:
    """Point 4 with the GM's ROLLBACK: France breaks its peace with England in S1901M and
    signs a neutral zone with Germany in F1901M; ROLLBACK S1901M puts the ledger and trust
    back as they stood when S1901M was adjudicated (the peace active and unbroken, England's
    trust untouched, the F1901M deal gone), in the ROLLBACK's transaction. Played again with
    the peace kept, trust rises instead."""
    from judge.storage.models_bots import CouncilSnapshot

    h = _solo(db, "en")
    before = {(t.holder, t.other): (t.value, t.betrayals) for t in _rows(db, TrustRow)}
    h.reply(GM, "SIGNON FRANCE solo gmpass\nPROPOSE ENGLAND PEACE")
    _fleet_in_the_channel(db)
    h.mail(GM, "SIGNON FRANCE solo gmpass\nF ENG - LON\nA PAR H\nA MAR H")
    assert h.game("solo").phase == "F1901M"
    peace = next(a for a in _rows(db, Agreement) if a.number == 1)
    assert (peace.status, peace.broken_by) == ("broken", HUMAN)
    betrayed = {(t.holder, t.other): (t.value, t.betrayals) for t in _rows(db, TrustRow)}
    assert betrayed[("ENGLAND", HUMAN)][1] == 1
    h.reply(GM, "SIGNON FRANCE solo gmpass\nPROPOSE GERMANY DMZ BUR")
    assert any(a.proposer == HUMAN and a.kind == "dmz" for a in _rows(db, Agreement))
    assert {r.phase for r in _rows(db, CouncilSnapshot)} == {"S1901M"}

    reply = h.reply(GM, "SIGNON GM solo gmpass\nROLLBACK S1901M")
    assert h.game("solo").phase == "S1901M", reply
    rows = _rows(db, Agreement)
    assert {(a.status, a.broken_by) for a in rows if a.number == 1} == {("active", None)}
    # F1901M's deal is undone (the computer powers' own S1901M proposals are made again)
    assert not any(a.proposer == HUMAN and a.kind == "dmz" for a in rows)
    restored = {(t.holder, t.other): (t.value, t.betrayals) for t in _rows(db, TrustRow)}
    assert restored == before
    assert _rows(db, CouncilSnapshot) == []

    # played again, the peace kept: England's trust in France rises instead
    h.mail(GM, "SIGNON FRANCE solo gmpass\nF ENG H\nA PAR H\nA MAR H")
    assert h.game("solo").phase == "F1901M"
    kept = {(t.holder, t.other): (t.value, t.betrayals) for t in _rows(db, TrustRow)}
    assert kept[("ENGLAND", HUMAN)][0] > 0 and kept[("ENGLAND", HUMAN)][1] == 0


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
    reply = next(m.body for m in sent if m.to == GM and m.kind.startswith("reply"))
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
    # the order lines (the units-and-centres list after the phase has no full stop)
    italian = [line for line in bulletin.body.splitlines()
               if line.startswith("Italy:") and "late day" not in line
               and line.rstrip().endswith((".", ")"))]
    assert italian and all("(*computer*)" in line for line in italian)
    assert "Italy:   10 late days left, played by the computer." in bulletin.body
    spring = next(t for t in _rows(db, Turn, "club") if t.phase == "S1901M")
    assert {r["source"] for r in spring.outcomes["ITALY"]} == {"computer"}
    (row,) = _rows(db, BotSeat, "club")
    with db.session() as s:
        game = gamerepo.game_by_name(s, "club")
        assert game is not None
        assert computer.computer_powers(s, game) == {"ITALY": row.personality}



def _set_position(db: Database, units: dict[str, list[str]] | None = None,
                  centers: dict[str, list[str]] | None = None) -> None:
    with db.session() as s:
        game = gamerepo.game_by_name(s, "solo")
        assert game is not None
        position = dict(game.position)
        if units is not None:
            position["units"] = units
        if centers is not None:
            position["centers"] = centers
        game.position = position


EIGHTEEN = ["PAR", "BRE", "MAR", "SPA", "POR", "BEL", "HOL", "MUN", "KIE", "BER", "DEN", "LON",
            "EDI", "LVP", "NWY", "SWE", "TUN", "NAP"]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_solo_win_is_announced_and_play_goes_on(db: Database, lang: str) -> None:
    h = _solo(db, lang)
    game = h.game("solo")
    centers = {p: [c for c in cs if c not in EIGHTEEN] for p, cs in game.position["centers"].items()}
    centers["FRANCE"] = EIGHTEEN
    _set_position(db, centers=centers)
    sent = h.mail(GM, f"{WORDS[lang]['signon']} FRANCE solo gmpass\nA PAR H\nA MAR H\nF BRE H")
    bulletin = next(m.body for m in sent if "S1901M" in m.subject and m.to == GM)
    said = {"en": "France holds the winning number of supply centres and has won the game",
            "it": "Francia possiede i centri necessari e ha vinto la partita"}[lang]
    assert said in bulletin
    game = h.game("solo")
    assert game.status == "active" and game.phase == "F1901M"
    assert game.options["bots"]["won"] == "F1901M"
    # said once: the next bulletin does not repeat it
    sent = h.mail(GM, f"{WORDS[lang]['signon']} FRANCE solo gmpass\nA PAR H\nA MAR H\nF BRE H")
    assert all(said not in m.body for m in sent)


def test_solo_game_ends_when_the_player_is_out(db: Database) -> None:
    h = _solo(db, "en")
    game = h.game("solo")
    units = {p: us for p, us in game.position["units"].items() if p != HUMAN}
    centers = {p: cs for p, cs in game.position["centers"].items() if p != HUMAN}
    centers["GERMANY"] = [*centers["GERMANY"], "PAR", "BRE", "MAR"]
    _set_position(db, units=units, centers=centers)
    sent = h.mail(GM, "SIGNON FRANCE solo gmpass\nSTATUS")
    game = h.game("solo")
    assert game.status == "finished"
    end = next(m.body for m in sent if "game over" in m.subject)
    assert "Germany has won the game." in end


def test_solo_game_ends_when_no_enemy_centre_is_left(db: Database) -> None:
    h = _solo(db, "fr")
    game = h.game("solo")
    every = sorted({c for cs in game.position["centers"].values() for c in cs})
    _set_position(db, centers={HUMAN: every})
    sent = h.mail(GM, "CONNEXION FRANCE solo gmpass\nA PAR H\nA MAR H\nF BRE H")
    game = h.game("solo")
    assert game.status == "finished"
    end = next(m.body for m in sent if "partie terminée" in m.subject or "terminée" in m.body)
    assert "France" in end


def test_answering_the_computer_powers_proposals(db: Database) -> None:
    """The computer powers' own Spring letters to France (proposals, demands, requests for
    support): France accepts one and refuses another; a refusal costs a little trust."""
    h = Harness(db)
    sent = h.mail(GM, "CREATE solo gmpass\nLANGUAGE en\nBOTS FRANCE\nSTART")
    letters = [m for m in sent if m.to == GM and "letter from" in m.subject]
    waiting = [a for a in _rows(db, Agreement) if a.partner == HUMAN and a.status == "proposed"]
    assert letters and len(letters) == len(waiting)
    for mail in letters:
        assert "Answer ACCEPT" in mail.body and "(a computer power) writes to France" in mail.body
    first, *rest = waiting
    reply = h.reply(GM, f"SIGNON FRANCE solo gmpass\nACCEPT {first.number}")
    assert f"You accept proposal {first.number}" in reply
    if rest:
        second = rest[0]
        reply = h.reply(GM, f"SIGNON FRANCE solo gmpass\nREFUSE {second.number}")
        assert f"You refuse proposal {second.number}" in reply
        trust = {(t.holder, t.other): t.value for t in _rows(db, TrustRow)}
        assert trust[(second.proposer, HUMAN)] < 0
    status = {a.number: a.status for a in _rows(db, Agreement)}
    assert status[first.number] == "active"
    # a proposal already answered waits no more
    again = h.reply(GM, f"SIGNON FRANCE solo gmpass\nACCEPT {first.number}")
    assert f"No proposal number {first.number} is waiting" in again


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_players_negotiate_between_themselves(db: Database, lang: str) -> None:
    """Between two players the judge carries the proposal and the answer, and the ledger keeps
    the agreement (judged like any other after each phase)."""
    h = Harness(db)
    options = {"en": "", "it": "LINGUA it", "fr": "LANGUE fr"}[lang]
    players = h.started_game("club", options, lang=lang)
    france, germany = players["FRANCE"], players["GERMANY"]
    w = WORDS[lang]
    talk = {"en": "PROPOSE GERMANY DMZ BUR", "it": "PROPONI GERMANIA ZONA NEUTRA BOR",
            "fr": "PROPOSER ALLEMAGNE ZONE NEUTRE BOU"}[lang]
    sent = h.mail(france, f"{w['signon']} FRANCE club {password_of(france)}\n{talk}")
    told = next(m.body for m in sent if m.to == germany)
    answer = {"en": "ACCEPT", "it": "ACCETTO", "fr": "ACCEPTER"}[lang]
    assert f"{answer} 1" in told
    sent = h.mail(germany, f"{w['signon']} GERMANY club {password_of(germany)}\n{answer}")
    reply = next(m.body for m in sent if m.to == germany and m.kind.startswith("reply"))
    check_golden(f"bots_players_answer.{lang}.txt", reply)
    back = next(m.body for m in sent if m.to == france)
    assert {"en": "Germany accepts your proposal 1",
            "it": "La Germania accetta la tua proposta 1",
            "fr": "L'Allemagne accepte votre proposition 1"}[lang] in back
    (deal,) = _rows(db, Agreement, "club")
    assert (deal.proposer, deal.partner, deal.kind, deal.status) == (
        "FRANCE", "GERMANY", "dmz", "active")


def test_a_mail_of_proposals_is_bounded(db: Database) -> None:
    h = _solo(db, "en")
    lines = ["PROPOSE ENGLAND PEACE"] * 15
    reply = h.reply(GM, "\n".join(["SIGNON FRANCE solo gmpass", *lines]))
    assert reply.count("at most ten proposals and answers per mail") == 5
    assert len(_rows(db, Agreement)) == 10


def test_list_shows_the_computer_powers(db: Database) -> None:
    h = _solo(db, "fr")
    listing = h.reply(GM, "LISTE solo")
    assert "contre l'ordinateur" in listing
    lines = [line for line in listing.splitlines() if "ordinateur" in line and "centres" in line]
    assert len(lines) == 6  # every seat but France's
    assert all("France" not in line for line in lines)


def test_no_press_no_letters(db: Database) -> None:
    h = Harness(db)
    sent = h.mail(GM, "CREATE quiet gmpass\nPRESS none\nBOTS FRANCE\nSTART")
    assert not [m for m in sent if "letter from" in m.subject or "news from" in m.subject]
    assert not _rows(db, Press, "quiet")
    reply = h.reply(GM, "SIGNON FRANCE quiet gmpass\nPROPOSE ENGLAND PEACE")
    assert "allows no press" in reply


def test_a_failing_phase_does_not_lose_the_players_mail(db: Database,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The phase is processed inside the mail's transaction, in a savepoint: when it fails the
    orders and the reply still stand, and the early sweep tries the phase again later."""
    h = _solo(db, "en")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("adjudication failed")

    monkeypatch.setattr(turns, "_adjudicate", broken)
    reply = h.reply(GM, "SIGNON FRANCE solo gmpass\nA PAR H\nA MAR H\nF BRE H")
    assert "Orders for S1901M on file" in reply
    assert h.game("solo").phase == "S1901M"
    orders = [r for r in _rows(db, OrderSet) if r.power == HUMAN]
    assert orders and orders[-1].orders == ["A PAR H", "A MAR H", "F BRE H"]
    monkeypatch.undo()
    h.mail(GM, "SIGNON FRANCE solo gmpass\nSTATUS")  # any later mail (or the sweep) goes on
    assert h.game("solo").phase == "F1901M"


def test_a_solo_game_on_the_pure_map(db: Database) -> None:
    """Any variant the mail service seats: Pure (seven capitals, one army each). Each of
    France's mails processes its phase, and the winter after it when nobody has anything to
    build, with the computer powers' orders through the variant's own map."""
    h = Harness(db)
    h.mail(GM, "CREATE puro gmpass\nVARIANT pure\nBOTS FRANCE\nSTART")
    seen = []
    while len(seen) < 4:
        game = h.game("puro")
        if game.status == "finished":
            break  # France, holding, may lose its one centre (the player is then out)
        assert game.status == "active"
        if game.phase.endswith("M"):
            units = game.position["units"].get(HUMAN, [])
            lines = [f"{u} H" for u in units]
            seen.append(game.phase)
        elif game.phase.endswith("R"):
            # the computer powers attack on Pure: a French unit driven out is disbanded
            lines = [f"{u} D" for u in game.position["dislodged"].get(HUMAN, {})]
        else:
            lines = ["WAIVE"]  # a build France may make is waived (holding is the point)
        h.mail(GM, "\n".join(["SIGNON FRANCE puro gmpass", *lines]))
        assert h.game("puro").phase != game.phase
    # whatever the computer powers do, 1901 is played in full before France can be out
    assert len(seen) >= 2 and seen == ["S1901M", "F1901M", "S1902M", "F1902M"][:len(seen)]
    played = [t.phase for t in sorted(_rows(db, Turn, "puro"), key=lambda t: t.id)]
    # (a France left without units has nothing to order: its phases are played at once)
    assert [p for p in played if p.endswith("M")][:len(seen)] == seen
    spring = next(t for t in _rows(db, Turn, "puro") if t.phase == "S1901M")
    assert all(r["source"] == "computer" for p, rs in spring.outcomes.items() if p != HUMAN
               for r in rs)


def test_set_wait_holds_the_solo_phase_until_nowait(db: Database) -> None:
    h = _solo(db, "en")
    h.mail(GM, "SIGNON FRANCE solo gmpass\nSET WAIT\nA PAR - BUR")
    assert h.game("solo").phase == "S1901M"  # the player said he has more to send
    h.mail(GM, "SIGNON FRANCE solo gmpass\nA PAR - BUR\nA MAR - SPA\nF BRE - MAO\nSET NOWAIT")
    assert h.game("solo").phase == "F1901M"


def test_solo_games_only_on_maps_of_one_power_per_seat(db: Database) -> None:
    """The fewer-player maps: standard-6 (Italy neutral) is played against five computer
    powers; standard-3 (seats of two and three powers) is refused, whichever option comes
    first, and so is a neutral power as the player's."""
    h = Harness(db)
    refused = h.reply(GM, "CREATE trio gmpass\nVARIANT standard-3\nBOTS FRANCE")
    assert "standard-3" in refused and games_options(h, "trio").get("bots") is None
    h.reply(GM, "CREATE trio2 gmpass\nBOTS FRANCE\nVARIANT standard-3")
    assert (h.game("trio2").variant or "standard") == "standard"
    h.reply(GM, "CREATE sei gmpass\nVARIANT standard-6\nBOTS ITALY")
    assert games_options(h, "sei").get("bots") is None
    h.mail(GM, "SIGNON GM sei gmpass\nBOTS FRANCE\nSTART")
    assert h.game("sei").status == "active"
    machines = {r.power for r in _rows(db, BotSeat, "sei")}
    assert machines == {"AUSTRIA", "ENGLAND", "GERMANY", "RUSSIA", "TURKEY"}
    given = {r.power for r in _rows(db, OrderSet, "sei") if r.orders}
    assert given == machines  # Italy is neutral: nobody orders for it


@pytest.mark.parametrize("lang", ["it", "fr"])
def test_a_coalition_against_the_leading_player_is_announced(db: Database, lang: str) -> None:
    """Point 4: France leads by a clear margin (10 centres, the next 4): after the phase every
    computer power tells everyone, in the game's language, that it joins the coalition against
    France (once), and France's proposals are refused from then on."""
    h = _solo(db, lang)
    w = WORDS[lang]
    with db.session() as s:
        game = gamerepo.game_by_name(s, "solo")
        assert game is not None
        position = dict(game.position)
        centres = dict(position["centers"])
        centres[HUMAN] = [*centres[HUMAN], "BEL", "HOL", "SPA", "POR", "TUN", "DEN", "SWE"]
        position["centers"] = centres
        game.position = position
    sent = h.mail(GM, f"{w['signon']} FRANCE solo gmpass\nA PAR H\nA MAR H\nF BRE H")
    assert h.game("solo").phase == "F1901M"
    word = {"it": "coalizione contro la Francia", "fr": "coalition contre la France"}[lang]
    news = [m for m in sent if m.to == GM and word in m.body]
    assert len(news) == 6, [m.subject for m in sent]  # one from each computer power
    announced = {r.power: r.announced for r in _rows(db, BotSeat)}
    assert all(v == [HUMAN] for v in announced.values())
    reply = h.reply(GM, f"{w['signon']} FRANCE solo gmpass\n{TALKS[lang][0]}")
    peace = max(_rows(db, Agreement), key=lambda a: a.number)
    assert (peace.proposer, peace.status) == (HUMAN, "refused"), reply
    later = h.mail(GM, f"{w['signon']} FRANCE solo gmpass\nA PAR H\nA MAR H\nF BRE H")
    assert h.game("solo").phase != "F1901M"
    assert not [m for m in later if word in m.body]  # said once
