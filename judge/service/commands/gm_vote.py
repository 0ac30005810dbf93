"""APPROVE / OPPOSE: the other players' vote on the clock request of a GM who also plays a
power (issue 30 point 4; the request and its count: ``judge.service.clock_vote``)."""

from __future__ import annotations

from judge.parsing.commands import Command, Verb
from judge.rules.gm_clock import VoteOutcome
from judge.service import announce, clock_vote
from judge.service.answers import CommandRefusal, Done
from judge.service.commands import gm
from judge.service.commands.registry import handles
from judge.service.commands.session import MailSession


@handles(Verb.APPROVE, Verb.OPPOSE)
def gm_vote_command(s: MailSession, cmd: Command) -> None:
    assert s.actor is not None and s.actor.seat is not None
    game, seat = s.actor.game, s.actor.seat
    request = clock_vote.pending(game)
    if (request is None or seat.account_id is None
            or seat.account_id not in clock_vote.voters(s.session, game)):
        s.say(CommandRefusal.NO_CLOCK_VOTE, game=game.name)
        return
    outcome, request = clock_vote.cast(s.session, game, seat.account_id, cmd.verb is Verb.APPROVE)
    s.store.audit(s.now, "gm_clock_vote", game_id=game.id, actor_account_id=s.account.id,
                  agree=cmd.verb is Verb.APPROVE, outcome=outcome.value)
    if outcome is VoteOutcome.APPROVED:
        gm.approved(s, game, request["action"], clock_vote.due_of(request))
        return
    if outcome is VoteOutcome.REJECTED:
        s.say(Done.CLOCK_VOTE_REJECTED, game=game.name, action=request["action"])
        for address in announce.everyone(s.session, game):
            if address.lower() == s.account.address.lower():
                continue
            s.notify(address, game, Done.CLOCK_VOTE_REJECTED, game=game.name,
                     action=request["action"])
        return
    s.say(Done.CLOCK_VOTE_RECORDED, game=game.name, agree=cmd.verb is Verb.APPROVE)

