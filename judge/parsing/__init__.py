"""Orders written by hand in English, French or Italian -> canonical orders, or reasons.

Pure: no I/O. The public API, for the mail layer and the ``judge parse`` command::

    from judge.parsing import parse_orders, parse_order

    report = parse_orders(lines, "it", position=pos, power="ITALY")
    for item in report.items:          # one ParsedOrder per order (a line may hold several)
        item.line_no, item.text        # where it came from
        item.order                     # the canonical Order (judge.adjudicator.orders) or None
        item.error                     # a ParseError member (why it was refused) or None
        item.message                   # the refusal in the game's language
        item.note_messages             # remarks: "replaces the earlier order for A PAR", ...
        item.understood                # the order echoed with the language's province names
        item.reply()                   # "A PAR - BUR" or "ERROR: <Reason>: <message>"
    report.orders                      # the orders that stand (valid, not replaced)
    report.reply_lines()               # one reply line per input line

``parse_orders(lines, lang, position=None, power=None, phase=None, rules=None, *, variant=None)``:
  - ``lines``: an iterable of lines or one string; each line may hold several orders separated
    by ``,`` ``;`` a full stop, "and"/"et"/"e" before a unit, or a ``Power:`` label.
  - ``lang``: ``en``, ``fr`` or ``it``; a code that means different provinces in different
    languages (``MAR``, ``TYR``, ``LIV``, ``TOU``...) is read in this language.
  - ``position`` (``judge.adjudicator.position.Position``) and ``phase``: optional. With them
    the reader fills in the unit type, the unit's own coast, and checks the unit exists, belongs
    to ``power`` (or to the power named by a ``Power:`` label) and may be ordered in this phase;
    in a retreat phase a move is read as a retreat. Without them only the map is consulted.
  - ``variant``: the variant whose map names the provinces (and whose names the messages
    use); a position gives its own, else the one named here, else the standard map.
  - The whole batch is read together: the later of two orders for one unit wins (both items get
    a note); a support "in place" of a unit the batch orders to move is refused; a unit type
    written in one order fills it in for another; a line holding only a power's name
    (``Germania:``) labels the orders below it; builds and removals beyond what the position
    allows are refused.
  - With a position, every completed order also goes through the adjudicator's legality check
    (``judge.adjudicator.legality.normalize``), whose refusals map onto ``ParseError`` members
    (``legality_reasons.py``): the judge has one notion of adjacency and legality, the parser only gives
    more precise reasons first.

``parse_order(text, lang, position=None, power=None, phase=None) -> ParsedOrder`` reads one.
Refusals are :class:`ParseError` members, notes :class:`Note` members (``errors.py``); their
English texts live in ``message_texts.py`` (translated by the catalogs, judge/locale) and the words of each language in
``data/lexicon_<lang>.json`` (province names and codes come from the map data).
"""

from judge.parsing.errors import Note, ParseError
from judge.parsing.lexicon import LANGS, lexicon
from judge.parsing.messages import describe, render
from judge.parsing.report import ParsedOrder, ParseReport, parse_order, parse_orders

__all__ = [
    "LANGS",
    "Note",
    "ParseError",
    "ParseReport",
    "ParsedOrder",
    "describe",
    "lexicon",
    "parse_order",
    "parse_orders",
    "render",
]
