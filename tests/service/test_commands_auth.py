"""Authentication: hashed passwords, wrong passwords, other addresses, the CC rule."""

from __future__ import annotations

from judge.service.auth import hash_password, verify_password
from judge.storage import Database, gamerepo
from judge.storage.models import Game
from tests.service.commands_harness import GM, Harness, password_of


def test_hash_is_salted_scrypt_and_verifies() -> None:
    first, second = hash_password("hunter2"), hash_password("hunter2")
    assert first.startswith("scrypt$") and first != second
    assert verify_password("hunter2", first) and verify_password("hunter2", second)
    assert not verify_password("hunter3", first)
    assert not verify_password("hunter2", "") and not verify_password("x", "md5$abc")


def test_passwords_are_stored_hashed(db: Database) -> None:
    h = Harness(db)
    h.started_game("alpha")
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert isinstance(game, Game)
        assert "gmpass" not in game.password_hash and verify_password("gmpass", game.password_hash)
        for seat in gamerepo.seats(s, game.id):
            assert seat.password_hash.startswith("scrypt$")


def test_wrong_password_applies_nothing_and_says_so(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    body = h.reply(france, "SIGNON FRANCE alpha wrong\nA PAR - BUR\nDRAW\nSET WAIT")
    assert "Wrong password for game alpha" in body
    assert body.count("the sign-on above failed") == 3
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        assert gamerepo.current_orders(s, game.id, "S1901M", "FRANCE") is None
    assert not h.seats("alpha")["FRANCE"].wait
    gm = h.reply(GM, "SIGNON GM alpha nope\nPAUSE")
    assert "Wrong password" in gm and h.game("alpha").status == "active"


def test_signon_from_another_address_is_applied_and_the_player_gets_a_copy(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    sent = h.mail("laptop@elsewhere.org",
                  f"SIGNON FRANCE alpha {password_of(france)}\nA PAR - BUR")
    reply = next(m for m in sent if m.to == "laptop@elsewhere.org")
    copy = next(m for m in sent if m.to == france)
    assert "A PAR - BUR" in reply.body and "A PAR - BUR" in copy.body
    assert "copy" in copy.subject and "another address" in copy.body
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        row = gamerepo.current_orders(s, game.id, "S1901M", "FRANCE")
        assert row is not None and row.orders == ["A PAR - BUR"]


def test_orders_copied_to_another_player_are_refused_and_the_gm_told(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france, england = players["FRANCE"], players["ENGLAND"]
    sent = h.mail(france, f"SIGNON FRANCE alpha {password_of(france)}\nA PAR - BUR",
                  cc=(england,))
    reply = next(m for m in sent if m.to == france)
    # the sender is told "another player", never which power the copied address plays
    assert "refused" in reply.body and "another player" in reply.body
    assert "England" not in reply.body
    to_gm = [m for m in sent if m.to == GM]
    assert to_gm and "refused" in to_gm[0].body and "England" in to_gm[0].body
    assert england not in reply.body and england not in to_gm[0].body
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        assert gamerepo.current_orders(s, game.id, "S1901M", "FRANCE") is None
    # with a wrong password nothing depends on whom the mail was copied to
    sent = h.mail(france, "SIGNON FRANCE alpha wrong\nA PAR - BUR", cc=(england,))
    assert [m.to for m in sent] == [france]
    assert "Wrong password" in sent[0].body and "cop" not in sent[0].body.split("--")[0]
    # copying someone who is not in the game is no offence
    sent = h.mail(france, f"SIGNON FRANCE alpha {password_of(france)}\nA PAR - BUR",
                  cc=("friend@example.net",))
    assert "A PAR - BUR" in next(m for m in sent if m.to == france).body
