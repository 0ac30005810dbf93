"""The use-case API without any mail: a client (a web page, a computer power) plays through it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from judge.adjudicator.geography import POWERS
from judge.service import games, usecases
from judge.service.answers import CommandRefusal
from judge.settings import Settings
from judge.storage import Database
from judge.storage.gamerepo import account_for, current_orders, game_by_name

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SETTINGS = Settings(address="judge@judge.test")


def player(power: str) -> str:
    return f"{power.lower()}@players.test"


def _denied(reason: CommandRefusal) -> pytest.RaisesContext[usecases.Denied]:
    return pytest.raises(usecases.Denied, match=f"^{reason.value}$")


def _started(db: Database) -> dict[str, str]:
    """A game created, joined by seven players and started; power -> that player's password."""
    with db.session() as s:
        gm = account_for(s, "gm@players.test", NOW)
        game = usecases.create_game(s, gm, "alpha", "gm-pw", "en", NOW)
        password_of: dict[int, str] = {}
        for n in range(len(POWERS)):
            account = account_for(s, f"p{n}@players.test", NOW)
            password_of[account.id] = f"pw{n}"
            joined = usecases.join_game(s, account, "alpha", f"pw{n}", (), NOW)
            assert joined.count == n + 1
        assert joined.full and joined.gm_address == "gm@players.test"
        games.start_game(s, game, NOW, seed=7)
        return {seat.power: password_of[seat.account_id or 0]
                for seat in games.playing_seats(s, game)}


def test_a_client_plays_a_phase_through_the_use_cases(db: Database) -> None:
    passwords = _started(db)
    with db.session() as s:
        signed = usecases.sign_on(s, "alpha", "FRANCE", passwords["FRANCE"])
        assert signed.seat is not None and signed.seat.power == "FRANCE"
        outcome = usecases.submit_orders(s, signed.game, "FRANCE", ["A Par - Bur", "A Mar - Spa",
                                                                   "A Xyz - Abc"], NOW,
                                         by_account_id=signed.seat.account_id)
        assert outcome.stored == ["A PAR - BUR", "A MAR - SPA"] and outcome.version == 1
        assert outcome.missing == ["F BRE"]
        assert [i.error for i in outcome.report.items if i.error] != []
        # the same set again changes nothing: no new version
        again = usecases.submit_orders(s, signed.game, "FRANCE", ["A PAR - BUR", "A MAR - SPA"],
                                       NOW, by_account_id=None, previous=outcome.stored)
        assert again.version is None
        gm = usecases.sign_on(s, "alpha", "GM", "gm-pw")
        assert gm.seat is None
        with _denied(CommandRefusal.NOT_CURRENT_PHASE):
            usecases.process_phase(s, gm.game, "F1901M", NOW, SETTINGS)
        report = usecases.process_phase(s, gm.game, "S1901M", NOW + timedelta(hours=1), SETTINGS)
        assert report.phase == "S1901M"
    with db.session() as s:
        game = game_by_name(s, "alpha")
        assert game is not None and game.phase == "F1901M"
        stored = current_orders(s, game.id, "S1901M", "FRANCE")
        assert stored is not None and stored.version == 1


def test_refusals_name_their_reason_and_game(db: Database) -> None:
    passwords = _started(db)
    with db.session() as s:
        with _denied(CommandRefusal.NO_SUCH_GAME):
            usecases.sign_on(s, "beta", "FRANCE", "x")
        with _denied(CommandRefusal.WRONG_PASSWORD) as wrong:
            usecases.sign_on(s, "alpha", "FRANCE", passwords["ITALY"])
        assert wrong.value.about is not None and wrong.value.about.name == "alpha"
        with _denied(CommandRefusal.WRONG_PASSWORD):
            usecases.sign_on(s, "alpha", "GM", passwords["FRANCE"])
        with _denied(CommandRefusal.GAME_NOT_FORMING):
            usecases.join_game(s, account_for(s, "late@players.test", NOW), "alpha", "pw", (), NOW)
        with _denied(CommandRefusal.GAME_EXISTS):
            usecases.create_game(s, account_for(s, "x@players.test", NOW), "alpha", "pw", "en", NOW)
        with _denied(CommandRefusal.CREATE_NOT_ALLOWED):
            usecases.create_game(s, account_for(s, "x@players.test", NOW), "gamma", "pw", "en",
                                 NOW, allowed=["gm@players.test"])
        game = game_by_name(s, "alpha")
        assert game is not None
        game.status = "finished"
        with _denied(CommandRefusal.NO_ORDERS_ACCEPTED):
            usecases.submit_orders(s, game, "FRANCE", ["A PAR H"], NOW, by_account_id=None)
