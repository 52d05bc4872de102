"""``[grader.rerun]``: read from manifests, kept by the index, validated by ``reviewer check``,
declared by the corpus for every grader, written by the importers."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomli_w
from rescorekit import sandbox_tool, synthetic
from sessionkit import example_corpus

from reviewer.cli import main
from reviewer.model.repair import parse_repair
from reviewer.rescore.engine import compare_grader
from reviewer.store.index.codec import decode_body, encode_body
from reviewer.store.sessions.store import SessionStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "importers" / "go"


def rewrite_rerun(root: Path, table: object) -> None:
    import tomllib

    path = root / "s1" / "runs" / "r1" / "run.toml"
    doc = tomllib.loads(path.read_text())
    doc["grader"][0]["rerun"] = table
    path.write_bytes(tomli_w.dumps(doc).encode())


def grader_rerun(root: Path):
    store = SessionStore(root, use_index=False)
    store.scan()
    run = store.run("s1/r1")
    assert run is not None, store.errors
    return run.graders[0].rerun


def test_fields_and_defaults(tmp_path: Path) -> None:
    root = synthetic(tmp_path, {"prog.py": "print(1)\n"}, "pass\n")
    rewrite_rerun(root, {"runtime": "go>=1.19", "setup": ["../../graders"], "remove": ["*_test.go"],
                         "program": "prog.py", "reads": ["out.txt"], "time_limit": 5, "env": {"GOFLAGS": "-v"}})
    r = grader_rerun(root)
    assert (r.command, r.cwd, r.runtime, r.files) == ("python check.py", "", "go>=1.19", ("s1/graders/check.py",))
    assert (r.setup, r.remove, r.program, r.reads, r.time_limit, r.env) == (
        ("s1/graders",), ("*_test.go",), "prog.py", ("out.txt",), 5.0, (("GOFLAGS", "-v"),))
    assert r.problem == ""


@pytest.mark.parametrize("table, why", [
    ("python", "must be a table"), ({"runtime": "ruby"}, "unknown runtime"), ({"program": "../x.py"}, "leaves the workspace"),
    ({"env": {"PATH": "/x"}}, "sets PATH itself"), ({"time_limit": 0}, "above 0"), ({"colour": 1}, "unknown field"),
    ({"files": ["../../../../etc/passwd"]}, "leaves the sessions folder"), ({"remove": ["a/b"]}, "file-name pattern"),
])
def test_a_bad_table_is_a_problem_check_reports_and_the_run_still_loads(tmp_path: Path, table: object, why: str,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    root = synthetic(tmp_path, {"prog.py": "print(1)\n"}, "pass\n")
    rewrite_rerun(root, table)
    assert why in grader_rerun(root).problem
    assert main(["check", str(root)]) == 1
    out = capsys.readouterr().out
    assert "rerun:" in out and why in out


def test_check_reports_a_missing_rerun_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = synthetic(tmp_path, {"prog.py": "print(1)\n"}, "pass\n", {"files": ["../../graders/gone.py"]})
    assert main(["check", str(root)]) == 1
    assert "s1/graders/gone.py: grader 'check' rerun file file not found" in capsys.readouterr().out


def test_the_index_keeps_the_table(tmp_path: Path) -> None:
    root = synthetic(tmp_path, {"prog.py": "print(1)\n"}, "pass\n", {"program": "prog.py", "env": {"A": "b"}})
    store = SessionStore(root, use_index=False)
    store.scan()
    run = store.run("s1/r1")
    assert run is not None and run.graders[0].rerun is not None
    values = decode_body(encode_body(run), run.manifest)
    assert values[5] == run.graders


def test_the_corpus_declares_a_usable_rerun_for_every_grader(tmp_path: Path) -> None:
    store = SessionStore(example_corpus(tmp_path / "sessions"), use_index=False)
    store.scan()
    graders = [(run.key, g) for run in store.runs for g in run.graders]
    assert len(graders) >= 29
    for key, g in graders:
        assert g.rerun is not None and g.rerun.problem == "", (key, g.name)
        assert g.rerun.runtime in ("python>=3.11", "go>=1.19"), key
    programs = {run.task: g.rerun.program for run in store.runs for g in run.graders if g.rerun and g.rerun.program}
    assert programs == {"connected": "connected.py", "eulerian": "eulerian.py", "mst": "mst.py", "fast-expt": "fast_expt.py",
                        "depth": "depth.py"}


@pytest.mark.skipif(shutil.which("go") is None, reason="needs Go")
def test_an_imported_go_run_re_runs_in_the_sandbox(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    code = FIXTURES / "buggy"
    output = FIXTURES / "out" / "buggy.json.txt"
    status = main(["import", "go-test", str(code), "--grader-output", str(output), "--task", "roman", "--model", "m",
                   "--into", str(into), "--session", "go", "--exit-status", "1",
                   "--grader-file", str(FIXTURES / "heldout" / "roman_heldout_test.go"),
                   "--rerun-command", "go mod init roman >/dev/null 2>&1; go test -json ./..."])
    assert status == 0, capsys.readouterr().err
    run_toml = (into / "go" / "runs" / "roman--m" / "run.toml").read_text()
    assert "[grader.rerun]" in run_toml and 'runtime = "go"' in run_toml
    assert main(["check", str(into)]) == 0
    store = SessionStore(into, use_index=False)
    store.scan()
    run = store.run("go/roman--m")
    assert run is not None
    c = compare_grader(store, run, "grader", (parse_repair("lift-limit:recursion"),), tool=sandbox_tool())
    failing = {row.key for row in c.checks if row.recorded == "fail"}
    assert failing and all(row.before == "fail" for row in c.checks if row.key in failing)


def test_rerun_flags_are_refused_for_trajectory_formats(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "reviewer.cli", "import", "inspect", str(tmp_path / "x.eval"),
                           "--rerun-command", "true"], check=False, capture_output=True, text=True)
    assert done.returncode == 2 and "--rerun-command" in done.stderr
