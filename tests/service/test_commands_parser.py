"""The command language, pure: keywords in three languages, blocks, endings, complaints."""

from __future__ import annotations

import pytest

from judge.parsing.commands import (
    GM,
    Command,
    Malformed,
    NotUnderstood,
    OrderLine,
    Problem,
    Verb,
    closest_command,
    lexicon,
    parse_mail,
)
from judge.rules.option_registry import OPTIONS
from judge.service.mail_commands import echo_of


def only(lines: list[str]) -> Command:
    items = parse_mail(lines).items
    assert len(items) == 1, items
    assert isinstance(items[0], Command), items[0]
    return items[0]


@pytest.mark.parametrize(("line", "lang"), [
    ("JOIN alpha secret", "en"), ("ISCRIVI alpha secret", "it"), ("INSCRIRE alpha secret", "fr"),
    ("join Alpha secret", "en"), ("Inscrire alpha secret", "fr"),
])
def test_join_in_every_language(line: str, lang: str) -> None:
    cmd = only([line])
    assert (cmd.verb, cmd.game, cmd.password, cmd.lang) == (Verb.JOIN, "alpha", "secret", lang)


def test_every_command_has_keywords_args_and_help_in_three_languages() -> None:
    raw = lexicon().raw
    for verb in Verb:
        if verb is Verb.OPTION:
            continue
        info = raw["commands"][verb.value]
        for lang in ("en", "it", "fr"):
            assert info[lang], (verb, lang)
            assert lang in info["args"], (verb, lang)
    for spec in OPTIONS:  # the game options: the option registry
        for lang in ("en", "it", "fr"):
            assert spec.words[lang] and spec.values[lang], (spec.key, lang)


def test_accents_and_case_do_not_matter() -> None:
    assert only(["Régler attente"]).verb is Verb.SET_WAIT
    assert only(["set nowait"]).verb is Verb.SET_NOWAIT


@pytest.mark.parametrize("line", ["STATUS", "stato", "État", "statut"])
def test_status_in_every_language(line: str) -> None:
    assert only([line]).verb is Verb.STATUS


def test_join_with_preferences_in_any_language() -> None:
    cmd = only(["JOIN alpha pw Francia, ENGLAND Allemagne"])
    assert cmd.powers == ("FRANCE", "ENGLAND", "GERMANY")
    bad = parse_mail(["JOIN alpha pw Narnia"]).items[0]
    assert isinstance(bad, Malformed) and bad.problem is Problem.UNKNOWN_POWER


def test_signon_forms() -> None:
    assert only(["SIGNON FRANCE alpha pw"]).power == "FRANCE"
    njudge = only(["SIGNON Falpha pw"])
    assert (njudge.power, njudge.game, njudge.password) == ("FRANCE", "alpha", "pw")
    gm = only(["ACCEDI ARBITRO alpha pw"])
    assert gm.power == GM and gm.lang == "it"
    missing = parse_mail(["SIGNON FRANCE"]).items[0]
    assert isinstance(missing, Malformed) and missing.problem is Problem.MISSING_ARGUMENT


def test_lines_after_a_player_signon_are_orders_and_signoff_ends() -> None:
    parsed = parse_mail(["SIGNON ITALY alpha pw", "A VEN - TRI", "// a comment", "",
                         "F NAP - ION", "SIGNOFF", "A ROM - APU"])
    kinds = [type(i).__name__ for i in parsed.items]
    assert kinds == ["Command", "OrderLine", "OrderLine"]
    assert parsed.ended_at == 6


def test_signature_ends_the_session() -> None:
    parsed = parse_mail(["HELP", "-- ", "JOIN x y"])
    assert [i.verb for i in parsed.commands()] == [Verb.HELP]
    assert parsed.ended_at == 2


def test_unknown_line_gets_the_closest_command() -> None:
    parsed = parse_mail(["STAUTS", "xyzzy plugh"])
    first, second = parsed.items
    assert isinstance(first, NotUnderstood) and first.suggestion is Verb.STATUS
    assert isinstance(second, NotUnderstood) and second.suggestion is None
    assert closest_command("ISCRIVII alpha pw") is Verb.JOIN


def test_press_block_with_powers_and_grey() -> None:
    cmd = only(["PRESS TO England, Germania GREY", "Hello", "", "Second line", "ENDPRESS"])
    assert cmd.verb is Verb.PRESS and cmd.grey
    assert cmd.powers == ("ENGLAND", "GERMANY")
    assert cmd.body == ("Hello", "", "Second line")
    italian = only(["CIRCOLARE", "Saluti", "FINE STAMPA"])
    assert italian.verb is Verb.BROADCAST and italian.body == ("Saluti",)


def test_press_without_end_is_refused() -> None:
    item = parse_mail(["BROADCAST", "never closed"]).items[0]
    assert isinstance(item, Malformed) and item.problem is Problem.UNCLOSED_BLOCK


def test_for_block_ends_with_end_and_end_alone_is_the_gm_command() -> None:
    parsed = parse_mail(["SIGNON ITALY alpha pw", "POUR Autriche", "A VIE H", "FIN", "FIN"])
    signon, block, end = parsed.items
    assert isinstance(block, Command) and block.verb is Verb.FOR and block.power == "AUSTRIA"
    assert block.body == ("A VIE H",)
    assert isinstance(end, Command) and end.verb is Verb.END


def test_option_lines_parse_their_values() -> None:
    parsed = parse_mail(["LANGUAGE it", "PRESS grey", "BLIND", "DEADLINES M=48 R=12 A=12",
                         "TIMEZONE Europe/Paris", "LATEDAYS 5 2", "ENDING 2030-01-01",
                         "ENDING F1907M", "ASSIGNMENT preferences", "RULES rulebook",
                         "GMPRESS yes"])
    settings = [(c.option, c.setting) for c in parsed.commands()]
    assert settings == [
        ("language", "it"), ("press", "grey"), ("blind", True),
        ("deadlines_hours", {"M": 48, "R": 12, "A": 12}), ("timezone", "Europe/Paris"),
        ("late_days", {"total": 5, "per_turn": 2}), ("end", {"on": "2030-01-01"}),
        ("end", {"after": "F1907M"}), ("assignment", "preferences"), ("rules", "rulebook"),
        ("gm_reads_press", True),
    ]
    bad = parse_mail(["PRESS purple"]).items[0]
    assert isinstance(bad, Malformed) and bad.problem is Problem.BAD_VALUE


def test_gm_command_arguments() -> None:
    assert only(["PROCESS s1901m"]).value == "S1901M"
    assert only(["EXTEND 2D"]).number == 48
    assert only(["PROROGA 12"]).number == 12
    assert only(["GRANT France 2"]).power == "FRANCE"
    assert only(["REPLACE RUSSIA new@example.org"]).value == "new@example.org"
    assert only(["SET DEADLINE 2027-04-01 20:00"]).value == "2027-04-01 20:00"
    assert only(["HISTORY alpha S1901M..F1901M"]).value == "S1901M..F1901M"
    bad = parse_mail(["PROCESS spring"]).items[0]
    assert isinstance(bad, Malformed) and bad.problem is Problem.BAD_PHASE


def test_a_keyword_that_takes_nothing_is_not_matched_with_words_after_it() -> None:
    # FIN is French END but also Finland: "FIN H" after a signon is an order
    parsed = parse_mail(["SIGNON RUSSIA alpha pw", "FIN H"])
    assert isinstance(parsed.items[1], OrderLine)


def test_echo_masks_passwords() -> None:
    assert echo_of(only(["SIGNON FRANCE alpha hunter2"])) == "SIGNON FRANCE alpha ****"
    assert echo_of(only(["SET PASSWORD newsecret"])) == "SET PASSWORD ****"
    assert "secret" not in (echo_of(only(["CREATE alpha secret"])) or "")


def test_no_keyword_phrase_means_two_things() -> None:
    from judge.parsing.commands import fold

    raw = lexicon().raw
    meaning: dict[tuple[str, ...], set[str]] = {}
    words = {key: info for key, info in raw["commands"].items()}
    words.update({f"option:{spec.key}": spec.words for spec in OPTIONS})
    for key, info in words.items():
        for lang in ("en", "it", "fr"):
            for phrase in info[lang]:
                meaning.setdefault(tuple(fold(phrase).split()), set()).add(key)
    clashes = {p: keys for p, keys in meaning.items() if len(keys) > 1}
    assert clashes == {}
    assert only(["RESUME"]).verb is Verb.RESUME
