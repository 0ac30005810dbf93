"""Rate-limited logging of repeated errors.

A judge under attack (a flood of connections past the file-descriptor limit, a database
that stays down) repeats the same error thousands of times a second; written out, that
fills the disk, which turns an outage into a worse one. This filter lets through, per
(logger, level, message template), at most ``per_minute`` records a minute, and says how
many it held back on the next one it lets through. The standard library has no such filter;
it is a few lines.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

Key = tuple[str, int, str]


class RepeatFilter(logging.Filter):
    def __init__(self, per_minute: int = 10, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = 1000) -> None:
        super().__init__()
        self.per_minute = per_minute
        self.clock = clock
        self.max_keys = max_keys
        # key -> [window start, records let through in it, records held back]
        self.windows: dict[Key, list[float]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if self.per_minute <= 0 or record.levelno < logging.WARNING:
            return True
        key = (record.name, record.levelno, str(record.msg))
        now = self.clock()
        window = self.windows.get(key)
        if window is None or now - window[0] >= 60.0:
            held = int(window[2]) if window is not None else 0
            if len(self.windows) >= self.max_keys:
                self.windows.clear()  # bounded memory, whatever the messages
            self.windows[key] = [now, 1, 0]
            if held:
                record.msg = f"{record.msg} [{held} similar message(s) held back]"
            return True
        if window[1] < self.per_minute:
            window[1] += 1
            return True
        window[2] += 1
        return False


def rate_limit_logging(per_minute: int, logger: logging.Logger | None = None) -> None:
    """Install the filter on every handler of ``logger`` (default: the root logger)."""
    target = logger or logging.getLogger()
    for handler in target.handlers:
        if not any(isinstance(f, RepeatFilter) for f in handler.filters):
            handler.addFilter(RepeatFilter(per_minute))


# libraries that narrate their routine at INFO: APScheduler says "Running job ..." and "Job ...
# executed successfully" at every wake-up (most of a judge's log, burying its game events),
# aiosmtpd every SMTP command. Their warnings and errors still show.
CHATTY_LOGGERS = ("apscheduler", "mail.log")


def quiet_chatter(level: str) -> None:
    """Below DEBUG, the chatty libraries log their warnings and errors only."""
    quiet = level.upper() != "DEBUG"
    for name in CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING if quiet else logging.NOTSET)
