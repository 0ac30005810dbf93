"""The ``judge`` command. Each area registers its own subcommands (cli_*.py modules)."""

from __future__ import annotations

import argparse
import importlib
import sys

from judge.settings import ConfigError

# Modules that each define register(subparsers); imported lazily so `judge parse` never pays
# for SQLAlchemy or the mail stack.
_COMMAND_MODULES = (
    "judge.cli_adjudicate",
    "judge.cli_parse",
    "judge.cli_mail",
    "judge.cli_demo",
    "judge.cli_bot",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="A play-by-email Diplomacy judge.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except ConfigError as exc:
        # an operator's mistake (a misspelt setting, a missing driver): one line, no traceback
        parser.exit(2, f"judge: error: {exc}\n")


if __name__ == "__main__":
    sys.exit(main())
