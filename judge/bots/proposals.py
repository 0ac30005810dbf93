"""Negotiation by mail: the five kinds of agreement of seed 003 as structured press lines.

    PROPOSE FRANCE PEACE                       non-aggression pact
    PROPOSE FRANCE SUPPORT A PAR - BUR         support for a move (the unit's owner is helped,
                                               the other party gives the support)
    PROPOSE FRANCE SHARE BEL ENGLAND HOL FRANCE   sharing centres
    PROPOSE FRANCE ALLIANCE AGAINST GERMANY    alliance against a third power
    PROPOSE FRANCE DMZ BUR                     neutral zone (neither party enters)
    ACCEPT [n] / REFUSE [n]                    answer proposal n (the latest one without n)

Italian: ``PROPONI FRANCIA PACE | APPOGGIO ... | SPARTIZIONE ... | ALLEANZA CONTRO ... | ZONA
NEUTRA ...``, ``ACCETTO`` / ``RIFIUTO``; French: ``PROPOSER FRANCE PAIX | SOUTIEN ... | PARTAGE
... | ALLIANCE CONTRE ... | ZONE NEUTRE ...``, ``ACCEPTER`` / ``REFUSER``. Words of every language
are read in every game (as orders are); power and province names come from the parsing
package's lexicons, the supported order is read by its order parser in the game's language.

``render`` writes an agreement back in a language, for the bots' letters and the bulletins.
Hand-written: a tiny fixed grammar of keywords, nothing a parsing library would shorten.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from judge.adjudicator.orders import Move, parse_canonical
from judge.parsing import parse_order
from judge.parsing.commands_lexicon import lexicon as command_lexicon
from judge.parsing.commands_lexicon import parse_power
from judge.parsing.lexicon import PROVINCE
from judge.parsing.lexicon import lexicon as order_lexicon
from judge.parsing.messages import describe, place_name
from judge.parsing.text import fold

LANGS = ("en", "it", "fr")


class Kind(StrEnum):
    PEACE = "peace"
    SUPPORT = "support"
    SHARE = "share"
    ALLIANCE = "alliance"
    DMZ = "dmz"


class PressError(StrEnum):
    """Why a negotiation line was refused (the reply explains it in the sender's language)."""

    NO_POWER = "no_power"
    SELF = "self"
    NO_KIND = "no_kind"
    BAD_ORDER = "bad_order"
    NOT_A_MOVE = "not_a_move"
    BAD_PROVINCE = "bad_province"
    BAD_SHARE = "bad_share"
    BAD_NUMBER = "bad_number"


# folded keyword phrases -> meaning; the first of each list is the one written back
VERBS: dict[str, dict[str, tuple[str, ...]]] = {
    "propose": {
        "en": ("PROPOSE",),
        "it": ("PROPONI", "PROPONGO"),
        "fr": ("PROPOSER", "PROPOSE", "PROPOSITION"),
    },
    "accept": {"en": ("ACCEPT",), "it": ("ACCETTO", "ACCETTA"), "fr": ("ACCEPTER", "ACCEPTE")},
    "refuse": {
        "en": ("REFUSE", "REJECT"),
        "it": ("RIFIUTO", "RIFIUTA"),
        "fr": ("REFUSER", "REFUSE"),
    },
}
KINDS: dict[Kind, dict[str, tuple[str, ...]]] = {
    Kind.PEACE: {"en": ("PEACE",), "it": ("PACE",), "fr": ("PAIX",)},
    Kind.SUPPORT: {"en": ("SUPPORT",), "it": ("APPOGGIO", "SOSTEGNO"), "fr": ("SOUTIEN",)},
    Kind.SHARE: {"en": ("SHARE",), "it": ("SPARTIZIONE", "DIVISIONE"), "fr": ("PARTAGE",)},
    Kind.ALLIANCE: {
        "en": ("ALLIANCE AGAINST",),
        "it": ("ALLEANZA CONTRO",),
        "fr": ("ALLIANCE CONTRE",),
    },
    Kind.DMZ: {
        "en": ("DMZ", "NEUTRAL ZONE"),
        "it": ("ZONA NEUTRA", "DMZ"),
        "fr": ("ZONE NEUTRE", "DMZ"),
    },
}


@dataclass(frozen=True, slots=True)
class Proposal:
    kind: Kind
    proposer: str
    partner: str
    order: Move | None = None  # SUPPORT: the move to be supported
    shares: tuple[tuple[str, str], ...] = ()  # SHARE: (province, power it goes to)
    against: str | None = None  # ALLIANCE
    zone: str | None = None  # DMZ

    @property
    def parties(self) -> tuple[str, str]:
        return (self.proposer, self.partner)

    def terms(self) -> dict[str, object]:
        """The stored form (JSON-ready); ``from_terms`` reads it back."""
        out: dict[str, object] = {"kind": self.kind.value}
        if self.order is not None:
            out["order"] = str(self.order)
        if self.shares:
            out["shares"] = [list(s) for s in self.shares]
        if self.against:
            out["against"] = self.against
        if self.zone:
            out["zone"] = self.zone
        return out


def from_terms(proposer: str, partner: str, terms: dict[str, Any]) -> Proposal:
    order = parse_canonical(terms["order"]) if "order" in terms else None
    return Proposal(
        Kind(terms["kind"]),
        proposer,
        partner,
        order if isinstance(order, Move) else None,
        tuple((p, w) for p, w in terms.get("shares", ())),
        terms.get("against"),
        terms.get("zone"),
    )


@dataclass(frozen=True, slots=True)
class ProposalAnswer:
    accept: bool
    number: int | None  # which proposal; None: the latest one addressed to the sender


def _phrases(table: Mapping[Any, Any]) -> list[tuple[tuple[str, ...], object]]:
    out = []
    for meaning, langs in table.items():
        for lang in LANGS:
            for phrase in langs[lang]:
                out.append((tuple(fold(phrase).split()), meaning))
    return sorted(out, key=lambda e: -len(e[0]))


def _match(words: list[str], table: Mapping[Any, Any]) -> tuple[object, int] | None:
    for phrase, meaning in _phrases(table):
        if tuple(words[: len(phrase)]) == phrase:
            return meaning, len(phrase)
    return None


def is_press_line(line: str) -> bool:
    """Whether the line starts with a negotiation verb (in any of the three languages)."""
    return _match(fold(line).split(), VERBS) is not None


def _province(words: list[str], i: int, lang: str, variant: str) -> tuple[str, int] | None:
    tokens = tuple(w.lower() for w in words)
    for language in (lang, *[lg for lg in LANGS if lg != lang]):
        found = order_lexicon(language, variant).match(tokens, i, frozenset({PROVINCE}))
        if found is not None:
            return found.value, found.end
    return None


def parse_press(
    line: str, lang: str, sender: str, *, variant: str
) -> Proposal | ProposalAnswer | PressError:
    """One negotiation line from ``sender`` (a power), read in ``lang`` first, with the
    province names of ``variant``'s map."""
    words = fold(line).replace(",", " ").split()
    verb = _match(words, VERBS)
    if verb is None:
        raise ValueError("not a negotiation line; ask is_press_line first")
    meaning, used = verb
    rest = words[used:]
    if meaning in ("accept", "refuse"):
        if not rest:
            return ProposalAnswer(meaning == "accept", None)
        if len(rest) == 1 and rest[0].isdigit():
            return ProposalAnswer(meaning == "accept", int(rest[0]))
        return PressError.BAD_NUMBER
    if not rest:
        return PressError.NO_POWER
    partner = parse_power(rest[0], variant=variant)
    if partner is None:
        return PressError.NO_POWER
    if partner == sender:
        return PressError.SELF
    kind_match = _match(rest[1:], KINDS)
    if kind_match is None:
        return PressError.NO_KIND
    kind, n = kind_match
    args = rest[1 + n :]
    assert isinstance(kind, Kind)
    if kind is Kind.PEACE:
        return Proposal(kind, sender, partner)
    if kind is Kind.ALLIANCE:
        third = parse_power(args[0], variant=variant) if len(args) == 1 else None
        if third is None:
            return PressError.NO_POWER
        if third in (sender, partner):
            return PressError.SELF
        return Proposal(kind, sender, partner, against=third)
    if kind is Kind.DMZ:
        place = _province(args, 0, lang, variant)
        if place is None or place[1] != len(args):
            return PressError.BAD_PROVINCE
        return Proposal(kind, sender, partner, zone=place[0])
    if kind is Kind.SUPPORT:
        text = " ".join(args)
        parsed = parse_order(text, lang, variant=variant)
        if parsed.order is None:
            return PressError.BAD_ORDER
        if not isinstance(parsed.order, Move):
            return PressError.NOT_A_MOVE
        return Proposal(kind, sender, partner, order=parsed.order)
    # SHARE: province power [province power ...], each province to one of the two parties
    shares: list[tuple[str, str]] = []
    i = 0
    while i < len(args):
        place = _province(args, i, lang, variant)
        if place is None or place[1] >= len(args):
            return PressError.BAD_SHARE
        owner = parse_power(args[place[1]], variant=variant)
        if owner not in (sender, partner):
            return PressError.BAD_SHARE
        shares.append((place[0], owner))
        i = place[1] + 1
    if not shares or len({p for p, _ in shares}) != len(shares):
        return PressError.BAD_SHARE
    return Proposal(kind, sender, partner, shares=tuple(shares))


def _power_name(power: str, lang: str, variant: str) -> str:
    return command_lexicon().power_name(power, lang, variant).upper()


def render(proposal: Proposal, lang: str, *, variant: str) -> str:
    """The proposal as its sender would write it, in ``lang`` with the province names of
    ``variant``'s map: ``PROPONI FRANCIA PACE``."""
    verb = VERBS["propose"][lang][0]
    kind = KINDS[proposal.kind][lang][0]
    head = f"{verb} {_power_name(proposal.partner, lang, variant)} {kind}"
    if proposal.kind is Kind.SUPPORT and proposal.order is not None:
        return f"{head} {describe(proposal.order, lang, variant=variant)}"
    if proposal.kind is Kind.SHARE:
        parts = [f"{place_name(p, lang, variant=variant)} {_power_name(w, lang, variant)}" for p, w in proposal.shares]
        return f"{head} {' '.join(parts)}"
    if proposal.kind is Kind.ALLIANCE and proposal.against:
        return f"{head} {_power_name(proposal.against, lang, variant)}"
    if proposal.kind is Kind.DMZ and proposal.zone:
        return f"{head} {place_name(proposal.zone, lang, variant=variant)}"
    return head


__all__ = ["ProposalAnswer", "Kind", "PressError", "Proposal", "is_press_line", "parse_press", "render"]
