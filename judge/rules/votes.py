"""Orders voted by other players for a power's units (abandoned power, Sommossa).

Each voter's orders are matched to the units by the province the order is given from; a voter's
later order for a unit replaces an earlier one. The order with the most votes, compared in
canonical form, is carried out; a tie or no vote at all means hold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence

from judge.adjudicator.orders import Hold, Order, Unit, Waive
from judge.rules.generated import GeneratedOrder, GeneratedWhy


def ballots_by_unit(
    units: Sequence[Unit], votes: Mapping[str, Sequence[Order]]
) -> dict[str, Counter[str]]:
    """Votes per unit province: canonical order text -> number of voters."""
    provinces = {u.province for u in units}
    tally: dict[str, Counter[str]] = {u.province: Counter() for u in units}
    for _voter, orders in sorted(votes.items()):
        chosen: dict[str, Order] = {}
        for order in orders:
            if isinstance(order, Waive):
                continue
            province = order.location.split("/", 1)[0]
            if province in provinces:
                chosen[province] = order
        for province, order in chosen.items():
            tally[province][str(order)] += 1
    return tally


def eligible_votes(
    votes: Mapping[str, Sequence[Order]], voters: Collection[str]
) -> dict[str, Sequence[Order]]:
    return {voter: orders for voter, orders in votes.items() if voter in voters}


def most_voted_orders(
    units: Sequence[Unit],
    votes: Mapping[str, Sequence[Order]],
    *,
    chosen_why: GeneratedWhy,
    hold_why: GeneratedWhy,
) -> list[GeneratedOrder]:
    """One order per unit: the unique most voted one, else hold."""
    texts: dict[str, Order] = {}
    for orders in votes.values():
        for order in orders:
            texts.setdefault(str(order), order)
    tally = ballots_by_unit(units, votes)
    result = []
    for unit in sorted(units, key=lambda u: u.location):
        ranked = tally[unit.province].most_common()
        if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
            result.append(GeneratedOrder(texts[ranked[0][0]], chosen_why))
        else:
            result.append(GeneratedOrder(Hold(unit.type, unit.location), hold_why))
    return result
