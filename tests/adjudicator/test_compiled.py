"""The compiled build answers exactly as the pure-Python source, its reference.

Runs ``tests/adjudicator/compiled_check.py`` (every DATC case, a sample of the Droidippy corpus
through ``judge adjudicate``'s handlers, house-rule requests, listings of legal orders, random
games on every variant) twice: with the build that is installed, and with
``JUDGE_PURE_PYTHON=1`` (the source, which the rest of the suite runs: tests/conftest.py).
An install compiles the adjudicator where a C compiler is present (setup.py); skipped when
there is no compiled build, or when the source changed since it was made (the judge then runs
the source: ``judge.stale_build``; ``scripts/build_compiled.sh`` or ``pip install -e .``
builds it again). Under ``JUDGE_REQUIRE_COMPILED=1`` (set by .ci/run) both are failures.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import judge.adjudicator
from judge.stale_build import stale_build
from tests.corpus.droidippy import SAMPLE

ROOT = Path(__file__).resolve().parents[2]


def _not_checkable() -> str | None:
    """Why there is no compiled build to check (on disk: this process runs the source), or
    None."""
    folder = Path(judge.adjudicator.__file__).parent
    if not any((folder / f"resolver{suffix}").exists()
               for suffix in importlib.machinery.EXTENSION_SUFFIXES):
        return "no compiled build installed (pip install -e . or scripts/build_compiled.sh)"
    stale = stale_build()
    if stale is not None:
        return f"the compiled build is older than {stale} (scripts/build_compiled.sh rebuilds it)"
    return None


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
    why = _not_checkable()
    if why is not None:
        if os.environ.get("JUDGE_REQUIRE_COMPILED", "") not in ("", "0"):
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
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


def test_without_a_c_compiler_the_install_is_pure_python(tmp_path: Path) -> None:
    """The README's install compiles the adjudicator where it can (setup.py); where the C
    compiler is missing it says so and installs the pure-Python package, whole: no
    extension, every source file."""
    if importlib.util.find_spec("mypyc") is None:
        pytest.skip("mypyc is not installed (the dev extra): the build is pure Python anyway")
    src = tmp_path / "src"
    shutil.copytree(ROOT / "judge", src / "judge",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd"))
    for folder in ("templates", "migrations"):
        shutil.copytree(ROOT / folder, src / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, src / name)
    env = {k: v for k, v in os.environ.items() if k != "JUDGE_MYPYC"}
    env["CC"] = str(tmp_path / "no-such-cc")
    # no build isolation: this environment's setuptools and mypyc, nothing fetched
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation",
         "-w", str(tmp_path / "dist"), str(src)],
        capture_output=True, text=True, timeout=600, env=env, check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert f"judge: no C compiler ({env['CC']} is not found)" in done.stdout + done.stderr
    (wheel,) = (tmp_path / "dist").glob("judge-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    sources = {str(p.relative_to(src)) for p in (src / "judge" / "adjudicator").glob("*.py")}
    assert sources <= {n.split("/purelib/", 1)[-1] for n in names}
