"""The use-case API without any mail: a client (a web page, a computer power) plays through it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from judge.service import games, usecases
from judge.service.answers import CommandRefusal
from judge.service.caller import HASHES_PER_REQUEST, SIGNONS_PER_REQUEST, Caller, Prepared
from judge.settings import Settings
from judge.storage import Database
from judge.storage.gamerepo import account_for, current_orders, game_by_name
from judge.storage.guardrepo import confirm_account
from tests.standard_variant import STANDARD

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SETTINGS = Settings(address="judge@judge.test")


def player(power: str) -> str:
    return f"{power.lower()}@players.test"


def caller(s: object, address: str, now: datetime = NOW, settings: Settings = SETTINGS,
           confirmed: bool = True) -> Caller:
    """One request from ``address`` (confirmed, as a web page's signed-in user would be)."""
    account = confirm_account(s, address, now) if confirmed else account_for(s, address, now)
    return Caller(account, now, settings)


def _denied(reason: CommandRefusal) -> pytest.RaisesContext[usecases.Denied]:
    return pytest.raises(usecases.Denied, match=f"^{reason.value}$")


def _started(db: Database) -> dict[str, str]:
    """A game created, joined by seven players and started; power -> that player's password."""
    with db.session() as s:
        game = usecases.create_game(s, caller(s, "gm@players.test"), "alpha", "gm-pw", "en")
        password_of: dict[int, str] = {}
        for n in range(len(STANDARD.powers)):
            joiner = caller(s, f"p{n}@players.test")
            password_of[joiner.account.id] = f"pw{n}"
            joined = usecases.join_game(s, joiner, "alpha", f"pw{n}", ())
            assert joined.count == n + 1
            # the GM is told once, by the join that fills the game; the client delivers it
            assert [(n.to, n.key.value) for n in joiner.take_notices()] == (
                [("gm@players.test", "game_ready")] if joined.full else [])
        assert joined.full and joined.gm_address == "gm@players.test"
        games.start_game(s, game, NOW, seed=7)
        return {seat.power: password_of[seat.account_id or 0]
                for seat in games.playing_seats(s, game)}


def test_a_client_plays_a_phase_through_the_use_cases(db: Database) -> None:
    passwords = _started(db)
    with db.session() as s:
        signed = usecases.sign_on(s, caller(s, "p0@players.test"), "alpha", "FRANCE",
                                  passwords["FRANCE"])
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
        gm = usecases.sign_on(s, caller(s, "gm@players.test"), "alpha", "GM", "gm-pw")
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
            usecases.sign_on(s, caller(s, "x@players.test"), "beta", "FRANCE", "x")
        with _denied(CommandRefusal.WRONG_PASSWORD) as wrong:
            usecases.sign_on(s, caller(s, "x@players.test"), "alpha", "FRANCE",
                             passwords["ITALY"])
        assert wrong.value.about is not None and wrong.value.about.name == "alpha"
        with _denied(CommandRefusal.WRONG_PASSWORD):
            usecases.sign_on(s, caller(s, "x@players.test"), "alpha", "GM", passwords["FRANCE"])
        with _denied(CommandRefusal.GAME_NOT_FORMING):
            usecases.join_game(s, caller(s, "late@players.test"), "alpha", "pw", ())
        with _denied(CommandRefusal.GAME_EXISTS):
            usecases.create_game(s, caller(s, "x@players.test"), "alpha", "pw", "en")
        only_gm = Settings(address="judge@judge.test", create_allowed=("gm@players.test",))
        with _denied(CommandRefusal.CREATE_NOT_ALLOWED):
            usecases.create_game(s, caller(s, "x@players.test", settings=only_gm), "gamma",
                                 "pw", "en")
        game = game_by_name(s, "alpha")
        assert game is not None
        game.status = "finished"
        with _denied(CommandRefusal.NO_ORDERS_ACCEPTED):
            usecases.submit_orders(s, game, "FRANCE", ["A PAR H"], NOW, by_account_id=None)


def test_an_unconfirmed_address_is_added_to_no_game(db: Database) -> None:
    """Whatever the client, nothing adds an address that never answered a confirmation."""
    with db.session() as s:
        usecases.create_game(s, caller(s, "gm@players.test"), "alpha", "gm-pw", "en")
        stranger = caller(s, "new@players.test", confirmed=False)
        with _denied(CommandRefusal.ADDRESS_NOT_CONFIRMED):
            usecases.create_game(s, stranger, "beta", "pw", "en")
        with _denied(CommandRefusal.ADDRESS_NOT_CONFIRMED):
            usecases.join_game(s, stranger, "alpha", "pw", ())
        with _denied(CommandRefusal.ADDRESS_NOT_CONFIRMED):
            usecases.observe(s, stranger, "alpha")
        game = game_by_name(s, "alpha")
        assert game is not None and games.observers(game) == []
        assert [seat.account_id for seat in games.assigned_seats(s, game)] == []
        assert game_by_name(s, "beta") is None
        assert usecases.observe(s, caller(s, "new@players.test"), "alpha") is game
        assert games.observers(game) == ["new@players.test"]


def test_one_password_check_per_power_and_a_bounded_number_of_sign_ons(db: Database) -> None:
    passwords = _started(db)
    with db.session() as s:
        request = caller(s, "x@players.test")
        with _denied(CommandRefusal.WRONG_PASSWORD):
            usecases.sign_on(s, request, "alpha", "FRANCE", "guess1")
        # a second guess for the same seat in the same request is refused unheard
        with _denied(CommandRefusal.PASSWORD_ALREADY_TRIED):
            usecases.sign_on(s, request, "alpha", "FRANCE", passwords["FRANCE"])
        assert request.hashes_left == HASHES_PER_REQUEST - 1
        for n in range(SIGNONS_PER_REQUEST - 1):
            with _denied(CommandRefusal.NO_SUCH_GAME):
                usecases.sign_on(s, request, f"nogame{n}", "FRANCE", "pw")
        with _denied(CommandRefusal.TOO_MANY) as capped:
            usecases.sign_on(s, request, "alpha", "ITALY", passwords["ITALY"])
        assert capped.value.params == {"what": "signons"}
        # a new request starts afresh
        signed = usecases.sign_on(s, caller(s, "x@players.test"), "alpha", "FRANCE",
                                  passwords["FRANCE"])
        assert signed.seat is not None and signed.address_of_record != "x@players.test"


def test_the_scrypt_budget_of_one_request(db: Database) -> None:
    passwords = _started(db)
    with db.session() as s:
        request = caller(s, "p0@players.test")
        signed = usecases.sign_on(s, request, "alpha", "FRANCE", passwords["FRANCE"])
        for n in range(HASHES_PER_REQUEST - 1):
            usecases.set_password(s, request, signed.game, signed.seat, f"new{n}")
        with _denied(CommandRefusal.TOO_MANY) as spent:
            usecases.set_password(s, request, signed.game, signed.seat, "one too many")
        assert spent.value.params == {"what": "passwords"}
    with db.session() as s:
        assert usecases.sign_on(s, caller(s, "p0@players.test"), "alpha", "FRANCE",
                                f"new{HASHES_PER_REQUEST - 2}").seat is not None


def test_wrong_passwords_lock_a_seat_whatever_the_sender_and_tell_gm_and_player_once(
        db: Database) -> None:
    passwords = _started(db)
    limit = SETTINGS.signon_failures_before_lock
    with db.session() as s:
        game = game_by_name(s, "alpha")
        assert game is not None
        owner = next(seat for seat in games.playing_seats(s, game) if seat.power == "FRANCE")
        address = games.address_of_account(s, owner.account_id)
        assert address is not None
    told = []
    for n in range(limit + 2):
        with db.session() as s:
            # half the guesses come "from" the seat's own address: a From proves nothing
            sender = address if n % 2 else "guesser@elsewhere.test"
            request = caller(s, sender, now=NOW + timedelta(minutes=n))
            reason = CommandRefusal.WRONG_PASSWORD if n < limit else CommandRefusal.SIGNON_LOCKED
            with _denied(reason):
                usecases.sign_on(s, request, "alpha", "FRANCE", f"guess{n}")
            told += [(x.to, x.key.value, x.params["power"]) for x in request.take_notices()]
    assert told == [("gm@players.test", "seat_locked", "FRANCE"),
                    (address, "seat_locked", "FRANCE")]
    with db.session() as s:
        # locked for every sender, even with the right password, even "from" the seat...
        for sender in ("guesser@elsewhere.test", address):
            with _denied(CommandRefusal.SIGNON_LOCKED):
                usecases.sign_on(s, caller(s, sender), "alpha", "FRANCE", passwords["FRANCE"])
        # ... unless a confirmation its registered address answered released the request
        request = caller(s, address)
        request.unlocked.add((game.id, "FRANCE"))
        signed = usecases.sign_on(s, request, "alpha", "FRANCE", passwords["FRANCE"])
        assert signed.seat is not None


def test_work_prepared_ahead_is_taken_instead_of_redone(db: Database) -> None:
    """A client that checked a password and read the orders before its write transaction
    (the inbox drain does) has the use cases take those results."""
    passwords = _started(db)
    with db.reading() as s:
        game = game_by_name(s, "alpha")
        assert game is not None
        seat = next(x for x in games.playing_seats(s, game) if x.power == "FRANCE")
        prepared = Prepared()
        prepared.verify(passwords["FRANCE"], seat.password_hash)
        prepared.hash("next-pw")
        usecases.prepare_orders(prepared, game, "FRANCE", ["A PAR - BUR"])
    made = prepared.hashes["next-pw"][0]
    with db.session() as s:
        request = caller(s, "p0@players.test")
        request.prepared = prepared
        signed = usecases.sign_on(s, request, "alpha", "FRANCE", passwords["FRANCE"])
        assert request.hashes_left == HASHES_PER_REQUEST  # the check was made ahead
        outcome = usecases.submit_orders(s, signed.game, "FRANCE", ["A PAR - BUR"], NOW,
                                         by_account_id=None, prepared=prepared)
        key = usecases.orders_key(signed.game, "FRANCE", ["A PAR - BUR"])
        assert outcome.report is prepared.orders[key][0] and outcome.stored == ["A PAR - BUR"]
        usecases.set_password(s, request, signed.game, signed.seat, "next-pw")
        assert signed.seat is not None and signed.seat.password_hash == made
        # a parse prepared for another phase is not taken
        stale = usecases.orders_key(signed.game, "FRANCE", ["A PAR H"])
        prepared.orders[(stale[0], "F1901M", *stale[2:])] = prepared.orders[key]
        held = usecases.submit_orders(s, signed.game, "FRANCE", ["A PAR H"], NOW,
                                      by_account_id=None, prepared=prepared)
        assert held.stored == ["A PAR H"]


def test_start_needs_a_forming_game_with_its_players(db: Database) -> None:
    with db.session() as s:
        gm = caller(s, "gm@players.test")
        game = usecases.create_game(s, gm, "alpha", "gm-pw", "en")
        usecases.join_game(s, caller(s, "p0@players.test"), "alpha", "pw0", ())
        with _denied(CommandRefusal.NOT_ENOUGH_PLAYERS) as short:
            usecases.start_game(s, gm, game)
        assert short.value.params == {"count": 1, "needed": len(STANDARD.powers)}
        for n in range(1, len(STANDARD.powers)):
            usecases.join_game(s, caller(s, f"p{n}@players.test"), "alpha", f"pw{n}", ())
        assert usecases.start_game(s, gm, game).status == "active"
        with _denied(CommandRefusal.GAME_NOT_FORMING):
            usecases.start_game(s, gm, game)
