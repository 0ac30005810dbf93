"""The optional compiled build answers exactly as the pure-Python source, its reference.

Runs ``tests/adjudicator/compiled_check.py`` (every DATC case, a sample of the Droidippy corpus
through ``judge adjudicate``'s handlers, house-rule requests, listings of legal orders, random
games on every variant) twice: with the build that is installed, and with ``JUDGE_PURE_PYTHON=1`` (the source).
Skipped when no compiled build is installed; build one with ``scripts/build_compiled.sh`` (a
checkout) or ``JUDGE_MYPYC=1 pip install --no-build-isolation .``, then run
``python -m pytest -q tests/adjudicator/test_compiled.py``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.corpus.droidippy import SAMPLE

ROOT = Path(__file__).resolve().parents[2]


def _compiled_build() -> bool:
    if os.environ.get("JUDGE_PURE_PYTHON") == "1":
        return False
    spec = importlib.util.find_spec("judge.adjudicator.resolver")
    return spec is not None and (spec.origin or "").endswith((".so", ".pyd"))


pytestmark = pytest.mark.skipif(
    not _compiled_build(),
    reason="no compiled build installed (scripts/build_compiled.sh builds one)",
)


def _run(pure: bool) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "JUDGE_PURE_PYTHON"}
    if pure:
        env["JUDGE_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "tests.adjudicator.compiled_check"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_compiled_build_answers_as_the_pure_source() -> None:
    if not SAMPLE.exists():
        pytest.fail(f"corpus sample missing: {SAMPLE}", pytrace=False)
    pure, compiled = _run(pure=True), _run(pure=False)
    # each run says which build it was: the comparison is not of one build with itself
    assert json.loads(pure[0].split(" ", 2)[2]) == []
    modules = json.loads(compiled[0].split(" ", 2)[2])
    assert "judge.adjudicator.resolver" in modules and "judge.adjudicator.possible" in modules
    kinds = {line.split(" ", 1)[0] for line in pure[1:]}
    assert {"datc", "corpus", "house", "listing", "random", "random-listing", "house-case",
            "house-french", "house-onp1", "house-onp2", "house-sommossa"} <= kinds
    assert len(pure) == len(compiled)
    for want, got in zip(pure[1:], compiled[1:], strict=True):
        assert got == want
