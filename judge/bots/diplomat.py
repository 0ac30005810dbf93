"""What a computer power says and keeps: answers, its own proposals, commitments, announcements.

Every decision follows from trust (``ledger.Trust``) and the personality:

* ``answer``: a proposal is accepted when the proposer's trust reaches the personality's
  ``accept_threshold`` and the deal costs nothing the bot owns (it never gives away its own
  centre, never allies against itself, never backs the leader of a coalition);
* ``commitments``: each phase, each agreement is kept with probability ``keep_word`` moved by
  trust in the partner (halved towards a coalition's leader); kept ones become the engine's
  ``Commitments`` (places not entered, powers spared, supports given), and the values of enemy
  powers' centres rise (alliance targets, the leader, powers that betrayed it);
* ``proposals``: peace to neighbours it does not distrust, an alliance against the leader when
  one power leads by a clear margin (``leader``), a support request for its own attack on a
  third power, a share of two contested neutral centres;
* ``letters``: the announcements (accepted, refused, alliances, wars after a betrayal, the
  coalition), rendered in the game's language by ``render_letter``.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.geography import Board
from judge.adjudicator.orders import Hold, Move, Order, SupportMove
from judge.adjudicator.position import Position
from judge.adjudicator.possible import possible_orders
from judge.bots.engine import Commitments, phase_rules
from judge.bots.ledger import Agreement, Status, Trust, Verdict, judge_phase
from judge.bots.mapview import MapView
from judge.bots.personality import Personality
from judge.bots.proposals import Kind, Proposal, render
from judge.bots.valuation import reach_counts
from judge.i18n import NC_, trp
from judge.parsing.commands_lexicon import lexicon as command_lexicon
from judge.parsing.messages import place_name

# A leader is feared from about a quarter of the map's centres, with a clear margin over the
# second power (9 and 4 of the standard map's 34): shares, so that every map has its own
LEAD_MIN_SHARE = 9 / 34
LEAD_MARGIN_SHARE = 4 / 34


def _board(position: Position) -> Board:
    """The board of the position's phase (closed around a neutral power until its lot)."""
    return phase_rules(installed_variant(position.variant), position)[0]


def _province(location: str) -> str:
    return location.split("/", 1)[0]


def leader(position: Position) -> str | None:
    """The power leading by a clear margin, if any (the coalition's target)."""
    counts = sorted(((len(position.centers_of(p)), p) for p in position.powers()), reverse=True)
    if len(counts) < 2:
        return None
    (top, power), (second, _) = counts[0], counts[1]
    centres = len(installed_variant(position.variant).supply_centers)
    least = max(2, round(centres * LEAD_MIN_SHARE))
    margin = max(1, round(centres * LEAD_MARGIN_SHARE))
    return power if top >= least and top >= second + margin else None


def answer(
    me: str,
    person: Personality,
    proposal: Proposal,
    trust: Trust,
    position: Position,
    room: bool = True,
) -> bool:
    """``room``: whether a new peace or alliance would still leave ``me`` a neighbour to grow
    at (``room_for_pact``); without it such a pact is refused."""
    other = proposal.proposer
    if other == leader(position):
        return False
    if proposal.kind in (Kind.PEACE, Kind.ALLIANCE) and not room:
        return False
    level = trust.of(me, other)
    need = person.accept_threshold
    if proposal.kind is Kind.ALLIANCE:
        if proposal.against in (me, None):
            return False
        need -= 0.1 if proposal.against == leader(position) else 0.0
    elif proposal.kind is Kind.SHARE:
        if any(position.centers.get(p) == me and w != me for p, w in proposal.shares):
            return False
    elif proposal.kind is Kind.DMZ:
        if position.centers.get(proposal.zone or "") == me:
            need -= 0.1  # a neutral zone around its own centre protects it
    elif proposal.kind is Kind.SUPPORT and proposal.order is not None:
        target = position.units.get(_province(proposal.order.target))
        if target is not None and target.power == me:
            return False
        if position.centers.get(_province(proposal.order.target)) == me:
            return False
        need += 0.1  # a support costs a unit's move
    return level >= need


def intentions(
    me: str,
    person: Personality,
    agreements: Iterable[Agreement],
    trust: Trust,
    position: Position,
    rng: random.Random,
) -> tuple[list[Agreement], list[Agreement]]:
    """``me``'s active agreements split into those it means to keep this phase and those it
    is tempted to break (broken only if breaking pays: ``worth_breaking``).

    A deal made this very phase holds, unless the character is treacherous and its seeded
    ``treachery`` draw comes up; an older one is kept with probability ``keep_word`` moved by
    trust in the partner (halved towards a coalition's leader)."""
    lead = leader(position)
    phase = str(position.phase)
    kept: list[Agreement] = []
    tempted: list[Agreement] = []
    for agreement in agreements:
        deal = agreement.proposal
        if agreement.status is not Status.ACTIVE or me not in deal.parties:
            continue
        if deal.kind is Kind.SUPPORT and deal.order is not None and _owner(
            position, deal.order.location
        ) == me:
            kept.append(agreement)  # the supported side: its move is no word it can break
            continue
        if agreement.since == phase:
            # the word given this turn: England broke 3 deals of 3 the turn it made them
            fresh_break = person.treacherous and rng.random() < person.treachery
            (tempted if fresh_break else kept).append(agreement)
            continue
        other = deal.partner if deal.proposer == me else deal.proposer
        chance = person.keep_word + 0.3 * trust.of(me, other)
        if other == lead:
            chance *= 0.5
        if rng.random() >= max(0.0, min(1.0, chance)):
            tempted.append(agreement)
        else:
            kept.append(agreement)
    return kept, tempted


def _owner(position: Position, location: str) -> str | None:
    unit = position.units.get(_province(location))
    return unit.power if unit is not None else None


def binding(
    me: str, kept: Iterable[Agreement], trust: Trust, position: Position
) -> Commitments:
    """What the agreements ``me`` keeps ask of its orders: the engine's ``Commitments`` (places
    not entered, powers spared, supports given, moves made), and the values of enemy powers'
    centres (alliance targets, the leader, powers that betrayed it)."""
    lead = leader(position)
    avoid: set[str] = set()
    spare: set[str] = set()
    supports: list[SupportMove] = []
    moves: list[Move] = []
    stance: dict[str, float] = {}
    for (holder, other), value in trust.values.items():
        if holder == me and value < -0.3:
            stance[other] = 1.3
    if lead is not None and lead != me:
        stance[lead] = 2.0
    legal = possible_orders(position, me, _board(position)) if position.phase.is_movement else {}
    for agreement in kept:
        deal = agreement.proposal
        other = deal.partner if deal.proposer == me else deal.proposer
        if deal.kind in (Kind.PEACE, Kind.ALLIANCE):
            spare.add(other)
            stance[other] = 0.1
            if deal.kind is Kind.ALLIANCE and deal.against:
                stance[deal.against] = max(stance.get(deal.against, 1.0), 1.6)
        elif deal.kind is Kind.DMZ and deal.zone:
            avoid.add(deal.zone)
        elif deal.kind is Kind.SHARE:
            avoid.update(p for p, w in deal.shares if w != me)
        elif deal.kind is Kind.SUPPORT and deal.order is not None:
            move = deal.order
            # the supported side makes the move the partner backs; the supporting side's
            # units are matched to the supports below (``support_plan``)
            if _owner(position, move.location) == me and move in legal.get(move.location, ()):
                moves.append(move)
    deals = [a.proposal for a in kept]
    plan = (support_plan(me, deals, position, legal, partial=True)
            if position.phase.is_movement else None)
    supports = list((plan or {}).values())
    return Commitments(
        frozenset(avoid), frozenset(spare), tuple(supports), moves=tuple(moves), stance=stance
    )


def commitments(
    me: str,
    person: Personality,
    agreements: Iterable[Agreement],
    trust: Trust,
    position: Position,
    rng: random.Random,
) -> tuple[Commitments, list[int]]:
    """What to honour this phase if nothing tempts it (``intentions``' kept deals), and the
    numbers of the agreements it means to keep."""
    kept, _ = intentions(me, person, agreements, trust, position, rng)
    return binding(me, kept, trust, position), [a.number for a in kept]


def breaches(position: Position, me: str, orders: Sequence[Order],
             agreement: Agreement) -> bool:
    """Whether ``me``'s ``orders`` break ``agreement`` as the ledger will judge them."""
    verdicts = judge_phase(position, {me: list(orders)}, [agreement])
    return any(not v.kept and v.breaker == me for v in verdicts)


# a treacherous power close to the solo count breaks a fresh deal for any step towards it
SOLO_THREAT = 4


def worth_breaking(
    position: Position,
    me: str,
    free: Sequence[Order],
    honest: Sequence[Order],
    broken: Sequence[Agreement],
    fresh: bool,
    victory: int,
) -> bool:
    """Whether the orders that break ``broken`` gain enough over the ``honest`` ones: a move
    into a supply centre ``me`` does not own that the honest orders do not make, and that
    breaks one of them (or, for a support not given, is made instead).
    A deal made this turn (``fresh``) is broken only for a centre taken now (a Fall move) or
    near a solo (``SOLO_THREAT`` centres short of ``victory``)."""
    centres = installed_variant(position.variant).supply_centers
    gains = [
        o
        for o in free
        if isinstance(o, Move)
        and _province(o.target) in centres
        and position.centers.get(_province(o.target)) != me
        and o not in honest
        and any(a.proposal.kind is Kind.SUPPORT or breaches(position, me, [o], a)
                for a in broken)
    ]
    if not gains:
        return False
    if not fresh:
        return True
    near_solo = len(position.centers_of(me)) >= victory - SOLO_THREAT
    return position.phase.season_rank == 1 or near_solo


def keep_promises(
    position: Position, me: str, orders: Sequence[Order], kept: Sequence[Agreement]
) -> list[Order]:
    """``orders`` with every order that would break a kept agreement turned into a hold, and
    every promised support given: whatever the search chose (a convoy, a support added by the
    tactics), the word kept is kept."""
    if not position.phase.is_movement or not kept:
        return list(orders)
    out = list(orders)
    for i, order in enumerate(out):
        if not isinstance(order, (Move, SupportMove)):
            continue
        if any(breaches(position, me, [order], a) for a in kept
               if a.proposal.kind is not Kind.SUPPORT):
            out[i] = Hold(order.unit_type, order.location)
    promised = [a for a in kept if a.proposal.kind is Kind.SUPPORT]
    if not any(breaches(position, me, out, a) for a in promised):
        return out
    # a promised support missing: every promised support given as one plan, one unit each
    plan = support_plan(me, [a.proposal for a in promised], position, partial=True) or {}
    given = {order.location: order for order in plan.values()}
    return [given.get(getattr(o, "location", ""), o) for o in out]


def _neighbours(view: MapView, position: Position, me: str) -> list[str]:
    counts = reach_counts(view, position)
    mine = counts.get(me, {})
    return [p for p, reach in sorted(counts.items()) if p != me and any(q in mine for q in reach)]


def _strikes_at(position: Position, move: Move, victim: str) -> bool:
    """Whether supporting ``move`` strikes at ``victim`` (as the ledger reads a peace)."""
    dest = _province(move.target)
    unit = position.units.get(dest)
    return (unit is not None and unit.power == victim) or position.centers.get(dest) == victim


def conflicts(me: str, deal: Proposal, agreements: Iterable[Agreement],
              position: Position, later: Collection[str] = ()) -> bool:
    """Whether ``me`` accepting ``deal`` would promise what an active deal (or one of its own
    proposals still waiting for a player in ``later``) forbids: a support into the units or
    centres of a power it is at peace or allied with, a peace with a power a promised support
    strikes at, a support it has no free unit left to give (``support_plan``). Two such words
    cannot both be kept, so the second is refused rather than broken the turn it is given."""
    # its own proposals still waiting for a player (``later``: players answer when they
    # like, computer powers at once and in order) count too: he may accept them at any time
    active = [
        a
        for a in agreements
        if me in a.proposal.parties
        and a.proposal is not deal
        and (a.status is Status.ACTIVE
             or (a.status is Status.PROPOSED and a.proposal.proposer == me
                 and a.proposal.partner in later))
    ]
    if deal.kind is Kind.SUPPORT and deal.order is not None:
        bound = {a.proposal.partner if a.proposal.proposer == me else a.proposal.proposer
                 for a in active if a.proposal.kind in (Kind.PEACE, Kind.ALLIANCE)}
        if any(_strikes_at(position, deal.order, p) for p in bound):
            return True
        # as the supporter, or as the mover (whose unit then supports nothing else)
        return support_plan(me, [a.proposal for a in active] + [deal], position) is None
    if deal.kind in (Kind.PEACE, Kind.ALLIANCE):
        other = deal.partner if deal.proposer == me else deal.proposer
        return any(
            a.proposal.kind is Kind.SUPPORT
            and a.proposal.order is not None
            and _strikes_at(position, a.proposal.order, other)
            for a in active
        )
    return False


def support_plan(
    me: str, deals: Sequence[Proposal], position: Position,
    legal: Mapping[str, Sequence[Order]] | None = None, partial: bool = False,
) -> dict[int, SupportMove] | None:
    """One unit of ``me`` for each support it promised (the index of the deal in ``deals`` ->
    the support order), or None when there are not enough (``partial``: the ones it can):
    one unit gives one support, a unit that makes a promised move supports nothing. Matched
    greedily, the scarcest first."""
    if legal is None:
        legal = possible_orders(position, me, _board(position))
    busy: set[str] = set()
    wanted: list[tuple[int, list[SupportMove]]] = []
    for index, deal in enumerate(deals):
        if deal.kind is not Kind.SUPPORT or deal.order is None:
            continue
        move = deal.order
        if _owner(position, move.location) == me:
            busy.add(_province(move.location))
            continue
        wanted.append((index, [
            o
            for options in legal.values()
            for o in options
            if isinstance(o, SupportMove)
            and _province(o.supported) == _province(move.location)
            and _province(o.target) == _province(move.target)
        ]))
    plan: dict[int, SupportMove] = {}
    for index, able in sorted(wanted, key=lambda w: len({o.location for o in w[1]})):
        free = [o for o in able if _province(o.location) not in busy]
        if not free:
            if partial:
                continue
            return None
        plan[index] = free[0]
        busy.add(_province(free[0].location))
    return plan


def partners(me: str, agreements: Iterable[Agreement]) -> set[str]:
    """The powers ``me`` is at peace or allied with (active agreements)."""
    out: set[str] = set()
    for a in agreements:
        deal = a.proposal
        if a.status is Status.ACTIVE and me in deal.parties and deal.kind in (
            Kind.PEACE,
            Kind.ALLIANCE,
        ):
            out.add(deal.partner if deal.proposer == me else deal.proposer)
    return out


def room_for_pact(
    me: str, other: str, view: MapView, position: Position, agreements: Iterable[Agreement]
) -> bool:
    """Whether one more peace or alliance (with ``other``) still leaves ``me`` somewhere to
    grow: a centre nobody owns yet, or a neighbour it has no pact with. A power at peace with
    every neighbour can take nothing: on a map where everybody borders everybody and no centre
    is neutral (Pure) peace all round froze every computer power at home."""
    if any(c not in position.centers for c in view.supply_centers):
        return True
    bound = partners(me, agreements) | {other}
    return any(n not in bound for n in _neighbours(view, position, me))


def proposals(
    me: str,
    person: Personality,
    view: MapView,
    position: Position,
    trust: Trust,
    agreements: Sequence[Agreement],
    rng: random.Random,
    planned: Sequence[Order] = (),
) -> list[Proposal]:
    """At most one new proposal to each neighbour (the bot's own initiative).

    ``planned``: the bot's intended orders; its first attack on a third power's unit is
    offered to one neighbour as a support request (a partner at peace or allied with it is
    asked first, whatever else binds the two), the only way a lone unit takes a held centre.
    """
    lead = leader(position)
    bound = {
        frozenset(a.proposal.parties)
        for a in agreements
        if a.status in (Status.ACTIVE, Status.PROPOSED)
    }
    pending = {
        frozenset(a.proposal.parties) for a in agreements if a.status is Status.PROPOSED
    }
    friends = partners(me, agreements)
    out: list[Proposal] = []
    asked = False
    neighbours = _neighbours(view, position, me)
    neutral_left = any(c not in position.centers for c in view.supply_centers)  # room_for_pact
    # partners first: they are the likeliest to give the support asked for
    for other in sorted(neighbours, key=lambda p: p not in friends):
        if other == lead:
            continue
        level = trust.of(me, other)
        if level < person.accept_threshold - 0.1:
            continue
        pair = frozenset((me, other))
        # its first attack on a third power's unit that ``other`` could back; a power at
        # peace with the one attacked would refuse (``conflicts``): not asked for that one
        bound_other = partners(other, agreements)
        attack = None
        if (not asked and pair not in pending and (level > 0.1 or other in friends)):
            attack = next(
                (
                    o
                    for o in planned
                    if isinstance(o, Move)
                    and (unit := position.units.get(_province(o.target))) is not None
                    and unit.power not in (me, other)
                    and not any(_strikes_at(position, o, p) for p in bound_other)
                    and _could_support(position, other, o)
                ),
                None,
            )
        if attack is not None:
            out.append(Proposal(Kind.SUPPORT, me, other, order=attack))
            asked = True
            continue
        if pair in bound:
            continue
        if lead is not None and lead != me:
            out.append(Proposal(Kind.ALLIANCE, me, other, against=lead))
            continue
        threatened = _threatened_centre(view, position, me, other)
        if threatened is not None and level < 0.3 and rng.random() < 0.5:
            # a demand: keep out of my centre (a neutral zone around it, seed 003's fifth kind)
            out.append(Proposal(Kind.DMZ, me, other, zone=threatened))
            continue
        pact = neutral_left or any(n not in friends | {other} for n in neighbours)
        if rng.random() < 0.5 and pact:
            out.append(Proposal(Kind.PEACE, me, other))
            friends.add(other)
            continue
        contested = _contested_centres(view, position, me, other)
        if len(contested) >= 2:
            mine, theirs = contested[0], contested[1]
            out.append(Proposal(Kind.SHARE, me, other, shares=((mine, me), (theirs, other))))
        elif pact:
            out.append(Proposal(Kind.PEACE, me, other))
            friends.add(other)
    return out


def _threatened_centre(view: MapView, position: Position, me: str, other: str) -> str | None:
    """An own centre, not occupied by an own unit, one of ``other``'s units could move into."""
    reach: set[str] = set()
    for unit in position.units_of(other):
        reach |= view.reach(unit.type.value, unit.location)
    own = sorted(c for c, owner in position.centers.items() if owner == me)
    for centre in own:
        here = position.units.get(centre)
        if centre in reach and (here is None or here.power != me):
            return centre
    return None


def is_demand(proposal: Proposal, position: Position) -> bool:
    """A neutral zone the proposer asks around one of its own centres: a demand."""
    return (proposal.kind is Kind.DMZ and proposal.zone is not None
            and position.centers.get(proposal.zone) == proposal.proposer)


def _could_support(position: Position, supporter: str, move: Move) -> bool:
    for options in possible_orders(position, supporter, _board(position)).values():
        for o in options:
            if (
                isinstance(o, SupportMove)
                and _province(o.supported) == _province(move.location)
                and _province(o.target) == _province(move.target)
            ):
                return True
    return False


def _contested_centres(view: MapView, position: Position, me: str, other: str) -> list[str]:
    """Unowned centres both can reach, the ones nearer to ``me`` first."""
    counts = reach_counts(view, position)
    mine, theirs = counts.get(me, {}), counts.get(other, {})
    both = [
        c
        for c in sorted(view.supply_centers)
        if c not in position.centers and c in mine and c in theirs
    ]
    return sorted(both, key=lambda c: theirs[c] - mine[c])


@dataclass(frozen=True, slots=True)
class Letter:
    """One message a computer power sends: ``kind`` picks the sentence, the rest fills it."""

    # accepted | refused | proposal | demand | betrayed | broke_<character> | alliance |
    # coalition
    kind: str
    sender: str
    to: tuple[str, ...]  # empty: to everyone (a broadcast)
    proposal: Proposal | None = None
    about: str | None = None  # the power concerned (betrayer, coalition leader)
    number: int | None = None


# The sentences are gettext messages (judge/locale): every translation uses the placeholders of
# the English one. ``sender`` and ``about`` are a power as a sentence's subject or object needs it
# in the language ("la Francia", "l'Angleterre"; English has no article), ``Sender``/``About``
# the same capitalised to start a sentence.
SENTENCES = {
    "accepted": NC_("letter", "%(Sender)s accepts your proposal %(number)s: %(deal)s."),
    "refused": NC_("letter", "%(Sender)s refuses your proposal %(number)s: %(deal)s."),
    "proposal": NC_(
        "letter",
        "%(Sender)s proposes (%(number)s): %(deal)s. Answer ACCEPT %(number)s or REFUSE "
        "%(number)s.",
    ),
    "demand": NC_(
        "letter",
        "%(Sender)s demands (%(number)s) that you keep out of %(zone)s: %(deal)s. Answer ACCEPT "
        "%(number)s or REFUSE %(number)s.",
    ),
    "betrayed": NC_(
        "letter", "%(About)s broke its word to %(sender)s: %(sender)s declares war on %(about)s."
    ),
    # a computer power tells the player it broke its word, each character in its own way
    "broke_loyal": NC_(
        "letter",
        "%(Sender)s must tell you, with regret, that it has not kept agreement %(number)s this "
        "turn: %(deal)s.",
    ),
    "broke_cautious": NC_(
        "letter",
        "%(Sender)s had to look to its own safety: it has not kept agreement %(number)s: "
        "%(deal)s.",
    ),
    "broke_vengeful": NC_(
        "letter",
        "%(Sender)s forgets nothing: agreement %(number)s no longer binds it: %(deal)s.",
    ),
    "broke_opportunist": NC_(
        "letter",
        "%(Sender)s saw a chance too good to miss and broke agreement %(number)s: %(deal)s. "
        "Nothing personal.",
    ),
    "broke_aggressive": NC_(
        "letter",
        "%(Sender)s tears up agreement %(number)s: %(deal)s. From now on, strength decides.",
    ),
    "alliance": NC_("letter", "%(Sender)s announces an alliance: %(deal)s."),
    "coalition": NC_(
        "letter",
        "%(About)s has grown too strong: %(sender)s joins the coalition against %(about)s.",
    ),
}


def _name(power: str | None, lang: str) -> str:
    return command_lexicon().power_name(power, lang) if power else ""


def named(power: str, lang: str, form: str = "the") -> str:
    """A power's name as a sentence needs it: ``the`` with its article (``la Francia``,
    ``l'Angleterre``; English has none), ``to`` after "to" (``alla Francia``, ``à la France``).
    The seven powers' Italian and French names are all feminine."""
    name = _name(power, lang)
    if lang == "en":
        return f"to {name}" if form == "to" else name
    vowel = name[:1].lower() in "aeiouyéèêh" and not (lang == "it" and name[:1].lower() == "h")
    the = (f"l'{name}" if vowel else f"la {name}")
    if form != "to":
        return the
    if lang == "it":
        return f"all'{name}" if vowel else f"alla {name}"
    return f"à {the}"


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def render_letter(letter: Letter, lang: str, *, variant: str) -> str:
    """The letter in ``lang``, places named as ``variant``'s map names them."""
    fields: dict[str, Any] = {
        "number": letter.number if letter.number is not None else "",
        "deal": render(letter.proposal, lang, variant=variant) if letter.proposal is not None else "",
        "zone": place_name(letter.proposal.zone, lang, variant=variant)
        if letter.proposal is not None and letter.proposal.zone else "",
    }
    for key, power in (("sender", letter.sender), ("about", letter.about)):
        fields[key] = named(power, lang) if power else ""
        fields[key.capitalize()] = _upper_first(str(fields[key]))
    return trp(lang, *SENTENCES[letter.kind], **fields)


def reactions(
    verdicts: Sequence[Verdict],
    agreements: Sequence[Agreement],
    characters: dict[str, Personality],
) -> list[Letter]:
    """What the broken agreements of a phase make the computer powers say (``agreements`` as
    they stood before the verdicts were applied):

    * a computer power betrayed declares war on the breaker, to everyone, once per pair: not
      again for a second deal broken the same turn, nor when the breaker breaks another deal
      later (the earlier betrayal stands in the ledger);
    * a computer power that broke its word to a player tells him, in its character, deal by
      deal (a player who is never told would only find it in the orders)."""
    by_number = {a.number: a for a in agreements}
    at_war = {
        (a.proposal.partner if a.broken_by == a.proposal.proposer else a.proposal.proposer,
         a.broken_by)
        for a in agreements
        if a.status is Status.BROKEN and a.broken_by is not None
    }
    out: list[Letter] = []
    for verdict in verdicts:
        if verdict.kept or verdict.breaker is None:
            continue
        deal = by_number[verdict.number].proposal
        victim = deal.partner if verdict.breaker == deal.proposer else deal.proposer
        if victim in characters:
            if (victim, verdict.breaker) not in at_war:
                at_war.add((victim, verdict.breaker))
                out.append(Letter("betrayed", victim, (), deal, about=verdict.breaker))
        elif verdict.breaker in characters:
            kind = f"broke_{characters[verdict.breaker].name}"
            out.append(Letter(kind if kind in SENTENCES else "broke_loyal", verdict.breaker,
                              (victim,), deal, about=victim, number=verdict.number))
    return out


def coalition_letters(
    position: Position, characters: dict[str, Personality], announced: set[tuple[str, str]]
) -> list[Letter]:
    """Each computer power announces once that it joins the coalition against the leader."""
    lead = leader(position)
    if lead is None:
        return []
    out = []
    for power in sorted(characters):
        if power != lead and (power, lead) not in announced and position.units_of(power):
            out.append(Letter("coalition", power, (), about=lead))
    return out
