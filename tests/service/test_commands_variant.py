"""The VARIANT option: chosen at CREATE (words in three languages), checked against what is
installed and what the mail service can seat, and read by JOIN and START."""

from __future__ import annotations

from judge.storage import Database, gamerepo
from tests.service.commands_harness import GM, PLAYERS, Harness


def test_variant_pure_is_chosen_at_create_and_starts_on_its_map(db: Database) -> None:
    h = Harness(db)
    assert "created" in h.reply(GM, "CREATE puro secret\nVARIANT pure")
    game = h.game("puro")
    assert game.variant == "pure" and game.options["end"]["centres"] == 4
    for player in PLAYERS[:7]:
        h.mail(player, "JOIN puro pw")
    h.mail(GM, "SIGNON GM puro secret\nSTART")
    game = h.game("puro")
    assert game.status == "active" and game.phase == "S1901M"
    assert game.position["variant"] == "pure"
    assert sorted(u for us in game.position["units"].values() for u in us) == [
        "A BER", "A CON", "A LON", "A MOS", "A PAR", "A ROM", "A VIE"]
    with db.session() as session:
        assert len(gamerepo.seats(session, game.id)) == 7


def test_italian_and_french_words_name_the_option(db: Database) -> None:
    h = Harness(db)
    h.reply(GM, "CREA uno segreto\nVARIANTE pure")
    h.reply(GM, "CREER deux secret\nVARIANTE pure")
    assert h.game("uno").variant == "pure" and h.game("deux").variant == "pure"


def test_unknown_variants_are_refused(db: Database) -> None:
    h = Harness(db)
    assert "is not allowed" in h.reply(GM, "CREATE beta secret\nVARIANT atlantis")
    assert "not allowed (8)" in h.reply(GM, "CREATE gamma secret\nPLAYERS 8")
    # seed 001's six-player game is seated by mail too (PLAYERS 6 names it)
    h.reply(GM, "CREATE delta secret\nVARIANT standard-6")
    assert h.game("beta").variant == "standard" and h.game("gamma").variant == "standard"
    assert h.game("delta").variant == "standard-6"
