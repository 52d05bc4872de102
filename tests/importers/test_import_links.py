"""Nothing an import copies is read through a link; reserved session names are refused."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from importkit import run_cli, snapshot

SECRET = "SECRET-5e1f"
INSTANCE = "demo__demo-1"


def trajectory(folder: Path, stem: str = INSTANCE, suffix: str = ".traj") -> Path:
    """A tiny SWE-agent trajectory (or mini-swe-agent with suffix .traj.json)."""
    path = folder / f"{stem}{suffix}"
    if suffix == ".traj":
        path.write_text(json.dumps({"history": [{"role": "user", "content": "Fix it."}], "trajectory": [], "info": {"submission": "diff"}}))
    else:
        path.write_text(json.dumps({"info": {"submission": "diff"}, "messages": [{"role": "user", "content": "Fix it."}]}))
    return path


def secret(tmp_path: Path) -> Path:
    """A file outside every folder given to the import."""
    (tmp_path / "elsewhere").mkdir(exist_ok=True)
    path = tmp_path / "elsewhere" / "secret.txt"
    path.write_text(SECRET)
    return path


def leaked(root: Path) -> list[str]:
    """Files below ``root`` holding the secret."""
    return [k for k, v in snapshot(root, skip="-none-").items() if SECRET.encode() in v]


def test_linked_files_of_a_swebench_folder_are_named_not_copied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inst = tmp_path / "eval" / "run" / INSTANCE
    inst.mkdir(parents=True)
    (inst / "report.json").write_text(json.dumps({INSTANCE: {"resolved": False, "tests_status": {"FAIL_TO_PASS": {"failure": ["t::a"], "success": []}}}}))
    os.symlink(secret(tmp_path), inst / "test_output.txt")
    os.symlink(secret(tmp_path), inst / "eval.sh")
    into = tmp_path / "sessions"
    code, _, err = run_cli(capsys, "import", "swe-agent", str(trajectory(tmp_path)), "--swebench", str(tmp_path / "eval"), "--into", str(into))
    assert code == 0
    assert "test_output.txt: is a symbolic link" in err and "eval.sh: is a symbolic link" in err
    assert leaked(into) == []
    run = next((into).glob("*/runs/*"))
    assert (run / "grader" / "swebench.out").read_text().startswith("(no readable test_output.txt")


def test_a_linked_instance_folder_is_never_entered(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = tmp_path / "elsewhere" / INSTANCE
    real.mkdir(parents=True)
    (real / "report.json").write_text(json.dumps({INSTANCE: {"resolved": True}}))
    (real / "test_output.txt").write_text(SECRET)
    (tmp_path / "eval").mkdir()
    os.symlink(real, tmp_path / "eval" / INSTANCE)
    into = tmp_path / "sessions"
    code, _, _err = run_cli(capsys, "import", "swe-agent", str(trajectory(tmp_path)), "--swebench", str(tmp_path / "eval"), "--into", str(into))
    assert code == 0 and leaked(into) == []


@pytest.mark.parametrize("fmt", ["mini-swe-agent", "swe-agent", "inspect"])
def test_a_source_that_is_a_link_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    link = tmp_path / "run.traj.json"
    os.symlink(secret(tmp_path), link)
    code, out, err = run_cli(capsys, "import", fmt, str(link), "--into", str(tmp_path / "sessions"))
    assert code == 1 and out == "" and "is a symbolic link" in err
    assert not (tmp_path / "sessions").exists() or leaked(tmp_path / "sessions") == []


def test_links_in_a_code_folder_are_skipped_and_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code_dir = tmp_path / "code"
    code_dir.mkdir()
    (code_dir / "main.go").write_text("package main\n")
    os.symlink(secret(tmp_path), code_dir / "notes.txt")
    os.symlink(secret(tmp_path).parent, code_dir / "more")
    out_file = tmp_path / "grader.out"
    out_file.write_text("=== RUN   TestA\n--- FAIL: TestA (0.00s)\nFAIL\nFAIL\tdemo\t0.01s\n")
    into = tmp_path / "sessions"
    code, _, err = run_cli(capsys, "import", "go-test", str(code_dir), "--grader-output", str(out_file), "--into", str(into), "--session", "g")
    assert code == 0, err
    assert leaked(into) == []
    manifest = next(into.glob("g/runs/*/run.toml")).read_text()
    assert "notes.txt: is a symbolic link" in manifest and "more/: is a symbolic link" in manifest
    os.symlink(out_file, tmp_path / "linked.out")
    code, _, err = run_cli(capsys, "import", "go-test", str(code_dir), "--grader-output", str(tmp_path / "linked.out"), "--into", str(into), "--session", "g2")
    assert code == 1 and "is a symbolic link" in err


def test_a_session_whose_runs_folder_is_a_link_is_not_read_from(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = trajectory(tmp_path, "one", ".traj.json")
    into = tmp_path / "sessions"
    assert run_cli(capsys, "import", "mini-swe-agent", str(first), "--into", str(into), "--session", "s")[0] == 0
    outside = tmp_path / "elsewhere-runs"
    os.rename(into / "s" / "runs", outside)
    os.symlink(outside, into / "s" / "runs")
    second = trajectory(tmp_path, "two", ".traj.json")
    code, _, err = run_cli(capsys, "import", "mini-swe-agent", str(second), "--into", str(into), "--session", "s")
    assert code == 1 and "symbolic link" in err
    assert os.path.islink(into / "s" / "runs")


@pytest.mark.parametrize("name", ["runs", "labels"])
def test_reserved_session_names_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, err = run_cli(capsys, "import", "mini-swe-agent", str(trajectory(tmp_path, "x", ".traj.json")), "--into", str(tmp_path / "s"), "--session", name)
    assert code == 2 and out == "" and "reserved" in err
    assert not (tmp_path / "s").exists()


def test_a_derived_session_name_that_is_reserved_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "runs.json"
    log.write_text(json.dumps({"eval": {"task": "", "model": "m"}, "samples": [{"id": 1, "epoch": 1, "input": "hi", "messages": []}]}))
    code, out, err = run_cli(capsys, "import", "inspect", str(log), "--into", str(tmp_path / "s"))
    assert code == 1 and out == "" and "'runs' is reserved" in err
