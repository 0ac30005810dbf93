"""One order and its outcome as a bulletin line, per language.

English and Italian bulletins follow njudge (``Army Vienna -> Trieste.  (*bounce*)``); French
bulletins follow seed 000's table: ``=`` move succeeds, ``:`` move fails, ``c`` convoy
broken, ``s`` support cut, ``(a)`` annihilated, ``(d)`` disbanded, ``(r X)`` retreated to X,
``(i)`` impossible order, ``(o)`` forgotten unit, ``(v)`` void support or convoy.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from judge.adjudicator.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    NotationError,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    parse_canonical,
)
from judge.bulletins.names import UNIT_NAMES, place_abbr, place_name
from judge.i18n import NC_, trp


class Mark(StrEnum):
    """What happened to one order, as far as a reader of the bulletin cares."""

    SUCCEEDS = "succeeds"
    BOUNCED = "bounced"
    CUT = "cut"
    DISRUPTED = "disrupted"
    VOID = "void"
    NO_CONVOY = "no_convoy"
    ILLEGAL = "illegal"
    FAILS = "fails"


def classify(result: str, reason: str | None) -> Mark:
    """Map the adjudicator's result and reason words onto the bulletin's marks.

    The adjudicator's reasons are enum names (``bounced``, ``support_cut`` ...); matching on
    word stems keeps a new, more precise reason readable instead of crashing a bulletin.
    """
    if result in ("succeeds", "success", "ok"):
        return Mark.SUCCEEDS
    key = (reason or "").lower().replace("-", "_").replace(" ", "_")
    for stem, mark in (
        ("illegal", Mark.ILLEGAL),
        ("no_convoy", Mark.NO_CONVOY),
        ("nopath", Mark.NO_CONVOY),
        ("no_path", Mark.NO_CONVOY),
        ("disrupt", Mark.DISRUPTED),
        ("convoy_dislodged", Mark.DISRUPTED),
        ("paradox", Mark.DISRUPTED),
        ("cut", Mark.CUT),
        ("bounce", Mark.BOUNCED),
        ("standoff", Mark.BOUNCED),
        ("void", Mark.VOID),
        ("unmatched", Mark.VOID),
        ("no_match", Mark.VOID),
        ("mismatch", Mark.VOID),
    ):
        if stem in key:
            return mark
    return Mark.FAILS


# the njudge notes after an order, ``(*bounce*)``: English msgids of the catalogs, in the
# context "bulletin" (French bulletins use seed 000's marks instead)
_NOTE_TEXTS: dict[str, tuple[str, str]] = {
    "bounced": NC_("bulletin", "bounce"), "cut": NC_("bulletin", "cut"),
    "disrupted": NC_("bulletin", "disrupted"), "void": NC_("bulletin", "void"),
    "no_convoy": NC_("bulletin", "no convoy"), "illegal": NC_("bulletin", "illegal"),
    "fails": NC_("bulletin", "fails"), "dislodged": NC_("bulletin", "dislodged"),
    "destroyed": NC_("bulletin", "destroyed"), "generated": NC_("bulletin", "default"),
    "onp": NC_("bulletin", "ONP"), "sommossa": NC_("bulletin", "sommossa"),
    "majority": NC_("bulletin", "majority"), "computer": NC_("bulletin", "computer"),
}


def notes_in(lang: str) -> dict[str, str]:
    """The notes in ``lang``: ``{"bounced": "rimbalzo", ...}``."""
    return {key: trp(lang, *text) for key, text in _NOTE_TEXTS.items()}


NOTES: dict[str, dict[str, str]] = {lang: notes_in(lang) for lang in ("en", "it", "fr")}

_VERBS: dict[str, dict[str, str]] = {
    "en": {"H": "HOLD", "S": "SUPPORT", "C": "CONVOY", "R": "RETREAT", "D": "DISBAND",
           "B": "Build", "X": "Remove", "W": "Build waived"},
    "it": {"H": "FERMA", "S": "APPOGGIA", "C": "TRASPORTA", "R": "RITIRATA in", "D": "SCIOGLIE",
           "B": "Costruisce", "X": "Rimuove", "W": "Costruzione rinunciata"},
    # French bulletins keep seed 000's codes; these words serve the play page's results
    "fr": {"H": "TIENT", "S": "SOUTIENT", "C": "CONVOIE", "R": "RETRAITE en", "D": "DISSOUT",
           "B": "Construit", "X": "Retire", "W": "Construction abandonnée"},
}


@dataclass(frozen=True)
class NotatedOrder:
    text: str  # the order as the language writes it
    notes: tuple[str, ...]  # njudge-style notes, already translated (empty in French)

    def __str__(self) -> str:
        if not self.notes:
            return self.text
        return self.text + "  " + " ".join(f"(*{n}*)" for n in self.notes)


def _unit(kind: str, loc: str, lang: str, variant: str) -> str:
    return f"{UNIT_NAMES[lang][kind]} {place_name(loc, lang, variant)}"


def render_order(
    canonical: str,
    mark: Mark,
    lang: str,
    *,
    variant: str,
    adjustment: bool = False,
    dislodged: bool = False,
    annihilated: bool = False,
    source: str = "submitted",
) -> NotatedOrder:
    """One line of a bulletin for the order ``canonical`` whose outcome is ``mark``, places
    named as ``variant``'s map names them."""
    try:
        order = parse_canonical(canonical)
    except NotationError:
        # an order kept verbatim because it could not be read: show the text as sent
        return NotatedOrder(canonical, ("(i)",) if lang == "fr" else (NOTES[lang]["illegal"],))
    if lang == "fr":
        return _french(order, mark, variant, adjustment, annihilated, source)
    return _njudge(order, mark, lang, variant, adjustment, dislodged, annihilated, source)


def order_in_words(canonical: str, lang: str, *, variant: str,
                   adjustment: bool = False) -> str:
    """The order with its units and places in full words, in ``lang`` (the play page's
    results, in all three languages): ``Armée Paris -> Bourgogne.``"""
    try:
        order = parse_canonical(canonical)
    except NotationError:
        return canonical
    return _njudge(order, Mark.SUCCEEDS, lang, variant, adjustment, False, False,
                   "submitted").text


def _njudge(order: Order, mark: Mark, lang: str, variant: str, adjustment: bool,
            dislodged: bool, annihilated: bool, source: str) -> NotatedOrder:
    v = _VERBS[lang]

    def unit(kind: str, loc: str) -> str:
        return _unit(kind, loc, lang, variant)

    def place(loc: str) -> str:
        return place_name(loc, lang, variant)

    if isinstance(order, Waive):
        text = v["W"]
    elif isinstance(order, Build):
        text = f"{v['B']} {unit(order.unit_type.value, order.location)}"
    elif isinstance(order, Disband) and adjustment:
        text = f"{v['X']} {unit(order.unit_type.value, order.location)}"
    else:
        text = unit(order.unit_type.value, order.location)
        if isinstance(order, Hold):
            text += f" {v['H']}"
        elif isinstance(order, Move):
            text += f" -> {place(order.target)}"
            if order.via_convoy:
                text += " VIA"
        elif isinstance(order, SupportHold):
            text += f" {v['S']} {unit(order.supported_type.value, order.supported)}"
        elif isinstance(order, SupportMove):
            text += (f" {v['S']} {unit(order.supported_type.value, order.supported)}"
                     f" -> {place(order.target)}")
        elif isinstance(order, Convoy):
            text += (f" {v['C']} {unit('A', order.army)}"
                     f" -> {place(order.target)}")
        elif isinstance(order, Retreat):
            text += f" {v['R']} {place(order.target)}"
        elif isinstance(order, Disband):
            text += f" {v['D']}"
    text += "."
    notes: list[str] = []
    words = NOTES[lang]
    if source in ("generated", "onp", "sommossa", "majority", "computer"):
        notes.append(words[source])
    # a failed hold only means the unit was dislodged, said below
    if mark is not Mark.SUCCEEDS and not (isinstance(order, Hold) and mark is Mark.FAILS):
        notes.append(words[mark.value])
    if annihilated:
        notes.append(words["destroyed"])
    elif dislodged:
        notes.append(words["dislodged"])
    return NotatedOrder(text, tuple(notes))


def _french(order: Order, mark: Mark, variant: str, adjustment: bool, annihilated: bool,
             source: str) -> NotatedOrder:
    ok = mark is Mark.SUCCEEDS

    def _fr(loc: str) -> str:
        return place_abbr(loc, "fr", variant)

    if isinstance(order, Waive):
        return NotatedOrder("+ (renonce)", ())
    unit = f"{order.unit_type.value} {_fr(order.location)}"
    if isinstance(order, Build):
        text = f"+ {unit}"
    elif isinstance(order, Disband) and adjustment:
        text = f"- {unit}"
    elif isinstance(order, Hold):
        text = f"{unit} T"
    elif isinstance(order, Move):
        text = f"{unit}{'=' if ok else ':'}{_fr(order.target)}"
    elif isinstance(order, SupportHold):
        letter = "s" if mark is Mark.CUT else "S"
        text = f"{unit} {letter} {order.supported_type.value} {_fr(order.supported)}"
    elif isinstance(order, SupportMove):
        letter = "s" if mark is Mark.CUT else "S"
        text = (f"{unit} {letter} {order.supported_type.value} {_fr(order.supported)}"
                f"-{_fr(order.target)}")
    elif isinstance(order, Convoy):
        letter = "c" if mark in (Mark.DISRUPTED, Mark.NO_CONVOY) else "C"
        text = f"{unit} {letter} A {_fr(order.army)}-{_fr(order.target)}"
    elif isinstance(order, Retreat):
        text = f"{unit} r {_fr(order.target)}" if ok else f"{unit} (a)"
    else:  # retreat-phase disband
        text = f"{unit} (d)"
    marks: list[str] = []
    if mark is Mark.ILLEGAL:
        marks.append("(i)")
    elif mark is Mark.VOID:
        marks.append("(v)")
    if source == "generated" and isinstance(order, Hold):
        marks.append("(o)")
    if source == "computer":
        marks.append("(ordi)")  # given by a computer power (issue 14)
    if annihilated:
        marks.append("(a)")
    return NotatedOrder(" ".join([text, *marks]), ())
