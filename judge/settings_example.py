"""The example configuration file, written from the declarations in :mod:`judge.settings`.

``python scripts/write_example_config.py`` writes it to ``config/judge.example.toml``; a test
checks that the file in the repository is what this module writes, so the two never drift.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any

from judge.settings import declared

HEADER = """\
# judge settings. Every key is optional; the value shown is the default.
# Precedence: defaults < this file (--config PATH or $JUDGE_CONFIG) < environment variables
# JUDGE_<KEY IN UPPER CASE> (e.g. JUDGE_DATABASE_URL, JUDGE_SMTP_HOST).
# A key that is not listed here is an error, in this file and as a JUDGE_* variable.
# Generated from judge/settings.py by scripts/write_example_config.py: edit that, not this.
"""
WIDTH = 96


def toml_value(value: Any) -> str:
    """``value`` as TOML (str, int, float, bool or a tuple of str)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string for these values
    if isinstance(value, tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return repr(value)


def render() -> str:
    lines = [HEADER.rstrip("\n")]
    for name, (_kind, f) in declared().items():
        section, doc, choices = f.metadata["section"], f.metadata["doc"], f.metadata["choices"]
        if section:
            lines.append("")
            lines.append(f"# --- {section} ".ljust(WIDTH, "-"))
        if doc:
            lines.extend(textwrap.wrap(doc, WIDTH - 2, initial_indent="# ",
                                       subsequent_indent="# ", break_on_hyphens=False))
        if choices:
            lines.append("# " + " | ".join(choices))
        lines.append(f"# {name} = {toml_value(f.default)}")
    return "\n".join(lines) + "\n"
