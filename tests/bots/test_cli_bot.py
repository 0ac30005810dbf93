"""``judge bot`` as a subprocess: the design.md contract (stdin position, canonical orders out)."""

from __future__ import annotations

import json
import subprocess
import sys

from judge.adjudicator.orders import parse_canonical

POSITION = {
    "phase": "S1901M",
    "units": {
        "FRANCE": ["F BRE", "A PAR", "A MAR"],
        "GERMANY": ["F KIE", "A BER", "A MUN"],
        "ENGLAND": ["F LON", "F EDI", "A LVP"],
    },
    "variant": "standard",
}


def _bot(args: list[str], request: object) -> subprocess.CompletedProcess[str]:
    text = request if isinstance(request, str) else json.dumps(request)
    return subprocess.run(
        [sys.executable, "-m", "judge.cli", "bot", *args],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_prints_one_canonical_order_per_unit_and_repeats_with_the_seed() -> None:
    first = _bot(["FRANCE", "--seed", "5", "--personality", "cautious"], POSITION)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert len(lines) == 3
    assert sorted(str(parse_canonical(line)).split()[1] for line in lines) == ["BRE", "MAR", "PAR"]
    again = _bot(["france", "--seed", "5", "--personality", "cautious"], POSITION)
    assert again.stdout == first.stdout


def test_adjustment_and_retreat_phases() -> None:
    builds = _bot(
        ["FRANCE"],
        {
            "phase": "W1901A",
            "units": {"FRANCE": ["A PAR"]},
            "centers": {"FRANCE": ["PAR", "BRE", "MAR", "SPA"]},
        },
    )
    assert builds.returncode == 0, builds.stderr
    assert sorted(line.split()[1] for line in builds.stdout.splitlines()) == ["BRE", "MAR"]
    retreat = _bot(
        ["FRANCE"],
        {
            "phase": "F1901R",
            "units": {"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]},
            "dislodged": {"FRANCE": {"A BUR": ["GAS", "PIC"]}},
        },
    )
    assert retreat.returncode == 0, retreat.stderr
    assert retreat.stdout.strip() in ("A BUR R GAS", "A BUR R PIC")


def test_bad_input_is_a_json_error_and_exit_2() -> None:
    for args, request in (
        (["FRANCE"], "{not json"),
        (["FRANCE"], {"phase": "X1901M"}),
        (["ATLANTIS"], POSITION),
        (["FRANCE"], dict(POSITION, variant="no-such-map")),
    ):
        done = _bot(args, request)
        assert done.returncode == 2, (args, request, done.stdout)
        assert "error" in json.loads(done.stderr)
