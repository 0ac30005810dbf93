"""The diplomatic state of one game with computer powers, and one turn of it.

``Council`` holds the computer powers' characters, every agreement ever proposed (numbered),
trust, and which coalitions were announced. The service stores it (``to_json`` /
``from_json``, and the ``agreement`` / ``trust`` tables) and drives it:

1. ``propose`` / ``respond``: a player's ``PROPOSE`` and ``ACCEPT``/``REFUSE`` lines;
   proposals to a computer power are answered at once (``answer_pending``);
2. ``bot_initiatives``: the computer powers' own proposals, to players and to each other
   (between computer powers the answer is immediate);
3. ``orders``: each computer power's orders, after deciding which promises to keep;
4. ``after_phase``: the verdicts of the ledger, trust moved, wars declared, forgiveness each
   Winter, the coalition against a clear leader announced.

Every step returns the ``Letter``s to send; nothing here does I/O.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.orders import Order
from judge.adjudicator.position import Position
from judge.adjudicator.variant import Variant
from judge.bots.diplomat import (
    Letter,
    answer,
    binding,
    breaches,
    coalition_letters,
    commitments,
    conflicts,
    intentions,
    is_demand,
    keep_promises,
    proposals,
    reactions,
    room_for_pact,
    worth_breaking,
)
from judge.bots.engine import bot_orders
from judge.bots.ledger import Agreement, Status, Trust, apply_verdicts, judge_phase
from judge.bots.mapview import view_of_variant
from judge.bots.personality import Personality, personality
from judge.bots.proposals import Proposal, ProposalAnswer, from_terms


@dataclass
class Council:
    characters: dict[str, str]  # computer power -> personality name
    agreements: list[Agreement] = field(default_factory=list)
    trust: Trust = field(default_factory=Trust)
    announced: set[tuple[str, str]] = field(default_factory=set)

    def people(self) -> dict[str, Personality]:
        return {p: personality(n) for p, n in self.characters.items()}

    # -- proposals and answers ------------------------------------------------------------
    def propose(self, proposal: Proposal, phase: str) -> Agreement:
        number = max((a.number for a in self.agreements), default=0) + 1
        agreement = Agreement(number, proposal, phase, Status.PROPOSED)
        self.agreements.append(agreement)
        return agreement

    def respond(self, power: str, reply: ProposalAnswer, phase: str,
                position: Position | None = None) -> Agreement | None:
        """A player's answer to a proposal addressed to him (the latest one without a number)."""
        waiting = [
            a
            for a in self.agreements
            if a.status is Status.PROPOSED and a.proposal.partner == power
        ]
        if reply.number is not None:
            waiting = [a for a in waiting if a.number == reply.number]
        if not waiting:
            return None
        agreement = waiting[-1]
        agreement.status = Status.ACTIVE if reply.accept else Status.REFUSED
        agreement.since = phase
        proposer = agreement.proposal.proposer
        if not reply.accept and proposer in self.characters:
            demand = position is not None and is_demand(agreement.proposal, position)
            self.trust.refused(proposer, power, demand)
        return agreement

    def answer_pending(
        self, position: Position, variant: Variant | None = None
    ) -> list[Letter]:
        """Computer powers answer every proposal waiting for them."""
        people = self.people()
        view = view_of_variant(variant or installed_variant(position.variant))
        letters = []
        # players answer when they like: their pending proposals bind (``conflicts``)
        players = {p for a in self.agreements for p in a.proposal.parties if p not in people}
        for agreement in self.agreements:
            deal = agreement.proposal
            person = people.get(deal.partner)
            if agreement.status is not Status.PROPOSED or person is None:
                continue
            room = room_for_pact(deal.partner, deal.proposer, view, position, self.agreements)
            yes = answer(deal.partner, person, deal, self.trust, position, room) and not any(
                conflicts(p, deal, self.agreements, position, players) for p in deal.parties
            )
            agreement.status = Status.ACTIVE if yes else Status.REFUSED
            agreement.since = str(position.phase)
            kind = "accepted" if yes else "refused"
            letters.append(
                Letter(kind, deal.partner, (deal.proposer,), deal, number=agreement.number)
            )
            if yes and deal.kind.value == "alliance":
                letters.append(Letter("alliance", deal.partner, (), deal, number=agreement.number))
        return letters

    def bot_initiatives(
        self, position: Position, rng: random.Random, variant: Variant | None = None
    ) -> list[Letter]:
        """Each computer power's new proposals (once a year, in Spring)."""
        if position.phase.season_rank != 0 or not position.phase.is_movement:
            return []
        view = view_of_variant(variant or installed_variant(position.variant))
        people = self.people()
        letters: list[Letter] = []
        phase = str(position.phase)
        for power in sorted(people):
            if not position.units_of(power):
                continue
            if any(a.proposal.proposer == power and a.since == phase for a in self.agreements):
                continue  # it spoke this phase already (the phase is played again after a ROLLBACK)
            # what it means to play, so that it can ask for support for its attack
            promised, _ = commitments(
                power, people[power], self.agreements, self.trust, position, rng
            )
            planned = bot_orders(position, power, rng, people[power], variant, promised)
            for deal in proposals(
                power, people[power], view, position, self.trust, self.agreements, rng, planned
            ):
                agreement = self.propose(deal, str(position.phase))
                kind = "demand" if is_demand(deal, position) else "proposal"
                letters.append(
                    Letter(kind, power, (deal.partner,), deal, number=agreement.number)
                )
        return letters + self.answer_pending(position, variant)

    # -- orders and verdicts --------------------------------------------------------------
    def orders(
        self, position: Position, rng: random.Random, variant: Variant | None = None
    ) -> dict[str, list[Order]]:
        return {power: self.orders_of(power, position, rng, variant)
                for power in sorted(self.characters)}

    def orders_of(
        self, power: str, position: Position, rng: random.Random, variant: Variant | None = None
    ) -> list[Order]:
        """One computer power's orders, keeping the promises it means to keep (one decision,
        as a benchmark times it).

        The deals it means to keep bind every search. When a deal tempts it (``intentions``),
        the orders free of that deal are searched first, and they stand only if breaking pays
        (``worth_breaking``, weighed against the same orders with the word kept): a power
        breaks its word for a gain, never by accident. Free orders that break no deal are the
        honest orders too, found in a wider field. Only when a tempting deal is kept after all
        are the honest orders searched, the deal binding. Whatever stands is checked against
        the deals kept (``keep_promises``).

        Searching the honest orders first and the free ones after, every time, made these
        decisions a quarter of all the movement decisions in a game of computer powers and
        nearly all of the slowest twentieth; the free orders break no deal in seven of ten of
        them and stand in three of four of the rest, so a second search is left in at most
        one decision of forty (docs/computer-powers.md, "One search a decision")."""
        person = personality(self.characters[power])
        v = variant or installed_variant(position.variant)
        kept, tempted = intentions(power, person, self.agreements, self.trust, position, rng)
        if tempted and position.phase.is_movement:
            free = bot_orders(
                position, power, rng, person, v, binding(power, kept, self.trust, position)
            )
            broken = [a for a in tempted if breaches(position, power, free, a)]
            if not broken:
                return keep_promises(position, power, free, kept + tempted)
            phase = str(position.phase)
            fresh = any(a.since == phase for a in broken)
            word_kept = keep_promises(position, power, free, kept + tempted)
            if worth_breaking(position, power, free, word_kept, broken, fresh, v.victory):
                held = kept + [a for a in tempted if a not in broken]
                return keep_promises(position, power, free, held)
        honest = bot_orders(
            position, power, rng, person, v, binding(power, kept + tempted, self.trust, position)
        )
        return keep_promises(position, power, honest, kept + tempted)

    def after_phase(
        self,
        before: Position,
        orders: Mapping[str, Sequence[Order]],
        after: Position,
    ) -> list[Letter]:
        people = self.people()
        verdicts = judge_phase(before, orders, self.agreements)
        by_number = {a.number: a for a in self.agreements}
        for verdict in verdicts:
            self.trust.record(by_number[verdict.number], verdict, people)
        letters = reactions(verdicts, self.agreements, people)
        apply_verdicts(self.agreements, verdicts)
        if before.phase.is_adjustment or (after.phase.year > before.phase.year):
            self.trust.forgive(people)
        for letter in coalition_letters(after, people, self.announced):
            self.announced.add((letter.sender, letter.about or ""))
            letters.append(letter)
        return letters

    # -- the stored form -------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "characters": dict(sorted(self.characters.items())),
            "agreements": [
                {
                    "number": a.number,
                    "proposer": a.proposal.proposer,
                    "partner": a.proposal.partner,
                    "terms": a.proposal.terms(),
                    "since": a.since,
                    "status": a.status.value,
                    "broken_by": a.broken_by,
                    "evidence": a.evidence,
                }
                for a in self.agreements
            ],
            "trust": [
                [h, o, v, self.trust.betrayals.get((h, o), 0)]
                for (h, o), v in sorted(self.trust.values.items())
            ],
            "announced": sorted([list(x) for x in self.announced]),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Council:
        council = cls(dict(data.get("characters", {})))
        for row in data.get("agreements", ()):
            council.agreements.append(
                Agreement(
                    row["number"],
                    from_terms(row["proposer"], row["partner"], row["terms"]),
                    row["since"],
                    Status(row["status"]),
                    row.get("broken_by"),
                    row.get("evidence"),
                )
            )
        for holder, other, value, betrayals in data.get("trust", ()):
            council.trust.values[(holder, other)] = float(value)
            if betrayals:
                council.trust.betrayals[(holder, other)] = int(betrayals)
        council.announced = {(a, b) for a, b in data.get("announced", ())}
        return council
