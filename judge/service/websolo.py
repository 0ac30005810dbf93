"""The solo game in the browser (issue 15): a game against the computer powers with no account.

* **The key.** Creating a game draws an unguessable key (``secrets.token_urlsafe``, 192 bits)
  that goes into the game's secret URL and nowhere else: the game stores its SHA-256 only
  (``options["web"]["key"]``, which no reply, bulletin or archive page shows), and a key given
  back is compared with ``hmac.compare_digest``. The archive shows the game like any other.
* **The player** is an account without an address: its ``address`` is ``web-<hex>`` (unique,
  no ``@``), so nothing can ever be mailed to it (``announce.queue`` takes only an addr-spec)
  and nobody can sign on to it by mail (its seat's password hash is empty, which never matches).
* **The same rules as mail.** The game is set up as ``CREATE`` + ``BOTS`` + ``START`` do it
  (``computer.prepare_solo_seats``, ``usecases.start_game``, ``computer.seat_solo_computers``);
  orders go through ``usecases.submit_orders``, and the phase is processed as soon as they are
  in (``computer.advance``), as the mail solo game does. Proposals go to the same ledger
  (``Council``) as ``PROPOSE``; the computer powers' answers are stored as press, so the page's
  inbox shows them with the letters the powers write on their own.

Everything here runs inside the caller's transaction.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from judge.adjudicator.catalog import DEFAULT_VARIANT, variant_names
from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.convoy_routes import sea_neighbours, seas_touching
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Move, SupportHold, UnitType, parse_canonical
from judge.adjudicator.position import Position
from judge.adjudicator.possible import possible_orders
from judge.adjudicator.variant import Variant
from judge.bots.council import Council
from judge.bots.diplomat import Letter, render_letter
from judge.bots.proposals import PressError, Proposal, ProposalAnswer, parse_press, render
from judge.i18n import N_, tr
from judge.parsing.messages import in_notation
from judge.parsing.report import ParsedOrder, ParseReport
from judge.rules.defaults import free_home_centers
from judge.service import computer, games, usecases
from judge.service.caller import Caller
from judge.service.commands.order_commands import refusal_text
from judge.settings import Settings
from judge.storage import Session, botrepo, gamerepo, playrepo
from judge.storage.models import Account, Game, Press

KEY_BYTES = 24  # 192 bits of secrets.token_urlsafe: the key cannot be guessed
# a web solo game's deadlines: long, so the game waits for its player as a board game does
# (a player who stops for a month gets the house rules' defaults, like a mail player)
WEB_DEADLINE_HOURS = {"M": 24 * 30, "R": 24 * 30, "A": 24 * 30}
# proposals and answers per request, as per mail (each wakes the computer powers' answers)
PROPOSALS_PER_REQUEST = 10
# the five kinds of proposal, with the English words parse_press reads
PROPOSAL_KINDS = ("peace", "support", "share", "alliance", "dmz")
_KIND_WORDS = {"peace": "PEACE", "support": "SUPPORT", "share": "SHARE",
               "alliance": "ALLIANCE AGAINST", "dmz": "DMZ"}


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _unique_name(session: Session) -> str:
    while True:
        name = f"solo-{secrets.token_hex(4)}"
        if gamerepo.game_by_name(session, name) is None:
            return name


def solo_variants() -> tuple[Variant, ...]:
    """The installed variants a solo game can be played on (one power per seat: the BOTS
    option's rule), the standard one first."""
    names = [DEFAULT_VARIANT, *(n for n in variant_names() if n != DEFAULT_VARIANT)]
    found = (installed_variant(n) for n in names)
    return tuple(v for v in found if all(len(seat) == 1 for seat in v.seats))


def create_solo(session: Session, now: datetime, settings: Settings, power: str | None,
                language: str, seed: int | None = None,
                variant: str = DEFAULT_VARIANT) -> tuple[Game, str]:
    """A started solo game for a browser on ``variant``'s map; returns it and its key (shown
    once, in its URL). ``seed``: the lot's and the computer powers' seed (drawn when None;
    tests fix it)."""
    player = Account(address=f"web-{secrets.token_hex(12)}", display_name="",
                     language=language, created=now, confirmed_at=None)
    session.add(player)
    session.flush()
    game = games.create_game(session, _unique_name(session), "", player, language, now)
    if variant != DEFAULT_VARIANT:
        games.apply_option(game, "variant", variant)
    games.apply_option(game, "bots", {"power": power})
    key = secrets.token_urlsafe(KEY_BYTES)
    games.update_options(game, deadlines_hours=dict(WEB_DEADLINE_HOURS),
                         web={"key": key_digest(key)})
    computer.prepare_solo_seats(session, game)
    if seed is None:
        usecases.start_game(session, Caller(player, now, settings), game)
    else:
        games.start_game(session, game, now, seed)
    computer.seat_solo_computers(session, game,
                                 int(games.options(game)["assignment_record"]["seed"]))
    computer.phase_started(session, game, now, settings)
    gamerepo.audit(session, now, "web.created", game_id=game.id)
    return game, key


def open_solo(session: Session, name: str, key: str) -> Game | None:
    """The web solo game ``name`` if ``key`` is its key (compared in constant time)."""
    game = gamerepo.game_by_name(session, name) if len(name) <= 64 else None
    stored = str((games.options(game).get("web") or {}).get("key", "")) if game else ""
    if game is None or not stored:
        key_digest(key)  # the same work whether or not the game exists
        return None
    return game if hmac.compare_digest(key_digest(key), stored) else None


def human_power(game: Game) -> str:
    return str((computer.solo_options(game) or {}).get("human") or "")


# ---------------------------------------------------------------- orders


def convoy_route(board: Board, position: Position, power: str, start: str,
                 target: str) -> list[str] | None:
    """The shortest chain of ``power``'s own fleets at sea carrying an army from ``start`` to
    ``target`` (sea provinces, in order), or None. Breadth first: the fewest fleets."""
    seas = sea_neighbours(board)
    own = {p for p, u in position.units.items()
           if u.power == power and u.type is UnitType.FLEET and p in seas}
    first = [s for s in sorted(seas_touching(board).get(start, frozenset())) if s in own]
    paths: dict[str, list[str]] = {s: [s] for s in first}
    frontier = list(first)
    while frontier:
        following = []
        for here in frontier:
            if target in seas[here]:
                return paths[here]
            for nxt in sorted(seas[here]):
                if nxt in own and nxt not in paths:
                    paths[nxt] = [*paths[here], nxt]
                    following.append(nxt)
        frontier = following
    return None


def with_convoys(position: Position, power: str, lines: Sequence[str],
                 report: ParseReport) -> list[str]:
    """``lines`` with the convoy orders of the player's own fleets added for every army move
    over sea (an army moving to a province it does not border), on the shortest route; an
    order already given to a fleet on the route is replaced by the convoy."""
    board = installed_variant(position.variant).board
    convoys: dict[str, str] = {}
    for item in report.items:
        order = item.order
        if not item.ok or not isinstance(order, Move):
            continue
        unit = position.units.get(order.location.split("/", 1)[0])
        if unit is None or unit.type is not UnitType.ARMY or unit.power != power:
            continue
        if board.army_can_move(order.location, order.target):
            continue
        route = convoy_route(board, position, power, order.location, order.target)
        for sea in route or []:
            convoys[sea] = readable(f"F {sea} C A {order.location} - {order.target}",
                                    report.lang, variant=position.variant)
    if not convoys:
        return list(lines)
    kept = [line for line, item in zip(lines, report.items, strict=False)
            if not (item.ok and item.order is not None
                    and getattr(item.order, "location", None) in convoys)]
    return [*kept, *convoys.values()]


def readable(order: str, lang: str, *, variant: str) -> str:
    """A canonical order as the game's reader reads it back (the page writes its orders in
    the game's notation: canonical codes collide with other notations, ``TYR`` is the
    Tyrrhenian Sea in French). Italian club rules want a support for a hold said so (``H``)."""
    text = in_notation([order], lang, variant=variant)[0]
    if lang == "it" and isinstance(parse_canonical(order), SupportHold):
        text += " H"
    return text


@dataclass(frozen=True)
class Checked:
    lines: list[str]  # the lines as they will be sent (convoys added)
    items: list[ParsedOrder]
    orders: list[str]  # the canonical orders that stand
    refusals: list[tuple[str, str]] = field(default_factory=list)  # (line, reason in lang)


def check_orders(game: Game, power: str, lines: Sequence[str], lang: str) -> Checked:
    """Read a draft without storing it: the orders that would stand, convoys added, and each
    refused line with the judge's reason in ``lang``."""
    report, position = usecases.read_orders(game, power, lines)
    full = with_convoys(position, power, lines, report)
    if full != list(lines):
        report, position = usecases.read_orders(game, power, full)
    refusals = [(item.text, refusal_text(item, lang)) for item in report.items
                if item.error is not None]
    return Checked(full, report.items, [str(o) for o in report.orders], refusals)


@dataclass(frozen=True)
class Submitted:
    checked: Checked
    outcome: usecases.OrdersOutcome | None  # None: a line was refused, nothing stored
    processed: list[str]
    phase: str = ""  # the phase the orders were for
    defaults: bool = False  # an empty submit: the defaults said (hold, disband, waive)
    removals: int = 0  # an empty submit in a winter that owes removals: none chosen


def default_lines(game: Game, power: str) -> tuple[list[str], int]:
    """What an empty submit stands for, as orders in the game's notation: every unit holds
    (movement), every dislodged unit disbands (retreats), every build is waived (winter).
    Without them the set would be empty and the phase would wait for the player, saying
    nothing (issue 29). Returns the lines and the removals owed (which the player chooses:
    an empty submit does not pick units to lose)."""
    position = games.load_position(game)
    variant = position.variant
    phase = position.phase
    canonical: list[str] = []
    if phase.is_movement:
        canonical = [f"{u} H" for u in position.units_of(power)]
    elif phase.is_retreat:
        canonical = [f"{d.unit} D" for d in position.dislodged.values() if d.unit.power == power]
    else:
        owed = position.owed(power, installed_variant(variant).board)
        if owed < 0:
            return [], -owed
        canonical = ["WAIVE"] * min(owed, len(free_home_centers(position, power)))
    return [readable(o, game.language, variant=variant) for o in canonical], 0


def last_submitted(session: Session, game: Game, power: str,
                   played: Sequence[str]) -> str | None:
    """The newest of the ``played`` phases (oldest first) the player sent orders for: the
    phases after it were played without him (the computer powers' retreats and winters)."""
    for phase in reversed(played):
        if gamerepo.current_orders(session, game.id, phase, power) is not None:
            return phase
    return None


def submit(session: Session, game: Game, lines: Sequence[str], now: datetime,
           settings: Settings, lang: str) -> Submitted:
    """The player's whole set for the phase through the mail's use case, then every phase
    that waits for nobody is processed (``computer.advance``).

    Unlike a mail, a set with a refused line is not stored: the page shows why and keeps the
    lines to correct, rather than playing the phase without the order the player meant."""
    power = human_power(game)
    phase = game.phase
    defaults = not lines
    if defaults:
        lines, removals = default_lines(game, power)
        if removals:
            return Submitted(check_orders(game, power, [], lang), None, [], phase, True,
                             removals)
    checked = check_orders(game, power, lines, lang)
    if checked.refusals:
        return Submitted(checked, None, [], phase)
    seat = playrepo.seat_by_power(session, game.id, power)
    outcome = usecases.submit_orders(session, game, power, checked.lines, now,
                                     by_account_id=seat.account_id if seat else None)
    processed = computer.advance(session, game, now, settings)
    return Submitted(checked, outcome, processed, phase, defaults)


def choices(game: Game, power: str) -> dict[str, list[tuple[str, str]]]:
    """Every legal order of ``power`` now, by location (what the page's menus offer): the
    canonical order (drawn) and the line in the game's notation (sent)."""
    position = games.load_position(game)
    if game.status != "active":
        return {}
    return {loc: [(str(o), readable(str(o), game.language, variant=position.variant))
                  for o in given]
            for loc, given in possible_orders(position, power).items()}


# ---------------------------------------------------------------- negotiation


def proposal_line(kind: str, partner: str, argument: str) -> str:
    """The ``PROPOSE`` line a proposal form stands for (argument: the order, shares, power or
    province the kind needs, in any notation parse_press reads)."""
    return f"PROPOSE {partner} {_KIND_WORDS.get(kind, kind)} {argument}".strip()


@dataclass(frozen=True)
class Negotiated:
    number: int | None = None
    problem: str | None = None  # a PressError value, or "not_in_game" / "no_proposal"


def propose(session: Session, game: Game, line: str, now: datetime,
            settings: Settings) -> Negotiated:
    """A proposal from the player to a computer power, answered at once (the answer and any
    alliance it makes known are stored as press: the inbox shows them)."""
    sender = human_power(game)
    deal = parse_press(line, "en", sender, variant=games.game_variant(game).name)
    if isinstance(deal, PressError):
        return Negotiated(problem=deal.value)
    if not isinstance(deal, Proposal):
        return Negotiated(problem=PressError.NO_KIND.value)
    council = botrepo.load_council(session, game.id) or Council({})
    seat = playrepo.seat_by_power(session, game.id, deal.partner)
    if seat is None or seat.status in ("eliminated", "vacant") or \
            deal.partner not in council.characters:
        return Negotiated(problem="not_in_game")
    agreement, answers = computer.offer(session, game, council, deal, now, settings,
                                        machine=True)
    botrepo.save_council(session, game.id, council)
    for letter in answers:  # the page has no reply: its inbox shows the answer
        session.add(Press(game_id=game.id, phase=game.phase, from_power=letter.sender,
                          to_powers=[sender], grey=False,
                          body=render_letter(letter, game.language,
                                             variant=games.game_variant(game).name),
                          created=now))
    return Negotiated(number=agreement.number)


def answer(session: Session, game: Game, number: int, accept: bool, now: datetime,
           settings: Settings) -> Negotiated:
    """The player accepts or refuses a computer power's proposal ``number``."""
    power = human_power(game)
    council = botrepo.load_council(session, game.id)
    agreement = (council.respond(power, ProposalAnswer(accept, number), game.phase,
                                 games.load_position(game)) if council else None)
    if council is None or agreement is None:
        return Negotiated(problem="no_proposal")
    deal = agreement.proposal
    botrepo.save_council(session, game.id, council)
    terms = render(deal, game.language, variant=games.game_variant(game).name)
    # said in words, so the inbox tells an accepted proposal from a refused one (issue 29)
    word = tr(game.language, N_("I accept your proposal %(number)s: %(terms)s") if accept
              else N_("I refuse your proposal %(number)s: %(terms)s"),
              number=agreement.number, terms=terms)
    session.add(Press(game_id=game.id, phase=game.phase, from_power=power,
                      to_powers=[deal.proposer], grey=False, body=word, created=now))
    if accept:
        computer.reorder(session, game, council, deal.proposer, now)
    if accept and deal.kind.value == "alliance" and deal.proposer in council.characters:
        computer.send_letters(session, game, now, settings,
                              [Letter("alliance", deal.proposer, (), deal,
                                      number=agreement.number)])
    return Negotiated(number=agreement.number)


def inbox(session: Session, game: Game, power: str) -> list[Press]:
    """The press the player sent and received, newest first."""
    rows = playrepo.press_of_game(session, game.id)
    mine = [p for p in rows if p.from_power == power
            or power in (p.to_powers or []) or computer.BROADCAST in (p.to_powers or [])]
    return sorted(mine, key=lambda p: (p.created, p.id), reverse=True)


def ledger(session: Session, game: Game, power: str) -> list[dict[str, Any]]:
    """Every agreement the player is party to: number, kind, the other party, terms in the
    game's language, status (proposed, active, refused, kept, broken), who broke it and how."""
    council = botrepo.load_council(session, game.id)
    variant = games.game_variant(game).name
    out = []
    for agreement in (council.agreements if council else []):
        deal = agreement.proposal
        if power not in deal.parties:
            continue
        other = deal.partner if deal.proposer == power else deal.proposer
        out.append({"number": agreement.number, "kind": deal.kind.value, "other": other,
                    "mine": deal.proposer == power, "terms": render(deal, game.language, variant=variant),
                    "since": agreement.since, "status": agreement.status.value,
                    "broken_by": agreement.broken_by, "evidence": agreement.evidence})
    return sorted(out, key=lambda a: -int(a["number"]))

