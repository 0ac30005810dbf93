"""A computer power reads a player's free-text press and says what it understood.

A player writes to a computer power as he would to a person ("shall we make peace?", "mi
appoggi in Borgogna?", "une zone neutre en Bourgogne ?"). The computer power does not sign
anything on the strength of free text: it answers, in its character and in the game's
language, with what it read (peace, an alliance and against whom, a support and for which
move, a neutral zone and where, a sharing of centres, a threat), and with the structured line
(``PROPOSE ...``, ``proposals.render``) that would make it an agreement; when it read nothing,
it says so and shows the structured form.

The reading is a handful of keyword stems per language (English, Italian, French, read in
every game as orders are), power names from the command lexicon, province names and orders
from the order parser. Work is bounded: the first ``MAX_WORDS`` words only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from judge.adjudicator.orders import Move
from judge.bots.diplomat import named
from judge.bots.personality import Personality
from judge.bots.proposals import KINDS, Kind, Proposal, render
from judge.i18n import NC_, trp
from judge.parsing import parse_order
from judge.parsing.commands_lexicon import parse_power
from judge.parsing.lexicon import PROVINCE
from judge.parsing.lexicon import lexicon as order_lexicon
from judge.parsing.messages import describe, place_name
from judge.parsing.text import fold

MAX_WORDS = 200  # a letter is read up to here: bounded work per mail
ORDER_WINDOW = 6  # words an order in a sentence may take ("A Paris - Bourgogne")
ORDER_STARTS = 20  # unit words tried as an order's start: a letter of "A A A ..." stays cheap

# topic -> folded word stems (a word starting with a stem counts); the three languages together
STEMS: dict[str, tuple[str, ...]] = {
    "peace": ("peace", "truce", "ceasefire", "nonaggression", "pace", "tregua", "paix",
              "treve", "armistic"),
    "alliance": ("allian", "ally", "allie", "alleanz", "allea", "alleat"),
    "support": ("support", "help", "appogg", "sosten", "sostegn", "aiut", "soutien", "souten",
                "aide", "aider"),
    "dmz": ("dmz", "demilitar", "neutra", "smilitariz", "cuscinett", "neutre", "tampon"),
    "share": ("share", "split", "divide", "sparti", "divid", "division", "partag"),
    "war": ("war", "attack", "invade", "guerra", "attacc", "invad", "guerre", "attaqu",
            "envahi"),
}
# "non-aggression", "non aggressione", "non-agression": a peace, not an attack
NOT = frozenset({"non", "not", "no", "never", "pas", "jamais", "mai", "nessun", "nessuna",
                 "won", "don", "t"})
AGAINST = frozenset({"against", "contro", "contre"})
UNIT_WORDS = frozenset({"a", "f", "army", "fleet", "armata", "esercito", "flotta", "armee",
                        "flotte"})
ORDER_OF_TOPICS = ("peace", "alliance", "support", "dmz", "share", "war")


@dataclass(frozen=True, slots=True)
class Reading:
    """What a computer power read in a letter."""

    topics: tuple[str, ...]  # in ORDER_OF_TOPICS order; empty: nothing understood
    against: str | None = None  # the alliance's target, when a third power is named
    zone: str | None = None  # the first province named (a neutral zone's place)
    order: Move | None = None  # the first move written as an order (the support asked for)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", fold(text))[:MAX_WORDS]


def _has(words: list[str], stems: tuple[str, ...], negated: bool | None = None) -> bool:
    for i, word in enumerate(words):
        if any(word.startswith(s) for s in stems):
            near = set(words[max(0, i - 3):i])
            if negated is None or negated == bool(near & NOT):
                return True
    return False


def read_letter(text: str, lang: str, sender: str, reader: str, *, variant: str) -> Reading:
    """What ``reader`` (a computer power) understands of ``sender``'s free-text ``text``."""
    words = _words(text)
    found: set[str] = set()
    for topic in ("peace", "alliance", "support", "dmz", "share"):
        if _has(words, STEMS[topic]):
            found.add(topic)
    if any(a == "non" and b.startswith(("aggress", "agress")) for a, b in pairwise(words)):
        found.add("peace")
    if _has(words, STEMS["war"], negated=True):
        found.add("peace")  # "I will not attack you"
    if _has(words, STEMS["war"], negated=False) and "peace" not in found:
        found.add("war")
    against = None
    powers = [parse_power(w, variant=variant) for w in words]
    for i, word in enumerate(words):
        if word in AGAINST and i + 1 < len(powers) and powers[i + 1] not in (None, sender, reader):
            against = powers[i + 1]
            break
    if against is None and "alliance" in found:
        against = next((p for p in powers if p not in (None, sender, reader)), None)
    zone = _first_province(words, lang, variant) if "dmz" in found else None
    order = _first_move(text, lang, variant) if "support" in found else None
    return Reading(tuple(t for t in ORDER_OF_TOPICS if t in found), against, zone, order)


def _first_province(words: list[str], lang: str, variant: str) -> str | None:
    tokens = tuple(words)
    lexicon = order_lexicon(lang, variant)
    for i in range(len(tokens)):
        if len(tokens[i]) < 3:
            continue  # "a", "en", "in": words, not abbreviations
        found = lexicon.match(tokens, i, frozenset({PROVINCE}))
        if found is not None:
            return str(found.value)
    return None


@lru_cache(maxsize=32)  # one letter to several computer powers is read once
def _first_move(text: str, lang: str, variant: str) -> Move | None:
    """The first move written as an order in the letter (``A PAR - BUR``, ``A Parigi -
    Borgogna``): windows starting at a unit word, read by the order parser."""
    raw = text.replace("\n", " ").split()[:MAX_WORDS]
    starts = [i for i, word in enumerate(raw) if fold(word).strip(".,;:!?") in UNIT_WORDS]
    for i in starts[:ORDER_STARTS]:
        for n in range(ORDER_WINDOW, 2, -1):
            window = " ".join(raw[i:i + n]).rstrip(".,;:!?")
            parsed = parse_order(window, lang, variant=variant)
            if isinstance(parsed.order, Move):
                return parsed.order
    return None


# every sentence is a gettext message: ``Sender`` is the computer power as a sentence's
# subject in the language ("La Germania", "L'Allemagne"; English has no article)
OPENINGS = {
    "loyal": NC_("free press", "%(Sender)s thanks you for your letter."),
    "opportunist": NC_("free press", "%(Sender)s always listens to an interesting offer."),
    "aggressive": NC_("free press", "%(Sender)s has little patience for long letters."),
    "cautious": NC_("free press", "%(Sender)s has read your letter carefully."),
    "vengeful": NC_(
        "free press", "%(Sender)s has read your letter; it remembers every promise, kept or broken."
    ),
}
UNDERSTOOD = {
    "peace": NC_("free press", "It understands that you offer peace."),
    "alliance": NC_("free press", "It understands that you offer an alliance."),
    "alliance_against": NC_(
        "free press", "It understands that you offer an alliance against %(about)s."
    ),
    "support": NC_("free press", "It understands that you ask for its support."),
    "support_order": NC_("free press", "It understands that you ask it to support %(order)s."),
    "dmz": NC_("free press", "It understands that you want a neutral zone."),
    "dmz_zone": NC_("free press", "It understands that you want a neutral zone in %(zone)s."),
    "share": NC_("free press", "It understands that you want to share centres."),
    "war": NC_("free press", "It reads a threat of war, and will remember it."),
}
NOT_UNDERSTOOD = NC_("free press", "It did not understand what you propose.")
MAKE_IT = NC_("free press", "To make it an agreement, write this line: %(line)s")
FORMS = NC_(
    "free press",
    "An agreement is proposed in one line, for example %(example)s; the other kinds are %(kinds)s, "
    "followed by the order, the centres, the power or the province.",
)


def _complete(reading: Reading, sender: str, reader: str) -> Proposal | None:
    """The structured proposal the letter amounts to, when it names all a kind needs."""
    if "peace" in reading.topics:
        return Proposal(Kind.PEACE, sender, reader)
    if "alliance" in reading.topics and reading.against:
        return Proposal(Kind.ALLIANCE, sender, reader, against=reading.against)
    if "support" in reading.topics and reading.order is not None:
        return Proposal(Kind.SUPPORT, sender, reader, order=reading.order)
    if "dmz" in reading.topics and reading.zone:
        return Proposal(Kind.DMZ, sender, reader, zone=reading.zone)
    return None


def answer_letter(reading: Reading, person: Personality, sender: str, reader: str, lang: str,
                  *, variant: str) -> str:
    """The computer power's answer, in ``lang``: its character's opening, what it understood,
    and the structured line to write (or the structured form, when it understood nothing)."""
    subject = named(reader, lang)
    parts = [trp(lang, *OPENINGS.get(person.name, OPENINGS["loyal"]),
                 Sender=subject[:1].upper() + subject[1:])]
    for topic in reading.topics:
        if topic == "alliance" and reading.against:
            parts.append(trp(lang, *UNDERSTOOD["alliance_against"],
                             about=named(reading.against, lang)))
        elif topic == "support" and reading.order is not None:
            parts.append(trp(lang, *UNDERSTOOD["support_order"],
                             order=describe(reading.order, lang, variant=variant)))
        elif topic == "dmz" and reading.zone:
            parts.append(trp(lang, *UNDERSTOOD["dmz_zone"],
                             zone=place_name(reading.zone, lang, variant=variant)))
        else:
            parts.append(trp(lang, *UNDERSTOOD[topic]))
    deal = _complete(reading, sender, reader)
    if deal is not None:
        parts.append(trp(lang, *MAKE_IT, line=render(deal, lang, variant=variant)))
        return " ".join(parts)
    if not reading.topics:
        parts.append(trp(lang, *NOT_UNDERSTOOD))
    example = render(Proposal(Kind.PEACE, sender, reader), lang, variant=variant)
    kinds = ", ".join(KINDS[k][lang][0] for k in (Kind.SUPPORT, Kind.SHARE, Kind.ALLIANCE,
                                                   Kind.DMZ))
    parts.append(trp(lang, *FORMS, example=example, kinds=kinds))
    return " ".join(parts)
