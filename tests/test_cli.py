"""The headless commands, run through the real entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reviewer.cli import main

F2 = "s2/r3#heldout:test_connected"
F3 = "s2/r3#heldout:test_trail"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_version_and_help_document_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and "reviewer" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0 and "COMMAND" in capsys.readouterr().out
    for command in ("check", "list", "show", "label", "export", "commit", "agreement", "adjudicate", "import",
                    "stats", "score", "themes", "report", "serve"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = capsys.readouterr().out
        assert "exit status:" in text and "  0 " in text and "  1 " in text, command


def test_list_json_has_the_documented_fields(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "list", str(folder), "--json")
    rows = json.loads(out)
    assert code == 0 and err == ""
    assert [r["run"] for r in rows] == ["r1", "r2", "r3", "r4"]
    r3 = rows[2]
    assert {k: r3[k] for k in ("session", "task", "model", "outcome", "attempts", "files", "turns", "checks", "failures")} == {
        "session": "s2", "task": "connected", "model": "model-a", "outcome": "fail",
        "attempts": 1, "files": 1, "turns": 2, "checks": 2, "failures": 2}
    assert r3["brief_chars"] == len("# Roman numerals\n\nWrite roman.go in package roman.\n")


def test_list_reports_broken_runs_on_stderr_and_exits_0(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (folder / "s1" / "runs" / "r1" / "run.toml").write_bytes(b"\x00garbage")
    code, out, err = run(capsys, "list", str(folder), "--json")
    assert code == 0 and len(json.loads(out)) == 3
    assert "s1/runs/r1/run.toml" in err and "NUL" in err


def test_check_exit_codes(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", str(folder))[0] == 0
    (folder / "s2" / "runs" / "r4" / "brief.md").unlink()
    code, out, _ = run(capsys, "check", str(folder))
    assert code == 1
    assert out.splitlines()[0].startswith("s2/runs/r4/brief.md: ")
    assert "1 problem" in out.splitlines()[-1]


def test_label_export_round_trip_is_byte_stable(folder: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(capsys, "label", str(folder), "--failure", F2, "--verdict", "specification", "--reviewer", "alice",
               "--note", "wants yes", "--tag", "vocabulary-mismatch")[0] == 0
    assert run(capsys, "label", str(folder), "--failure", F3, "--verdict", "capability", "--reviewer", "bob")[0] == 0
    assert run(capsys, "label", str(folder), "--failure", "s1/r1#heldout:TestToRoman", "--verdict", "deferred", "--reviewer", "bob")[0] == 0
    code, first, _ = run(capsys, "export", str(folder))
    assert code == 0
    assert first == run(capsys, "export", str(folder))[1]
    import tomllib

    doc = tomllib.loads(first)
    assert doc["format"] == 1
    assert [(lab["check"], lab["verdict"], lab["reviewer"]) for lab in doc["label"]] == [
        ("heldout:test_connected", "specification", "alice"), ("heldout:test_trail", "capability", "bob")]
    lab = doc["label"][0]
    assert lab["task"] == "connected" and lab["model"] == "model-a" and lab["stale"] is False
    assert lab["tags"] == ["vocabulary-mismatch"] and lab["note"] == "wants yes" and lab["evidence"].startswith("sha256:")
    assert lab["labelled_at"].endswith("Z")
    only_bob = tomllib.loads(run(capsys, "export", str(folder), "--reviewer", "bob", "--include-deferred")[1])
    assert sorted(x["verdict"] for x in only_bob["label"]) == ["capability", "deferred"]
    jsonl = run(capsys, "export", str(folder), "--format", "jsonl")[1].splitlines()
    assert [json.loads(x)["verdict"] for x in jsonl] == ["specification", "capability"]
    csv_text = run(capsys, "export", str(folder), "--format", "csv")[1].splitlines()
    assert csv_text[0].startswith("session,run,task,model,check,check_name,verdict") and len(csv_text) == 3
    out_file = tmp_path / "labels.toml"
    assert run(capsys, "export", str(folder), "-o", str(out_file))[0] == 0
    assert out_file.read_text() == first


def test_label_unknown_failure_is_one_clear_line(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "label", str(folder), "--failure", "s9/r1#x:y", "--verdict", "capability", "--reviewer", "a")
    assert code == 1 and err.count("\n") == 1 and "no run s9/r1" in err


def test_show_prints_every_pane_as_plain_text(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = folder / "s2" / "runs" / "r3"
    (run_dir / "attempts" / "1" / "roman.go").write_text("x := 1 // \x1b]0;PWNED\x07 [@click=app.quit]hi[/]\n")
    code, out, _ = run(capsys, "show", str(folder), "--failure", F2, "--reviewer", "alice")
    assert code == 0
    for title in ("── Brief", "── Code", "── Grader", "── Transcript"):
        assert title in out
    assert "\x1b" not in out and "\x07" not in out
    assert "␛]0;PWNED␇ [@click=app.quit]hi[/]" in out
    assert "✗ heldout:test_connected  ◀" in out


def test_no_traceback_for_a_missing_folder(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "reviewer.cli", "list", str(tmp_path / "nope")], capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "not a folder" in proc.stderr
