"""A game in MILA's saved-game JSON (the ``diplomacy`` package's ``to_saved_game_format``), out
and back in (issue 27 point 5).

The format, as MILA writes it: ``{"id", "map", "rules", "phases": [...]}``, each phase
``{"name": "S1901M", "state": {...}, "orders": {power: [order, ...]}, "results": {unit:
[result, ...]}, "messages": [...]}``, the last phase being the current position with no
orders. A state lists each power's ``units`` (a dislodged unit with a leading ``*``),
``retreats`` (dislodged unit -> where it may go), ``centers``, ``homes``, ``influence``,
``civil_disorder`` and ``builds``. Phase names, unit and order texts are the judge's own
canonical notation already (``A PAR - BUR``, ``F STP/SC``, ``A TYR R TRI``, ``F LVP B``).

Export: every processed phase from its immutable turn snapshot; the orders are those the
phase was adjudicated with (the players' and those the rules supplied, such as the house
rules' hold-and-support for a missing power; refused orders are left out, their units held),
so a program replaying the file with any DATC adjudicator reaches the same positions. The
messages are the public press only (broadcasts that name their sender); private and grey
press, order sets not yet processed, addresses and passwords never leave. ``influence`` is
the centres owned (the judge keeps no other influence), ``zobrist_hash`` is left empty (a
MILA-internal hash of its own board).

Import: bounded (``MAX_BYTES``, ``MAX_PHASES``, order and message caps) and checked, not
trusted: every state is read as a judge position (units on real provinces of the variant),
and every phase is adjudicated again by the judge from its state and orders; the result must
be the next phase's position, else the file is refused naming the phase. (One known way MILA's
engine differs from the DATC: it moves an army ordered ``A YOR - LON VIA`` overland when no
fleet carries it, where the judge makes the explicit convoy fail; a file holding such a phase
is refused there.) The game is stored
finished, with its turn snapshots, for the archive and the API: it has no seats to play.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from judge.adjudicator.catalog import variant as installed_variant
from judge.adjudicator.catalog import variant_names
from judge.adjudicator.jsonio import RequestError, adjudicate_json, position_from_json
from judge.adjudicator.variant import Variant
from judge.service import games
from judge.storage import Session, gamerepo, playrepo
from judge.storage.models import Game, Press, Turn

MAX_BYTES = 8 * 1024 * 1024
MAX_PHASES = 2000
MAX_ORDERS = 60  # per power and phase
MAX_TEXT = 120  # an order's characters
MAX_MESSAGES = 20_000
MAX_MESSAGE = 20_000
BROADCAST = "*"
GLOBAL = "GLOBAL"
# the judge's reasons for a failed order, as MILA's results name them
_RESULTS = {"bounced": "bounce", "support_cut": "cut", "void": "void",
            "no_convoy_route": "no convoy", "convoy_disrupted": "disrupted",
            "convoy_paradox": "disrupted", "dislodged": "dislodged"}


class ImportRefused(ValueError):
    """The file is not a game the judge can take: the message says where and why."""


# ---------------------------------------------------------------- export


def _state(position: dict[str, Any], variant: Variant, game_id: str,
           stamp: datetime) -> dict[str, Any]:
    phase = str(position.get("phase", ""))
    units = position.get("units") or {}
    dislodged = position.get("dislodged") or {}
    centers = position.get("centers") or {}
    homes = position.get("homes") or {p: list(h) for p, h in variant.homes.items()}
    state: dict[str, Any] = {
        "timestamp": int(stamp.timestamp() * 1_000_000), "zobrist_hash": "", "note": "",
        "name": phase, "units": {}, "retreats": {}, "centers": {}, "homes": {},
        "influence": {}, "civil_disorder": {}, "builds": {},
        "game_id": game_id, "map": variant.name, "rules": [],
    }
    for power in variant.powers:
        mine = list(units.get(power, []))
        gone = dict(dislodged.get(power, {}))
        state["units"][power] = mine + [f"*{u}" for u in gone]
        state["retreats"][power] = {u: list(places) for u, places in gone.items()}
        state["centers"][power] = list(centers.get(power, []))
        state["homes"][power] = list(homes.get(power, []))
        state["influence"][power] = list(centers.get(power, []))
        state["civil_disorder"][power] = 0
        count = len(centers.get(power, [])) - len(mine) if phase.endswith("A") else 0
        state["builds"][power] = {"count": count, "homes": []}
    return state


def _orders(outcomes: dict[str, Any]) -> dict[str, list[str]]:
    return {power: [r["order"] for r in results if r.get("reason") != "illegal"]
            for power, results in sorted(outcomes.items())}


def _results(outcomes: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for results in outcomes.values():
        for r in results:
            words = str(r["order"]).split()
            if len(words) < 2 or words[0] not in ("A", "F"):
                continue  # WAIVE: no unit
            said = _RESULTS.get(str(r.get("reason", "")))
            marks = [said] if said else []
            if r.get("dislodged_by") and "dislodged" not in marks:
                marks.append("dislodged")
            out[f"{words[0]} {words[1]}"] = marks
    return out


def _messages(press: list[Press], phase: str) -> list[dict[str, Any]]:
    return [{"sender": p.from_power, "recipient": GLOBAL, "phase": phase,
             "time_sent": int(p.created.replace(tzinfo=p.created.tzinfo or UTC).timestamp()
                              * 1_000_000),
             "message": p.body}
            for p in press if p.phase == phase]


def public_press(session: Session, game: Game) -> list[Press]:
    """The game's public press: broadcasts (every player and observer reads them) that name
    their sender; grey (anonymous) and private press are never public."""
    return [p for p in playrepo.press_of_game(session, game.id)
            if not p.grey and BROADCAST in (p.to_powers or [])]


def export_game(session: Session, name: str) -> dict[str, Any] | None:
    """The game ``name`` in MILA's saved-game format; None when there is no such game (a
    forming game has nothing to show either)."""
    game = gamerepo.game_by_name(session, name)
    if game is None or game.status == "forming":
        return None
    variant = games.game_variant(game)
    public = public_press(session, game)
    phases = []
    for turn in gamerepo.turns(session, game.id):
        phases.append({
            "name": turn.phase,
            "state": _state(turn.position_before or {}, variant, game.name, turn.created),
            "orders": _orders(turn.outcomes or {}),
            "results": _results(turn.outcomes or {}),
            "messages": _messages(public, turn.phase),
        })
    current = game.position or {}
    if current.get("phase") and (not phases or phases[-1]["name"] != current["phase"]):
        phases.append({"name": current["phase"],
                       "state": _state(current, variant, game.name, game.created),
                       "orders": {}, "results": {},
                       "messages": _messages(public, str(current["phase"]))})
    return {"id": game.name, "map": variant.name, "rules": [], "phases": phases}


# ---------------------------------------------------------------- import


def _position(state: Any, variant: Variant, where: str) -> dict[str, Any]:
    """A MILA state as the judge's position JSON, checked against the variant's map."""
    if not isinstance(state, dict):
        raise ImportRefused(f"{where}: no state")
    units: dict[str, list[str]] = {}
    dislodged: dict[str, dict[str, list[str]]] = {}
    retreats = state.get("retreats") or {}
    for power, texts in (state.get("units") or {}).items():
        if power not in variant.powers or not isinstance(texts, list):
            raise ImportRefused(f"{where}: unknown power {str(power)[:20]!r}")
        for text in texts[:MAX_ORDERS]:
            text = str(text)[:MAX_TEXT]
            if text.startswith("*"):
                places = (retreats.get(power) or {}).get(text[1:], [])
                dislodged.setdefault(power, {})[text[1:]] = [str(p) for p in places][:40]
            else:
                units.setdefault(power, []).append(text)
    centers = {str(p): [str(c) for c in cs][:100]
               for p, cs in (state.get("centers") or {}).items() if cs}
    position: dict[str, Any] = {"phase": str(state.get("name", ""))[:8], "units": units,
                                "centers": centers, "dislodged": dislodged}
    homes = state.get("homes")
    if isinstance(homes, dict) and {p: sorted(h) for p, h in homes.items() if h} != {
            p: sorted(h) for p, h in variant.homes.items() if h}:
        position["homes"] = {str(p): [str(c) for c in h] for p, h in homes.items()}
    try:
        position_from_json(position, variant)
    except RequestError as exc:
        raise ImportRefused(f"{where}: {exc}") from None
    return position


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    def norm(p: dict[str, Any]) -> tuple[Any, ...]:
        return ({k: sorted(v) for k, v in (p.get("units") or {}).items() if v},
                {k: sorted(v) for k, v in (p.get("centers") or {}).items() if v},
                {k: sorted(v) for k, v in (p.get("dislodged") or {}).items() if v})
    return norm(a) == norm(b)


def read_saved_game(text: str | bytes) -> dict[str, Any]:
    """The file's JSON, within the size bound."""
    if len(text) > MAX_BYTES:
        raise ImportRefused(f"the file is larger than {MAX_BYTES} bytes")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ImportRefused(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("phases"), list):
        raise ImportRefused("not a saved game: no phases")
    return data


def import_game(session: Session, data: dict[str, Any], name: str, now: datetime,
                language: str = "en") -> Game:
    """Store ``data`` (a saved game) as the new finished game ``name``; raises
    :class:`ImportRefused` (nothing stored) when the file does not hold together."""
    if not games.valid_game_name(name):
        raise ImportRefused(f"{name!r} cannot be a game name")
    if gamerepo.game_by_name(session, name) is not None:
        raise ImportRefused(f"a game called {name!r} already exists")
    map_name = str(data.get("map", "standard"))
    if map_name not in variant_names():
        raise ImportRefused(f"unknown map {map_name[:40]!r}")
    variant = installed_variant(map_name)
    phases = data["phases"]
    if not phases or len(phases) > MAX_PHASES:
        raise ImportRefused(f"a saved game has 1 to {MAX_PHASES} phases")
    if str(phases[-1].get("name")) == "COMPLETED" and len(phases) > 1:
        # MILA's finished game: the position after the last phase, named for no phase
        phases = phases[:-1] + [{**phases[-1], "state": {**phases[-1]["state"], "name": ""}}]
    turns: list[Turn] = []
    press: list[Press] = []
    messages = 0
    position = _position(phases[0].get("state"), variant, "phase 1")
    for index, phase in enumerate(phases):
        if not isinstance(phase, dict):
            raise ImportRefused(f"phase {index + 1}: not an object")
        where = str(phase.get("name", index + 1))[:8]
        for message in phase.get("messages") or []:
            messages += 1
            if messages > MAX_MESSAGES:
                raise ImportRefused(f"more than {MAX_MESSAGES} messages")
            if isinstance(message, dict) and message.get("recipient") == GLOBAL \
                    and message.get("sender") in variant.powers:
                press.append(Press(phase=str(message.get("phase", where))[:8],
                                   from_power=str(message["sender"]), to_powers=[BROADCAST],
                                   grey=False, body=str(message.get("message", ""))[:MAX_MESSAGE],
                                   created=now))
        if index == len(phases) - 1:
            break
        orders = phase.get("orders") or {}
        if not isinstance(orders, dict) or any(
                p not in variant.powers or not isinstance(o, list) or len(o) > MAX_ORDERS
                for p, o in orders.items()):
            raise ImportRefused(f"{where}: the orders are not a list per power")
        orders = {p: [str(o)[:MAX_TEXT] for o in os] for p, os in orders.items() if os}
        try:
            answer = adjudicate_json({**position, "variant": variant.name, "orders": orders})
        except RequestError as exc:
            raise ImportRefused(f"{where}: {exc}") from None
        after = {"phase": answer["next_phase"], "units": answer["units"],
                 "centers": answer["centers"], "dislodged": answer["dislodged"]}
        if "homes" in position:
            after["homes"] = position["homes"]
        following = phases[index + 1]
        expected = _position(following.get("state"), variant, f"after {where}")
        if not _same(after, expected) or (expected["phase"] and
                                          expected["phase"] != after["phase"]):
            raise ImportRefused(f"{where}: its orders do not lead to the next phase's position")
        turns.append(Turn(phase=position["phase"], position_before=position,
                          orders_submitted=orders, orders_generated={}, orders_illegal={},
                          outcomes=answer["results"], position_after=after, bulletins={},
                          created=now))
        position = after
    game = Game(name=name, variant=variant.name, status="finished", language=language,
                password_hash="", gm_account_id=None, phase=position["phase"],
                position=position, deadline=None, created=now)
    session.add(game)
    session.flush()
    for turn in turns:
        turn.game_id = game.id
        session.add(turn)
    for letter in press:
        letter.game_id = game.id
        session.add(letter)
    session.flush()
    gamerepo.audit(session, now, "import_mila", game_id=game.id)
    return game


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
