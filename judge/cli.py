"""The ``judge`` command. Each area registers its own subcommands (cli_*.py modules)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# Modules that each define register(subparsers); imported lazily so `judge parse` never pays
# for SQLAlchemy or the mail stack.
_COMMAND_MODULES = (
    "judge.cli_adjudicate",
    "judge.cli_parse",
    "judge.cli_mail",
    "judge.cli_demo",
    "judge.cli_bot",
    "judge.cli_mila",
)

# The module of each command, so that a command imports its own module only: `judge
# adjudicate --jsonl` is a batch tool that other programs start, and the parsing tables, the
# bots and asyncio that the other commands import cost it a quarter of a second at start-up
# (and make every garbage collection of its batch slower). A command missing here still works:
# every module is imported then, as for `judge --help`. tests/test_cli_commands.py checks it.
COMMANDS = {
    "adjudicate": "judge.cli_adjudicate",
    "datc": "judge.cli_adjudicate",
    "variants": "judge.cli_adjudicate",
    "parse": "judge.cli_parse",
    "serve": "judge.cli_mail",
    "retry-failed": "judge.cli_mail",
    "outbox": "judge.cli_mail",
    "send": "judge.cli_mail",
    "read": "judge.cli_mail",
    "demo": "judge.cli_demo",
    "bot": "judge.cli_bot",
    "export": "judge.cli_mila",
    "import": "judge.cli_mila",
}


def _command_of(argv: Sequence[str]) -> str | None:
    """The command named on the line: its first word that is not an option."""
    for word in argv:
        if not word.startswith("-"):
            return word
    return None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv`` (every command when it names none we know, as for ``--help``)."""
    parser = argparse.ArgumentParser(prog="judge", description="A play-by-email Diplomacy judge.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    command = _command_of(argv) if argv is not None else None
    modules = (COMMANDS[command],) if command in COMMANDS else _COMMAND_MODULES
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """The program (``argv`` None: the command line), or a command run in-process."""
    program = argv is None
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        code = int(args.handler(args) or 0)
    except Exception as exc:
        # judge.settings is not imported by the commands that read no settings (it costs
        # their start-up), and then no ConfigError can have been raised
        settings = sys.modules.get("judge.settings")
        if settings is None or not isinstance(exc, settings.ConfigError):
            raise
        # an operator's mistake (a misspelt setting, a missing driver): one line, no traceback
        parser.exit(2, f"judge: error: {exc}\n")
    if program and getattr(args, "exit_at_once", False):
        _exit_at_once(code)
    return code


def _exit_at_once(code: int) -> None:
    """End the process without the interpreter's teardown, for a command that asks for it.

    ``judge adjudicate`` holds nothing that needs closing but its output, flushed here. Its
    caches (every order text, plan and result met in the batch) make the teardown's collector
    passes cost about a twentieth of a 1,000-phase batch (callgrind), for memory the system
    takes back anyway. Only the program does this: a command run in-process returns.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
