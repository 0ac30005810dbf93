"""Anyone's commands and the GM's: create, join, start, list, observe, history, steering."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from judge.rules.assignment import Drawing, replay_lot
from judge.storage import Database, gamerepo
from judge.storage.models import Turn
from tests.service.commands_harness import GM, PLAYERS, Harness, password_of
from tests.standard_variant import STANDARD


def test_create_with_options_makes_the_sender_gm(db: Database) -> None:
    h = Harness(db)
    body = h.reply(GM, "CREATE beta secret\nPRESS grey\nBLIND\nDEADLINES M=48 R=12\n"
                       "TIMEZONE Europe/Paris\nLATEDAYS 5 2\nENDING F1907M\nRULES rulebook\n"
                       "ASSIGNMENT preferences\nGMPRESS")
    assert "Game beta created" in body
    game = h.game("beta")
    assert game.status == "forming" and game.language == "en"
    opts = game.options
    assert opts["press"] == "grey" and opts["blind"] is True
    assert opts["deadlines_hours"] == {"M": 48, "R": 12, "A": 24}
    assert opts["timezone"] == "Europe/Paris"
    assert (opts["late_bonus_days"], opts["late_max_per_turn"]) == (5, 2)
    assert opts["end"] == {"after": "F1907M"} and opts["rules"] == "rulebook"
    assert opts["assignment"] == "preferences" and opts["gm_reads_press"] is True
    assert "already exists" in h.reply(PLAYERS[0], "CREATE beta other")
    assert "cannot be a game name" in h.reply(PLAYERS[0], "CREATE b-ad x")


def test_create_refuses_a_bad_time_zone_and_options_need_the_gm(db: Database) -> None:
    h = Harness(db)
    body = h.reply(GM, "CREATE beta secret\nTIMEZONE Mars/Olympus")
    assert "is not allowed" in body
    assert "sign on first" in h.reply(PLAYERS[0], "PRESS none")


def test_create_can_be_restricted_by_the_config(db: Database) -> None:
    h = Harness(db)
    h.settings = dataclasses.replace(h.settings, create_allowed=(GM,))
    assert "only its listed game masters" in h.reply(PLAYERS[0], "CREATE gamma x")
    assert "created" in h.reply(GM, "CREATE gamma x")


def test_join_start_assigns_every_power_and_records_the_draw(db: Database) -> None:
    h = Harness(db)
    h.mail(GM, "CREATE alpha gmpass")
    for i, player in enumerate(PLAYERS[:6], start=1):
        assert "6 of 7" in h.reply(player, f"JOIN alpha pw{i}") or i < 6
    assert "already joined" in h.reply(PLAYERS[0], "JOIN alpha again")
    assert "6 players have joined, 7 are needed" in h.reply(GM, "SIGNON GM alpha gmpass\nSTART")
    sent = h.mail(PLAYERS[6], "JOIN alpha pw7")
    assert any(m.to == GM and "send START" in m.body for m in sent)
    assert "not taking players" not in h.reply(GM, "SIGNON GM alpha gmpass\nSTART")
    game = h.game("alpha")
    assert game.status == "active" and game.phase == "S1901M" and game.deadline is not None
    assert game.deadline - h.now > timedelta(hours=70)
    seats = h.seats("alpha")
    assert sorted(seats) == sorted(STANDARD.powers)
    record = game.options["assignment_record"]
    lots = [Drawing(lot["prize"], tuple(lot["contenders"]), lot["winner"]) for lot in record["lots"]]
    assert replay_lot(list(record["players"]), lots, STANDARD.powers).powers == record["powers"]
    assert "not taking players" in h.reply(PLAYERS[0], "JOIN alpha late")
    assert all(any(m.to == p and "You play" in m.body for m in h.outbox) for p in PLAYERS)


def test_preferences_give_first_choices(db: Database) -> None:
    h = Harness(db)
    h.mail(GM, "CREATE alpha gmpass\nASSIGNMENT preferences")
    for i, (player, power) in enumerate(zip(PLAYERS, STANDARD.powers, strict=True), start=1):
        h.mail(player, f"JOIN alpha pw{i} {power}")
    h.mail(GM, "SIGNON GM alpha gmpass\nSTART")
    assert {p: h.power_of("alpha", a) for a, p in zip(PLAYERS, STANDARD.powers, strict=True)} == {
        p: p for p in STANDARD.powers}


def test_list_summary_observe_history(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    listing = h.reply("stranger@example.net", "LIST")
    assert "alpha" in listing and "active" in listing
    one = h.reply("stranger@example.net", "LIST alpha")
    # a stranger sees the seats, never the players' addresses (issue 25)
    assert "France" in one and not any(address in one for address in players.values())
    assert "France" in h.reply("stranger@example.net", "SUMMARY alpha")
    assert "no game called" in h.reply("stranger@example.net", "SUMMARY nope")
    # a new address is held until it confirms: a forged From subscribes nobody
    held = h.reply("watcher@example.net", "OBSERVE alpha")
    assert "CONFIRM " in held and "observe game" not in held
    assert h.game("alpha").options.get("observers", []) == []
    h.confirm("watcher@example.net")
    assert "observe game alpha" in h.reply("watcher@example.net", "OBSERVE alpha")
    assert h.game("alpha").options["observers"] == ["watcher@example.net"]
    assert "no processed phase" in h.reply("watcher@example.net", "HISTORY alpha")
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        s.add(Turn(game_id=game.id, phase="S1901M", bulletins={"en": "Spring results here"},
                   position_after={"centers": {"FRANCE": ["PAR", "MAR", "BRE"]}},
                   created=h.now))
    history = h.reply("watcher@example.net", "HISTORY alpha S1901M..F1901M")
    assert "Spring results here" in history
    assert "France 3" in h.reply("watcher@example.net", "SUMMARY alpha")


def test_gm_steers_the_clock(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    first = h.game("alpha").deadline
    assert first is not None
    body = h.reply(GM, "SIGNON GM alpha gmpass\nEXTEND 24")
    assert "deadline of S1901M" in body
    assert h.game("alpha").deadline == first + timedelta(hours=24)
    assert any(m.to == players["ITALY"] and "deadline" in m.body for m in h.outbox[-9:])
    h.mail(GM, "SIGNON GM alpha gmpass\nSET DEADLINE 2027-03-10 20:00")
    assert h.game("alpha").deadline.isoformat() == "2027-03-10T19:00:00+00:00"
    h.mail(GM, "SIGNON GM alpha gmpass\nPAUSE")
    game = h.game("alpha")
    assert game.status == "paused" and game.deadline is None
    assert "not running" in h.reply(players["FRANCE"],
                                    f"SIGNON FRANCE alpha {password_of(players['FRANCE'])}\nDRAW")
    h.mail(GM, "SIGNON GM alpha gmpass\nRESUME")
    game = h.game("alpha")
    assert game.status == "active" and game.deadline is not None
    assert "only the GM" in h.reply(players["FRANCE"],
                                    f"SIGNON FRANCE alpha {password_of(players['FRANCE'])}\nPAUSE")


def test_process_only_the_current_phase_and_preview_goes_to_the_gm_only(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    h.mail(france, f"SIGNON FRANCE alpha {password_of(france)}\nA PAR - BUR")
    assert "not the current phase" in h.reply(GM, "SIGNON GM alpha gmpass\nPROCESS F1901M")
    sent = h.mail(GM, "SIGNON GM alpha gmpass\nPREVIEW")
    assert [m.to for m in sent] == [GM]
    assert "Preview of S1901M" in sent[0].body
    assert h.game("alpha").phase == "S1901M"
    body = h.reply(GM, "SIGNON GM alpha gmpass\nPROCESS S1901M")
    assert "S1901M: processed" in body
    assert h.game("alpha").phase == "F1901M"
    assert "S1901M" in h.reply(france, "HISTORY alpha")
    body = h.reply(GM, "SIGNON GM alpha gmpass\nROLLBACK S1901M")
    assert "back at S1901M" in body and h.game("alpha").phase == "S1901M"
    assert "no processed phase" in h.reply(GM, "SIGNON GM alpha gmpass\nROLLBACK F1905M")


def test_replace_eject_become_grant_end(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    russia = players["RUSSIA"]
    sent = h.mail(GM, "SIGNON GM alpha gmpass\nEJECT RUSSIA")
    assert any(m.to == russia and "no longer play Russia" in m.body for m in sent)
    assert h.seats("alpha")["RUSSIA"].status == "vacant"
    sent = h.mail(GM, "SIGNON GM alpha gmpass\nREPLACE RUSSIA newbie@example.net")
    offer = next(m for m in sent if m.to == "newbie@example.net")
    gm_reply = next(m for m in sent if m.to == GM)
    # no password is made up or mailed: the newcomer chooses one when accepting
    assert "offers you Russia" in offer.body and "confirmation was sent" in gm_reply.body
    assert h.seats("alpha")["RUSSIA"].status == "vacant"
    assert "followed by the password" in h.answer_confirmation(sent, "newbie@example.net")[0].body
    done = h.answer_confirmation(sent, "newbie@example.net", "my-own-pw")
    welcome = next(m for m in done if m.to == "newbie@example.net" and m.kind == "reply")
    assert "You now play Russia" in welcome.body and "my-own-pw" not in welcome.body
    assert any(m.to == russia and "no longer play Russia" in m.body for m in done)
    assert "Signed on as Russia" in h.reply("newbie@example.net",
                                           "SIGNON RUSSIA alpha my-own-pw")
    assert h.seats("alpha")["RUSSIA"].status == "active"
    italy = players["ITALY"]
    sent = h.mail(GM, "SIGNON GM alpha gmpass\nBECOME ITALY\nA VEN - TRI\nGRANT ITALY 2")
    copy = next(m for m in sent if m.to == italy and "copy" in m.subject)
    assert "A VEN - TRI" in copy.body and "by the GM" in copy.body
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        assert gamerepo.current_orders(s, game.id, "S1901M", "ITALY").orders == ["A VEN - TRI"]
    assert h.seats("alpha")["ITALY"].late_days_used == -2
    first = h.reply(GM, "SIGNON GM alpha gmpass\nEND GAME")
    assert "send END GAME again in a new mail" in first and h.game("alpha").status == "active"
    sent = h.mail(GM, "SIGNON GM alpha gmpass\nEND GAME")
    assert h.game("alpha").status == "finished"
    now_playing = (set(PLAYERS) - {russia}) | {"newbie@example.net"}
    assert {m.to for m in sent if m.kind == "bulletin"} >= now_playing | {GM}


def test_become_copies_hold_only_that_powers_part(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    sent = h.mail(GM, "SIGNON GM alpha gmpass\nBECOME FRANCE\nA PAR - BUR\n"
                      "BECOME ITALY\nA VEN - TRI")
    to_france = [m for m in sent if m.to == players["FRANCE"]]
    to_italy = [m for m in sent if m.to == players["ITALY"]]
    assert len(to_france) == 1 and "A PAR - BUR" in to_france[0].body
    assert "A VEN - TRI" not in to_france[0].body
    assert len(to_italy) == 1 and "A VEN - TRI" in to_italy[0].body
    assert "A PAR - BUR" not in to_italy[0].body


def test_two_signons_in_one_mail_keep_their_orders_apart(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france, italy = players["FRANCE"], players["ITALY"]
    body = h.reply(france, f"SIGNON FRANCE alpha {password_of(france)}\nA PAR - BUR\n"
                           f"SIGNON ITALY alpha {password_of(italy)}\nA VEN - TRI")
    first, second = body.split("> SIGNON ITALY")
    assert "A PAR - BUR" in first and "A VEN - TRI" in second
