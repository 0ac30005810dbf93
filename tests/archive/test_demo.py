"""``judge demo --no-serve``: two game years by mail, then the archive's URL."""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest

from judge.cli import main
from judge.demo.walkthrough import run_demo

pytestmark = pytest.mark.slow


async def test_demo_plays_two_years_by_mail_and_archives_them(tmp_path: Path) -> None:
    lines: list[str] = []
    result = await run_demo(lines.append, years=2, web_port=0, keep_serving=False,
                            folder=tmp_path)
    assert result.phases[:3] == ["S1901M", "F1901M", "W1901A"]
    assert result.phases[-1] == "W1902A"
    assert result.mails_in >= 8 + 7 * 4  # forming the game, then every movement phase
    assert result.mails_out > result.mails_in  # replies plus bulletins to eight readers
    assert lines[-1] == f"archive: {result.url}"
    assert any(line.startswith("F1902M: 7 order mails in") for line in lines)


def test_cli_demo_prints_progress_and_the_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--no-serve", "--port", "0", "--years", "1"]) == 0
    out = capsys.readouterr().out
    assert "demo: game started: S1901M" in out
    assert "demo: W1901A:" in out
    url = out.strip().splitlines()[-1].removeprefix("demo: archive: ")
    assert url.startswith("http://127.0.0.1:") and url.endswith("/games/demo")
    # the server has stopped with --no-serve: nothing answers there any more
    with pytest.raises(OSError):
        urllib.request.urlopen(url, timeout=5)  # noqa: S310
