"""Everything the compiled build must answer as the pure source does, written out as text.

``python -m tests.adjudicator.compiled_check`` adjudicates a sample and prints one line per
case: every DATC case of the shared file and of our own, the first games of the Droidippy
sample corpus phase by phase through ``judge adjudicate``'s handlers (answers as JSON), each of
their movement positions listed (``all_possible_orders``), the house rules' cases and corpus
phases with one power's orders made up by each house rule, and seeded random games on every
installed variant (results, next positions, listings, a pickled round trip), and the computer
powers' orders in a seeded game on two maps (their search is compiled too). Its first line
names the build that ran. ``test_compiled.py`` runs it twice, once with ``JUDGE_PURE_PYTHON=1``
(the reference), and compares the two texts line by line.
"""

from __future__ import annotations

import json
import pickle
import random
import sys
from typing import Any

from judge.adjudicator.adjudication import Options, adjudicate
from judge.adjudicator.catalog import variant, variant_names
from judge.adjudicator.datc import parse_cases, run_case
from judge.adjudicator.jsonio import adjudicate_json, position_from_json, position_to_json
from judge.adjudicator.outcomes import Adjudication
from judge.adjudicator.position import Position
from judge.adjudicator.possible import all_possible_orders, random_orders
from judge.bots.engine import bot_orders, describe
from judge.pure_python import compiled_modules
from judge.rules.house_jsonio import adjudicate_json_with_rules
from tests.adjudicator.test_datc import OWN_FILE, SHARED_FILE
from tests.corpus.droidippy import SAMPLE, read_record, records, request_for
from tests.rules.house_cases import CASES

GAMES = 40  # of the Droidippy sample: about 1,500 phases
RANDOM_GAMES = 3  # per variant
BOT_YEARS = 4  # of a game with one searching computer power


def _line(kind: str, name: str, value: Any) -> str:
    return f"{kind} {name} {json.dumps(value, sort_keys=True, default=str)}"


def _listing(position: Position) -> dict[str, dict[str, list[str]]]:
    return {
        power: {loc: [str(o) for o in orders] for loc, orders in by_loc.items()}
        for power, by_loc in all_possible_orders(position).items()
    }


def _result(result: Adjudication) -> dict[str, Any]:
    return {
        "results": {
            p: [[str(r.order), r.outcome, r.refusal, list(r.by), r.dislodged_by, r.generated]
                for r in rs]
            for p, rs in result.results.items()
        },
        "units": {p: [str(r.order), r.outcome] for p, r in result.unit_results.items()},
        "next": position_to_json(result.position),
        "dislodged": {p: [str(d.unit), d.attacker_from, d.retreats]
                      for p, d in result.position.dislodged.items()},
        "destroyed": [f"{u.power} {u}" for u in result.destroyed],
    }


def datc_lines() -> list[str]:
    out = []
    for path in (SHARED_FILE, OWN_FILE):
        if not path.exists():
            continue
        for case in parse_cases(path.read_text("utf-8")):
            r = run_case(case)
            out.append(_line("datc", case.id, [r.passed, r.got_units, r.got_dislodged, r.error]))
    return out


def corpus_lines(games: int = GAMES) -> list[str]:
    out = []
    for name, text in records(SAMPLE, games):
        retreats: dict[str, Any] = {}
        for phase in read_record(text):
            if phase.name.endswith("R") and not phase.dislodged:
                continue
            request = request_for(phase, retreats)
            try:
                answer = adjudicate_json(request)
            except ValueError as exc:  # a gap in the record: the error must agree too
                out.append(_line("corpus", f"{name} {phase.name}", str(exc)))
                continue
            retreats = answer["dislodged"]
            out.append(_line("corpus", f"{name} {phase.name}", answer))
            out.append(_line("house", f"{name} {phase.name}", adjudicate_json_with_rules(request)))
            if phase.name.endswith("M"):
                position = position_from_json(request)
                out.append(_line("listing", f"{name} {phase.name}", _listing(position)))
    return out


def _house(request: dict[str, Any]) -> Any:
    try:
        return adjudicate_json_with_rules(request)
    except ValueError as exc:  # the refusal must agree too
        return f"error: {exc}"


def house_lines(games: int = GAMES // 4) -> list[str]:
    """The house rules' own cases, and corpus phases with a power's orders taken away and
    made up by each rule: civil disorder, a first and a second ONP, Sommossa with votes."""
    out = [_line("house-case", name, _house(request)) for name, (request, _) in CASES.items()]
    for name, text in records(SAMPLE, games):
        retreats: dict[str, Any] = {}
        for phase in read_record(text):
            if phase.name.endswith("R") and not phase.dislodged:
                continue
            request = request_for(phase, retreats)
            try:
                retreats = adjudicate_json(request)["dislodged"]
            except ValueError:
                continue
            if not request["orders"]:
                continue
            power = sorted(request["orders"])[0]
            given = request["orders"][power]
            others = {p: o for p, o in request["orders"].items() if p != power}
            voter = next((p for p in sorted(request["units"]) if p != power), power)
            variants = {
                "french": {**request, "orders": others, "rules": "french"},
                "onp1": {**request, "orders": others, "onp": {power: 1}},
                "onp2": {**request, "orders": others, "onp": {power: 2},
                         "votes": {power: {voter: given}}},
                "sommossa": {**request, "orders": others, "sommossa": [power],
                             "votes": {power: {voter: given}}},
            }
            for kind, varied in variants.items():
                out.append(_line("house-" + kind, f"{name} {phase.name}", _house(varied)))
    return out


def random_lines(games: int = RANDOM_GAMES) -> list[str]:
    out = []
    for name in variant_names():
        v = variant(name)
        joins = None
        if v.lot is not None:
            joins = next(p for p in v.powers if p != v.lot.power)
        for seed in range(games):
            rng = random.Random(seed)
            position = v.initial_position()
            while position.phase.year < v.first_phase.year + 11:
                label = f"{name}/{seed} {position.phase}"
                if position.phase.is_movement:
                    out.append(_line("random-listing", label, _listing(position)))
                orders = {p: random_orders(position, p, rng)
                          for p in v.active_powers(position.phase, joins)}
                result = adjudicate(position, orders, Options(joins=joins), v)
                copy = pickle.loads(pickle.dumps(result))
                out.append(_line("random", label, [_result(result), copy == result]))
                position = result.position
    return out


def bot_lines(years: int = BOT_YEARS) -> list[str]:
    """The computer powers' decisions (search, values, the plain engine: compiled with the
    adjudicator) in a seeded game of each kind of map: the orders must be the same."""
    out = []
    for name in ("standard", "youngstown"):
        v = variant(name)
        rng = random.Random(7)
        position = v.initial_position()
        while position.phase.year < v.first_phase.year + years:
            orders = {p: bot_orders(position, p, rng, "opportunist", v, plain=p != v.powers[0])
                      for p in v.active_powers(position.phase)}
            out.append(_line("bot", f"{name} {position.phase}",
                             {p: describe(o) for p, o in orders.items()}))
            position = adjudicate(position, orders, variant=v).position
    return out


def main() -> int:
    lines = [*datc_lines(), *corpus_lines(), *house_lines(), *random_lines(), *bot_lines()]
    print(_line("build", "compiled", compiled_modules()))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
