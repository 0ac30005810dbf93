"""The import contracts of ``.importlinter`` hold: ``lint-imports`` is run as CI runs it."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _lint_imports() -> list[str]:
    found = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    return [found, "--no-cache"]


def test_every_import_contract_is_kept() -> None:
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter", encoding="utf-8")
    contracts = [s for s in config.sections() if s.startswith("importlinter:contract:")]
    assert len(contracts) >= 7  # layers, the pure core, owners of libraries, mail and archive
    done = subprocess.run(_lint_imports(), cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = re.search(r"Contracts: (\d+) kept, (\d+) broken", done.stdout)
    assert summary is not None, done.stdout
    assert (int(summary.group(1)), int(summary.group(2))) == (len(contracts), 0)
