"""The promise ledger: kept and broken agreements decided from orders, trust, coalitions."""

from __future__ import annotations

import json
import random

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.orders import Hold, Move, SupportMove, UnitType
from judge.adjudicator.position import Position
from judge.bots.council import Council
from judge.bots.diplomat import answer, commitments, leader, render_letter
from judge.bots.engine import bot_orders
from judge.bots.ledger import SCAR, Agreement, Status, Trust, apply_verdicts, judge_phase
from judge.bots.personality import personality
from judge.bots.proposals import Kind, Proposal, ProposalAnswer
from tests.standard_variant import STANDARD

A = UnitType.ARMY
F = UnitType.FLEET
CENTRES = {
    "ENGLAND": ["LON", "EDI", "LVP"],
    "FRANCE": ["PAR", "BRE", "MAR"],
    "GERMANY": ["BER", "KIE", "MUN"],
}


def _position(units: dict[str, list[str]], phase: str = "S1902M") -> Position:
    return STANDARD.position(phase, units, CENTRES)


def _deal(kind: Kind, a: str = "ENGLAND", b: str = "FRANCE", **terms: object) -> Agreement:
    return Agreement(1, Proposal(kind, a, b, **terms), "S1902M")  # type: ignore[arg-type]


def test_belgium_for_me_holland_for_you() -> None:
    """Seed 003's example: the share is broken by the party that goes into the other's centre."""
    share = _deal(Kind.SHARE, shares=(("BEL", "ENGLAND"), ("HOL", "FRANCE")))
    position = _position({"ENGLAND": ["F NTH"], "FRANCE": ["A BUR", "A PIC"]})
    kept = judge_phase(
        position, {"ENGLAND": [Move(F, "NTH", "BEL")], "FRANCE": [Move(A, "BUR", "RUH")]}, [share]
    )
    assert kept[0].kept
    broken = judge_phase(position, {"FRANCE": [Move(A, "PIC", "BEL")]}, [share])
    assert (
        not broken[0].kept and broken[0].breaker == "FRANCE" and broken[0].evidence == "A PIC - BEL"
    )
    apply_verdicts([share], broken)
    assert share.status is Status.BROKEN and share.broken_by == "FRANCE"
    # a broken agreement is judged no more
    assert judge_phase(position, {"FRANCE": [Move(A, "PIC", "BEL")]}, [share]) == []


def test_peace_is_broken_by_attacking_a_unit_or_a_centre_or_backing_a_third_power() -> None:
    peace = _deal(Kind.PEACE, "GERMANY", "FRANCE")
    position = _position({"GERMANY": ["A MUN", "A RUH"], "FRANCE": ["A BUR"], "ITALY": ["A PIE"]})
    attack = judge_phase(position, {"GERMANY": [Move(A, "MUN", "BUR")]}, [peace])[0]
    assert not attack.kept and attack.breaker == "GERMANY"
    position2 = _position({"GERMANY": ["A BUR"], "ITALY": ["A PIE"], "FRANCE": ["A PAR"]})
    backing = judge_phase(
        position2,
        {"GERMANY": [SupportMove(A, "BUR", A, "PIE", "MAR")], "ITALY": [Move(A, "PIE", "MAR")]},
        [peace],
    )[0]
    assert not backing.kept and backing.evidence == "A BUR S A PIE - MAR"
    calm = judge_phase(position, {"GERMANY": [Move(A, "MUN", "TYR"), Hold(A, "RUH")]}, [peace])[0]
    assert calm.kept
    # an illegal order changed nothing, so it breaks nothing
    illegal = judge_phase(position, {"GERMANY": [Move(A, "RUH", "PAR")]}, [peace])[0]
    assert illegal.kept


def test_neutral_zone_and_support_promises() -> None:
    dmz = _deal(Kind.DMZ, zone="ENG")
    position = _position({"ENGLAND": ["F LON"], "FRANCE": ["F BRE", "A PAR"], "GERMANY": ["A MUN"]})
    assert not judge_phase(position, {"FRANCE": [Move(F, "BRE", "ENG")]}, [dmz])[0].kept
    # Germany promised to back France's A PAR - BUR
    support = _deal(Kind.SUPPORT, "FRANCE", "GERMANY", order=Move(A, "PAR", "BUR"))
    given = {"FRANCE": [Move(A, "PAR", "BUR")], "GERMANY": [SupportMove(A, "MUN", A, "PAR", "BUR")]}
    assert judge_phase(position, given, [support])[0].kept
    withheld = judge_phase(
        position, {"FRANCE": [Move(A, "PAR", "BUR")], "GERMANY": [Hold(A, "MUN")]}, [support]
    )
    assert not withheld[0].kept and withheld[0].breaker == "GERMANY"
    apply_verdicts([support], judge_phase(position, given, [support]))
    assert support.status is Status.KEPT
    # nobody could give it: not a betrayal
    far = _position({"FRANCE": ["A PAR"], "GERMANY": ["A BER"]})
    assert judge_phase(
        far,
        {"GERMANY": [Hold(A, "BER")]},
        [_deal(Kind.SUPPORT, "FRANCE", "GERMANY", order=Move(A, "PAR", "BUR"))],
    )[0].kept


def test_trust_gains_on_kept_word_and_a_betrayal_leaves_a_scar() -> None:
    people = {"FRANCE": personality("vengeful"), "GERMANY": personality("loyal")}
    trust = Trust()
    peace = _deal(Kind.PEACE, "GERMANY", "FRANCE")
    position = _position({"GERMANY": ["A MUN"], "FRANCE": ["A BUR"]})
    kept = judge_phase(position, {"GERMANY": [Hold(A, "MUN")]}, [peace])[0]
    trust.record(peace, kept, people)
    assert trust.of("FRANCE", "GERMANY") == people["FRANCE"].gratitude
    assert trust.of("GERMANY", "FRANCE") == people["GERMANY"].gratitude
    broken = judge_phase(position, {"GERMANY": [Move(A, "MUN", "BUR")]}, [peace])[0]
    trust.record(peace, broken, people)
    after = trust.of("FRANCE", "GERMANY")
    assert after < 0 and trust.of("GERMANY", "FRANCE") == people["GERMANY"].gratitude
    for _ in range(30):
        trust.forgive(people)
    assert after < trust.of("FRANCE", "GERMANY") <= -SCAR


def test_decisions_follow_trust() -> None:
    position = STANDARD.initial_position()
    loyal = personality("loyal")
    trust = Trust()
    deal = Proposal(Kind.PEACE, "ENGLAND", "FRANCE")
    assert answer("FRANCE", loyal, deal, trust, position)  # loyal trusts a stranger enough
    trust.values[("FRANCE", "ENGLAND")] = -0.6
    assert not answer("FRANCE", loyal, deal, trust, position)
    # never give away its own centre
    grab = Proposal(Kind.SHARE, "ENGLAND", "FRANCE", shares=(("BRE", "ENGLAND"), ("BEL", "FRANCE")))
    trust.values[("FRANCE", "ENGLAND")] = 1.0
    assert not answer("FRANCE", loyal, grab, trust, position)


def test_a_kept_neutral_zone_keeps_the_bot_out() -> None:
    position = STANDARD.initial_position()
    trust = Trust({("FRANCE", "GERMANY"): 1.0})  # full trust: the loyal bot keeps its word surely
    dmz = Agreement(1, Proposal(Kind.DMZ, "GERMANY", "FRANCE", zone="BUR"), "S1901M")
    for seed in range(6):
        rng = random.Random(seed)
        promised, kept = commitments("FRANCE", personality("loyal"), [dmz], trust, position, rng)
        assert kept == [1] and "BUR" in promised.avoid
        orders = bot_orders(position, "FRANCE", rng, "loyal", commitments=promised)
        assert all(not (isinstance(o, Move) and o.target == "BUR") for o in orders)


def test_coalition_against_a_clear_leader_is_announced_once() -> None:
    big = ["LON", "EDI", "LVP", "NWY", "SWE", "DEN", "HOL", "BEL", "BRE", "PAR", "KIE"]
    position = STANDARD.position(
        "S1906M",
        {"ENGLAND": ["F NTH", "A PAR"], "FRANCE": ["A MAR"], "GERMANY": ["A MUN"]},
        {"ENGLAND": big, "FRANCE": ["MAR", "SPA"], "GERMANY": ["MUN", "BER"]},
    )
    assert leader(position) == "ENGLAND"
    council = Council({"FRANCE": "cautious", "GERMANY": "aggressive"})
    first = council.after_phase(position, {}, position)
    assert sorted((x.sender, x.about) for x in first) == [
        ("FRANCE", "ENGLAND"),
        ("GERMANY", "ENGLAND"),
    ]
    assert "coalizione contro l'Inghilterra" in render_letter(first[0], "it", variant="standard")
    assert council.after_phase(position, {}, position) == []
    # and the leader's proposals are refused
    council.propose(Proposal(Kind.PEACE, "ENGLAND", "FRANCE"), "S1906M")
    letters = council.answer_pending(position)
    assert [x.kind for x in letters] == ["refused"]


def test_council_turn_with_a_human_and_its_stored_form() -> None:
    council = Council({"FRANCE": "loyal", "GERMANY": "opportunist"})
    position = STANDARD.initial_position()
    council.propose(Proposal(Kind.PEACE, "ENGLAND", "FRANCE"), "S1901M")
    letters = council.answer_pending(position)
    assert letters[0].kind == "accepted" and letters[0].to == ("ENGLAND",)
    assert "accepte votre proposition 1" in render_letter(letters[0], "fr", variant="standard")
    council.propose(Proposal(Kind.DMZ, "GERMANY", "ENGLAND", zone="NTH"), "S1901M")
    assert council.respond("ENGLAND", ProposalAnswer(True, None), "S1901M").status is Status.ACTIVE
    rng = random.Random(5)
    orders = council.orders(position, rng)
    orders["ENGLAND"] = [Move(F, "LON", "NTH"), Move(F, "EDI", "NWG"), Move(A, "LVP", "YOR")]
    after = adjudicate(position, orders).position
    letters = council.after_phase(position, orders, after)
    dmz = next(a for a in council.agreements if a.proposal.kind is Kind.DMZ)
    assert dmz.status is Status.BROKEN and dmz.broken_by == "ENGLAND"
    assert council.trust.of("GERMANY", "ENGLAND") < 0
    assert any(x.kind == "betrayed" and x.sender == "GERMANY" for x in letters)
    stored = json.loads(json.dumps(council.to_json()))
    assert Council.from_json(stored).to_json() == council.to_json()
