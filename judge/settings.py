"""Typed settings: defaults < TOML file (``--config`` or JUDGE_CONFIG) < JUDGE_* environment.

Every setting is declared once below, as a field of :class:`Settings` with its type, default,
section and one line of help (``setting(...)``). A field ``name`` is set in the TOML file as the
top-level key ``name`` and in the environment as ``JUDGE_<NAME>``; the environment names of
``../shared/design.md`` (JUDGE_DATABASE_URL, JUDGE_ADDRESS, JUDGE_LMTP_HOST ...) are a fixed
interface. A key that is not declared, in the file or as a JUDGE_* variable, is an error that
names it: a misspelt setting never silently falls back to its default.
``config/judge.example.toml`` is generated from these declarations
(``python scripts/write_example_config.py``, checked by tests/test_settings.py).

Hand-written on dataclasses and tomllib rather than pydantic-settings: the whole judge and its
tests build and copy ``Settings`` as a frozen dataclass (``dataclasses.replace``), the types are
five simple ones, and pydantic-settings would still not reject an unknown ``JUDGE_*`` variable.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, get_type_hints

SECURITY_MODES = ("none", "starttls", "ssl")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
ENV_PREFIX = "JUDGE_"
# JUDGE_* variables that are not settings: the config file's name, and the test suite's switches
# (they are in the environment of every judge the tests start).
OTHER_ENV = {
    "JUDGE_CONFIG": "the TOML settings file",
    "JUDGE_REQUIRE_SERVICES": "tests: a missing PostgreSQL, Dovecot or Chromium fails",
    "JUDGE_TEST_POSTGRES_URL": "tests: the PostgreSQL server to create test databases on",
    "JUDGE_UPDATE_GOLDEN": "tests: rewrite the golden files",
    # the adjudicator's build: read by judge/__init__.py and setup.py, before any setting
    "JUDGE_PURE_PYTHON": "load the pure-Python adjudicator even where a compiled one is built",
    "JUDGE_MYPYC": "setup.py: compile the adjudicator with mypyc (1), never (0), where it can",
    "JUDGE_REQUIRE_COMPILED": "tests: no compiled adjudicator to check against the source fails",
}


class ConfigError(ValueError):
    """A setting, config file or installation problem that the operator must fix."""


def setting(default: Any, doc: str, section: str = "", choices: tuple[str, ...] = ()) -> Any:
    """Declare one setting; ``section`` starts a new part of the example file."""
    return dataclasses.field(
        default=default, metadata={"doc": doc, "section": section, "choices": choices}
    )


@dataclass(frozen=True)
class Settings:
    database_url: str = setting(
        "sqlite:///judge.db",
        "SQLAlchemy URL. SQLite (relative to the working directory) is created and migrated at "
        "start; PostgreSQL (pip install 'judge[postgres]'): "
        '"postgresql+psycopg://user:password@host:5432/judge".',
        section="storage")
    address: str = setting(
        "judge@localhost",
        "The judge's own mail address: From of every outgoing mail, domain of "
        "Message-IDs/List-Ids.", section="identity")
    judge_name: str = setting(
        "", "The judge's name in bulletins; empty: its address.")
    create_allowed: tuple[str, ...] = setting(
        (), "Addresses that may CREATE games (environment: comma-separated); empty: anyone.")
    club_list_address: str = setting(
        "", "The club's mailing list (seed 002's M.L.): the call for a replacement player and "
        "the news that one was found also go there. Set by the judge's keeper, so it counts as "
        "a confirmed address. Empty: no list.")
    lmtp_host: str = setting(
        "127.0.0.1",
        'LMTP listener (point the MTA\'s delivery at it, e.g. Postfix "lmtp:inet:127.0.0.1:8024").',
        section="mail in")
    lmtp_port: int = setting(8024, "")
    smtp_listen_port: int = setting(8025, "Plain SMTP listener on lmtp_host; 0 disables it.")
    max_message_bytes: int = setting(
        1_000_000,
        'Mail larger than this is kept (cut) and answered "too big", never read as commands; '
        "ten times this is refused by the listeners with 552.")
    imap_host: str = setting("", "IMAP poller: empty imap_host disables it.")
    imap_port: int = setting(993, "")
    imap_user: str = setting("", "")
    imap_password: str = setting("", "")
    imap_security: str = setting("ssl", "", choices=SECURITY_MODES)
    imap_folder: str = setting("INBOX", "")
    imap_after_store: str = setting(
        "delete",
        'After a message is stored: "delete" (\\Seen \\Deleted + EXPUNGE), "seen", or '
        '"move:<folder>".')
    imap_poll_seconds: float = setting(
        60.0, "Polling interval when the server has no IDLE (and the longest wait inside IDLE).")
    imap_idle_seconds: float = setting(600.0, "")
    imap_backoff_max_seconds: float = setting(300.0, "")
    smtp_host: str = setting("127.0.0.1", "The relay every outgoing mail goes to.",
                             section="mail out")
    smtp_port: int = setting(25, "")
    smtp_user: str = setting("", "")
    smtp_password: str = setting("", "")
    smtp_security: str = setting("none", "", choices=SECURITY_MODES)
    smtp_timeout_seconds: float = setting(30.0, "")
    smtp_ca_file: str = setting(
        "", "CA certificates (PEM) to trust for the relay's TLS; empty: the system's.")
    smtp_connections: int = setting(
        1, "Parallel connections to the relay, each with one message in flight: a crash "
        "re-sends at most this many messages.")
    outbox_maildir: str = setting(
        "", "A Maildir folder (created if missing; relative to the working directory) that "
        "receives every outgoing mail instead of the relay, to try the judge without an MTA: "
        "read it with `judge read` or any mail reader. Empty: mail goes to smtp_host.")
    verp: bool = setting(
        True, "Envelope sender judge+bounce-<row>-<token>@domain, to tie bounces to seats.")
    max_send_tries: int = setting(
        10, "A message is dead after a 5xx answer or after this many tries (4xx, connection "
        "errors).")
    retry_base_seconds: float = setting(
        60.0, "Backoff between tries: base * 2^(tries-1), at most max.")
    retry_max_seconds: float = setting(6 * 3600.0, "")
    replies_per_address_per_day: int = setting(
        50, "Replies to one address in 24 hours for mail signed on with a right password (or "
        "the GM's, a confirmation's) beyond this are dropped (logged), to break loops.")
    max_mail_connections: int = setting(
        200, "Connection limits (0: none). Above max_mail_connections a mail client gets a 421.",
        section="limits")
    max_mail_connections_per_client: int = setting(
        50, "LMTP/SMTP sessions one client address (an IPv6 client: its /64) may hold open; "
        "more get a 421, so one machine cannot take the places of all. Above your MTA's "
        "concurrency to the judge (Postfix: 20); 0 behind a balancer, whose address every "
        "session has.")
    mail_idle_seconds: float = setting(
        300.0, "An LMTP/SMTP session is closed when its next whole command line (or a mail's "
        "DATA) is not in this long after the previous command (RFC 5321 asks for 5 minutes).")
    max_http_connections: int = setting(
        200, "Above max_http_connections the archive answers 503.")
    max_http_connections_per_client: int = setting(
        25, "Web connections one client address (an IPv6 client: its /64) may hold open; more "
        "are answered 503 at once. 0 behind a reverse proxy, whose address every connection "
        "has.")
    http_request_seconds: float = setting(
        10.0, "A web request's head and body must be received within this long of the "
        "connection's opening or of the request's first byte, or the connection is closed.")
    http_idle_seconds: float = setting(5.0, "Keep-alive of an idle HTTP connection.")
    drain_poll_seconds: float = setting(
        5.0, "How often the inbox and outbox drains look at the database when nothing woke them.",
        section="running")
    scheduler_sweep_seconds: float = setting(
        30.0, "How often the deadline scheduler re-reads the earliest open deadline (one query: "
        "another judge node may have moved one); games whose orders are all in wake it at once.")
    turn_workers: int = setting(
        0, "Processes adjudicating due games (0: one per core; SQLite always 1; -1: none, a "
        "thread of the serving process does it, as before the pool, for comparison).")
    web_port: int = setting(
        8080, "The web archive: port and bind address (0.0.0.0 in a container).")
    web_host: str = setting("127.0.0.1", "")
    web_games_per_client_per_hour: int = setting(
        5, "The play page: solo games one client (IP address) may start in an hour; "
        "web_games_per_hour for all clients together (0: the page starts none).")
    web_games_per_hour: int = setting(60, "")
    webhook_allow_private: bool = setting(
        False, "Webhooks (the GM's WEBHOOK): also to loopback, private and link-local addresses "
        "(a judge and its chat bot on one private network; the tests). Off: such an address, "
        "as the host name resolves when set and at each delivery, is refused.")
    webhook_tries: int = setting(
        6, "Deliveries of one webhook event tried (backoff from 30 s doubling, at most an hour) "
        "before it is dead and the GM is told (once per webhook).")
    log_level: str = setting("INFO", "DEBUG | INFO | WARNING | ERROR (any case).")
    log_repeats_per_minute: int = setting(
        10, "Log lines of one message template per minute, warnings and up; 0: no limit.")
    confirmations_per_address_per_day: int = setting(
        2, "Confirmations (a token the address answers) sent to one address in 24 hours.",
        section="abuse")
    confirmations_per_sender_per_day: int = setting(
        5, "Confirmations one sender's mail may cause in 24 hours.")
    anonymous_replies_per_address_per_day: int = setting(
        10, "Answers in 24 hours to one address for mail that signed on to nothing (strangers, "
        "wrong passwords, forged From): their own budget, so they never use up "
        "replies_per_address_per_day, which counts only mail signed on with a right password.")
    unread_replies_per_address_per_day: int = setting(
        3, "Answers in 24 hours to one address for mail in which no command was read (an "
        "auto-responder's exchange stops there).")
    press_per_seat_per_day: int = setting(
        100, "Press messages one seat (or the GM) may send in 24 hours; one mail sends each "
        "recipient at most one press mail.")
    confirmation_days: float = setting(
        7.0, "An unanswered confirmation (and the mail it holds) expires after this many days.")
    max_command_lines: int = setting(
        500, "Command lines read per mail; the reply says how many were not read.")
    signon_failures_before_lock: int = setting(
        5, "Wrong passwords for one seat before it locks (the GM is told once).")
    signon_lock_hours: float = setting(24.0, "How long a locked seat stays locked.")
    raw_mail_retention_days: float = setting(
        14.0, "Raw mail is emptied this many days after it was handled (0: kept for ever).")
    sent_mail_retention_days: float = setting(
        7.0, "Sent mail's bodies and attachments (maps) are emptied this many days after the "
        "relay took them (0: kept for ever); every bulletin stays in the archive.")
    password_hash_log2_n: int = setting(
        14, "scrypt cost of new password hashes, as log2 of n (memory 1 KiB * 2**n: 14 is 16 "
        "MiB and ~50-150 ms). Stored hashes keep their own cost, so it can be raised any time.")

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] or "localhost"

    def validate(self) -> Settings:
        for f in dataclasses.fields(self):
            choices = f.metadata.get("choices")
            if choices and getattr(self, f.name) not in choices:
                raise ConfigError(f"{f.name} must be one of {', '.join(choices)}")
        if self.log_level.upper() not in LOG_LEVELS:
            raise ConfigError(f"log_level must be one of {', '.join(LOG_LEVELS)}")
        if self.max_message_bytes <= 0:
            raise ConfigError("max_message_bytes must be positive")
        if self.club_list_address and (
                "@" not in self.club_list_address
                or any(c in self.club_list_address for c in " ,;<>\r\n\t\"")):
            raise ConfigError("club_list_address must be one bare address (list@example.org)")
        if not 10 <= self.password_hash_log2_n <= 20:
            raise ConfigError("password_hash_log2_n must be between 10 and 20")
        for name in ("max_mail_connections", "max_mail_connections_per_client",
                     "max_http_connections", "max_http_connections_per_client"):
            if getattr(self, name) < 0:
                raise ConfigError(f"{name} must be 0 (no cap) or more")
        for name in ("mail_idle_seconds", "http_request_seconds", "http_idle_seconds"):
            if not getattr(self, name) > 0:
                raise ConfigError(f"{name} must be more than 0")
        for name in ("max_command_lines", "signon_failures_before_lock",
                     "confirmations_per_address_per_day", "confirmations_per_sender_per_day"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be at least 1")
        return self


@cache
def declared() -> dict[str, tuple[type, dataclasses.Field[Any]]]:
    """Every setting: name -> (its type: str, int, float, bool or tuple, its field)."""
    hints = get_type_hints(Settings)
    out: dict[str, tuple[type, dataclasses.Field[Any]]] = {}
    for f in dataclasses.fields(Settings):
        hint = hints[f.name]
        out[f.name] = (getattr(hint, "__origin__", hint), f)
    return out


def _from_toml(name: str, kind: type, value: Any) -> Any:
    ok = {
        str: isinstance(value, str),
        # bool is an int in Python, never in a config file
        int: isinstance(value, int) and not isinstance(value, bool),
        float: isinstance(value, int | float) and not isinstance(value, bool),
        bool: isinstance(value, bool),
        tuple: isinstance(value, list) and all(isinstance(v, str) for v in value),
    }[kind]
    if not ok:
        wanted = "a list of strings" if kind is tuple else f"a {kind.__name__}"
        raise ConfigError(f"setting {name}: {value!r} is not {wanted}")
    return tuple(value) if kind is tuple else float(value) if kind is float else value


def _from_env(name: str, kind: type, text: str) -> Any:
    try:
        if kind is int:
            return int(text)
        if kind is float:
            return float(text)
        if kind is bool:
            word = text.strip().lower()
            if word in ("1", "true", "yes", "on"):
                return True
            if word in ("0", "false", "no", "off", ""):
                return False
            raise ValueError(text)
        if kind is tuple:
            return tuple(part.strip() for part in text.split(",") if part.strip())
        return text
    except ValueError as exc:
        raise ConfigError(
            f"setting {name} (JUDGE_{name.upper()}): cannot read {text!r} as {kind.__name__}"
        ) from exc


def load(
    config_path: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
    **overrides: Any,
) -> Settings:
    """Build Settings from defaults, then the TOML file, then the environment, then overrides."""
    env = os.environ if environ is None else environ
    fields = declared()
    values: dict[str, Any] = {}
    path = config_path or env.get("JUDGE_CONFIG")
    if path:
        try:
            with Path(path).open("rb") as fh:
                data = tomllib.load(fh)
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"config file {path}: {exc}") from exc
        for key, value in data.items():
            if key not in fields:
                raise ConfigError(f"config file {path}: unknown setting {key!r}")
            values[key] = _from_toml(key, fields[key][0], value)
    for key, text in env.items():
        if not key.startswith(ENV_PREFIX) or key in OTHER_ENV:
            continue
        name = key[len(ENV_PREFIX):].lower()
        if name not in fields:
            raise ConfigError(f"unknown setting in the environment: {key}")
        values[name] = _from_env(name, fields[name][0], text)
    unknown = sorted(set(overrides) - set(fields))
    if unknown:
        raise ConfigError(f"unknown setting {unknown[0]!r}")
    values.update(overrides)
    return Settings(**values).validate()
