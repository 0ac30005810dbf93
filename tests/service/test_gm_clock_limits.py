"""Issue 30 point 4: caps on the GM's extensions and pauses, per phase and per game; a pause
ends by itself at its cap; every extension and pause is told to all and kept in the archive.
The clock is the harness's ``now``, moved by the test; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from zoneinfo import ZoneInfo

from judge.archive.webapp import ArchiveApp
from judge.rules.gm_clock import ClockCap, ClockUse, Limits, extension_refused, pause_allowance
from judge.service import wakeups
from judge.service.games import options
from judge.storage import Database
from judge.storage.archive_queries import game_archive
from tests.archive.asgi import get
from tests.service.commands_harness import GM, PLAYERS, Harness

SIGNON = "SIGNON GM alpha gmpass\n"


def test_the_caps_in_the_pure_rule() -> None:
    limits = Limits(phase=48, game=60)
    used = ClockUse(phase="S1901M", extended_phase=24, extended_game=24)
    assert extension_refused(used, limits, "S1901M", 24) is None
    assert extension_refused(used, limits, "S1901M", 30) == (ClockCap.PHASE_EXTENSION, 24)
    # a new phase starts its own count; the game's stays
    assert extension_refused(used, limits, "F1901M", 40) == (ClockCap.GAME_EXTENSION, 36)
    assert extension_refused(used, Limits(), "S1901M", 10_000) is None
    assert pause_allowance(ClockUse(), Limits(phase=24, game=20), "S1901M") == (
        20, ClockCap.GAME_PAUSE)
    assert pause_allowance(ClockUse(), Limits(), "S1901M") == (None, None)


def test_extensions_past_the_caps_are_refused_with_the_reason(db: Database) -> None:
    h = Harness(db)
    players = h.started_game(options="EXTENSION LIMIT 48 60")
    assert options(h.game("alpha"))["extension_limit"] == {"phase": 48, "game": 60}
    first = h.game("alpha").deadline
    sent = h.mail(GM, SIGNON + "EXTEND 24")
    assert h.game("alpha").deadline == first + timedelta(hours=24)
    # every player is told that the deadline moved
    told = {m.to for m in sent if m.kind != "reply" and "is now" in m.body}
    assert set(players.values()) <= told
    reply = " ".join(h.reply(GM, SIGNON + "EXTEND 30").split())
    assert "may be extended by 1 day more at most (EXTENSION LIMIT)" in reply, reply
    assert h.game("alpha").deadline == first + timedelta(hours=24)
    # SET DEADLINE later than the current one is an extension too
    local = (first + timedelta(hours=48)).astimezone(ZoneInfo("Europe/Rome"))
    h.mail(GM, SIGNON + f"SET DEADLINE {local:%Y-%m-%d %H:%M}")
    assert h.game("alpha").deadline == first + timedelta(hours=48)
    # the next phase has its own 48 hours, but the game has only 12 left
    h.now = h.game("alpha").deadline + timedelta(minutes=1)
    h.mail(GM, SIGNON + "PROCESS S1901M")
    assert h.game("alpha").phase == "F1901M"
    reply = " ".join(h.reply(GM, SIGNON + "EXTEND 24").split())
    assert "may be extended by 12 hours more at most in the whole game" in reply, reply
    h.mail(GM, SIGNON + "EXTEND 12")
    archive = game_archive(db, "alpha")
    assert archive is not None
    assert [(e["phase"], e["action"], e["hours"]) for e in archive["gm_clock"]] == [
        ("S1901M", "extension", 24.0), ("S1901M", "extension", 24.0),
        ("F1901M", "extension", 12.0)]
    html = asyncio.run(get(ArchiveApp(db), "/games/alpha"))[2].decode()
    assert 'id="gm-clock"' in html and "extension by the GM" in html


def test_a_pause_ends_by_itself_at_its_cap_and_is_counted(db: Database) -> None:
    h = Harness(db)
    players = h.started_game(options="PAUSE LIMIT 24 36", lang="it")
    paused_at = h.now
    sent = h.mail(GM, SIGNON + "SOSPENDI")
    assert h.game("alpha").status == "paused"
    told = [m for m in sent if m.to == players["FRANCE"]]
    assert told and "al più tardi" in told[0].body
    # a day later the scheduler resumes the game and tells everyone, without the GM
    reports = wakeups.run_due(db, h.settings, paused_at + timedelta(hours=24, minutes=1))
    assert reports == []
    game = h.game("alpha")
    assert game.status == "active"
    assert game.deadline >= paused_at + timedelta(hours=48)
    archive = game_archive(db, "alpha")
    assert archive is not None
    assert [(e["action"], e["by"]) for e in archive["gm_clock"]] == [
        ("pause", "gm"), ("resume", "limit")]
    # the phase's pause time is used up: a second pause is refused, with the reason
    h.now = paused_at + timedelta(hours=25)
    reply = " ".join(h.reply(GM, SIGNON + "SOSPENDI").split())
    assert "ha esaurito il tempo di pausa di questa fase (LIMITE PAUSA)" in reply, reply
    assert h.game("alpha").status == "active"


def test_without_caps_the_gm_clock_is_as_before(db: Database) -> None:
    h = Harness(db)
    h.started_game()
    first = h.game("alpha").deadline
    h.mail(GM, SIGNON + "EXTEND 500")
    assert h.game("alpha").deadline == first + timedelta(hours=500)
    h.mail(GM, SIGNON + "PAUSE")
    h.now += timedelta(days=30)
    h.mail(GM, SIGNON + "RESUME")
    assert h.game("alpha").status == "active"
    assert [e["action"] for e in game_archive(db, "alpha")["gm_clock"]] == [
        "extension", "pause", "resume"]


def _playing_gm_game(h: Harness) -> dict[str, str]:
    """A game whose GM also plays a power (he joins it like the six others)."""
    h.mail(GM, "CREATE alpha gmpass")
    h.mail(GM, "JOIN alpha gmplays")
    for i, player in enumerate(PLAYERS[:6], start=1):
        h.mail(player, f"JOIN alpha pw{i}")
    h.mail(GM, SIGNON + "START")
    return {p: h.power_of("alpha", p) for p in PLAYERS[:6]}


def _vote(h: Harness, player: str, power: str, word: str) -> str:
    return " ".join(h.reply(player, f"SIGNON {power} alpha pw{PLAYERS.index(player) + 1}\n"
                                    f"{word}").split())


def test_a_gm_who_plays_moves_the_clock_only_with_a_majority_of_the_others(
        db: Database) -> None:
    h = Harness(db)
    powers = _playing_gm_game(h)
    first = h.game("alpha").deadline
    sent = h.mail(GM, SIGNON + "EXTEND 24")
    answer = " ".join(next(m.body for m in sent if m.to == GM).split())
    assert "goes to the other players" in answer, answer
    asked = [m for m in sent if m.to in powers]
    assert len(asked) == 6 and all("sign on and send APPROVE or OPPOSE" in " ".join(
        m.body.split()) for m in asked)
    assert h.game("alpha").deadline == first
    # six other players: four must agree (more than half); three are not enough
    for player in PLAYERS[:3]:
        assert "vote is still open" in _vote(h, player, powers[player], "APPROVE")
    assert h.game("alpha").deadline == first
    assert "is now" in _vote(h, PLAYERS[3], powers[PLAYERS[3]], "APPROVE")
    assert h.game("alpha").deadline == first + timedelta(hours=24)
    assert [e["action"] for e in game_archive(db, "alpha")["gm_clock"]] == ["extension"]
    # a pause the others refuse: three refusals out of six and a majority can no longer agree
    h.mail(GM, SIGNON + "PAUSE")
    assert "vote is still open" in _vote(h, PLAYERS[0], powers[PLAYERS[0]], "OPPOSE")
    assert "vote is still open" in _vote(h, PLAYERS[1], powers[PLAYERS[1]], "APPROVE")
    # a player may change his mind: his latest vote counts
    assert "vote is still open" in _vote(h, PLAYERS[1], powers[PLAYERS[1]], "OPPOSE")
    sent = h.mail(PLAYERS[2], f"SIGNON {powers[PLAYERS[2]]} alpha pw3\nOPPOSE")
    assert any(m.to == GM and "did not agree" in m.body for m in sent)
    assert h.game("alpha").status == "active"
    # nothing left to vote on
    assert "no request of the GM" in _vote(h, PLAYERS[4], powers[PLAYERS[4]], "APPROVE")
