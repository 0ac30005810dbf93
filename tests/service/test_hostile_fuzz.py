"""Bounded property tests of what a hostile sender controls: command lines, header values,
From headers. No crash, and the output stays bounded and clean (never timed)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.mail.decoding import sender_of
from judge.parsing.commands import Command, parse_mail
from judge.service import header_safety
from judge.service.mail_commands import MASKED, echo_of, read_lines, secrets_of
from judge.service.rawmask import mask_raw

KEYWORDS = st.sampled_from([
    "SIGNON", "JOIN", "CREATE", "OBSERVE", "SET ADDRESS", "SET PASSWORD", "PRESS TO",
    "BROADCAST", "ENDPRESS", "FOR", "END", "STATUS", "CLEAR", "REPLACE", "CONFIRM", "ACCEDI",
    "ISCRIVI", "CONNEXION", "REGLER ADRESSE", "IMPOSTA INDIRIZZO", "SIGNOFF", "-- ", "//",
])
WORDS = st.one_of(KEYWORDS, st.sampled_from(["FRANCE", "GM", "alpha", "pw", "a@b.example",
                                             "Francia", "x" * 40, ",", "<a@b>", "..", "S1901M"]),
                  st.text(max_size=12))
LINES = st.lists(st.lists(WORDS, max_size=7).map(" ".join), max_size=40)


@settings(max_examples=300, deadline=None)
@given(lines=LINES)
def test_any_command_lines_parse_and_echo_without_a_password(lines: list[str]) -> None:
    parsed = parse_mail(lines)
    secrets = secrets_of(parsed)
    assert len(parsed.items) <= len(lines)
    for item in parsed.items:
        echo = echo_of(item)
        if isinstance(item, Command) and item.password and echo is not None:
            # the password word itself never comes back (unless it is also another word)
            words = echo.split()
            assert MASKED in words or item.password in item.text.split()[:2]
    assert all(isinstance(s, str) and s for s in secrets)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.text(max_size=20), max_size=60), cap=st.integers(1, 30))
def test_the_line_cap_reads_at_most_cap_lines(lines: list[str], cap: int) -> None:
    kept, unread = read_lines(lines, cap)
    assert sum(1 for line in kept if line.strip()) <= cap
    assert unread == sum(1 for line in lines if line.strip()) - sum(
        1 for line in kept if line.strip())


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=400))
def test_one_line_is_one_clean_header_line(text: str) -> None:
    line = header_safety.one_line(text)
    assert len(line) <= header_safety.SUBJECT_CHARS
    assert not any(ord(ch) < 32 or ord(ch) == 127 for ch in line)
    assert "\u2028" not in line and "\u2029" not in line


@settings(max_examples=300, deadline=None)
@given(value=st.text(max_size=80))
def test_an_accepted_address_is_one_plain_addr_spec(value: str) -> None:
    address = header_safety.addr_spec(value)
    if address is not None:
        assert address.count("@") == 1
        assert not any(ch in address for ch in " ,;<>\"()\r\n\t\x00")


@settings(max_examples=300, deadline=None)
@given(header=st.text(max_size=120), envelope=st.sampled_from(["", "env@x.example", "bad"]))
def test_the_sender_is_a_plain_address_or_nobody(header: str, envelope: str) -> None:
    name, address = sender_of(header, envelope)
    assert address == "" or header_safety.addr_spec(address) == address
    assert "\n" not in name and "\r" not in name


@settings(max_examples=200, deadline=None)
@given(body=st.text(max_size=200), secrets=st.lists(st.text(min_size=1, max_size=8).filter(
    lambda s: not any(c.isspace() for c in s)), max_size=4))
def test_masking_removes_every_secret_word(body: str, secrets: list[str]) -> None:
    raw = b"From: a@b.example\r\n\r\n" + body.encode("utf-8")
    masked = mask_raw(raw, secrets)
    for secret in secrets:
        assert secret.encode("utf-8") not in masked.split(b"\r\n\r\n", 1)[1].split()
