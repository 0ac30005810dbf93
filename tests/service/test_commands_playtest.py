"""Regressions found by play-testing a club game by mail: what players and the GM read."""

from __future__ import annotations

from judge.storage import Database, gamerepo, playrepo
from tests.service.commands_harness import GM, Harness, password_of


def _signon(power: str, address: str, game: str = "alpha") -> str:
    return f"SIGNON {power} {game} {password_of(address)}\n"


def test_a_refusal_names_the_other_power_in_the_game_language(db: Database) -> None:
    h = Harness(db)
    italy = h.started_game("alpha", "LINGUA it", lang="it")["ITALY"]
    body = h.reply(italy, _signon("ITALIA", italy) + "F Kie - Bal\nCostruisci A Tunisi")
    assert "F KIE appartiene a Germania" in body
    assert "GERMANY" not in body


def test_an_order_replaced_by_a_later_line_is_pointed_out(db: Database) -> None:
    h = Harness(db)
    russia = h.started_game("alpha")["RUSSIA"]
    body = h.reply(russia, _signon("RUSSIA", russia) + "A Mos - Sev\nA War - Gal\nA Mos H")
    assert 'Note: "A Mos - Sev": replaced by a later order for A MOS.' in body


def test_a_support_that_matches_no_order_is_pointed_out_in_french(db: Database) -> None:
    h = Harness(db)
    france = h.started_game("alpha", "LANGUE fr", lang="fr")["FRANCE"]
    body = h.reply(france, _signon("FRANCE", france) + "A PAR - BOU\nA TOU S A PAR - GAS")
    assert "Remarque : « A TOU S A PAR - GAS »" in body


def test_process_reply_says_in_words_why_nothing_was_adjudicated(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha", "LINGUA it", lang="it")
    for power, address in players.items():
        h.mail(address, _signon(power, address) + "PATTA")
    body = h.reply(GM, "ACCEDI GM alpha gmpass\nELABORA S1901M")
    assert "S1901M: la partita è finita; segue il bollettino finale." in body
    assert "game_over" not in body and "ended" not in body


def test_list_shows_seat_statuses_and_options_in_words(db: Database) -> None:
    h = Harness(db)
    h.started_game("alpha", "LANGUE fr\nPRESSE grise", lang="fr")
    body = h.reply(GM, "LISTE alpha")
    assert "Presse grise;" in body.replace(" ;", ";")
    assert "en jeu" in body and " active " not in body


def test_option_lines_are_answered_in_words(db: Database) -> None:
    h = Harness(db)
    body = h.reply(GM, "CREA beta gmpass\nLINGUA it\nSTAMPA grigia")
    assert "Opzione LINGUA: italiano." in body and "Opzione STAMPA: grigia." in body


def test_history_of_a_game_without_turns_reads_well(db: Database) -> None:
    h = Harness(db)
    h.started_game("alpha")
    body = h.reply("someone@else.test", "HISTORY alpha")
    assert "Game alpha has no processed phase yet." in body


def test_a_for_block_of_refused_lines_keeps_the_earlier_vote(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    italy = players["ITALY"]
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        austria = playrepo.seat_by_power(s, game.id, "AUSTRIA")
        assert austria is not None
        austria.status = "onp1"
    h.mail(italy, _signon("ITALY", italy) + "FOR AUSTRIA\nA VIE - GAL\nEND")
    body = h.reply(italy, _signon("ITALY", italy) + "FOR AUSTRIA\nA VIE - XYZ\nEND")
    assert "earlier orders stay on file" in body
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        votes = playrepo.votes(s, game.id, kind="sommossa_order")
        assert [v.payload["orders"] for v in votes] == [["A VIE - GAL"]]


def test_for_is_refused_outside_movement_phases(db: Database) -> None:
    h = Harness(db)
    players = h.started_game("alpha")
    italy = players["ITALY"]
    with db.session() as s:
        game = gamerepo.game_by_name(s, "alpha")
        assert game is not None
        game.phase = "W1901A"
        austria = playrepo.seat_by_power(s, game.id, "AUSTRIA")
        assert austria is not None
        austria.status = "onp1"
    body = h.reply(italy, _signon("ITALY", italy) + "FOR AUSTRIA\nA VIE B\nEND")
    assert "No orders can be sent for Austria now." in body


def test_order_lines_above_clear_are_answered(db: Database) -> None:
    h = Harness(db)
    italy = h.started_game("alpha")["ITALY"]
    body = h.reply(italy, _signon("ITALY", italy) + "A Ven - Tyr\nCLEAR\nF Nap - Ion")
    assert body.index("A VEN - TYR") < body.index("withdrawn") < body.index("F NAP - ION")


def test_the_gm_hears_of_a_deadline_moved_by_late_days(db: Database) -> None:
    h = Harness(db)
    italy = h.started_game("alpha")["ITALY"]
    sent = h.mail(italy, _signon("ITALY", italy) + "LATE 1")
    assert any(m.to == GM and "deadline" in m.body for m in sent)


def test_a_become_copy_never_carries_the_gm_preview(db: Database) -> None:
    """Play-test: PREVIEW after BECOME went, with every power's orders, into the copy
    mailed to the player of record."""
    h = Harness(db)
    players = h.started_game("alpha")
    germany = players["GERMANY"]
    h.mail(germany, _signon("GERMANY", germany) + "A MUN - RUH")
    sent = h.mail(GM, "SIGNON GM alpha gmpass\nBECOME FRANCE\nA PAR - BUR\nPREVIEW")
    copy = next(m for m in sent if m.to == players["FRANCE"])
    assert "A PAR - BUR" in copy.body
    assert "Munich" not in copy.body and "PREVIEW" not in copy.body.upper()
    gm_reply = next(m for m in sent if m.to == GM)
    assert "Munich" in gm_reply.body


def test_the_end_bulletin_names_the_last_phase_played(db: Database) -> None:
    """Play-test: the GM's END during F1902M announced the game "over after Fall 1902",
    a phase never played."""
    h = Harness(db)
    h.started_game("alpha", "LINGUA it", lang="it")
    h.mail(GM, "ACCEDI GM alpha gmpass\nFINE PARTITA")  # the first asks for a confirmation
    sent = h.mail(GM, "ACCEDI GM alpha gmpass\nFINE PARTITA")
    bulletin = next(m for m in sent if m.kind != "reply" and m.to == GM)
    assert "La partita alpha è terminata.\n" in bulletin.body
    assert "dopo" not in bulletin.body


def test_french_press_reads_as_french(db: Database) -> None:
    """Play-test: "Presse ... de Allemagne à France" and "de une puissance inconnue"."""
    h = Harness(db)
    germany = h.started_game("alpha", "LANGUE fr\nPRESSE grise", lang="fr")["GERMANY"]
    sent = h.mail(germany, _signon("GERMANY", germany) + "PRESSE A France\nSalut\nFIN PRESSE")
    press = next(m for m in sent if m.kind == "press")
    assert "de l'Allemagne à la France :" in press.body
    assert press.subject.endswith("presse de l'Allemagne")


def test_a_refusal_names_units_in_the_game_notation(db: Database) -> None:
    h = Harness(db)
    russia = h.started_game("alpha", "LANGUE fr", lang="fr")["RUSSIA"]
    body = h.reply(russia, _signon("RUSSIE", russia) + "F Ode S A Var - Rou")
    assert "A VAR ne peut pas aller en Roumanie" in body and "A WAR" not in body
