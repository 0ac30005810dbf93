"""The ``judge`` command imports only the module of the command it runs (judge/cli.py)."""

from __future__ import annotations

import argparse
import subprocess
import sys

from judge import cli


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return set(actions[0].choices)


def test_every_command_is_in_the_table() -> None:
    # a command added to a cli_*.py module but not to COMMANDS would still run (every module
    # is then imported), but would lose the lazy start-up: the table must name them all
    everything = _commands(cli.build_parser())
    assert everything == set(cli.COMMANDS)
    for command, module in cli.COMMANDS.items():
        assert command in _commands(cli.build_parser([command, "--help"]))
        assert module in cli._COMMAND_MODULES


def test_adjudicate_imports_neither_parsing_nor_bots_nor_the_mail_stack() -> None:
    probe = (
        "import sys; from judge.cli import main\n"
        "code = main(['adjudicate', '--jsonl', '/dev/null'])\n"
        "heavy = [m for m in ('judge.parsing', 'judge.bots', 'judge.settings', 'asyncio',"
        " 'sqlalchemy') if m in sys.modules]\n"
        "print(code, heavy)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "0 []"


def test_options_before_the_command_and_help_still_work() -> None:
    out = subprocess.run(
        [sys.executable, "-c", "from judge.cli import main; main(['--help'])"],
        capture_output=True, text=True,
    ).stdout
    for command in cli.COMMANDS:
        assert command in out


def test_a_config_error_is_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "judge.toml"
    bad.write_text("[nowhere]\nnothing = 1\n", "utf-8")
    run = subprocess.run(
        [sys.executable, "-c", "import sys; from judge.cli import main; sys.exit(main())",
         "outbox", "--config", str(bad)],
        capture_output=True, text=True,
    )
    assert run.returncode == 2
    assert run.stderr.startswith("judge: error:") and "Traceback" not in run.stderr


def test_the_program_exits_at_once_with_its_answers_written_and_its_code(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # `judge adjudicate` ends without the interpreter's teardown (cli._exit_at_once): every
    # answer must still be out, through a pipe as to a file, and the exit code kept
    good = '{"phase": "S1901M", "units": {"ITALY": ["A VEN"]}, "orders": {"ITALY": ["A VEN - PIE"]}}'
    batch = tmp_path / "batch.jsonl"
    batch.write_text(f"{good}\n{{nope\n" + f"{good}\n" * 2000, "utf-8")
    run = subprocess.run(
        [sys.executable, "-c", "import sys; from judge.cli import main; sys.exit(main())",
         "adjudicate", "--jsonl", str(batch)],
        capture_output=True, text=True,
    )
    lines = run.stdout.splitlines()
    assert run.returncode == 2 and len(lines) == 2002 and run.stderr == ""
    assert '"error"' in lines[1] and lines[0] == lines[-1]
    out = tmp_path / "out.jsonl"
    with open(out, "w", encoding="utf-8") as handle:
        done = subprocess.run(
            [sys.executable, "-c", "import sys; from judge.cli import main; sys.exit(main())",
             "adjudicate", "--jsonl", str(batch)],
            stdout=handle, stderr=subprocess.PIPE, text=True,
        )
    assert done.returncode == 2 and len(out.read_text("utf-8").splitlines()) == 2002
