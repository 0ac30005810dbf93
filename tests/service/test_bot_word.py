"""Issue 29.2 through the mail: a computer power that accepts a deal orders again at once and
keeps it; a computer power that breaks its word to the player tells him, in its character and
the game's language; free-text press to a computer power is answered with what it understood.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from judge.adjudicator.orders import parse_canonical
from judge.bots.ledger import Agreement as LedgerAgreement
from judge.bots.ledger import Status, judge_phase
from judge.bots.proposals import Kind, Proposal
from judge.service import games, usecases, websolo
from judge.settings import Settings
from judge.storage import Database, botrepo, gamerepo
from judge.storage.models import OrderSet, Press
from judge.storage.models_bots import AgreementRecord as Agreement
from tests.service.commands_harness import GM, Harness
from tests.service.test_bot_conversations import WORDS, _rows, _set_position, _solo

PRESS = {"en": ("PRESS TO GERMANY", "ENDPRESS"), "it": ("STAMPA A GERMANIA", "FINE STAMPA"),
         "fr": ("PRESSE A ALLEMAGNE", "FIN PRESSE")}


def _latest(db: Database, power: str) -> OrderSet:
    rows = [r for r in _rows(db, OrderSet) if r.power == power]
    return max(rows, key=lambda r: (r.phase, r.version))


def _units(h: Harness, change: dict[str, tuple[str, str]]) -> dict[str, list[str]]:
    units = {p: list(us) for p, us in h.game("solo").position["units"].items()}
    for power, (old, new) in change.items():
        units[power] = [new if u == old else u for u in units[power]]
    return units


def test_a_computer_power_that_accepts_a_peace_orders_again_and_keeps_it(db: Database) -> None:
    """England's fleet stands in the Channel, Brest is empty: England (the opportunist) has
    ordered at the start of the phase. France offers peace, England accepts, and its orders
    are given again at once: none of them strikes at France, and the ledger finds the peace
    kept once the phase is played."""
    h = _solo(db, "en")
    _set_position(db, units=_units(h, {"ENGLAND": ("F LON", "F ENG"),
                                       "FRANCE": ("F BRE", "F MAO")}))
    before = _latest(db, "ENGLAND").version
    reply = h.reply(GM, "SIGNON FRANCE solo gmpass\nPROPOSE ENGLAND PEACE")
    assert "England accepts your proposal 1" in reply
    (peace,) = _rows(db, Agreement)
    assert peace.status == "active"
    latest = _latest(db, "ENGLAND")
    assert latest.version == before + 1 and latest.submitted_by_id is None
    with db.session() as s:
        game = gamerepo.game_by_name(s, "solo")
        assert game is not None
        position = games.load_position(game)
    orders = [parse_canonical(o) for o in latest.orders]
    deal = LedgerAgreement(1, Proposal(Kind.PEACE, "FRANCE", "ENGLAND"), "S1901M")
    (verdict,) = judge_phase(position, {"ENGLAND": orders}, [deal])
    assert verdict.kept, latest.orders
    h.mail(GM, "SIGNON FRANCE solo gmpass\nF MAO H\nA PAR H\nA MAR H")
    assert h.game("solo").phase == "F1901M"
    (peace,) = _rows(db, Agreement)
    assert peace.status == "active" and peace.broken_by is None


TOLD = {
    "en": "England saw a chance too good to miss and broke agreement 1",
    "it": "L'Inghilterra ha visto un'occasione troppo bella e ha rotto l'accordo 1",
    "fr": "L'Angleterre a vu une occasion trop belle et a rompu l'accord 1",
}


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_a_player_betrayed_by_a_computer_power_is_told(db: Database, lang: str) -> None:
    """England accepted France's peace; its orders (as stored) then strike at Brest. When the
    phase is played the player gets England's letter, in its character and the game's
    language, and the inbox keeps it."""
    h = _solo(db, lang)
    w = WORDS[lang]
    verb = {"en": "PROPOSE ENGLAND PEACE", "it": "PROPONI INGHILTERRA PACE",
            "fr": "PROPOSER ANGLETERRE PAIX"}[lang]
    h.reply(GM, f"{w['signon']} FRANCE solo gmpass\n{verb}")
    _set_position(db, units=_units(h, {"ENGLAND": ("F LON", "F ENG")}))
    with db.session() as s:
        game = gamerepo.game_by_name(s, "solo")
        assert game is not None
        usecases.submit_orders(s, game, "ENGLAND", ["F ENG - BRE", "F EDI H", "A LVP H"],
                               h.now, by_account_id=None)
    sent = h.mail(GM, f"{w['signon']} FRANCE solo gmpass\nF BRE H\nA PAR H\nA MAR H")
    (peace,) = _rows(db, Agreement)
    assert (peace.status, peace.broken_by) == ("broken", "ENGLAND")
    told = [m for m in sent if m.to == GM and TOLD[lang] in m.body]
    assert told, [m.body for m in sent if m.to == GM]
    press = [p for p in _rows(db, Press) if p.from_power == "ENGLAND" and TOLD[lang] in p.body]
    assert press and press[0].to_powers == ["FRANCE"]


LETTERS: dict[str, list[tuple[str, str]]] = {
    "en": [
        ("Dear Germany, shall we make peace? I will not attack you.",
         "It understands that you offer peace. To make it an agreement, write this line: "
         "PROPOSE GERMANY PEACE"),
        ("Could you support A MUN - BUR this spring?",
         "It understands that you ask it to support A Munich - Burgundy."),
        ("The weather is lovely in Paris.",
         "It did not understand what you propose. An agreement is proposed in one line, for "
         "example PROPOSE GERMANY PEACE"),
    ],
    "it": [
        ("Facciamo un'alleanza contro la Russia?",
         "Capisce che le offri un'alleanza contro la Russia. Per farne un accordo, scrivi "
         "questa riga: PROPONI GERMANIA ALLEANZA CONTRO RUSSIA"),
        ("Una zona neutra in Borgogna?",
         "Capisce che vuoi una zona neutra: Borgogna."),
        ("Che bel tempo a Parigi.", "Non ha capito che cosa proponi."),
    ],
    "fr": [
        ("Un pacte de non-agression entre nous ?",
         "Elle comprend que vous lui offrez la paix. Pour en faire un accord, écrivez cette "
         "ligne : PROPOSER ALLEMAGNE PAIX"),
        ("Partageons la Belgique et la Hollande.",
         "Elle comprend que vous voulez partager des centres."),
        ("Il fait beau à Paris.", "Elle n'a pas compris ce que vous proposez."),
    ],
}
OPENING = {"en": "Germany has little patience for long letters.",
           "it": "La Germania ha poca pazienza per le lettere lunghe.",
           "fr": "L'Allemagne a peu de patience pour les longues lettres."}


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_free_press_to_a_computer_power_is_answered(db: Database, lang: str) -> None:
    """Free text to Germany (the aggressive character) by mail: the reply carries Germany's
    answer, in its character and the game's language, saying what it read and the line that
    makes it an agreement, or that it understood nothing and the structured form; the answer
    is kept as press from Germany to France. Nothing is signed on the strength of free text."""
    h = _solo(db, lang)
    w = WORDS[lang]
    head, tail = PRESS[lang]
    for text, understood in LETTERS[lang]:
        reply = h.reply(GM, f"{w['signon']} FRANCE solo gmpass\n{head}\n{text}\n{tail}")
        assert OPENING[lang] in reply, reply
        assert understood in " ".join(reply.split()), reply
    answers = [p for p in _rows(db, Press) if p.from_power == "GERMANY"]
    assert len(answers) == 3 and all(p.to_powers == ["FRANCE"] for p in answers)
    assert _rows(db, Agreement) == []


def test_grey_and_broadcast_press_get_no_answer(db: Database) -> None:
    h = _solo(db, "en")
    h.mail(GM, "SIGNON GM solo gmpass\nPRESS grey")
    h.reply(GM, "SIGNON FRANCE solo gmpass\nBROADCAST\nPeace to all!\nENDPRESS")
    h.reply(GM, "SIGNON FRANCE solo gmpass\nPRESS TO GERMANY GREY\nPeace?\nENDPRESS")
    assert [p for p in _rows(db, Press) if p.from_power == "GERMANY"] == []


def test_accepting_a_computer_powers_proposal_on_the_page_has_it_order_again(
        db: Database) -> None:
    """The play page's ACCEPT of a computer power's own proposal: the proposer orders again
    at once (a new version, the computer's), keeping the deal just made."""
    settings = Settings(address="judge@example.org")
    now = datetime(2026, 12, 6, tzinfo=UTC)
    with db.session() as s:
        game, _ = websolo.create_solo(s, now, settings, "ENGLAND", "en", seed=1901)
        name = game.name
    with db.session() as s:
        game = gamerepo.game_by_name(s, name)
        assert game is not None
        council = botrepo.load_council(s, game.id)
        assert council is not None
        waiting = [a for a in council.agreements
                   if a.status is Status.PROPOSED and a.proposal.partner == "ENGLAND"]
        assert waiting, "the computer powers propose in Spring 1901 (seed 1901)"
        deal = waiting[0]
        proposer = deal.proposal.proposer
        versions = [r.version for r in s.scalars(select(OrderSet).where(
            OrderSet.game_id == game.id, OrderSet.power == proposer))]
        done = websolo.answer(s, game, deal.number, True, now, settings)
        assert done.problem is None
        after = [r for r in s.scalars(select(OrderSet).where(
            OrderSet.game_id == game.id, OrderSet.power == proposer))]
        latest = max(after, key=lambda r: r.version)
        assert latest.version == max(versions) + 1 and latest.submitted_by_id is None
        position = games.load_position(game)
        agreement = LedgerAgreement(deal.number, deal.proposal, "S1901M")
        verdicts = judge_phase(position, {proposer: [parse_canonical(o) for o in latest.orders]},
                               [agreement])
        assert all(v.kept or v.breaker != proposer for v in verdicts), latest.orders
