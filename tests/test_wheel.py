"""The judge as a club installs it: a wheel, built from a copy of the source and installed into a
fresh venv, runs ``judge serve`` (migrating a new database) and ``judge demo`` from a directory
that has no checkout in it.

The venv sees the system's site-packages so that the dependencies need no download; the test
checks that ``judge`` itself is imported from the wheel, never from the checkout.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

ROOT = Path(__file__).resolve().parent.parent
# the top-level folders the build maps into the package (setup.py, judge/shipped.py)
SHIPPED = {"templates": "judge/templates", "migrations": "judge/storage/migrations"}
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_port(port: int, proc: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"judge serve exited {proc.returncode}:\n{log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listening on port {port}:\n{log.read_text()}")


def _run(cmd: list[str], timeout: float, cwd: Path | None = None,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env)
    assert done.returncode == 0, f"{cmd} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # build from a copy: the checkout gets no build/ or egg-info, and the wheel can only hold
    # what the project declares
    src = tmp_path_factory.mktemp("src")
    # (without the optional compiled build's extensions, if a checkout has one: setup.py)
    for folder in ("judge", *SHIPPED):
        shutil.copytree(ROOT / folder, src / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, src / name)
    dist = tmp_path_factory.mktemp("dist")
    # no build isolation: the setuptools of the running environment builds it, instead of one
    # fetched from the index into a throw-away environment each run (most of this test's time)
    # (and pure Python: the files the wheel must hold are the same, and compiling is most of a
    # minute; tests/adjudicator/test_compiled.py checks the compiled build)
    env = {**os.environ, "JUDGE_MYPYC": "0"}
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
          "-w", str(dist), str(src)], timeout=600, env=env)
    (built,) = dist.glob("judge-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("venv")
    # no pip inside (installing one is most of a venv's making): this pip installs into it
    _run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(home)],
         timeout=300)
    pip = [sys.executable, "-m", "pip", "--python", str(home / "bin" / "python"), "install",
           "-q"]
    # the judge itself from the wheel (the system's site-packages may hold an editable judge)
    _run([*pip, "--no-deps", "--force-reinstall", str(wheel)], timeout=300)
    # then only the dependencies the system's site-packages lack (none, once CI installed
    # them: then the index is not even asked); from the index when some are missing
    offline = subprocess.run([*pip, "--no-index", str(wheel)], capture_output=True, text=True,
                             timeout=600)
    if offline.returncode != 0:
        _run([*pip, str(wheel)], timeout=600)
    return home


@pytest.fixture()
def clean_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    # no JUDGE_* settings, no PYTHONPATH pointing at the checkout
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("JUDGE_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["HOME"] = str(tmp_path)
    yield env


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
            and p.suffix not in (".pyc", ".so", ".pyd")}


def test_the_wheel_holds_every_file_the_package_reads(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    source = {f"judge/{name}" for name in _files(ROOT / "judge")}
    assert source - names == set(), "files of judge/ missing from the wheel"
    # templates/ and migrations/, mapped into the package
    for folder, inside in SHIPPED.items():
        shipped = {f"{inside}/{name}" for name in _files(ROOT / folder)}
        assert shipped and shipped - names == set(), f"files of {folder}/ missing from the wheel"
    assert "judge/storage/migrations/env.py" in names
    assert "judge/storage/migrations/versions/0001_initial_schema.py" in names
    assert any(n.startswith("judge/templates/bulletins/") for n in names)
    # and nothing of them at the wheel's top level
    assert not any(n.startswith(("templates/", "migrations/")) for n in names)


def test_installed_judge_comes_from_the_wheel(venv: Path, tmp_path: Path,
                                              clean_env: dict[str, str]) -> None:
    done = _run([str(venv / "bin" / "python"), "-c", "import judge; print(judge.__file__)"],
                cwd=tmp_path, env=clean_env, timeout=120)
    where = Path(done.stdout.strip()).resolve()
    assert where.is_relative_to(venv.resolve()), where
    assert not where.is_relative_to(ROOT), where


def test_judge_serve_migrates_a_new_database(venv: Path, tmp_path: Path,
                                             clean_env: dict[str, str]) -> None:
    lmtp, web = _free_port(), _free_port()
    database = tmp_path / "data" / "judge.db"
    env = dict(clean_env, JUDGE_DATABASE_URL=f"sqlite:///{database}",
               JUDGE_LMTP_PORT=str(lmtp), JUDGE_SMTP_LISTEN_PORT="0", JUDGE_WEB_PORT=str(web),
               JUDGE_LOG_LEVEL="WARNING")
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([str(venv / "bin" / "judge"), "serve"], cwd=tmp_path, env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_port(lmtp, proc, log, timeout=240)
        _wait_port(web, proc, log, timeout=120)
        with urllib.request.urlopen(f"http://127.0.0.1:{web}/", timeout=30) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
    finally:
        proc.send_signal(signal.SIGTERM)
        status = proc.wait(timeout=120)
    assert status == 0, log.read_text()
    with sqlite3.connect(database) as conn:
        (revision,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    scripts = ScriptDirectory(str(ROOT / "migrations"))
    assert revision == scripts.get_current_head()
    assert {"inbound_mail", "outbound_mail"} <= tables


def test_judge_demo_plays_from_the_wheel(venv: Path, tmp_path: Path,
                                         clean_env: dict[str, str]) -> None:
    done = _run([str(venv / "bin" / "judge"), "demo", "--no-serve", "--years", "1",
                 "--port", "0"], cwd=tmp_path, env=clean_env, timeout=600)
    assert "FAILED" not in done.stdout
    assert "demo:" in done.stdout
    assert not any(tmp_path.glob("*.db")), "the demo's database is a throw-away one"
