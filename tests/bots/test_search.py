"""The search (issue 29): legal on any variant's graph, reproducible for a seed, finds what one
greedy pass does not (a supported attack), keeps within its budget, and wins more centres than
the greedy baseline playing the same seat."""

from __future__ import annotations

import random

import pytest

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.catalog import variant
from judge.adjudicator.legality import Refusal, normalize
from judge.adjudicator.orders import Hold, Move, Order, SupportHold, SupportMove, UnitType
from judge.adjudicator.outcomes import Options
from judge.adjudicator.position import Position
from judge.adjudicator.possible import possible_orders
from judge.adjudicator.variant import Variant
from judge.bots.baseline import movement_orders
from judge.bots.engine import BASE_WEIGHTS, bot_orders, likely_replies, phase_rules, reply_models
from judge.bots.mapview import view_of_variant
from judge.bots.search import (
    PROSPECT,
    THREATENED,
    _alternatives,
    _carried,
    _neighbours,
    _offers,
    _stirred,
    _Trials,
    improve,
    neighbourhood,
    score,
)
from judge.bots.valuation import reach_counts, value_position

STANDARD = variant("standard")


def _positions(v: Variant, seed: int, years: int) -> list[Position]:
    """The movement positions of a short game of plain players (a mid-game board to search)."""
    rng = random.Random(seed)
    position = v.initial_position()
    seen = []
    while position.phase.year < v.first_phase.year + years:
        if position.phase.is_movement:
            seen.append(position)
        board, options = phase_rules(v, position)
        orders = {p: bot_orders(position, p, rng, None, v, plain=True)
                  for p in v.active_powers(position.phase)}
        position = adjudicate(position, orders, options, variant=v, board=board).position
    return seen


@pytest.mark.parametrize("name", ["standard", "ancmed", "youngstown", "chaos"])
def test_search_gives_legal_orders_on_the_variant_s_own_graph(name: str) -> None:
    v = variant(name)
    positions = _positions(v, 7, 3)
    rng = random.Random(11)
    for position in (positions[0], positions[-1]):
        board, _ = phase_rules(v, position)
        powers = [p for p in v.active_powers(position.phase) if position.units_of(p)]
        for power in powers[:8]:
            orders = bot_orders(position, power, rng, "aggressive", v)
            units = {u.location for u in position.units_of(power)}
            assert {o.location for o in orders} == units  # type: ignore[union-attr]
            for order in orders:
                refusal = normalize(position, power, order, board)
                assert not isinstance(refusal, Refusal), f"{name} {power}: {order} {refusal}"


@pytest.mark.parametrize("name", ["standard", "youngstown"])
def test_same_seed_same_decision(name: str) -> None:
    v = variant(name)
    position = _positions(v, 3, 3)[-1]
    power = max(v.powers, key=lambda p: len(position.units_of(p)))
    first = bot_orders(position, power, random.Random(5), "opportunist", v)
    again = bot_orders(position, power, random.Random(5), "opportunist", v)
    assert first == again


def _search(position: Position, power: str, candidates: list[list[Order]],
            budget: int) -> list[Order]:
    view = view_of_variant(STANDARD)
    legal = possible_orders(position, power, STANDARD.board)
    valuation = value_position(view, position, power, BASE_WEIGHTS)
    replies = [{"GERMANY": [Hold(u.type, u.location) for u in position.units_of("GERMANY")]}]
    return improve(STANDARD, view, position, power, legal, candidates, replies, valuation, 0.5,
                   random.Random(1), budget=budget)[0]


def test_finds_the_supported_attack_one_unit_changes_miss() -> None:
    """Belgium held by one German army, two French armies beside it: a lone move bounces, so
    from the holding candidate only a two-unit change (a move with its support) takes it."""
    centres = {"GERMANY": ["BEL", "MUN", "KIE", "BER"], "FRANCE": ["PAR", "BRE", "MAR"]}
    position = STANDARD.position(
        "F1901M", {"FRANCE": ["A PIC", "A BUR"], "GERMANY": ["A BEL", "A MUN", "A RUH"]}, centres
    )
    holding = [Hold(u.type, u.location) for u in position.units_of("FRANCE")]
    orders = _search(position, "FRANCE", [holding], budget=5000)
    attack = next(o for o in orders if isinstance(o, Move))
    support = next(o for o in orders if isinstance(o, SupportMove))
    assert attack.target == "BEL" and support.supported == attack.location
    after = adjudicate(position, {"FRANCE": orders}).position
    assert after.units["BEL"].power == "FRANCE"
    # without a budget the search gives the best candidate as it is
    assert _search(position, "FRANCE", [holding], budget=0) == sorted(
        holding, key=lambda o: o.location)


def test_a_spring_move_is_worth_the_centre_it_lets_the_fall_take() -> None:
    """After the Spring an army in Picardy can take Belgium in the Fall, one in Paris no new
    centre; a German army in the Ruhr contests Belgium one to one, so it is no longer counted."""
    view = view_of_variant(STANDARD)
    centres = {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "KIE", "BER"]}
    before = STANDARD.position("S1901M", {"FRANCE": ["A PAR"]}, centres)
    valuation = value_position(view, before, "FRANCE", BASE_WEIGHTS)

    def spring(units: dict[str, list[str]]) -> float:
        after = STANDARD.position("S1901M", units, centres)
        # a yardstick so large that where the units stand weighs nothing here
        return score(STANDARD, view, before, after, "FRANCE", valuation, 1e15)

    at_home = spring({"FRANCE": ["A PAR"]})
    beside = spring({"FRANCE": ["A PIC"]})
    assert beside > at_home
    assert beside - at_home == pytest.approx(PROSPECT)
    contested = spring({"FRANCE": ["A PIC"], "GERMANY": ["A RUH"]})
    assert contested == pytest.approx(spring({"FRANCE": ["A PAR"], "GERMANY": ["A RUH"]}))
    backed = spring({"FRANCE": ["A PIC", "A BUR"], "GERMANY": ["A RUH"]})
    # two French armies at Belgium against one German: Belgium counts again, once
    assert backed - spring({"FRANCE": ["A PAR", "A BRE"], "GERMANY": ["A RUH"]}) == (
        pytest.approx(PROSPECT))


def test_one_unit_defends_one_centre_after_the_spring() -> None:
    """Italy's army in Venice reaches Trieste, Russia's in Galicia Vienna and Budapest: Austrian
    armies in Trieste and Budapest can keep two of the three, not all three (each was counted
    at every centre it reaches, and the search emptied Vienna and Budapest in 1901 and lost a
    centre); a third army in Vienna keeps all three, and is worth one threatened centre less
    (the rest alike: Serbia the one prospect, where the units stand weighing nothing)."""
    view = view_of_variant(STANDARD)
    centres = {"AUSTRIA": ["VIE", "BUD", "TRI"], "ITALY": ["VEN", "ROM", "NAP"],
               "RUSSIA": ["MOS", "WAR", "SEV", "STP"]}
    foes = {"ITALY": ["A VEN"], "RUSSIA": ["A GAL"]}
    before = STANDARD.position("S1901M", {"AUSTRIA": ["A VIE", "A BUD", "F TRI"], **foes},
                               centres)
    valuation = value_position(view, before, "AUSTRIA", BASE_WEIGHTS)

    def spring(austria: list[str]) -> float:
        after = STANDARD.position("S1901M", {"AUSTRIA": austria, **foes}, centres)
        return score(STANDARD, view, before, after, "AUSTRIA", valuation, 1e15)

    two = spring(["A TRI", "A BUD"])
    three = spring(["A TRI", "A BUD", "A VIE"])
    assert three - two == pytest.approx(THREATENED)
    # with nobody at Galicia, two armies are enough: no centre outnumbered either way
    del foes["RUSSIA"]
    assert spring(["A TRI", "A BUD", "A VIE"]) == pytest.approx(spring(["A TRI", "A BUD"]))


def test_the_trials_board_is_the_power_s_neighbourhood() -> None:
    position = STANDARD.initial_position()
    near = neighbourhood(view_of_variant(STANDARD), position, "ENGLAND")
    assert {"LON", "EDI", "LVP", "NTH", "BEL", "NWY"} <= near
    assert not {"SEV", "ANK", "SMY", "CON"} & near


def _game(subject: str, seed: int, plain_subject: bool, last_year: int = 1905) -> int:
    """The subject's centres at the end of ``last_year``, six greedy powers against it."""
    rng = random.Random(seed)
    position = STANDARD.initial_position()
    while position.phase.year <= last_year:
        orders = {
            power: bot_orders(position, power, rng, "loyal", STANDARD,
                              plain=power != subject or plain_subject)
            for power in STANDARD.powers
        }
        position = adjudicate(position, orders, variant=STANDARD).position
    return len(position.centers_of(subject))


def test_the_search_beats_the_greedy_baseline_in_its_seat() -> None:
    """Six seeded games to the end of 1905, each seat played once by the search and once by
    the greedy baseline against the same six greedy opponents: the search ends with more
    centres in total (a margin of a centre and more per game measured when written: 44 to 31)
    and with no fewer in all but one game."""
    seats = [("FRANCE", 1), ("ENGLAND", 2), ("TURKEY", 3), ("GERMANY", 4), ("AUSTRIA", 5),
             ("ITALY", 6)]
    searched = [_game(power, seed, plain_subject=False) for power, seed in seats]
    greedy = [_game(power, seed, plain_subject=True) for power, seed in seats]
    assert sum(searched) >= sum(greedy) + len(seats), (searched, greedy)
    assert sum(s >= g for s, g in zip(searched, greedy, strict=True)) >= len(seats) - 1


def test_a_support_nobody_opposes_is_not_tried() -> None:
    """A support changes an outcome only where another power stands or may move (or another
    own unit is bound): the climb does not spend trials on the others, and tries the one into
    a province a reply enters."""
    view = view_of_variant(STANDARD)
    centres = {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["MUN", "KIE", "BER"]}
    position = STANDARD.position("S1901M", {"FRANCE": ["A PAR", "A BUR", "A PIC"],
                                            "GERMANY": ["A MUN"]}, centres)
    legal = possible_orders(position, "FRANCE", STANDARD.board)
    valuation = value_position(view, position, "FRANCE", BASE_WEIGHTS)
    chosen: dict[str, Order] = {"PAR": Hold(UnitType.ARMY, "PAR"),
                                "BUR": Hold(UnitType.ARMY, "BUR"),
                                "PIC": Move(UnitType.ARMY, "PIC", "BEL")}

    def supports(contested: set[str]) -> set[str]:
        backings, carriers = _offers(legal)
        tried = _alternatives("BUR", chosen, legal, valuation, position, "FRANCE", (),
                              backings, (), view, contested, carriers, STANDARD.board)
        return {str(o) for change in tried for o in change.values()
                if isinstance(o, SupportHold | SupportMove) and o.location == "BUR"}

    # Germany stays in Munich: Paris and Belgium are no one else's business
    assert supports({"MUN"}) == set()
    # a German move to Belgium in one reply: the support of Picardy's move counts
    assert supports({"MUN", "BEL"}) == {"A BUR S A PIC - BEL"}
    # a German move to Paris: the support of Paris's hold counts
    assert supports({"MUN", "PAR"}) == {"A BUR S A PAR"}


def test_an_army_is_tried_over_the_sea_with_the_fleet_that_carries_it() -> None:
    """A convoy is two units' orders: the army's move alone only bounces and the fleet's
    convoy alone carries nobody, so one-unit changes never found one. The climb tries the army's
    move over the sea with the own fleet that carries it, as one change; not with a fleet whose
    order was promised, and not into a place promised to another power."""
    view = view_of_variant(STANDARD)
    centres = {"ENGLAND": ["LON", "EDI", "LVP"]}
    position = STANDARD.position("S1901M", {"ENGLAND": ["A YOR", "F NTH", "F LON"]}, centres)
    legal = possible_orders(position, "ENGLAND", STANDARD.board)
    valuation = value_position(view, position, "ENGLAND", BASE_WEIGHTS)
    chosen: dict[str, Order] = {loc: Hold(position.units[loc].type, loc)
                                for loc in ("YOR", "NTH", "LON")}
    backings, carriers = _offers(legal)

    def convoys(fixed: tuple[str, ...] = (), avoid: tuple[str, ...] = ()) -> dict[str, set[str]]:
        tried = _alternatives("YOR", chosen, legal, valuation, position, "ENGLAND", fixed,
                              backings, avoid, view, set(), carriers, STANDARD.board)
        out = {}
        for change in tried:
            move = change["YOR"]
            if isinstance(move, Move) and move.target not in view.army_moves["YOR"]:
                out[move.target] = {str(o) for loc, o in change.items() if loc != "YOR"}
        return out

    carried = convoys()
    # Norway, Belgium, Holland, Denmark: each by the fleet in the North Sea alone (the one
    # fleet that makes the route; London's fleet offers no convoy from its port)
    for target in ("NWY", "BEL", "HOL", "DEN"):
        assert carried[target] == {f"F NTH C A YOR - {target}"}
    for change in _alternatives("YOR", chosen, legal, valuation, position, "ENGLAND", (),
                                backings, (), view, set(), carriers, STANDARD.board):
        for loc, order in change.items():
            assert not isinstance(normalize(position, "ENGLAND", order, STANDARD.board),
                                  Refusal), (loc, order)
    assert convoys(fixed=("NTH",)) == {}
    assert "NWY" not in convoys(avoid=("NWY",))
    # the pair itself, as the climb applies it
    pair = _carried("YOR", Move(UnitType.ARMY, "YOR", "NWY"), carriers, (), STANDARD.board)
    assert pair is not None and set(pair) == {"YOR", "NTH"}


def test_a_change_stirs_only_the_units_that_reach_its_battles() -> None:
    """After the first pass a unit is tried again only near a change kept since: Picardy's
    move to Belgium stirs the places within two steps of Picardy and Belgium, not Moscow."""
    view = view_of_variant(STANDARD)
    before: dict[str, Order] = {"PIC": Hold(UnitType.ARMY, "PIC")}
    after: dict[str, Order] = {"PIC": Move(UnitType.ARMY, "PIC", "BEL")}
    stirred = _stirred(_neighbours(view), before, after)
    assert {"PIC", "BEL", "HOL", "BUR", "PAR", "RUH", "NTH", "KIE", "LON"} <= stirred
    assert not {"MOS", "WAR", "VIE", "ROM"} & stirred
    assert _stirred(_neighbours(view), before, before) == set()


def test_budget_left_climbs_again_from_the_next_starts() -> None:
    """A climb stops at the first order set no single change improves; with budget to spare
    the search climbs again from the next best starting sets and keeps the best set any climb
    found. With the same seed the first climb is the same, so the restarts never score lower
    than one climb, and on mid-game boards they find better sets the one climb missed."""
    view = view_of_variant(STANDARD)
    better = 0
    tried = 0
    for seed in (3, 5, 8):
        position = _positions(STANDARD, seed, 4)[-1]
        counts = reach_counts(view, position)
        for power in STANDARD.powers:
            if len(position.units_of(power)) < 4:
                continue
            legal = possible_orders(position, power, STANDARD.board)
            valuation = value_position(view, position, power, BASE_WEIGHTS)
            rng = random.Random(seed)
            starts = []
            for temperature in (0.0, 0.3, 0.6, 0.9):
                chosen = movement_orders(position, power, legal, valuation, rng, temperature, view)
                starts.append([chosen[loc] for loc in sorted(chosen)])
            models = reply_models(STANDARD.board, view, position, power, counts)
            replies = likely_replies(models, view, position, rng)
            # each search its own valuation: the memo of places asked sets the score's scale
            values = [
                improve(STANDARD, view, position, power, legal, starts, replies,
                       value_position(view, position, power, BASE_WEIGHTS), 1.0,
                       random.Random(1), budget=40000, restarts=restarts)[1]
                for restarts in (1, 3)
            ]
            tried += 1
            assert values[1] >= values[0] - 1e-9, (seed, power, values)
            better += values[1] > values[0] + 1e-9
    assert tried >= 6
    assert better >= 1, tried  # 3 of the 14 when written


def test_a_trial_played_in_parts_ends_where_the_whole_board_ends() -> None:
    """A trial's board is played in parts (``battles.Split``: the battles its orders tie together,
    each adjudicated alone or read from a part seen before) and a board seen before is not
    scored again. Every unit ends where the whole board's adjudication leaves it, the same
    units are dislodged or destroyed, and the trial scores as the whole board does, on every
    one-unit change of mid-game decisions of every power."""
    view = view_of_variant(STANDARD)
    checked = 0
    for seed in (3, 8):
        position = _positions(STANDARD, seed, 4)[-1]
        counts = reach_counts(view, position)
        for power in STANDARD.powers:
            if not position.units_of(power):
                continue
            legal = possible_orders(position, power, STANDARD.board)
            valuation = value_position(view, position, power, BASE_WEIGHTS)
            rng = random.Random(seed)
            chosen = movement_orders(position, power, legal, valuation, rng, 0.0, view)
            replies = likely_replies(reply_models(STANDARD.board, view, position, power, counts),
                                     view, position, rng)
            trials = _Trials(STANDARD, view, position, power, replies, valuation, 0.9,
                             Options(), None, 10**9)
            trials.norm = valuation.top()
            sets = [dict(chosen)]
            for loc in sorted(chosen):
                for order in legal[loc]:
                    sets.append({**chosen, loc: order})
            for orders in sets:
                scores = []
                for reply, split in zip(trials.replies, trials.splits, strict=True):
                    given = dict(reply)
                    given[power] = list(orders.values())
                    whole = adjudicate(trials.position, given, variant=STANDARD)
                    lost = [d.unit for d in whole.position.dislodged.values()]
                    lost.extend(whole.destroyed)
                    scores.append(score(STANDARD, view, trials.position, whole.position, power,
                                        valuation, trials.norm, whole.destroyed))
                    units, beaten = split.after(list(orders.values()))
                    assert dict(units) == whole.position.units, (seed, power, orders)
                    assert sorted(map(str, beaten)) == sorted(map(str, lost))
                    checked += 1
                expected = 0.9 * sum(scores) / len(scores) + 0.1 * min(scores)
                assert trials.value(orders) == pytest.approx(expected), (seed, power, orders)
    assert checked > 3000, checked  # 6,804 when written
