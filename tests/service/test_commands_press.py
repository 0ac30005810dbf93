"""Press: white, grey, none, broadcast to observers, the GM's copy, and blind anonymity."""

from __future__ import annotations

import re

from judge.storage import Database, gamerepo, playrepo
from tests.service.commands_harness import DOMAIN, GM, PLAYERS, Harness, password_of


def _signon(power: str, address: str) -> str:
    return f"SIGNON {power} alpha {password_of(address)}\n"


def test_press_is_relayed_at_once_and_stored(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france, england, germany = players["FRANCE"], players["ENGLAND"], players["GERMANY"]
    sent = h.mail(france, _signon("FRANCE", france) +
                  "PRESS TO ENGLAND, GERMANY\nShall we?\nENDPRESS")
    press = [m for m in sent if m.kind == "press"]
    assert sorted(m.to for m in press) == sorted([england, germany])
    assert all("from France" in m.body and "Shall we?" in m.body for m in press)
    assert "Press sent to England, Germany" in next(m for m in sent if m.to == france).body
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        rows = playrepo.press_of_game(s, game.id)
        assert [(r.from_power, r.to_powers, r.grey) for r in rows] == [
            ("FRANCE", ["ENGLAND", "GERMANY"], False)]


def test_grey_press_needs_the_option_and_hides_the_sender(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    body = h.reply(france, _signon("FRANCE", france) + "PRESS TO ITALY GREY\nBoo\nENDPRESS")
    assert "no grey press" in body
    h.mail(GM, "SIGNON GM alpha gmpass\nPRESS grey")
    sent = h.mail(france, _signon("FRANCE", france) + "PRESS TO ITALY GREY\nBoo\nENDPRESS")
    grey = next(m for m in sent if m.to == players["ITALY"])
    assert "France" not in grey.body and "France" not in grey.subject
    assert "unknown power" in grey.body


def test_no_press_game_refuses(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha", options="PRESS none")
    france = players["FRANCE"]
    sent = h.mail(france, _signon("FRANCE", france) + "BROADCAST\nHi all\nENDPRESS")
    assert [m.to for m in sent] == [france] and "allows no press" in sent[0].body


def test_broadcast_reaches_players_gm_and_observers(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    h.confirm("watcher@example.net")
    h.mail("watcher@example.net", "OBSERVE alpha")
    france = players["FRANCE"]
    sent = h.mail(france, _signon("FRANCE", france) + "BROADCAST\nPeace!\nENDPRESS")
    got = {m.to for m in sent if m.kind == "press"}
    assert got == (set(PLAYERS) - {france}) | {GM, "watcher@example.net"}


def test_gm_reads_private_press_when_the_game_says_so(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    sent = h.mail(france, _signon("FRANCE", france) + "PRESS TO ITALY\nx\nENDPRESS")
    assert GM not in {m.to for m in sent}
    h.mail(GM, "SIGNON GM alpha gmpass\nGMPRESS yes")
    sent = h.mail(france, _signon("FRANCE", france) + "PRESS TO ITALY\nx\nENDPRESS")
    assert GM in {m.to for m in sent}


REAL = re.compile(r"p\d@example\.org")


def test_blind_game_never_shows_a_real_address(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha", options="BLIND\nPRESS grey")
    france, england = players["FRANCE"], players["ENGLAND"]
    anon_france = f"alpha-france@{DOMAIN}"
    seats = h.seats("alpha")
    secret_of = {power: seats[power].relay_secret for power in ("FRANCE", "ENGLAND")}
    assert all(secret_of.values()) and secret_of["FRANCE"] != secret_of["ENGLAND"]
    # the start notice gives each player its anonymous address and its own relay addresses
    assert any(m.to == france and anon_france in m.body
               and f"alpha-power-{secret_of['FRANCE']}@{DOMAIN}" in m.body for m in h.outbox)
    sent = h.mail(france, _signon("FRANCE", france) + "PRESS TO ENGLAND\nHello\nENDPRESS")
    press = next(m for m in sent if m.to == england)
    # England's copy answers to France through England's own secret
    to_france = f"alpha-france-{secret_of['ENGLAND']}@{DOMAIN}"
    assert press.headers.get("Reply-To") == to_france
    # England answers through it: relayed to France, without England's address
    sent = h.mail(england, "Greetings, cousin", to=(to_france,))
    relayed = next(m for m in sent if m.to == france)
    assert "Greetings, cousin" in relayed.body
    assert relayed.headers.get("Reply-To") == f"alpha-england-{secret_of['FRANCE']}@{DOMAIN}"
    # a From is no proof: England's real address to the plain anonymous address, or anyone
    # with a made-up secret, relays nothing
    for to in (anon_france, f"alpha-france-{'0' * 16}@{DOMAIN}"):
        sent = h.mail(england, "I am England, trust me", to=(to,))
        assert [m.to for m in sent] == [england] and "Not relayed" in sent[0].body
    grey = h.mail(france, _signon("FRANCE", france) + "BROADCAST GREY\nwho am I\nENDPRESS")
    assert all("Reply-To" not in m.headers for m in grey if m.kind == "press")
    h.mail("watcher@example.net", "LIST alpha\nSUMMARY alpha")
    h.mail(france, _signon("FRANCE", france) + "PRESS TO ENGLAND, CC\nx\nENDPRESS")
    h.mail(GM, "SIGNON GM alpha gmpass\nRESIGN")
    # every mail to someone shows no other person's real address
    for mail in h.outbox:
        shown = set(REAL.findall(mail.body + mail.subject + str(mail.headers)))
        assert shown <= {mail.to}, (mail.to, shown, mail.body)


def test_press_to_the_gm(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    france = players["FRANCE"]
    sent = h.mail(france, _signon("FRANCE", france) + "PRESS TO GM\nA question\nENDPRESS")
    press = [m for m in sent if m.kind == "press"]
    assert [m.to for m in press] == [GM] and "A question" in press[0].body
