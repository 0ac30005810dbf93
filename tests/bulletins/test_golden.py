"""Bulletins against golden files in tests/golden/bulletins/ (reviewed in diffs).

Set JUDGE_UPDATE_GOLDEN=1 to rewrite the files after a deliberate change.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judge.bulletins.render import render
from judge.bulletins.views import Notice, end_view, notice_view, results_view
from tests.bulletins.cases import DEADLINE, NOTICES, SEATS, fall_record, game

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "bulletins"


def check_golden(name: str, subject: str, body: str) -> None:
    text = f"Subject: {subject}\n\n{body}"
    path = GOLDEN / name
    if os.environ.get("JUDGE_UPDATE_GOLDEN") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_fall_results(lang: str) -> None:
    view = results_view(game(lang), fall_record(), seats=SEATS, notices=NOTICES,
                        deadline=DEADLINE)
    subject, body = render("results", lang, view)
    check_golden(f"fall_results.{lang}.txt", subject, body)
    assert ":: Deadline: F1901R" in body
    assert "CET" in body  # the game's zone, not UTC


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_notices(lang: str) -> None:
    notices = [Notice("late", "FRANCE", days=2, until=DEADLINE),
               Notice("sommossa", "GERMANY"),
               Notice("replacement_call", "TURKEY", until=DEADLINE)]
    subject, body = render("notice", lang, notice_view(game(lang), "S1902M", notices,
                                                         deadline=DEADLINE))
    check_golden(f"notice.{lang}.txt", subject, body)


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_reminder_and_end(lang: str) -> None:
    subject, body = render("reminder", lang, notice_view(game(lang), "S1902M", [],
                                                           deadline=DEADLINE,
                                                           missing=["GERMANY"]))
    check_golden(f"reminder.{lang}.txt", subject, body)
    view = end_view(game(lang), "F1905M", winners=["FRANCE"], reason="solo",
                    centers={"FRANCE": 18, "GERMANY": 3},
                    votes=[{"phase": "S1903M", "voter": "ENGLAND", "target": "GERMANY",
                            "orders": ["A MUN - BUR"]}])
    subject, body = render("end", lang, view)
    check_golden(f"end.{lang}.txt", subject, body)
    assert "A MUN - BUR" in body  # Sommossa votes are public only at the end
