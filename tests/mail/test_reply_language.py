"""The notes the drain appends to a reply (attachments ignored, HTML read as text, charset
guesses) are in the reply's language: the game's, else the account's or the keywords'."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from judge.mail.decoding import decode
from judge.service import inbox
from judge.service.commands.session import MailSession
from judge.service.uow import NOTE_TEXTS, IncomingMail, note_text
from judge.settings import Settings
from judge.storage import Database
from judge.storage.gamerepo import account_for
from judge.storage.mailrepo import list_outbound, store_inbound
from tests.service.commands_harness import START, Harness, password_of

from .peers import make_mail


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    database.migrate()
    yield database
    database.dispose()


def with_attachment(body: str, sender: str) -> bytes:
    return make_mail(
        f"--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n--b\r\n"
        "Content-Type: image/png\r\nContent-Disposition: attachment; filename=board.png\r\n"
        "Content-Transfer-Encoding: base64\r\n\r\niVBORw0K\r\n--b--\r\n",
        sender=sender, extra_headers='Content-Type: multipart/mixed; boundary="b"\r\n')


def html_only(body: str, sender: str) -> bytes:
    return make_mail(f"<p>{body}</p>", sender=sender,
                     extra_headers="Content-Type: text/html; charset=utf-8\r\n")


def odd_charset(body: str, sender: str) -> bytes:
    return make_mail(body, sender=sender,
                     extra_headers="Content-Type: text/plain; charset=x-martian\r\n")


def replies(db: Database, settings: Settings, raws: list[tuple[str, bytes]]) -> list[str]:
    """Store the mails, drain them as the server does; the reply body each one got."""
    with db.session() as s:
        ids = []
        for sender, raw in raws:
            row = store_inbound(s, raw=raw, message_id="", envelope_from=sender,
                                envelope_to=[settings.address], source="lmtp", now=START,
                                max_bytes=10**6)
            assert row is not None
            ids.append(row.id)
    while inbox.drain_some(db, settings, decode, now=lambda: START, limit=16):
        pass
    with db.session() as s:
        rows = [r for r in list_outbound(s, limit=1000) if r.kind.startswith("reply")]
    by_mail = {r.inbound_id: r.body for r in rows}
    return [by_mail[i] for i in ids]


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
def test_notes_follow_the_game_the_mail_signs_on_to(db: Database) -> None:
    h = Harness(db)
    italian = h.started_game("partita", options="LINGUA it", lang="it")
    french = h.started_game("partie", options="LANGUE fr", lang="fr")
    italia, france = italian["ITALY"], french["FRANCE"]
    # the game's passwords follow the players' order of joining: same pw for both games
    bodies = replies(db, h.settings, [
        (italia, with_attachment(f"SIGNON ITALY partita {password_of(italia)}\nSTATUS",
                                 italia)),
        (france, html_only(f"SIGNON FRANCE partie {password_of(france)}<br>STATUS", france)),
        (italia, odd_charset(f"SIGNON ITALY partita {password_of(italia)}\nSTATUS", italia)),
    ])
    assert "Accesso come Italia" in bodies[0]
    assert "Allegato board.png ignorato." in bodies[0]
    assert "Attachment" not in bodies[0]
    assert "Connecté comme France" in bodies[1]
    assert note_text("html_read", {}, "fr") in bodies[1] and "plain-text" not in bodies[1]
    assert "Votre courrier n'avait pas de partie en texte brut" in bodies[1]
    assert "Set di caratteri sconosciuto 'x-martian'" in bodies[2]


def test_notes_follow_the_account_or_the_keywords(db: Database) -> None:
    settings = Settings(address="judge@judge.example")
    with db.session() as s:
        account_for(s, "lucia@example.it", START).language = "it"
    bodies = replies(db, settings, [
        ("lucia@example.it", with_attachment("", "lucia@example.it")),   # no keyword: account
        ("jean@example.fr", with_attachment("AIDE", "jean@example.fr")),  # French keyword
        ("ann@example.org", with_attachment("HELP", "ann@example.org")),  # English
        ("nobody@example.net", with_attachment("", "nobody@example.net")),  # unknown: English
    ])
    assert "Allegato board.png ignorato." in bodies[0]
    assert "Pièce jointe board.png ignorée." in bodies[1]
    assert "Attachment board.png ignored." in bodies[2]
    assert "Attachment board.png ignored." in bodies[3]


def test_every_note_has_every_language() -> None:
    # every note is translated: tests/test_catalogs.py checks the catalogs
    params = {"name": "a.png", "charset": "x-martian", "used": "utf-8"}
    for key in NOTE_TEXTS:
        assert note_text(key, params, "it") != note_text(key, params, "en")
        assert note_text(key, params, "de") == note_text(key, params, "en")
        assert note_text(key, params, None) == note_text(key, params, "en")
    # the English text decoding keeps in IncomingMail.notes is unchanged
    mail = decode(odd_charset("HELP", "p@example.org"), "p@example.org", 0, False,
                  Settings(address="judge@example.org"))
    assert mail.notes == ("Unknown character set 'x-martian': your text was read as utf-8.",)
    assert mail.note_codes == (("unknown_charset", (("charset", "x-martian"),
                                                     ("used", "utf-8"))),)


def test_notes_said_once_and_plain_notes_kept() -> None:
    mail = IncomingMail(from_addr="p@example.org", ignored_attachments=("a.pdf",),
                        notes=("A note decoded elsewhere.",))
    ctx = MailSession(mail=mail, settings=Settings(address="judge@example.org"), now=START,
                      session=None, outbox=[], reply_counts={"p@example.org": 0})
    first = ctx.reply("Ciao.", lang="it")
    second = ctx.reply("Ancora.", lang="it")
    assert first is not None and second is not None
    assert first.body == "Ciao.\n\nAllegato a.pdf ignorato.\nA note decoded elsewhere.\n"
    assert second.body == "Ancora."
