"""Computer powers vote a draw in a game the judge runs (issue 29 point 1, issue 26 point 4).

A solo game by mail whose board can no longer change: no power has a unit left and every
centre still owned lies outside its owner's homes, so nobody can build. The player votes DRAW
at once; the six computer powers vote theirs themselves, through the use case a player's DRAW
goes through, once three years have passed without a centre changing hands, and the game ends
there as a draw of the seven, its end bulletin saying so.
"""

from __future__ import annotations

from sqlalchemy import select

from judge.service import computer, computer_phase
from judge.storage import Database, gamerepo
from judge.storage.models import Vote
from tests.service.commands_harness import GM, Harness

HUMAN = "FRANCE"
# one or two neutral centres each, none a home centre: no builds, no units, no change
FROZEN = {"FRANCE": ["SPA", "POR"], "ENGLAND": ["NWY"], "GERMANY": ["DEN", "HOL"],
          "ITALY": ["TUN"], "AUSTRIA": ["SER", "GRE"], "RUSSIA": ["SWE", "RUM"],
          "TURKEY": ["BUL"]}


def test_computer_powers_vote_the_draw_of_a_stalled_game(db: Database) -> None:
    h = Harness(db)
    h.mail(GM, "CREATE frozen gmpass\nLANGUAGE en\nBOTS FRANCE\nSTART")
    with db.session() as s:
        game = gamerepo.game_by_name(s, "frozen")
        assert game is not None and game.status == "active" and game.phase == "S1901M"
        position = dict(game.position)
        position["units"] = {}
        position["centers"] = FROZEN
        game.position = position
    sent = h.mail(GM, "SIGNON FRANCE frozen gmpass\nDRAW")
    votes_seen: list[set[str]] = []
    for _ in range(12):  # each mail plays the phases that wait for nobody (three at most)
        game = h.game("frozen")
        if game.status != "active":
            break
        with db.session() as s:
            votes_seen.append({v.voter_power for v in s.scalars(
                select(Vote).where(Vote.game_id == game.id, Vote.kind == "draw"))})
        sent += h.mail(GM, "SIGNON FRANCE frozen gmpass\nSTATUS")
    game = h.game("frozen")
    assert game.status == "finished"
    # the computer powers' votes came after the stall, not at the start
    assert votes_seen[0] == {HUMAN}
    with db.session() as s:
        stored = gamerepo.game_by_name(s, "frozen")
        assert stored is not None
        people = computer.computer_powers(s, stored)
        history = computer_phase.centre_history(s, stored)
        cast = {v.voter_power for v in s.scalars(
            select(Vote).where(Vote.game_id == stored.id, Vote.kind == "draw"))}
    assert set(people) == set(FROZEN) - {HUMAN}
    assert cast == set(FROZEN)
    assert len(history) >= 4 and all(h == history[-1] for h in history[-4:])
    end = next(m.body for m in sent if "game over" in m.subject.lower())
    assert "draw" in end.lower()
