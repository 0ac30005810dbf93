"""Declared settings: every key typed and defaulted, unknown keys refused by name, the example
file written from the declarations."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from judge.settings import OTHER_ENV, ConfigError, Settings, declared, load
from judge.settings_example import render

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "config" / "judge.example.toml"


def _toml(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "judge.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_setting_has_a_type_a_default_and_a_place_in_the_example() -> None:
    kinds = {name: kind for name, (kind, _f) in declared().items()}
    assert set(kinds.values()) <= {str, int, float, bool, tuple}
    assert kinds["create_allowed"] is tuple and kinds["lmtp_port"] is int
    assert load(environ={}) == Settings()


def test_example_file_is_the_one_the_declarations_write() -> None:
    assert EXAMPLE.read_text(encoding="utf-8") == render(), (
        "config/judge.example.toml is stale: run python scripts/write_example_config.py")


def test_the_example_file_itself_loads_to_the_defaults(tmp_path: Path) -> None:
    # uncommenting every "# key = value" line gives a valid file equal to the defaults
    lines = [line[2:] for line in render().splitlines()
             if line.startswith("# ") and " = " in line and line[2:].split(" = ")[0] in declared()]
    assert len(lines) == len(declared())
    assert load(_toml(tmp_path, "\n".join(lines)), environ={}) == Settings()


def test_unknown_key_in_the_file_is_an_error_naming_it(tmp_path: Path) -> None:
    path = _toml(tmp_path, 'address = "dip@example.org"\nsmpt_host = "relay"\n')
    with pytest.raises(ConfigError, match="smpt_host"):
        load(path, environ={})


def test_unknown_judge_variable_is_an_error_naming_it() -> None:
    with pytest.raises(ConfigError, match="JUDGE_SMTP_HOTS"):
        load(environ={"JUDGE_SMTP_HOTS": "relay"})
    # other programs' variables and the declared non-settings are left alone
    env = {name: "1" for name in OTHER_ENV if name != "JUDGE_CONFIG"}
    assert load(environ={**env, "PATH": "/bin", "JUDGEMENT": "x"}) == Settings()


def test_unknown_override_is_an_error() -> None:
    with pytest.raises(ConfigError, match="no_such"):
        load(environ={}, no_such=1)


def test_create_allowed_from_the_file_and_from_the_environment(tmp_path: Path) -> None:
    path = _toml(tmp_path, 'create_allowed = ["gm@example.org", "club@example.org"]\n')
    assert load(path, environ={}).create_allowed == ("gm@example.org", "club@example.org")
    env = {"JUDGE_CREATE_ALLOWED": " gm@example.org, other@example.org ,"}
    assert load(path, environ=env).create_allowed == ("gm@example.org", "other@example.org")
    assert load(environ={"JUDGE_CREATE_ALLOWED": ""}).create_allowed == ()


@pytest.mark.parametrize(("text", "key"), [
    ('lmtp_port = "8024"\n', "lmtp_port"),
    ("lmtp_port = true\n", "lmtp_port"),
    ("address = 3\n", "address"),
    ('create_allowed = "gm@example.org"\n', "create_allowed"),
    ("create_allowed = [1]\n", "create_allowed"),
])
def test_a_value_of_the_wrong_type_in_the_file_is_an_error(tmp_path: Path, text: str,
                                                           key: str) -> None:
    with pytest.raises(ConfigError, match=key):
        load(_toml(tmp_path, text), environ={})


def test_file_values_are_typed(tmp_path: Path) -> None:
    settings = load(_toml(tmp_path, "retry_base_seconds = 2\nlog_level = 'debug'\n"), environ={})
    assert settings.retry_base_seconds == 2.0 and isinstance(settings.retry_base_seconds, float)
    assert settings.log_level == "debug"


def test_bad_environment_values_and_choices_are_errors() -> None:
    with pytest.raises(ConfigError, match="JUDGE_WEB_PORT"):
        load(environ={"JUDGE_WEB_PORT": "eighty"})
    with pytest.raises(ConfigError, match="imap_security"):
        load(environ={"JUDGE_IMAP_SECURITY": "tls"})
    with pytest.raises(ConfigError, match="log_level"):
        load(environ={"JUDGE_LOG_LEVEL": "loud"})


def test_a_broken_or_missing_file_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="judge.toml"):
        load(_toml(tmp_path, "address = \n"), environ={})
    with pytest.raises(ConfigError, match="absent.toml"):
        load(tmp_path / "absent.toml", environ={})


def test_the_command_line_names_the_unknown_setting(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "JUDGE_DATABASE_URL": f"sqlite:///{tmp_path}/j.db",
           "JUDGE_LMTP_PROT": "1"}
    done = subprocess.run([sys.executable, "-m", "judge.cli", "outbox"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "JUDGE_LMTP_PROT" in done.stderr and "Traceback" not in done.stderr


def test_the_club_list_is_one_bare_address() -> None:
    """It becomes a To header of the judge's mail: a list of addresses or a display name with
    header characters is refused at start, never built into a header."""
    assert load(environ={"JUDGE_CLUB_LIST_ADDRESS": "club@lists.example.org"}
                ).club_list_address == "club@lists.example.org"
    for bad in ("a@x.org, b@x.org", "Club <club@x.org>", "club", "c@x.org\r\nBcc: d@x.org"):
        with pytest.raises(ConfigError, match="club_list_address"):
            load(environ={"JUDGE_CLUB_LIST_ADDRESS": bad})


def test_connection_caps_and_time_limits_are_checked() -> None:
    assert load(environ={"JUDGE_MAX_HTTP_CONNECTIONS_PER_CLIENT": "0"}
                ).max_http_connections_per_client == 0  # 0: no cap (behind a proxy)
    for name, bad in (("JUDGE_MAX_MAIL_CONNECTIONS_PER_CLIENT", "-1"),
                      ("JUDGE_MAX_HTTP_CONNECTIONS", "-5"),
                      ("JUDGE_HTTP_REQUEST_SECONDS", "0"),
                      ("JUDGE_MAIL_IDLE_SECONDS", "-1")):
        with pytest.raises(ConfigError, match=name[len("JUDGE_"):].lower()):
            load(environ={name: bad})
