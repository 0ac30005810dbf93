"""The mail-side subcommands of ``judge``: serve, retry-failed, outbox, send, read.

``judge.cli`` calls ``register(subparsers)``; each subcommand stores its handler in
``args.handler`` and takes ``--config`` (also accepted before the subcommand, if cli.py defines it).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from judge.logfilter import quiet_chatter, rate_limit_logging
from judge.settings import Settings, load

if TYPE_CHECKING:  # the handlers load storage when they run (see judge.cli)
    from judge.storage import Database


def _settings(args: argparse.Namespace) -> Settings:
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.service.auth import configure

    settings = load(getattr(args, "config", None))
    configure(settings.password_hash_log2_n)  # the process-wide cost of new password hashes
    return settings


def _logging(settings: Settings) -> None:
    logging.basicConfig(
        level=getattr(logging, settings.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    rate_limit_logging(settings.log_repeats_per_minute)
    quiet_chatter(settings.log_level)  # APScheduler's and aiosmtpd's routine, below DEBUG


def serve(args: argparse.Namespace) -> int:
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.app import serve as run_app

    settings = _settings(args)
    _logging(settings)
    return asyncio.run(run_app(settings))


def retry_failed(args: argparse.Namespace) -> int:
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.storage import Database

    settings = _settings(args)
    _logging(settings)
    db = Database(settings.database_url)
    try:
        return _retry_failed(db, settings, args)
    finally:
        db.dispose()


def _retry_failed(db: Database, settings: Settings, args: argparse.Namespace) -> int:
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.service.inbox import retry_failed as requeue

    db.migrate()
    ids = requeue(db, list(args.ids))
    print(f"requeued {len(ids)} failed mail(s): {' '.join(map(str, ids)) or '-'}")
    if not getattr(args, "queue_only", False) and ids:
        # handle them now, so the command's output says how it went
        from judge.mail.decoding import decode
        from judge.service.inbox import process_one
        from judge.storage.mailrepo import list_inbound

        while process_one(db, settings, decode) is not None:
            pass
        with db.session() as session:
            rows = [r for r in list_inbound(session) if r.id in set(ids)]
            for row in rows:
                print(f"  {row.id}: {row.status}")
    return 0


def outbox(args: argparse.Namespace) -> int:
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.storage import Database

    settings = _settings(args)
    db = Database(settings.database_url)
    try:
        db.migrate()
        if args.action == "retry":
            return _outbox_retry(db, args)
        if args.ids or args.dead:
            sys.stderr.write("judge outbox: ids and --dead go with `judge outbox retry`\n")
            return 2
        return _outbox_list(db, args)
    finally:
        # every way out closes the pool (an open psycopg connection is a ResourceWarning)
        db.dispose()


def _outbox_list(db: Database, args: argparse.Namespace) -> int:
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.storage.mailrepo import list_outbound

    with db.session() as session:
        rows = list_outbound(session, args.status, args.limit)
        out = sys.stdout
        out.write(f"{'id':>6} {'status':8} {'tries':>5} {'next attempt':25} to / subject / error\n")
        for row in rows:
            out.write(f"{row.id:>6} {row.status:8} {row.tries:>5} "
                      f"{row.next_attempt_at.isoformat(timespec='seconds'):25} "
                      f"{row.to_addr} / {row.subject}"
                      + (f" / {row.last_error}" if row.last_error else "") + "\n")
    return 0


def _outbox_retry(db: Database, args: argparse.Namespace) -> int:
    """``judge outbox retry [ID ...] [--dead]``: dead outbound mail back in the queue, due
    now with its tries reset (a running judge sends it within its poll interval)."""
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.storage.mailrepo import requeue_dead_outbound

    if not args.ids and not args.dead:
        sys.stderr.write("judge outbox retry: name the ids to re-send, or --dead for all "
                         "dead mail\n")
        return 2
    with db.session() as session:
        ids = requeue_dead_outbound(session, list(args.ids), datetime.now(UTC),
                                    all_dead=args.dead)
    missing = sorted(set(args.ids) - set(ids))
    print(f"requeued {len(ids)} dead outbound mail(s): {' '.join(map(str, ids)) or '-'}")
    if missing:
        print(f"not dead (left as they are): {' '.join(map(str, missing))}")
    return 0


def send(args: argparse.Namespace) -> int:
    """``judge send [FILE]``: one mail into a running judge (see judge/mail/inject.py); with
    ``outbox_maildir`` set, waits for the judge's answer there and prints it."""
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.mail.inject import InjectError, compose, deliver, envelope_sender
    from judge.mail.maildir import mark_read, readable, reply_to

    settings = load(getattr(args, "config", None))
    if args.file in (None, "-"):
        data = sys.stdin.buffer.read()
    else:
        with open(args.file, "rb") as fh:
            data = fh.read()
    try:
        if args.raw:
            raw, message_id = data, None
            sender = args.sender or envelope_sender(data)
        else:
            sender = args.sender or f"you@{settings.domain}"
            message = compose(data.decode("utf-8", "replace"), sender, settings.address,
                              args.subject)
            raw, message_id = bytes(message), str(message["Message-ID"])
        deliver(settings, raw, sender, settings.address)
    except InjectError as exc:
        sys.stderr.write(f"judge send: {exc}\n")
        return 1
    print(f"judge send: {settings.address} took the mail from {sender} "
          f"(LMTP {settings.lmtp_host}:{settings.lmtp_port})", file=sys.stderr)
    if not settings.outbox_maildir or message_id is None or args.wait <= 0:
        return 0
    end = time.monotonic() + args.wait
    while time.monotonic() < end:
        found = reply_to(settings.outbox_maildir, message_id)
        if found is not None:
            key, reply = found
            sys.stdout.write(readable(reply))
            mark_read(settings.outbox_maildir, key)
            return 0
        time.sleep(0.2)
    sys.stderr.write(f"judge send: no answer in {settings.outbox_maildir} after {args.wait:g}s "
                     "(the judge may still be busy: `judge read` shows it when it comes)\n")
    return 1


def read(args: argparse.Namespace) -> int:
    """``judge read``: the mail the judge wrote to ``outbox_maildir`` since the last look."""
    # loaded when this subcommand runs: each command pays only for its own modules (judge.cli)
    from judge.mail.maildir import every_message, mark_read, readable, unread

    settings = load(getattr(args, "config", None))
    folder = args.maildir or settings.outbox_maildir
    if not folder:
        sys.stderr.write("judge read: no Maildir: set outbox_maildir (JUDGE_OUTBOX_MAILDIR) "
                         "or give --maildir\n")
        return 2
    shown = 0
    for key, message in (every_message(folder) if args.all else unread(folder)):
        if args.to and args.to.lower() not in str(message.get("To", "")).lower():
            continue
        sys.stdout.write(("\n" + "=" * 72 + "\n" if shown else "") + readable(message))
        shown += 1
        if not args.all:
            mark_read(folder, key)
    if not shown:
        print("judge read: no new mail" if not args.all else "judge read: the Maildir is empty",
              file=sys.stderr)
    return 0


def register(subparsers: Any) -> None:
    def add(name: str, func: Any, help_text: str) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(name, help=help_text, description=help_text)
        # SUPPRESS: never overwrite a --config given before the subcommand
        parser.add_argument("--config", default=argparse.SUPPRESS,
                            help="TOML settings file (default: $JUDGE_CONFIG)")
        parser.set_defaults(handler=func)
        return parser

    add("serve", serve, "run the judge: mail listeners, IMAP poller, drains, scheduler, web")
    retry = add("retry-failed", retry_failed, "re-run mail whose handling failed")
    retry.add_argument("ids", nargs="*", type=int, help="inbound mail ids (default: all failed)")
    retry.add_argument("--queue-only", action="store_true",
                       help="only put them back in the queue for a running server")
    box = add("outbox", outbox, "list outgoing mail; `outbox retry [ID ...] [--dead]` re-queues "
                                "dead mail")
    box.add_argument("action", nargs="?", choices=["list", "retry"], default="list")
    box.add_argument("ids", nargs="*", type=int, help="outbound mail ids (with retry)")
    box.add_argument("--dead", action="store_true", help="with retry: every dead mail")
    box.add_argument("--status", choices=["rendering", "pending", "sending", "sent", "dead"], default=None)
    box.add_argument("--limit", type=int, default=200)
    mail = add("send", send, "hand a mail to the running judge over its LMTP listener (the "
                             "body: command lines; with outbox_maildir, prints the answer)")
    mail.add_argument("file", nargs="?", help="the mail's body (default: standard input)")
    mail.add_argument("--from", dest="sender", default="",
                      help="the sender's address (default: you@ the judge's domain)")
    mail.add_argument("--subject", default="judge send", help="the mail's subject")
    mail.add_argument("--raw", action="store_true",
                      help="FILE is a whole message, headers included, sent as it is")
    mail.add_argument("--wait", type=float, default=30.0,
                      help="seconds to wait for the answer in outbox_maildir (0: do not wait)")
    reader = add("read", read, "print the mail the judge wrote to outbox_maildir since the last "
                               "`judge read`, oldest first")
    reader.add_argument("--all", action="store_true", help="every message, read before or not")
    reader.add_argument("--to", default="", help="only mail to this address")
    reader.add_argument("--maildir", default="", help="another Maildir (default: outbox_maildir)")


def main(argv: list[str] | None = None) -> int:
    """Run the mail subcommands without judge.cli (``python -m judge.cli_mail serve``)."""
    parser = argparse.ArgumentParser(prog="judge")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
