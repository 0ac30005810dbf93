"""Movement resolution, after Kruijswijk's "The Math of Adjudication" (guess, check, back up).

The only decisions are *move* (does a move succeed?) and *path* (does a convoyed army still have
an undisrupted chain of fleets?). Strengths, cuts and dislodgements are computed from them on
demand, counted in half units (a unit is 2, each support 2) so that a move along one of the
board's weak links (DPjudge's "Cape of Good Hope" rule, ``Board.weak_links``: 1900's Egypt and
Hejaz to the Mid-Atlantic) is 1: half strength for its attack, its prevention and its defence in
a head-to-head battle, supports counting in full. Such a move cuts no support unless it
dislodges the supporter (DPjudge's exception D, with its cut by dislodgement). On a map without
weak links every strength is doubled and every comparison the same. ``_resolve`` guesses when a decision depends on itself; if both guesses are consistent
and differ, the cycle is either a convoy paradox (a path decision is in it: the Szykman rule, the
convoyed moves fail without effect) or circular movement (every move in it succeeds).

Input orders are already normalized by ``legality``; units without a legal order hold.
"""

from __future__ import annotations

from typing import Final, final

from judge.adjudicator.convoy_routes import route_exists
from judge.adjudicator.geography import Board
from judge.adjudicator.order_index import OrderIndex, province_index
from judge.adjudicator.order_result import Outcome
from judge.adjudicator.orders import Order, SupportMove, Unit, UnitType

_ARMY = UnitType.ARMY
_PATH = "*"  # prefix of path-decision keys; move decisions are keyed by the mover's province


@final
class UnitFate:
    """What happened to one unit's order (``verdicts.py``); read into an ``OrderResult``.

    A plain class rather than the NamedTuple it was: compiled, it is made in a few hundred
    machine instructions, a NamedTuple in about 2,000 (a few are made per phase)."""

    __slots__ = ("outcome", "by", "dislodged_by")

    outcome: Final[Outcome]
    by: Final[tuple[str, ...]]
    dislodged_by: Final[str | None]

    def __init__(
        self, outcome: Outcome, by: tuple[str, ...] = (), dislodged_by: str | None = None
    ) -> None:
        self.outcome = outcome
        self.by = by
        self.dislodged_by = dislodged_by


def unit_label(unit: Unit) -> str:
    """``A PAR`` for a unit (made once per unit: see ``orders.Unit``)."""
    return str(unit)


SUCCESS_FATE = UnitFate(Outcome.SUCCEEDS)
VOID_FATE = UnitFate(Outcome.VOID)


class MovementResolver:
    """One movement phase. Build it, call ``run()``, then read the public fields."""

    __slots__ = (
        "board",
        "units",
        "orders",
        "move_to",
        "move_loc",
        "attackers",
        "convoyed",
        "no_route",
        "paradox",
        "fleets_for",
        "hold_support",
        "move_support",
        "support_into",
        "void",
        "guess",
        "started",
        "clock",
        "result",
        "h2h",
        "deps",
        "arrivals",
        "cuts",
        "weak",
    )

    def __init__(
        self,
        board: Board,
        units: dict[str, Unit],
        orders: dict[str, Order],
        index: OrderIndex | None = None,
    ) -> None:
        """``index``: the orders already sorted by kind (the movement phase does it as it reads
        them); without it the orders are indexed here."""
        if index is None:
            index = OrderIndex(province_index(board), board.army_adjacency)
            for prov, order in orders.items():
                index.add(prov, order)
        self.board = board
        self.units = units
        self.orders = orders
        self.move_to = index.move_to
        self.move_loc = index.move_loc
        self.attackers = index.attackers
        self.convoyed: set[str] = set()
        self.no_route: set[str] = set()
        self.paradox: set[str] = set()
        self.fleets_for: dict[str, list[str]] = {}
        self.hold_support: dict[str, list[str]] = {}
        self.move_support: dict[str, list[str]] = {}
        self.support_into: dict[str, str | None] = {}
        self.void: set[str] = set()
        self.guess: dict[str, bool] = {}  # decisions being guessed
        self.started: dict[str, int] = {}  # when each guessed decision began (``clock``)
        self.clock = 0
        self.result: dict[str, bool] = {}  # decisions taken
        self.h2h: set[str] = set()  # movers in a head-to-head battle (neither convoyed)
        self.deps: list[str] = []
        self.arrivals: dict[str, str] = {}  # province -> the unit that moved in (after run)
        self.cuts: dict[str, str | None] | None = None  # memo of cuts, once every move is decided
        self.weak: set[str] = set()  # movers along a weak link (half strength, cut no support)
        self._link(index)

    # ----------------------------------------------------------------- set-up
    def _link(self, index: OrderIndex) -> None:
        """Who convoys, supports and bounces whom, from the orders sorted by kind."""
        board = self.board
        units = self.units
        move_to = self.move_to
        move_loc = self.move_loc
        attackers = self.attackers
        orders = self.orders
        province = province_index(board)
        convoys = index.convoys
        supports = index.supports
        armies_moving = index.armies_moving
        army_adj = board.army_adjacency
        for target in index.contested:
            attackers[target].sort()
        fleets_for = self.fleets_for
        for prov, order in convoys:
            if move_to.get(order.army) == order.target and units[order.army].type is _ARMY:
                fleets_for.setdefault(order.army, []).append(prov)
            else:
                self.void.add(prov)
        if not fleets_for:
            # an adjacent army with no fleets for it and no VIA goes by land (skipped below)
            armies_moving = index.armies_at_sea
        for prov in armies_moving:
            target = move_to[prov]
            fleets = fleets_for.get(prov, ())
            if target in army_adj[prov]:
                if not fleets and not orders[prov].via_convoy:  # type: ignore[union-attr]
                    continue
                power = units[prov].power
                own = any(units[f].power == power for f in fleets)
                if not (orders[prov].via_convoy or own):  # type: ignore[union-attr]
                    continue  # the land route; foreign convoys cannot kidnap an army
            self.convoyed.add(prov)
            if not fleets or not route_exists(board, prov, target, fleets):
                self.no_route.add(prov)
                self.result[_PATH + prov] = False
        for prov, fleets in fleets_for.items():
            if prov not in self.convoyed or prov in self.no_route:
                self.void.update(fleets)
        convoyed = self.convoyed
        weak_links = board.weak_links
        if weak_links:
            for prov, target in move_to.items():
                if prov not in convoyed and (prov, target) in weak_links:
                    self.weak.add(prov)
        h2h = self.h2h
        for prov in index.facing:
            target = move_to[prov]
            if prov not in convoyed and target not in convoyed:
                h2h.add(prov)
                h2h.add(target)
        for prov, support in supports:
            src = province[support.supported]
            if type(support) is SupportMove:
                target = support.target
                tprov = province[target]
                if move_to.get(src) == tprov and (target == tprov or target == move_loc[src]):
                    self.move_support.setdefault(src, []).append(prov)
                    self.support_into[prov] = tprov
                else:
                    self.void.add(prov)
            elif src in move_to:
                self.void.add(prov)
            else:
                self.hold_support.setdefault(src, []).append(prov)
                self.support_into[prov] = None

    # -------------------------------------------------------------- decisions
    def _resolve(self, node: str) -> bool:
        known = self.result.get(node)
        if known is not None:
            return known
        guess = self.guess
        deps = self.deps
        guessed = guess.get(node)
        if guessed is not None:
            if node not in deps:
                deps.append(node)
            return guessed
        old = len(deps)
        started = self.started
        depth = started[node] = self.clock
        self.clock += 1
        guess[node] = False
        first = self._move_succeeds(node) if node[0] != _PATH else self._adjudicate(node)
        if len(deps) == old:
            del guess[node]
            del started[node]
            self.result[node] = first
            return first
        if self._older_in(old, depth):
            return self._defer(node, first)
        # ``node`` is the oldest decision of the cycle: it takes the cycle in hand
        self._forget(old)
        guess[node] = True
        started[node] = depth
        second = self._adjudicate(node)
        if len(deps) > old and self._older_in(old, depth):
            # the second guess reached a decision guessed higher up: the cycle is theirs
            return self._defer(node, first)
        if first == second:
            self._forget(old)
            guess.pop(node, None)
            started.pop(node, None)
            self.result[node] = first
            return first
        self._backup(old)
        guess.pop(node, None)
        started.pop(node, None)
        return self._resolve(node)

    def _older_in(self, old: int, depth: int) -> bool:
        """Whether a decision the guesses since ``old`` depend on was guessed before the one
        begun at ``depth`` (an ancestor, or one waiting on an ancestor). Kruijswijk's test
        looks only at the first dependency; but a decision guessed higher up can come second
        (``X`` depends on itself, then on an ancestor), and taking the cycle in hand there
        would forget the ancestor's guess while it is still being adjudicated, and settle
        ``X`` on a guess that is not its own."""
        started = self.started
        return any(started[n] < depth for n in self.deps[old:])

    def _defer(self, node: str, value: bool) -> bool:
        """``node`` is part of a cycle that started higher up: keep guessing there."""
        if node not in self.deps:
            self.deps.append(node)
        self.guess[node] = value
        return value

    def _forget(self, old: int) -> None:
        guess = self.guess
        started = self.started
        for n in self.deps[old:]:
            guess.pop(n, None)
            started.pop(n, None)
        del self.deps[old:]

    def _backup(self, old: int) -> None:
        cycle = self.deps[old:]
        self._forget(old)
        if any(n[0] == _PATH for n in cycle):
            # Szykman: the convoyed armies of the paradox fail and have no effect
            for n in cycle:
                if n[0] == _PATH:
                    self.result[n] = False
                    self.paradox.add(n[1:])
        else:
            # circular movement: everybody moves
            for n in cycle:
                self.result[n] = True

    def _adjudicate(self, node: str) -> bool:
        if node[0] == _PATH:
            army = node[1:]
            return route_exists(
                self.board,
                army,
                self.move_to[army],
                self.fleets_for[army],
                self._fleet_stays,
            )
        return self._move_succeeds(node)

    def _fleet_stays(self, fleet: str) -> bool:
        return not any(self._resolve(a) for a in self.attackers.get(fleet, ()))

    def _has_path(self, prov: str) -> bool:
        return prov not in self.convoyed or self._resolve(_PATH + prov)

    def _head_to_head(self, prov: str) -> bool:
        return prov in self.h2h

    def _support_cut(self, supporter: str) -> bool:
        return self._cutter(supporter) is not None

    def _cutter(self, supporter: str) -> str | None:
        if self.cuts is not None:
            # every decision is taken: the answer cannot change any more
            if supporter not in self.cuts:
                self.cuts[supporter] = self._find_cutter(supporter)
            return self.cuts[supporter]
        return self._find_cutter(supporter)

    def _find_cutter(self, supporter: str) -> str | None:
        attackers = self.attackers.get(supporter)
        if not attackers:
            return None
        power = self.units[supporter].power
        into = self.support_into.get(supporter)
        weak = self.weak
        for a in attackers:
            if a == into or a in weak:
                # the attacked unit cannot cut the support against it, only dislodge the supporter;
                # neither can a move along a weak link (DPjudge's exception D)
                if self._resolve(a):
                    return a
                continue
            if self.units[a].power == power:
                continue
            if a in self.convoyed and not self._resolve(_PATH + a):
                continue
            return a
        return None

    def _given(self, supporters: list[str] | tuple[str, ...], exclude: str | None = None) -> int:
        """The strength the uncut supporters give (in half units: 2 each)."""
        n = 0
        units = self.units
        attackers = self.attackers
        for s in supporters:
            if exclude is not None and units[s].power == exclude:
                continue
            # a supporter nobody attacks is never cut: skip the question (the common case)
            if s not in attackers or self._cutter(s) is None:
                n += 2
        return n

    def _base(self, prov: str) -> int:
        """A mover's own strength in half units: 1 along a weak link, else 2."""
        return 1 if prov in self.weak else 2

    def _attack(self, prov: str) -> int:
        if prov in self.convoyed and not self._resolve(_PATH + prov):
            return 0
        target = self.move_to[prov]
        defender = self.units.get(target)
        sups = self.move_support.get(prov, ())
        base = self._base(prov)
        if defender is None:
            return base + self._given(sups)
        if target in self.move_to and prov not in self.h2h and self._resolve(target):
            return base + self._given(sups)
        if defender.power == self.units[prov].power:
            return 0  # no self-dislodgement, whoever supports it
        return base + self._given(sups, defender.power)

    def _hold(self, prov: str) -> int:
        if prov not in self.units:
            return 0
        if prov in self.move_to:
            return 0 if self._resolve(prov) else 2
        return 2 + self._given(self.hold_support.get(prov, ()))

    def _defend(self, prov: str) -> int:
        return self._base(prov) + self._given(self.move_support.get(prov, ()))

    def _prevent(self, prov: str) -> int:
        if prov in self.convoyed and not self._resolve(_PATH + prov):
            return 0
        if prov in self.h2h and self._resolve(self.move_to[prov]):
            return 0
        return self._base(prov) + self._given(self.move_support.get(prov, ()))

    def _move_succeeds(self, prov: str) -> bool:
        if prov in self.convoyed and not self._resolve(_PATH + prov):
            return False
        attack = self._attack(prov)
        target = self.move_to[prov]
        if prov in self.h2h:
            if attack <= self._defend(target):
                return False
        elif attack <= self._hold(target):
            return False
        for other in self.attackers[target]:
            if other != prov and attack <= self._prevent(other):
                return False
        return True

    # ---------------------------------------------------------------- results
    def run(self) -> None:
        result = self.result
        units = self.units
        attackers = self.attackers
        convoyed = self.convoyed
        # a fixed order, so that who-cut-what and paradox cycles never depend on order input
        move_to = self.move_to
        move_support = self.move_support
        no_route = self.no_route
        for prov in sorted(move_to):
            if prov in result:
                continue
            target = move_to[prov]
            if prov in no_route:
                result[prov] = False  # no fleets ordered to carry it: fails, whatever else
                continue
            if prov not in convoyed:
                if target not in units:
                    rivals = attackers[target]
                    if len(rivals) == 1:
                        # alone, by land, into an empty province: nothing can stop it
                        result[prov] = True
                        continue
                    if not any(
                        a in convoyed or a in move_support or a in self.weak for a in rivals
                    ):
                        # unsupported rivals by land: each prevents the others (1 against 1)
                        for a in rivals:
                            result[a] = False
                        continue
                elif target not in move_to and prov not in move_support:
                    # strength 1 (or 0) against a unit that stays, holding with at least 1
                    result[prov] = False
                    continue
            self._resolve(prov)
        self.arrivals = {t: p for p, t in self.move_to.items() if result[p]}
        self.cuts = {}
