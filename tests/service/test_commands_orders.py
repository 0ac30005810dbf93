"""A player's commands: orders (whole set, versions), CLEAR, STATUS, wait, late days, votes,
FOR ... END, RESIGN; and the secret of orders and votes."""

from __future__ import annotations

from judge.storage import Database, gamerepo, guardrepo, playrepo
from judge.storage.models import Game, OrderSet
from tests.service.commands_harness import GM, Harness, password_of


def _signon(power: str, address: str, game: str = "alpha") -> str:
    return f"SIGNON {power} {game} {password_of(address)}\n"


def _versions(db: Database, power: str) -> list[list[str]]:
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert isinstance(game, Game)
        rows = s.query(OrderSet).filter_by(game_id=game.id, power=power).order_by(
            OrderSet.version).all()
        return [list(r.orders) for r in rows]


def test_a_later_mail_replaces_the_set_and_every_version_is_kept(db: Database) -> None:
    h = Harness(db)
    france = h.started_game("alpha")["FRANCE"]
    body = h.reply(france, _signon("FRANCE", france) + "A PAR - BUR\nA MAR - SPA\nF BRE - XXX")
    assert "> A PAR - BUR" in body and "version 1" in body
    assert 'Refused: "F BRE - XXX"' in body and "Units without orders: F BRE" in body
    h.mail(france, _signon("FRANCE", france) + "A PAR - PIC\nF BRE - MAO")
    assert _versions(db, "FRANCE") == [["A PAR - BUR", "A MAR - SPA"], ["A PAR - PIC", "F BRE - MAO"]]
    body = h.reply(france, _signon("FRANCE", france) + "nonsense here")
    assert "earlier orders stay on file" in body
    assert len(_versions(db, "FRANCE")) == 2


def test_a_mistyped_command_after_signon_is_pointed_out(db: Database) -> None:
    h = Harness(db)
    france = h.started_game("alpha")["FRANCE"]
    body = h.reply(france, _signon("FRANCE", france) + "STAUTS")
    assert "Did you mean STATUS?" in body


def test_orders_around_status_are_one_set(db: Database) -> None:
    h = Harness(db)
    france = h.started_game("alpha")["FRANCE"]
    body = h.reply(france, _signon("FRANCE", france) + "A PAR - BUR\nSTATUS\nF BRE - MAO")
    assert "Units without orders: F BRE, A MAR" in body
    assert _versions(db, "FRANCE")[-1] == ["A PAR - BUR", "F BRE - MAO"]


def test_clear_status_wait(db: Database) -> None:
    h = Harness(db)
    france = h.started_game("alpha")["FRANCE"]
    h.mail(france, _signon("FRANCE", france) + "A PAR - BUR")
    body = h.reply(france, _signon("FRANCE", france) + "CLEAR\nSTATUS\nSET WAIT")
    assert "withdrawn" in body and "Orders on file: none" in body
    assert "Units without orders: F BRE, A MAR, A PAR" in body
    assert _versions(db, "FRANCE")[-1] == []
    assert h.seats("alpha")["FRANCE"].wait
    h.mail(france, _signon("FRANCE", france) + "SET NOWAIT")
    assert not h.seats("alpha")["FRANCE"].wait


def test_late_days_move_everyones_deadline_without_naming_who_asked(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    before = h.game("alpha").deadline
    assert before is not None
    sent = h.mail(france, _signon("FRANCE", france) + "LATE 2")
    reply = next(m for m in sent if m.to == france)
    assert "2 late days taken" in reply.body and "Days left: 8" in reply.body
    assert (h.game("alpha").deadline - before).days == 2
    others = [m for m in sent if m.to == players["ENGLAND"]]
    assert others and "France" not in others[0].body
    assert "more than this game allows" in h.reply(france, _signon("FRANCE", france) + "LATE 2")
    seat = h.seats("alpha")["FRANCE"]
    assert (seat.late_days_used, seat.late_days_this_turn) == (2, 2)


def test_votes_are_recorded_secretly(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    sent = h.mail(france, _signon("FRANCE", france) + "DRAW\nCONCEDE ENGLAND")
    assert [m.to for m in sent] == [france]
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        assert [v.voter_power for v in playrepo.votes(s, game.id, kind="draw")] == ["FRANCE"]
        concede = playrepo.votes(s, game.id, kind="concede")
        assert [(v.voter_power, v.target_power) for v in concede] == [("FRANCE", "ENGLAND")]
    h.mail(france, _signon("FRANCE", france) + "NO DRAW")
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        assert playrepo.votes(s, game.id, kind="draw") == []


def test_for_block_only_for_a_power_in_onp_or_sommossa(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    italy = players["ITALY"]
    body = h.reply(italy, _signon("ITALY", italy) + "FOR AUSTRIA\nA VIE - GAL\nEND")
    assert "No orders can be sent for Austria" in body
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        austria = playrepo.seat_by_power(s, game.id, "AUSTRIA")
        assert austria is not None
        austria.status = "onp1"
    sent = h.mail(italy, _signon("ITALY", italy) + "PER AUSTRIA\nA VIE - GAL\nF TRI H\nFINE")
    assert [m.to for m in sent] == [italy]
    assert "A VIE - GAL" in sent[0].body
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        votes = playrepo.votes(s, game.id, kind="sommossa_order")
        assert [(v.voter_power, v.target_power, v.payload["orders"]) for v in votes] == [
            ("ITALY", "AUSTRIA", ["A VIE - GAL", "F TRI H"])]
        # orders for another power never become the voter's own orders
        assert gamerepo.current_orders(s, game.id, "S1901M", "ITALY") is None


def test_no_mail_carries_another_powers_orders_before_adjudication(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    for power, order in (("FRANCE", "A PAR - BUR"), ("GERMANY", "A MUN - RUH")):
        h.mail(players[power], _signon(power, players[power]) + order)
    leaks = [m for m in h.outbox if "A PAR - BUR" in m.body and m.to != players["FRANCE"]]
    leaks += [m for m in h.outbox if "A MUN - RUH" in m.body and m.to != players["GERMANY"]]
    assert leaks == []


def test_resign_tells_the_gm(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    turkey = players["TURKEY"]
    sent = h.mail(turkey, _signon("TURKEY", turkey) + "RESIGN")
    assert any(m.to == GM and "Turkey has resigned" in m.body for m in sent)
    assert h.seats("alpha")["TURKEY"].status == "vacant"
    assert "no player to act for" in h.reply(turkey, _signon("TURKEY", turkey) + "STATUS")


def test_set_password_and_address(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    austria = players["AUSTRIA"]
    body = h.reply(austria, _signon("AUSTRIA", austria) + "SET PASSWORD n3w-secret")
    assert "password for game alpha is changed" in body and "n3w-secret" not in body
    assert "Wrong password" in h.reply(austria, _signon("AUSTRIA", austria) + "STATUS")
    sent = h.mail(austria, "SIGNON AUSTRIA alpha n3w-secret\nSET ADDRESS new@home.example")
    # the new address gets one confirmation; the change waits for its answer
    assert [m.to for m in sent if m.to == "new@home.example"] == ["new@home.example"]
    assert h.seats("alpha")["AUSTRIA"].account_id != _account_id(h, "new@home.example")
    done = h.answer_confirmation(sent, "new@home.example")
    assert "now comes to this address" in done[0].body
    body = h.reply("new@home.example", "SIGNON AUSTRIA alpha n3w-secret\nA VIE - GAL")
    assert "A VIE - GAL" in body
    # the new address is now the player of record: signing on from it sends no copy
    sent = h.mail("new@home.example", "SIGNON AUSTRIA alpha n3w-secret\nA VIE - BOH")
    assert [m.to for m in sent] == ["new@home.example"]


def test_a_paused_game_still_takes_orders(db: Database) -> None:
    h = Harness(db)
    france = h.started_game("alpha")["FRANCE"]
    h.mail(GM, "SIGNON GM alpha gmpass\nPAUSE")
    body = h.reply(france, _signon("FRANCE", france) + "A PAR - BUR")
    assert "version 1" in body


def _account_id(h: Harness, address: str) -> int | None:
    with h.db.session() as session:
        account = guardrepo.account_by_address(session, address)
        return account.id if account is not None else None
