"""``judge adjudicate`` and ``judge datc`` through the real command-line entry point."""

from __future__ import annotations

import gc
import io
import json
from pathlib import Path

import pytest

from judge import cli_adjudicate
from judge.adjudicator.jsonio import adjudicate_json
from judge.cli import main
from tests.adjudicator.test_datc import OWN_FILE, SHARED_CASES, SHARED_FILE


def _run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, *args: str
):
    # the contract of the adjudicator alone; house rules (judge.rules) answer a superset of it
    monkeypatch.setattr(cli_adjudicate, "_handler_for_requests", lambda: adjudicate_json)
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["adjudicate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_movement(capsys, monkeypatch) -> None:
    request = {
        "phase": "S1901M",
        "units": {"ENGLAND": ["F LON", "A LVP"], "RUSSIA": ["F STP/SC"]},
        "orders": {"ENGLAND": ["F LON - NTH", "A LVP - YOR"]},
    }
    code, out, err = _run(capsys, monkeypatch, json.dumps(request))
    assert code == 0 and err == ""
    answer = json.loads(out)
    assert answer["phase"] == "S1901M" and answer["next_phase"] == "F1901M"
    assert answer["results"]["ENGLAND"] == [
        {"order": "F LON - NTH", "result": "succeeds"},
        {"order": "A LVP - YOR", "result": "succeeds"},
    ]
    assert answer["results"]["RUSSIA"] == [
        {"order": "F STP/SC H", "result": "succeeds", "generated": True}
    ]
    assert answer["units"] == {"ENGLAND": ["A YOR", "F NTH"], "RUSSIA": ["F STP/SC"]}
    assert answer["dislodged"] == {}
    assert answer["centers"]["ENGLAND"] == ["EDI", "LON", "LVP"]


def test_movement_failure_reasons_and_dislodgement(capsys, monkeypatch) -> None:
    request = {
        "phase": "F1901M",
        "units": {"GERMANY": ["A RUH", "A HOL", "A BUR"], "FRANCE": ["F BEL", "A PIC"]},
        "centers": {"GERMANY": ["BER", "KIE", "MUN"], "FRANCE": ["BEL", "BRE", "MAR", "PAR"]},
        "orders": {"GERMANY": ["A RUH - BEL", "A HOL S A RUH - BEL"], "FRANCE": ["A PIC - BUR"]},
    }
    code, out, _ = _run(capsys, monkeypatch, json.dumps(request))
    answer = json.loads(out)
    assert code == 0
    assert answer["results"]["FRANCE"] == [
        {"order": "A PIC - BUR", "result": "fails", "reason": "bounced", "by": ["A BUR"]},
        {
            "order": "F BEL H",
            "result": "fails",
            "reason": "dislodged",
            "by": ["A RUH"],
            "dislodged_by": "A RUH",
            "generated": True,
        },
    ]
    assert answer["dislodged"] == {"FRANCE": {"F BEL": ["ENG", "NTH"]}}
    assert answer["next_phase"] == "F1901R"
    assert answer["centers"]["FRANCE"] == ["BEL", "BRE", "MAR", "PAR"]  # captured after retreats


def test_retreat_phase(capsys, monkeypatch, tmp_path: Path) -> None:
    request = {
        "phase": "F1901R",
        "units": {"GERMANY": ["A BEL", "A BUR"], "FRANCE": ["A PIC"]},
        "centers": {"GERMANY": ["BER", "KIE", "MUN"], "FRANCE": ["BEL", "BRE", "MAR", "PAR"]},
        "dislodged": {"FRANCE": {"A BEL": ["HOL"]}},
        "orders": {"FRANCE": ["A BEL - HOL"]},
    }
    path = tmp_path / "request.json"
    path.write_text(json.dumps(request))
    code, out, _ = _run(capsys, monkeypatch, "", str(path))
    answer = json.loads(out)
    assert code == 0
    assert answer["results"]["FRANCE"] == [{"order": "A BEL R HOL", "result": "succeeds"}]
    assert answer["units"]["FRANCE"] == ["A HOL", "A PIC"]
    assert answer["centers"]["GERMANY"] == ["BEL", "BER", "KIE", "MUN"]
    assert answer["centers"]["FRANCE"] == ["BRE", "HOL", "MAR", "PAR"]
    assert answer["next_phase"] == "W1901A"


def test_adjustment_phase_with_civil_disorder(capsys, monkeypatch) -> None:
    request = {
        "phase": "W1901A",
        "units": {"RUSSIA": ["A MOS", "A UKR", "F BOT"], "GERMANY": ["A BER"]},
        "centers": {"RUSSIA": ["MOS", "WAR"], "GERMANY": ["BER", "KIE", "MUN"]},
        "orders": {"GERMANY": ["F KIE B"]},
    }
    code, out, _ = _run(capsys, monkeypatch, json.dumps(request))
    answer = json.loads(out)
    assert code == 0
    assert answer["results"]["GERMANY"] == [
        {"order": "F KIE B", "result": "succeeds"},
        {"order": "WAIVE", "result": "succeeds", "generated": True},
    ]
    assert answer["results"]["RUSSIA"] == [
        {"order": "F BOT D", "result": "succeeds", "generated": True}
    ]
    assert answer["units"] == {"GERMANY": ["A BER", "F KIE"], "RUSSIA": ["A MOS", "A UKR"]}
    assert answer["next_phase"] == "S1902M"


def test_array_in_array_out(capsys, monkeypatch) -> None:
    one = {"phase": "S1901M", "units": {"ITALY": ["A VEN"]}, "orders": {"ITALY": ["A VEN - PIE"]}}
    two = {"phase": "S1901M", "units": {"ITALY": ["A VEN"]}}
    code, out, _ = _run(capsys, monkeypatch, json.dumps([one, two]))
    answers = json.loads(out)
    assert code == 0 and isinstance(answers, list) and len(answers) == 2
    assert answers[0]["units"] == {"ITALY": ["A PIE"]}
    assert answers[1]["units"] == {"ITALY": ["A VEN"]}


def test_jsonl_batch_answers_each_line_as_one_request(capsys, monkeypatch, tmp_path) -> None:
    """Issue 16: one answer line per request line, the same answers as one request at a time;
    a bad line answers an error on its line, the others go on, and the exit code is 2."""
    one = {"phase": "S1901M", "units": {"ITALY": ["A VEN"]}, "orders": {"ITALY": ["A VEN - PIE"]}}
    two = {"phase": "F1901M", "units": {"ITALY": ["A VEN"], "AUSTRIA": ["A TRI"]},
           "orders": {"AUSTRIA": ["A TRI - VEN"], "ITALY": ["A VEN H"]}}
    lines = f"{json.dumps(one)}\n\n{json.dumps(two)}\n"
    code, out, err = _run(capsys, monkeypatch, lines, "--jsonl")
    assert code == 0 and err == ""
    assert [json.loads(line) for line in out.splitlines()] == [
        adjudicate_json(one), adjudicate_json(two)
    ]
    path = tmp_path / "batch.jsonl"
    path.write_text(lines + '{"phase": "S1901M", "units": {"ITALY": ["A XYZ"]}}\n{nope\n[1]\n'
                    + json.dumps(one) + "\n", "utf-8")
    code, out, err = _run(capsys, monkeypatch, "", "--jsonl", str(path))
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and err == "" and len(answers) == 6
    assert "line 4: unknown province" in answers[2]["error"]
    assert answers[3]["error"].startswith("line 5: malformed JSON")
    assert answers[4]["error"].startswith("line 6: ") and "object" in answers[4]["error"]
    assert answers[5] == answers[0]


def test_jsonl_batch_collects_cycles_on_its_own_schedule(capsys, monkeypatch) -> None:
    """The batch runs the cycle collector every COLLECT_EVERY lines rather than on the
    interpreter's schedule, and puts the collector back as it was for a caller in-process."""
    passes: list[bool] = []
    real_collect = gc.collect

    def collect(*args: int) -> int:
        passes.append(gc.isenabled())
        return real_collect(*args)

    one = {"phase": "S1901M", "units": {"ITALY": ["A VEN"]}, "orders": {"ITALY": ["A VEN - PIE"]}}
    monkeypatch.setattr(cli_adjudicate, "COLLECT_EVERY", 3)
    monkeypatch.setattr(gc, "collect", collect)
    assert gc.isenabled()
    code, out, _ = _run(capsys, monkeypatch, f"{json.dumps(one)}\n" * 7, "--jsonl")
    assert code == 0 and len(out.splitlines()) == 7
    assert passes == [False, False]  # before lines 3 and 6, with the automatic collector off
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.disable()
    try:
        _run(capsys, monkeypatch, f"{json.dumps(one)}\n", "--jsonl")
        assert not gc.isenabled()  # left off, as the caller had it
    finally:
        gc.enable()


def test_jsonl_answers_are_the_same_bytes_with_either_json_library() -> None:
    """orjson (a dependency) and the standard library write the same lines."""
    pytest.importorskip("orjson")
    request = {"phase": "S1901M", "units": {"FRANCE": ["A PAR", "F BRE"], "ITALY": ["A VEN"]},
               "orders": {"FRANCE": ["A PAR - BUR", "F BRE S A PAR - BUR"], "ITALY": ["A VEN - é"]}}
    text = [json.dumps(request, ensure_ascii=False) + "\n", "{bad\n"]
    fast: list[bytes] = []
    plain: list[bytes] = []
    handler = cli_adjudicate._handler_for_requests()
    assert cli_adjudicate.adjudicate_lines(text, fast.append, handler, fast=True) == 2
    assert cli_adjudicate.adjudicate_lines(text, plain.append, handler, fast=False) == 2
    assert fast[0] == plain[0] and json.loads(fast[0])["error"].startswith("line 1: bad order")
    assert fast[1].startswith(b'{"error":"line 2: malformed JSON')
    assert plain[1].startswith(b'{"error":"line 2: malformed JSON')
    assert all(line.endswith(b"}\n") for line in fast + plain)
    # lines read as bytes give the same answers, and one that is not UTF-8 answers on its line
    raw = [line.encode("utf-8") for line in text] + [b'{"phase": "\xff"}\n']
    for is_fast in (True, False):
        answers: list[bytes] = []
        assert cli_adjudicate.adjudicate_lines(raw, answers.append, handler, fast=is_fast) == 2
        assert answers[:2] == (fast if is_fast else plain)
        assert answers[2].startswith(b'{"error":"line 3: malformed JSON')


@pytest.mark.parametrize(
    ("request_text", "words"),
    [
        ("{not json", "malformed JSON"),
        ('{"phase": "S1901M", "units": {"ENGLAND": ["A XYZ"]}}', "unknown province"),
        ('{"phase": "S1901M", "units": {"ENGLAND": ["A NTH"]}}', "army at sea"),
        ('{"phase": "S1901M", "units": {"ENGLAND": ["F MUN"]}}', "inland"),
        ('{"phase": "S1901M", "units": {"RUSSIA": ["F STP"]}}', "coast not named"),
        (
            '{"phase": "S1901M", "units": {"ENGLAND": ["A LON"], "FRANCE": ["F LON"]}}',
            "two units in LON",
        ),
        (
            '{"phase": "S1901M", "units": {"ENGLAND": ["A LON"]}, "orders": {"ENGLAND": ["A PAR - BUR"]}}',
            "unit that does not exist",
        ),
        (
            '{"phase": "S1901M", "units": {"ENGLAND": ["A LON"]}, "orders": {"ENGLAND": ["LON TO WAL"]}}',
            "bad order",
        ),
        ('{"phase": "X1901M", "units": {}}', "bad phase"),
        ('{"phase": "S1901M", "units": {"PRUSSIA": ["A BER"]}}', "unknown power"),
        (
            '{"phase": "S1901M", "units": {}, "centers": {"ENGLAND": ["NTH"]}}',
            "not a supply centre",
        ),
        (
            '[{"phase": "S1901M", "units": {}}, {"phase": "S1901M", "units": {"ITALY": ["F ROM", "A ROM"]}}]',
            "request 1",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys, monkeypatch, request_text: str, words: str
) -> None:
    code, out, err = _run(capsys, monkeypatch, request_text)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert words in json.loads(err)["error"]


def test_missing_file_exits_2(capsys, monkeypatch, tmp_path: Path) -> None:
    code, _, err = _run(capsys, monkeypatch, "", str(tmp_path / "nope.json"))
    assert code == 2 and "cannot read" in json.loads(err)["error"]


def test_datc_command_on_own_file(capsys) -> None:
    code = main(["datc", str(OWN_FILE)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[-1] == "13 passed, 0 failed"


@pytest.mark.skipif(not SHARED_CASES, reason=f"{SHARED_FILE} not present")
def test_datc_command_on_shared_file_fails_only_known_wrong(capsys) -> None:
    code = main(["datc", str(SHARED_FILE)])
    out = capsys.readouterr().out
    assert code == 1
    assert out.splitlines()[-1] == "166 passed, 1 failed (1 known wrong in the file)"
    assert "FAIL 6.G.8  [known wrong in the file" in out
    assert "expected units:" in out and "got units:" in out
    assert main(["datc", "--allow-known-wrong", str(SHARED_FILE)]) == 0


def test_house_rules_answer_when_present() -> None:
    handler = cli_adjudicate._handler_for_requests()
    try:
        import judge.rules.house_jsonio as rules_jsonio
    except ModuleNotFoundError:
        assert handler is adjudicate_json
    else:
        assert handler is rules_jsonio.adjudicate_json_with_rules


def test_datc_command_on_a_broken_file(capsys, tmp_path: Path) -> None:
    broken = tmp_path / "broken.txt"
    broken.write_text("CASE 1\nPRESTATE\n\tNarnia: A ber\nEND\n")
    assert main(["datc", str(broken)]) == 2
    assert "unknown power" in capsys.readouterr().err
