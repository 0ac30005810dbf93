"""Issue 29.2, characters that hold together: the word given this turn binds this turn's
orders, a treacherous character breaks it rarely and only for a gain, a player betrayed by a
computer power is told in its character, a war is declared once per pair."""

from __future__ import annotations

import random

from judge.adjudicator.orders import Hold, Move, Order, SupportMove, UnitType
from judge.adjudicator.position import Position
from judge.bots.council import Council
from judge.bots.diplomat import Letter, answer, conflicts, keep_promises, reactions, render_letter
from judge.bots.ledger import Agreement, Status, Trust, Verdict, judge_phase
from judge.bots.personality import PERSONALITIES, personality
from judge.bots.proposals import Kind, Proposal
from tests.standard_variant import STANDARD

A = UnitType.ARMY
F = UnitType.FLEET

# Germany next to three French centres nobody defends: in a Fall any greedy player walks in
TEMPTED_UNITS = {"GERMANY": ["A BUR", "A PIC", "A GAS"], "FRANCE": ["F MAO"]}
TEMPTED_CENTRES = {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["BER", "KIE", "MUN"]}


def _tempted(phase: str) -> Position:
    return STANDARD.position(phase, TEMPTED_UNITS, TEMPTED_CENTRES)


def _peace_now(council: Council, position: Position, proposer: str = "FRANCE") -> Agreement:
    """France offers Germany peace this very phase, and Germany has accepted."""
    agreement = council.propose(Proposal(Kind.PEACE, proposer, "GERMANY"), str(position.phase))
    agreement.status = Status.ACTIVE
    return agreement


def _broken_by(position: Position, power: str, orders: list[Order], agreement: Agreement) -> bool:
    verdicts = judge_phase(position, {power: orders}, [agreement])
    return any(not v.kept and v.breaker == power for v in verdicts)


def test_a_deal_made_this_turn_binds_every_character_but_the_treacherous() -> None:
    position = _tempted("F1902M")
    for name, person in sorted(PERSONALITIES.items()):
        breaks = 0
        greedy = 0
        for seed in range(12):
            alone = Council({"GERMANY": name})
            free = alone.orders_of("GERMANY", position, random.Random(seed))
            greedy += any(isinstance(o, Move) and o.target in ("PAR", "BRE", "MAR") for o in free)
            council = Council({"GERMANY": name})
            peace = _peace_now(council, position)
            orders = council.orders_of("GERMANY", position, random.Random(seed))
            breaks += _broken_by(position, "GERMANY", orders, peace)
        assert greedy == 12, name  # the premise: without the deal it walks into France
        if person.treacherous:
            assert breaks <= 6, (name, breaks)  # rarely (a seeded draw of ``treachery``)
        else:
            assert breaks == 0, (name, breaks)


def test_a_treacherous_character_breaks_a_fresh_deal_only_for_a_gain() -> None:
    """In Spring (no centre changes hands) and far from a solo, the aggressive character keeps
    the word it gave this turn; in Fall, over many seeds, it breaks it sometimes, not always."""
    spring = _tempted("S1902M")
    fall = _tempted("F1902M")
    spring_breaks = fall_breaks = 0
    for seed in range(40):
        council = Council({"GERMANY": "aggressive"})
        peace = _peace_now(council, spring)
        spring_breaks += _broken_by(spring, "GERMANY",
                                    council.orders_of("GERMANY", spring, random.Random(seed)),
                                    peace)
        council = Council({"GERMANY": "aggressive"})
        peace = _peace_now(council, fall)
        fall_breaks += _broken_by(fall, "GERMANY",
                                  council.orders_of("GERMANY", fall, random.Random(seed)), peace)
    assert spring_breaks == 0
    assert 0 < fall_breaks < 20


def test_keep_promises_holds_what_would_break_and_gives_the_support() -> None:
    position = STANDARD.position(
        "S1902M", {"GERMANY": ["A MUN", "A RUH"], "FRANCE": ["A BUR"], "ENGLAND": ["A HOL"]},
        {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["BER", "KIE", "MUN"]})
    peace = Agreement(1, Proposal(Kind.PEACE, "GERMANY", "FRANCE"), "S1902M")
    support = Agreement(2, Proposal(Kind.SUPPORT, "FRANCE", "GERMANY",
                                    order=Move(A, "BUR", "BEL")), "S1902M")
    orders = [Move(A, "MUN", "BUR"), Move(A, "RUH", "HOL")]
    kept = keep_promises(position, "GERMANY", orders, [peace, support])
    assert Hold(A, "MUN") in kept
    assert SupportMove(A, "RUH", A, "BUR", "BEL") in kept
    assert not any(_broken_by(position, "GERMANY", kept, a) for a in (peace, support))


def test_two_words_that_cannot_both_be_kept_are_not_both_given() -> None:
    """Italy asked Russia to support its fleet into Bulgaria, Turkey's centre; Russia's peace
    with Turkey is then refused (and the other way round)."""
    position = STANDARD.position(
        "S1903M", {"ITALY": ["F GRE"], "RUSSIA": ["F RUM"], "TURKEY": ["A BUL"]},
        {"TURKEY": ["BUL", "CON", "ANK", "SMY"], "RUSSIA": ["RUM", "SEV"]})
    support = Agreement(1, Proposal(Kind.SUPPORT, "ITALY", "RUSSIA",
                                    order=Move(F, "GRE", "BUL/SC")), "S1903M")
    peace = Proposal(Kind.PEACE, "RUSSIA", "TURKEY")
    assert conflicts("RUSSIA", peace, [support], position)
    treaty = Agreement(2, peace, "S1903M")
    assert conflicts("RUSSIA", support.proposal, [treaty], position)
    assert not conflicts("RUSSIA", Proposal(Kind.PEACE, "RUSSIA", "ENGLAND"), [support],
                         position)
    council = Council({"RUSSIA": "loyal", "TURKEY": "loyal"})
    council.agreements.append(support)
    council.propose(peace, "S1903M")
    letters = council.answer_pending(position)
    assert [x.kind for x in letters] == ["refused"]


def test_a_player_betrayed_by_a_computer_power_is_told_in_its_character() -> None:
    position = _tempted("F1902M")
    for name in sorted(PERSONALITIES):
        council = Council({"GERMANY": name})
        peace = _peace_now(council, position)
        verdict = Verdict(peace.number, False, "GERMANY", "A BUR - PAR")
        (letter,) = reactions([verdict], council.agreements, council.people())
        assert letter.kind == f"broke_{name}" and letter.to == ("FRANCE",)
        assert letter.sender == "GERMANY" and letter.number == peace.number
        texts = {lang: render_letter(letter, lang, variant="standard")
                 for lang in ("en", "fr", "it")}
        assert texts["en"].startswith("Germany") and "agreement 1" in texts["en"]
        assert texts["fr"].startswith("L'Allemagne") and "PROPOSER ALLEMAGNE PAIX" in texts["fr"]
        assert texts["it"].startswith("La Germania") and "PROPONI GERMANIA PACE" in texts["it"]
        assert len(set(texts.values())) == 3
        assert "accord" in texts["fr"] and "accordo" in texts["it"]  # translated, not English
        assert "agreement" not in texts["fr"] + texts["it"]
    said = {render_letter(reactions_for(n), "en", variant="standard") for n in PERSONALITIES}
    assert len(said) == len(PERSONALITIES)  # five characters, five voices


def reactions_for(name: str) -> Letter:
    council = Council({"GERMANY": name})
    peace = _peace_now(council, _tempted("F1902M"))
    return reactions([Verdict(peace.number, False, "GERMANY", None)], council.agreements,
                     council.people())[0]


def test_a_war_is_declared_once_per_pair() -> None:
    """France (a player) breaks two deals with Germany in one turn, then a third later:
    Germany declares war once; England, betrayed too, declares its own war once."""
    council = Council({"GERMANY": "loyal", "ENGLAND": "loyal"})
    spring = STANDARD.position(
        "S1902M", {"FRANCE": ["A BUR", "F ENG"], "GERMANY": ["A MUN"], "ENGLAND": ["F LON"]},
        {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["BER", "KIE", "MUN"],
         "ENGLAND": ["LON", "EDI", "LVP"]})
    for deal in (Proposal(Kind.PEACE, "FRANCE", "GERMANY"),
                 Proposal(Kind.DMZ, "FRANCE", "GERMANY", zone="MUN"),
                 Proposal(Kind.PEACE, "FRANCE", "ENGLAND")):
        council.propose(deal, "S1902M").status = Status.ACTIVE
    orders = {"FRANCE": [Move(A, "BUR", "MUN"), Move(F, "ENG", "LON")]}
    letters = council.after_phase(spring, orders, spring)
    wars = sorted((x.sender, x.about) for x in letters if x.kind == "betrayed")
    assert wars == [("ENGLAND", "FRANCE"), ("GERMANY", "FRANCE")]
    # a new deal, broken again: no second declaration
    council.propose(Proposal(Kind.DMZ, "FRANCE", "GERMANY", zone="BUR"),
                    "F1902M").status = Status.ACTIVE
    fall = STANDARD.position("F1902M", {"FRANCE": ["A PIC"], "GERMANY": ["A MUN"]},
                             {"FRANCE": ["PAR"], "GERMANY": ["MUN"]})
    again = council.after_phase(fall, {"FRANCE": [Move(A, "PIC", "BUR")]}, fall)
    assert any(a.status is Status.BROKEN and a.number == 4 for a in council.agreements)
    assert [x for x in again if x.kind == "betrayed"] == []


def test_every_character_has_a_known_treachery() -> None:
    assert {n for n, p in PERSONALITIES.items() if p.treacherous} == {"opportunist", "aggressive"}
    assert all(0 <= p.treachery <= 0.25 for p in PERSONALITIES.values())
    assert not personality("loyal").treacherous


def test_a_cautious_power_begins_with_a_neutral_zone_around_its_own_centre() -> None:
    """Every character can give its word: a cautious one, trusting nobody yet, accepts a neutral
    zone that protects one of its own centres (a deal it can keep by standing still) and the
    trust kept deals earn brings it to peace later; a peace at first meeting it refuses. (It
    once needed more trust than any pair starts with, and so never made a deal at all.)"""
    position = _tempted("S1901M")
    cautious = personality("cautious")
    zone = Proposal(Kind.DMZ, "FRANCE", "GERMANY", zone="MUN")
    assert answer("GERMANY", cautious, zone, Trust(), position)
    assert not answer("GERMANY", cautious, Proposal(Kind.PEACE, "FRANCE", "GERMANY"), Trust(),
                      position)
    trusted = Trust()
    trusted.values[("GERMANY", "FRANCE")] = cautious.accept_threshold
    assert answer("GERMANY", cautious, Proposal(Kind.PEACE, "FRANCE", "GERMANY"), trusted,
                  position)
