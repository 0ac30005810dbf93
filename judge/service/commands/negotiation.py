"""Structured press (issue 14): PROPOSE, ACCEPT and REFUSE after a player's SIGNON.

``PROPOSE FRANCE PEACE`` (``SUPPORT A PAR - BUR``, ``SHARE BEL ENGLAND HOL FRANCE``, ``ALLIANCE
AGAINST GERMANY``, ``DMZ BUR``; Italian ``PROPONI``, French ``PROPOSER``) records a numbered
proposal in the game's ledger. A computer power answers at once, in the game's language, in
the reply; a player gets the proposal by mail and answers ``ACCEPT n`` / ``REFUSE n``, and the
proposer is told. An accepted agreement is judged after every phase (``computer.phase_played``).
"""

from __future__ import annotations

from judge.bots.council import Council
from judge.bots.diplomat import Letter, named, render_letter
from judge.bots.proposals import Kind, PressError, Proposal, ProposalAnswer, parse_press, render
from judge.parsing.commands import Command, Verb
from judge.service import computer, games
from judge.service.answers import CommandRefusal, Done
from judge.service.commands.registry import handles
from judge.service.commands.session import MailSession
from judge.storage.models import Game

OPEN = ("active", "paused")
# proposals and answers one mail may make: each may mail a player and wake the computer
# powers' answers over the whole ledger, so a mail of them is bounded like its sign-ons
PER_MAIL = 10


def _ready(s: MailSession) -> tuple[Game, str] | None:
    """The game and the power negotiating, or None (refusal said)."""
    assert s.actor is not None and s.actor.seat is not None
    game = s.actor.game
    spent = s.counted_by.get("negotiation", 0)
    if spent >= PER_MAIL:
        s.say(CommandRefusal.TOO_MANY, what="proposals")
        return None
    s.counted_by["negotiation"] = spent + 1
    if game.status not in OPEN:
        s.say(CommandRefusal.GAME_NOT_ACTIVE, game=game.name)
        return None
    if games.press_mode(game) == "none":
        s.say(CommandRefusal.NO_PRESS, game=game.name)
        return None
    return game, s.actor.seat.power


@handles(Verb.PROPOSE)
def propose_command(s: MailSession, cmd: Command) -> None:
    ready = _ready(s)
    if ready is None:
        return
    game, sender = ready
    variant = games.game_variant(game).name
    deal = parse_press(cmd.text, game.language, sender, variant=variant)
    if isinstance(deal, PressError):
        s.say(CommandRefusal.BAD_PROPOSAL, problem=deal.value)
        return
    assert isinstance(deal, Proposal)
    seat = s.store.seat_by_power(game.id, deal.partner)
    council = s.store.load_council(game.id) or Council({})
    machine = deal.partner in council.characters
    address = games.address_of_account(s.session, seat.account_id) if seat else None
    if seat is None or seat.status in ("eliminated", "vacant") or not (machine or address):
        s.say(CommandRefusal.POWER_NOT_IN_GAME, game=game.name, power=deal.partner)
        return
    agreement, answers = computer.offer(s.session, game, council, deal, s.now, s.settings,
                                        machine=machine)
    lang = game.language
    s.say(Done.PROPOSAL_SENT, number=agreement.number, partner=named(deal.partner, lang),
          partner_to=named(deal.partner, lang, "to"), deal=render(deal, lang, variant=variant),
          computer=machine)
    for letter in answers:
        s.say(Done.NEGOTIATION, text=render_letter(letter, lang, variant=variant))
    if not machine and address:
        letter = Letter("proposal", sender, (deal.partner,), deal, number=agreement.number)
        s.notify(address, game, Done.NEGOTIATION,
                 text=render_letter(letter, lang, variant=variant))
    s.store.save_council(game.id, council)


@handles(Verb.ACCEPT, Verb.REFUSE)
def answer_command(s: MailSession, cmd: Command) -> None:
    ready = _ready(s)
    if ready is None:
        return
    game, power = ready
    council = s.store.load_council(game.id)
    reply = ProposalAnswer(cmd.verb is Verb.ACCEPT, cmd.number)
    agreement = (council.respond(power, reply, game.phase, games.load_position(game))
                 if council is not None else None)
    if council is None or agreement is None:
        s.say(CommandRefusal.NO_PROPOSAL, number=cmd.number)
        return
    deal = agreement.proposal
    lang = game.language
    variant = games.game_variant(game).name
    s.say(Done.PROPOSAL_ANSWERED, number=agreement.number, accepted=reply.accept,
          deal=render(deal, lang, variant=variant))
    proposer = s.store.seat_by_power(game.id, deal.proposer)
    address = games.address_of_account(s.session, proposer.account_id) if proposer else None
    kind = "accepted" if reply.accept else "refused"
    if address:
        letter = Letter(kind, power, (deal.proposer,), deal, number=agreement.number)
        s.notify(address, game, Done.NEGOTIATION,
                 text=render_letter(letter, lang, variant=variant))
    if reply.accept:
        computer.reorder(s.session, game, council, deal.proposer, s.now)
    if reply.accept and deal.kind is Kind.ALLIANCE and deal.proposer in council.characters:
        # the computer power that asked makes the alliance known, as it does among its own
        computer.send_letters(s.session, game, s.now, s.settings,
                              [Letter("alliance", deal.proposer, (), deal,
                                      number=agreement.number)])
    s.store.save_council(game.id, council)
