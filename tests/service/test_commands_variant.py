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


def test_players_and_removals_are_listed(db: Database) -> None:
    h = Harness(db)
    h.reply(GM, "CREATE tre secret\nPLAYERS 3\nREMOVALS owned")
    h.mail(PLAYERS[0], "JOIN tre pw")
    listed = h.reply(PLAYERS[1], "LIST tre")
    assert "1/3 players" in listed and "Variant standard-3." in listed, listed
    assert "distance to owned centres" in listed
    game = h.game("tre")
    assert game.options["removal_distance"] == "owned" and game.variant == "standard-3"
    # three players join, START: seven seat rows, three people
    h.mail(PLAYERS[1], "JOIN tre pw")
    h.mail(PLAYERS[2], "JOIN tre pw")
    h.mail(GM, "SIGNON GM tre secret\nSTART")
    assert h.game("tre").status == "active"
    assert "3/3 players" in h.reply(PLAYERS[3], "LIST tre")
    with db.session() as session:
        assert len(gamerepo.seats(session, h.game("tre").id)) == 7
    # the variant cannot change once the game has started
    assert "cannot change" in h.reply(GM, "SIGNON GM tre secret\nPLAYERS 4")


def test_help_variants_lists_every_installed_variant_in_three_languages(db: Database) -> None:
    from judge.adjudicator.catalog import variant, variant_names

    h = Harness(db)
    replies = {"en": h.reply(PLAYERS[0], "HELP VARIANTS"),
               "it": h.reply(PLAYERS[0], "AIUTO VARIANTI"),
               "fr": h.reply(PLAYERS[0], "AIDE VARIANTES")}
    assert "The maps this judge plays (at CREATE, the line VARIANT name" in replies["en"]
    assert "Le mappe che questo judge gioca" in replies["it"]
    assert "Les cartes que joue ce juge" in replies["fr"]
    for lang, text in replies.items():
        for name in variant_names():
            v = variant(name)
            assert f"    {name} -- {v.title(lang)}\n" in text, (lang, name)
    assert "7 players; victory: 18 supply centres of 34" in replies["en"]
    assert "4 players; victory: 18 supply centres of 34" in replies["en"]  # standard-4
    assert "7 giocatori; vittoria: 18 centri di rifornimento su 34" in replies["it"]
    assert "Puissances : Autriche, Angleterre, France" in replies["fr"]
    assert "Potenze: Austria, Inghilterra, Francia" in replies["it"]
    # standard-6: Italy is out, it is not one of the powers played
    six = replies["en"].split("standard-6 --")[1].split("Powers: ")[1].split("\n")[0]
    assert six == "Austria, England, France, Germany, Russia, Turkey."


def test_help_lists_its_variants_argument(db: Database) -> None:
    h = Harness(db)
    assert "HELP [VARIANTS]" in h.reply(PLAYERS[0], "HELP")
    assert "AIDE [VARIANTES]" in h.reply(PLAYERS[0], "AIDE")
