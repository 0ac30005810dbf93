"""A finished test game, played through the adjudicator and stored as turn snapshots.

Shared by the archive tests and the browser test. Orders come from the seeded random player,
so the game is the same on every run. The secret set (an address, an order on file for the
current phase, a vote, press) is stored too, so tests can prove the archive never shows it.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from judge.adjudicator.adjudication import adjudicate
from judge.adjudicator.jsonio import position_to_json
from judge.adjudicator.possible import random_orders
from judge.storage import Database
from judge.storage.models import Account, Game, OrderSet, Press, Seat, Turn, Vote
from tests.standard_variant import STANDARD

T0 = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
SECRET_ADDRESS = "hidden.player@secret.example"
SECRET_ORDER = "A ZZZ - QQQ SECRET"
SECRET_PRESS = "meet me in Galicia, secretly"
EVIL_NAME = "<script>alert('x')</script> Evil & Co"


def play(db: Database, name: str = "archtest", years: int = 2, seed: int = 7,
         status: str = "finished", blind: bool = False, language: str = "en") -> list[str]:
    """Store a game of ``years`` game years; returns the processed phases in order."""
    rng = random.Random(seed)
    position = STANDARD.initial_position()
    phases: list[str] = []
    with db.session() as s:
        game = Game(name=name, status=status, created=T0, language=language,
                    options={"blind": blind, "press": "white"}, position={})
        s.add(game)
        s.flush()
        for i, power in enumerate(STANDARD.powers):
            address = SECRET_ADDRESS if power == "FRANCE" else f"p{i}@players.example"
            display = EVIL_NAME if power == "GERMANY" else f"Player {power.title()}"
            account = Account(address=f"{name}.{address}", display_name=display, created=T0)
            s.add(account)
            s.flush()
            s.add(Seat(game_id=game.id, power=power, account_id=account.id))
        now = T0
        while position.phase.year < 1901 + years:
            orders = {p: random_orders(position, p, rng) for p in STANDARD.powers}
            before = position_to_json(position)
            adj = adjudicate(position, orders)
            after = position_to_json(adj.position)
            results = {p: [r.to_json() for r in rs] for p, rs in adj.results.items()}
            phase = str(position.phase)
            body = f"Results of {phase} for {name}\nWrite to {SECRET_ADDRESS} for help.\n"
            now += timedelta(days=3)
            s.add(Turn(
                game_id=game.id, phase=phase, position_before=before,
                orders_submitted={p: [str(o) for o in os] for p, os in orders.items()},
                orders_generated={}, orders_illegal={}, outcomes=results,
                position_after=after,
                bulletins={"results": {"subject": f"{name} {phase} results", "body": body,
                                       "language": "en"}},
                created=now,
            ))
            phases.append(phase)
            position = adj.position
        game.phase = str(position.phase)
        game.position = position_to_json(position)
        # live, unprocessed material for the current phase: none of it may ever be shown
        s.add(OrderSet(game_id=game.id, power="FRANCE", phase=game.phase, version=1,
                       orders=[SECRET_ORDER], created=now))
        s.add(Vote(game_id=game.id, phase=game.phase, kind="draw", voter_power="ITALY",
                   payload={"note": "SECRET VOTE"}, created=now))
        s.add(Press(game_id=game.id, phase=game.phase, from_power="RUSSIA",
                    to_powers=["AUSTRIA"], body=SECRET_PRESS, created=now))
    return phases


def fresh_db(path: str) -> Database:
    db = Database(f"sqlite:///{path}")
    db.migrate()
    return db
