"""Typed settings: defaults < TOML file (``--config`` or JUDGE_CONFIG) < JUDGE_* environment.

Every field ``name`` can be set in the TOML file as a top-level key ``name`` and in the
environment as ``JUDGE_<NAME>``; the environment names listed in the issue (JUDGE_DATABASE_URL,
JUDGE_ADDRESS, JUDGE_LMTP_HOST ...) are a fixed interface. Unknown TOML keys are kept in
``extra`` so other parts of the judge can read their own options without a schema change here.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SECURITY_MODES = ("none", "starttls", "ssl")


@dataclass(frozen=True)
class Settings:
    database_url: str = "sqlite:///judge.db"
    address: str = "judge@localhost"
    lmtp_host: str = "127.0.0.1"
    lmtp_port: int = 8024
    smtp_listen_port: int = 8025  # 0 disables the SMTP listener
    smtp_host: str = "127.0.0.1"
    smtp_port: int = 25
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_security: str = "none"
    smtp_timeout_seconds: float = 30.0
    smtp_ca_file: str = ""  # PEM file of CAs to trust for the relay's TLS; empty: the system's
    # parallel connections to the relay, each with one message in flight: a crash re-sends
    # at most this many messages
    smtp_connections: int = 1
    verp: bool = True  # envelope sender judge+bounce-<row>-<token>@domain, to tie bounces to seats
    imap_host: str = ""  # empty: no IMAP poller
    imap_port: int = 993
    imap_user: str = ""
    imap_password: str = ""
    imap_security: str = "ssl"
    imap_folder: str = "INBOX"
    imap_after_store: str = "delete"  # delete | seen | move:<folder>
    imap_poll_seconds: float = 60.0
    imap_idle_seconds: float = 600.0
    imap_backoff_max_seconds: float = 300.0
    web_port: int = 8080
    web_host: str = "127.0.0.1"  # the archive's bind address (0.0.0.0 in a container)
    max_message_bytes: int = 1_000_000
    max_send_tries: int = 10
    retry_base_seconds: float = 60.0
    retry_max_seconds: float = 6 * 3600.0
    replies_per_address_per_day: int = 50
    # address confirmations (judge.service.confirm)
    confirmations_per_address_per_day: int = 2
    confirmations_per_sender_per_day: int = 5
    confirmation_days: float = 7.0
    # bounded work per mail: command lines read, wrong passwords before a seat locks
    max_command_lines: int = 500
    signon_failures_before_lock: int = 5
    signon_lock_hours: float = 24.0
    # raw mail is emptied this many days after it was handled (0: kept for ever)
    raw_mail_retention_days: float = 14.0
    drain_poll_seconds: float = 5.0
    log_level: str = "INFO"
    log_repeats_per_minute: int = 10  # one message template, warnings and up; 0: no limit
    # connection limits (0: none). Above max_mail_connections a mail client gets a 421;
    # above max_http_connections the archive answers 503.
    max_mail_connections: int = 200
    mail_idle_seconds: float = 300.0  # an LMTP/SMTP session silent this long is closed
    max_http_connections: int = 200
    http_idle_seconds: float = 5.0  # keep-alive of an idle HTTP connection
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] or "localhost"

    def validate(self) -> Settings:
        for name in ("smtp_security", "imap_security"):
            if getattr(self, name) not in SECURITY_MODES:
                raise ValueError(f"{name} must be one of {', '.join(SECURITY_MODES)}")
        if self.max_message_bytes <= 0:
            raise ValueError("max_message_bytes must be positive")
        for name in ("max_command_lines", "signon_failures_before_lock",
                     "confirmations_per_address_per_day", "confirmations_per_sender_per_day"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        return self


def _coerce(kind: Any, value: Any, name: str) -> Any:
    # dataclass annotations are strings under `from __future__ import annotations`
    kind = kind if isinstance(kind, str) else getattr(kind, "__name__", str(kind))
    try:
        if kind == "int":
            return int(value)
        if kind == "float":
            return float(value)
        if kind == "bool":
            if isinstance(value, str):
                return value.strip().lower() in ("1", "true", "yes", "on")
            return bool(value)
        return str(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"setting {name}: cannot read {value!r} as {kind}") from exc


def load(
    config_path: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
    **overrides: Any,
) -> Settings:
    """Build Settings from defaults, then the TOML file, then the environment, then overrides."""
    env = os.environ if environ is None else environ
    fields = {f.name: f for f in dataclasses.fields(Settings) if f.name != "extra"}
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    path = config_path or env.get("JUDGE_CONFIG")
    if path:
        with Path(path).open("rb") as fh:
            data = tomllib.load(fh)
        for key, value in data.items():
            if key in fields:
                values[key] = _coerce(fields[key].type, value, key)
            else:
                extra[key] = value
    for name, f in fields.items():
        env_value = env.get(f"JUDGE_{name.upper()}")
        if env_value is not None:
            values[name] = _coerce(f.type, env_value, name)
    values.update(overrides)
    return Settings(**values, extra=extra).validate()
