"""A started seven-player game, built straight in the tables (no mail involved)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from judge.adjudicator.jsonio import position_to_json
from judge.service import deadlines
from judge.settings import Settings
from judge.storage import Database, gamerepo
from judge.storage.gamerepo import account_for, submit_orders
from judge.storage.models import Game, Seat, default_game_options
from tests.standard_variant import STANDARD

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SETTINGS = Settings(address="judge@judge.test")


def player(power: str) -> str:
    return f"{power.lower()}@players.test"


def new_game(db: Database, name: str = "alpha", language: str = "en",
             now: datetime = START, **options: Any) -> int:
    with db.session() as s:
        gm = account_for(s, "gm@players.test", now)
        opts = default_game_options()
        opts.update(options)
        game = Game(name=name, language=language, options=opts, gm_account_id=gm.id,
                    status="active", phase="S1901M",
                    position=position_to_json(STANDARD.initial_position()), created=now)
        s.add(game)
        s.flush()
        for power in STANDARD.powers:
            account = account_for(s, player(power), now)
            s.add(Seat(game_id=game.id, power=power, account_id=account.id))
        s.flush()
        deadlines.schedule(s, game, "S1901M", deadlines.next_deadline(game, "S1901M", now), now)
        return game.id


def send(db: Database, game_id: int, power: str, orders: list[str], now: datetime) -> None:
    with db.session() as s:
        game = s.get(Game, game_id)
        assert game is not None
        submit_orders(s, game_id, game.phase, power, orders, now)


def move_unit(db: Database, power: str, old: str, new: str, game_name: str = "club") -> None:
    """Put one unit of a stored game somewhere else (a test's shortcut to a position)."""
    with db.session() as s:
        game = gamerepo.game_by_name(s, game_name)
        assert game is not None
        position = dict(game.position)
        units = {p: list(v) for p, v in position["units"].items()}
        units[power] = [new if u == old else u for u in units[power]]
        position["units"] = units
        game.position = position
