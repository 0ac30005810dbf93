"""The replies of the security work read right in each language: golden files in
tests/golden/replies/ (reviewed in diffs), one per kind and language.

Kinds: the confirmation that holds a stranger's mail, the confirmation mailed to a new
address (SET ADDRESS), the refused line with its password masked, the lockout (the stranger's
refusal and the GM's one notice), the daily reply cap's one notice, and the reply to a mail
whose handling failed.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from judge.service import inbox
from judge.storage import Database
from tests.service.commands_harness import GM, PLAYERS, Harness, Sent, password_of
from tests.service.test_commands_golden import check_golden

WORDS = {
    "en": {"join": "JOIN", "signon": "SIGNON", "set_address": "SET ADDRESS", "help": "HELP"},
    "it": {"join": "ISCRIVI", "signon": "ACCEDI", "set_address": "IMPOSTA INDIRIZZO",
           "help": "AIUTO"},
    "fr": {"join": "INSCRIRE", "signon": "CONNEXION", "set_address": "REGLER ADRESSE",
           "help": "AIDE"},
}
POWER = {"en": "FRANCE", "it": "FRANCIA", "fr": "FRANCE"}
STRANGER = "stranger@elsewhere.example"


def _stable(text: str) -> str:
    """Tokens and times change from run to run: the golden file keeps their place."""
    text = re.sub(r"\b[0-9a-f]{32}\b", "<token>", text)
    return re.sub(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}( [A-Z]{3,4}|[+-]\d{2}:?\d{2})?", "<time>",
                  text)


def _shown(sent: list[Sent], to: str) -> str:
    # which player draws France varies: the golden file names the player of France so
    shown = "<player of France>" if to in PLAYERS else to
    return "\n\n".join(f"To: {shown}\nSubject: {_stable(m.subject)}\n\n{_stable(m.body)}"
                       for m in sent if m.to == to)


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_security_replies_read_right(db: Database, lang: str) -> None:
    words = WORDS[lang]
    h = Harness(db, settings=replace(Harness(db).settings, signon_failures_before_lock=2))
    players = h.started_game("secure", lang=lang)
    france = players["FRANCE"]
    # a stranger's JOIN is held for the confirmation of its address
    held = h.mail(STRANGER, f"{words['join']} secure pw")
    check_golden(f"security_confirm_held.{lang}.txt", _shown(held, STRANGER))
    # SET ADDRESS to an address never confirmed: it gets the confirmation, nothing else
    moved = h.mail(france, f"{words['signon']} {POWER[lang]} secure {password_of(france)}\n"
                           f"{words['set_address']} new-home@elsewhere.example")
    check_golden(f"security_confirm_address.{lang}.txt",
                 _shown(moved, "new-home@elsewhere.example") + "\n\n" + _shown(moved, france))
    # a sign-on line with a word too many: refused, the password masked in the echo
    masked = h.mail(france, f"{words['signon']} {POWER[lang]} secure {password_of(france)} "
                            "extra")
    assert password_of(france) not in masked[0].body
    check_golden(f"security_masked.{lang}.txt", _shown(masked, france))
    # wrong passwords from a stranger lock the seat; the GM is told once
    h.mail(STRANGER, f"{words['signon']} {POWER[lang]} secure guess1")
    locked = h.mail(STRANGER, f"{words['signon']} {POWER[lang]} secure guess2")
    again = h.mail(STRANGER, f"{words['signon']} {POWER[lang]} secure guess3")
    assert not [m for m in again if m.to == GM]
    check_golden(f"security_lockout.{lang}.txt",
                 _shown(locked, GM) + "\n\n" + _shown(again, STRANGER))


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_the_reply_cap_notice_and_the_failure_reply_read_right(db: Database,
                                                               lang: str) -> None:
    # HELP signs on to nothing: its answers count in the anonymous budget (issue 25)
    h = Harness(db, settings=replace(Harness(db).settings, replies_per_address_per_day=1,
                                     anonymous_replies_per_address_per_day=1))
    h.started_game("capped", lang=lang)
    sender = "busy@players.example"
    h.confirm(sender)
    h.mail(sender, WORDS[lang]["help"])
    notice = h.mail(sender, WORDS[lang]["help"])
    assert [m.kind for m in notice] == ["cap_notice"]
    failed = inbox.failed_text(lang)
    check_golden(f"security_cap_and_failure.{lang}.txt",
                 _shown(notice, sender) + "\n\n" + failed)
