"""``judge export GAME --format mila [-o FILE]`` and ``judge import FILE``: a game in MILA's
saved-game JSON (``judge.service.mila``), for research bots and tools that read that format."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the handlers load storage when they run (see judge.cli)
    from judge.storage import Database


def _database(args: argparse.Namespace) -> Database:
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.settings import load
    from judge.storage import Database

    db = Database(load(getattr(args, "config", None)).database_url)
    db.migrate()
    return db


def export(args: argparse.Namespace) -> int:
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.service import mila

    db = _database(args)
    try:
        with db.reading() as session:
            data = mila.export_game(session, args.game)
    finally:
        db.dispose()
    if data is None:
        sys.stderr.write(f"judge export: no game {args.game!r}\n")
        return 1
    text = mila.dumps(data) + "\n"
    if args.output:
        Path(args.output).write_text(text, "utf-8")
    else:
        sys.stdout.write(text)
    return 0


def import_(args: argparse.Namespace) -> int:
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.service import mila

    try:
        raw = Path(args.file).read_bytes() if args.file != "-" else sys.stdin.buffer.read()
        data = mila.read_saved_game(raw)
    except OSError as exc:
        sys.stderr.write(f"judge import: cannot read {args.file}: {exc.strerror}\n")
        return 2
    except mila.ImportRefused as exc:
        sys.stderr.write(f"judge import: {exc}\n")
        return 2
    name = args.name or str(data.get("id", "")).lower()
    db = _database(args)
    try:
        with db.session() as session:
            game = mila.import_game(session, data, name, datetime.now(UTC), args.language)
            print(f"imported {game.name}: {len(data['phases'])} phases, now at {game.phase}")
    except mila.ImportRefused as exc:
        sys.stderr.write(f"judge import: {exc}\n")
        return 2
    finally:
        db.dispose()
    return 0


def register(subparsers: Any) -> None:
    def add(name: str, func: Any, help_text: str) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(name, help=help_text, description=help_text)
        parser.add_argument("--config", default=argparse.SUPPRESS,
                            help="TOML settings file (default: $JUDGE_CONFIG)")
        parser.set_defaults(handler=func)
        return parser

    out = add("export", export, "print a game in MILA's saved-game JSON")
    out.add_argument("game")
    out.add_argument("--format", choices=["mila"], default="mila")
    out.add_argument("-o", "--output", help="write to this file instead of standard output")
    into = add("import", import_, "read a game in MILA's saved-game JSON into a new game")
    into.add_argument("file", help="the saved game (- for standard input)")
    into.add_argument("--name", help="the new game's name (default: the file's id)")
    into.add_argument("--language", choices=["en", "fr", "it"], default="en")
