"""The BUILDS option (issue 26): DPjudge's build rules as a house rule, on the standard map too."""

from __future__ import annotations

from judge.adjudicator.adjustments import BuildRule
from judge.service.snapshot_rows import chosen, game_options
from judge.storage import Database
from tests.service.commands_harness import GM, Harness


def test_builds_is_chosen_in_three_languages_and_read_by_the_turn(db: Database) -> None:
    h = Harness(db)
    h.reply(GM, "CREATE anywhere secret\nBUILDS any")
    h.reply(GM, "CREA ovunque segreto\nCOSTRUZIONI OVUNQUE")
    h.reply(GM, "CREER partout secret\nCONSTRUCTIONS origines")
    assert h.game("anywhere").options["builds"] == "any"
    assert h.game("ovunque").options["builds"] == "any"
    assert h.game("partout").options["builds"] == "homes"
    assert game_options(chosen(h.game("anywhere"))).builds is BuildRule.ANY
    h.reply(GM, "CREATE plain secret")
    assert "builds" not in h.game("plain").options
    assert game_options(chosen(h.game("plain"))).builds is None  # the variant's rule
