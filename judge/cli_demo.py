"""``judge demo``: watch the judge play two game years by mail, then browse the archive."""

from __future__ import annotations

import argparse
import asyncio
import logging
from typing import Any


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "demo",
        help="play a seven-player game by mail against a throw-away judge",
        description="Plays a seven-player game through the real mail path (LMTP in, SMTP out "
        "to a local capturing relay) in a temporary SQLite database, then serves the archive.",
    )
    p.add_argument("--years", type=int, default=2, help="game years to play (default 2)")
    p.add_argument("--port", type=int, default=8080,
                   help="archive port (default 8080; 0 picks a free one)")
    p.add_argument("--seed", type=int, default=1901, help="seed of the random players")
    p.add_argument("--no-serve", action="store_true",
                   help="stop after playing instead of serving the archive until Ctrl-C")
    p.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.demo.walkthrough import DemoError, run_demo

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")

    def say(line: str) -> None:
        print(f"demo: {line}", flush=True)

    try:
        asyncio.run(run_demo(say, years=args.years, web_port=args.port,
                             keep_serving=not args.no_serve, seed=args.seed))
    except DemoError as exc:
        print(f"demo: FAILED: {exc}", flush=True)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0
