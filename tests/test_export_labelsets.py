"""``reviewer export --format scout|docent``: one verdict per run, ids the tools match, hostile text as data.

The files are read back with the stdlib here; ``tests/importers/test_labelsets_tools.py`` reads
them with Inspect Scout's and Docent's own readers when those are installed.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from sessionkit import RunSpec, write_session

from reviewer.cli import main

HOSTILE_NOTE = '=cmd|" /C calc"!A0\x1b]0;PWNED\x07\x1b[31m red,\n"quoted" \\ \u202e'
FAIL_CHECK = [{"key": "TestToRoman", "status": "fail", "message": "wrong"}, {"key": "TestOther", "status": "fail", "message": "also"}]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``reviewer ARGV`` in-process; (exit status, stdout, stderr)."""
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_with(run_id: str, **metadata: object) -> RunSpec:
    """A failing run (two failing checks) with this run metadata."""
    return RunSpec(run_id, checks=list(FAIL_CHECK), extra_run={"metadata": metadata} if metadata else {})


@pytest.fixture
def tools_folder(tmp_path: Path) -> Path:
    """One session: runs with a usable transcript id, with hostile ids and sample ids, and none."""
    root = tmp_path / "sessions"
    write_session(root, "s1", [
        run_with("ok", sample_uuid="Fg3KBpgFr6RSsEWmHBUqeo", inspect_sample_id="=HYPERLINK(\"x\")\x1b[2J\nline", epoch=2),
        run_with("own", scout_transcript_id="trajectory-7", sample_uuid="ignored-when-the-harness-names-one",
                 docent_agent_run_id="3b1c2d4e-0000-4000-8000-000000000001"),
        run_with("comma", sample_uuid="a,b"),
        run_with("missing", sample_uuid="NA"),
        run_with("number", sample_uuid="1e5"),
        run_with("bracket", sample_uuid="[\"x\"]"),
        run_with("none"),
    ])
    return root


def label(capsys: pytest.CaptureFixture[str], root: Path, run: str, check: str, verdict: str, reviewer: str = "alice",
          note: str = "") -> None:
    code, _, err = run_cli(capsys, "label", str(root), "--failure", f"s1/{run}#heldout:{check}", "--verdict", verdict,
                           "--reviewer", reviewer, "--note", note)
    assert code == 0, err


def label_all(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    """Every run: TestToRoman capability; TestOther specification on ``ok`` and capability elsewhere."""
    for run in ("ok", "own", "comma", "missing", "number", "bracket", "none"):
        label(capsys, root, run, "TestToRoman", "capability", note=HOSTILE_NOTE if run == "ok" else "")
        label(capsys, root, run, "TestOther", "specification" if run == "ok" else "capability")


def scout_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_scout_set_has_one_case_per_run_with_a_usable_transcript_id(tools_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    label_all(capsys, tools_folder)
    code, out, err = run_cli(capsys, "export", str(tools_folder), "--format", "scout")
    assert code == 0, err
    assert out.splitlines()[0] == "id,target,task_id,task_repeat"
    rows = scout_rows(out)
    assert [(r["id"], r["target"]) for r in rows] == [("Fg3KBpgFr6RSsEWmHBUqeo", "true"), ("trajectory-7", "false")]
    # the sample id is informational: on one line, controls visible, a formula behind an apostrophe
    assert rows[0]["task_id"] == "'=HYPERLINK(\"x\")␛[2J␊line" and rows[0]["task_repeat"] == "2"
    assert rows[1]["task_id"] == "roman-go" and rows[1]["task_repeat"] == ""
    assert "\x1b" not in out and "HOSTILE" not in out and "calc" not in out  # no label text in Scout's file
    # every run left out is said, by reason
    assert "1 run left out of the Scout validation set: no transcript id" in err
    assert "1 run left out of the Scout validation set: a transcript id pandas reads as a missing value" in err
    assert "1 run left out of the Scout validation set: a transcript id pandas reads as a number" in err
    assert "2 runs left out of the Scout validation set: a transcript id of other characters" in err


def test_docent_label_set_keeps_every_check_and_hostile_notes_as_data(tools_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    label_all(capsys, tools_folder)
    code, out, err = run_cli(capsys, "export", str(tools_folder), "--format", "docent")
    assert code == 0, err
    assert out.isascii() and "\x1b" not in out and "\x07" not in out  # every control escaped in the JSON text
    doc = json.loads(out)
    assert set(doc["label_set"]) == {"name", "description", "label_schema"}
    by_run = {lab["reviewer_run"]: lab for lab in doc["labels"]}
    assert sorted(by_run) == sorted(f"s1/{r}" for r in ("ok", "own", "comma", "missing", "number", "bracket", "none"))
    ok = by_run["s1/ok"]
    assert ok["agent_run_id"] is None
    assert ok["match"] == {"sample_id": "=HYPERLINK(\"x\")\x1b[2J\nline", "epoch": 2, "model": "model-a"}
    value = ok["label_value"]
    assert value["label"] == "specification"  # one of its two checks
    assert [(c["check"], c["verdict"]) for c in value["checks"]] == [("heldout:TestOther", "specification"),
                                                                      ("heldout:TestToRoman", "capability")]
    assert value["checks"][1]["note"] == HOSTILE_NOTE and "note" not in value["checks"][0]
    assert value["explanation"] == f"heldout:TestToRoman: {HOSTILE_NOTE}"
    assert by_run["s1/own"]["agent_run_id"] == "3b1c2d4e-0000-4000-8000-000000000001"
    assert by_run["s1/own"]["label_value"]["label"] == "capability"
    assert "6 labels of 7 without a Docent agent_run_id" in err


def test_one_reviewer_or_the_final_verdicts(tools_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    label(capsys, tools_folder, "ok", "TestToRoman", "capability", reviewer="alice")
    label(capsys, tools_folder, "ok", "TestToRoman", "specification", reviewer="bob")
    label(capsys, tools_folder, "own", "TestToRoman", "specification", reviewer="alice")
    label(capsys, tools_folder, "own", "TestToRoman", "specification", reviewer="bob")
    # default: the final verdicts; the failure they disagree on is left out, and said
    code, out, err = run_cli(capsys, "export", str(tools_folder), "--format", "scout")
    assert code == 0 and "1 failure left out: reviewers disagree" in err
    assert [(r["id"], r["target"]) for r in scout_rows(out)] == [("trajectory-7", "true")]
    code, out, _ = run_cli(capsys, "export", str(tools_folder), "--format", "scout", "--reviewer", "alice")
    assert [(r["id"], r["target"]) for r in scout_rows(out)] == [("Fg3KBpgFr6RSsEWmHBUqeo", "false"), ("trajectory-7", "true")]
    code, out, _ = run_cli(capsys, "export", str(tools_folder), "--format", "docent", "--reviewer", "bob")
    assert [(lab["reviewer_run"], lab["label_value"]["label"]) for lab in json.loads(out)["labels"]] == [
        ("s1/ok", "specification"), ("s1/own", "specification")]


def test_deferred_failures_are_no_verdict(tools_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    label(capsys, tools_folder, "ok", "TestToRoman", "deferred")
    code, out, err = run_cli(capsys, "export", str(tools_folder), "--format", "docent", "--reviewer", "alice")
    assert code == 0 and json.loads(out)["labels"] == []
    code, _, err = run_cli(capsys, "export", str(tools_folder), "--format", "scout", "--include-deferred")
    assert code == 2 and "deferred failure has none" in err


def test_written_to_a_file_byte_for_byte_as_printed(tools_folder: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    label_all(capsys, tools_folder)
    for fmt, name in (("scout", "verdicts.csv"), ("docent", "verdicts.json")):
        printed = run_cli(capsys, "export", str(tools_folder), "--format", fmt)[1]
        assert run_cli(capsys, "export", str(tools_folder), "--format", fmt, "-o", str(tmp_path / name))[0] == 0
        assert (tmp_path / name).read_text() == printed


def test_docent_schema_is_inside_the_subset_docent_accepts() -> None:
    """Held against Docent's own meta-schema (``validate_judge_result_schema``) when docent is installed."""
    pytest.importorskip("docent")
    from docent.judges.util.meta_schema import validate_judge_result_schema

    from reviewer.commands.labelsets import DOCENT_SCHEMA

    validate_judge_result_schema(DOCENT_SCHEMA)


def test_the_id_of_a_sample_without_uuid_is_inspects_own() -> None:
    """Inspect's sample table (which Scout reads) names a sample saved without a uuid by a hash of the eval id,
    sample id and epoch; the export derives the same id (held against Inspect's function when it is installed)."""
    from reviewer.commands.labelsets import inspect_auto_id

    assert inspect_auto_id("hj8C8q8gxzHhwyCT67xh4L", "1", 1) == "icndwmHk9v4eTsxfa5GCw9"
    assert inspect_auto_id("x", "abc", 3) == "akmWfqFpTN5xKbxPhTMuxE"
    try:
        from inspect_ai.analysis._dataframe.extract import auto_id
    except ImportError:
        return
    for eval_id, sample, epoch in (("C3pqnFnsCUx6ZpmsRU9Ape", "7", 2), ("e", "=cmd,\n", 1), ("", "", 0)):
        assert inspect_auto_id(eval_id, sample, epoch) == auto_id(eval_id, f"{sample}_{epoch}")


def test_an_imported_inspect_sample_without_uuid_gets_the_derived_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "sessions"
    write_session(root, "s1", [run_with("old", inspect_eval_id="hj8C8q8gxzHhwyCT67xh4L", inspect_sample_id="1", epoch=1)])
    label(capsys, root, "old", "TestToRoman", "specification")
    code, out, _ = run_cli(capsys, "export", str(root), "--format", "scout")
    assert scout_rows(out) == [{"id": "icndwmHk9v4eTsxfa5GCw9", "target": "true", "task_id": "1", "task_repeat": "1"}]
