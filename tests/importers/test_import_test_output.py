"""go-test, junit and pytest: a code folder plus real grader output (Go and pytest really run)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest
from importkit import OWN_FIXTURES, checked, failure_ids, listed, run_cli

from reviewer.store.sessions.store import SessionStore

GO = OWN_FIXTURES / "go"
EXIT = json.loads((GO / "out" / "exit_codes.json").read_text())


def go_json_failures(text: str) -> list[str]:
    """Failing tests as ``go test -json`` reported them: ``fail`` events that name a Test."""
    failing = []
    for line in text.splitlines():
        if line.startswith("{"):
            event = json.loads(line)
            if event.get("Action") == "fail" and event.get("Test"):
                failing.append(event["Test"])
    return sorted(failing)


def import_go(capsys: pytest.CaptureFixture[str], into: Path, code: Path, output: Path, model: str, exit_status: int | None = None) -> str:
    """Import one go-test run; returns its run key."""
    argv = ["import", "go-test", str(code), "--grader-output", str(output), "--brief", str(GO / "brief.md"), "--task", "roman", "--model", model, "--into", str(into), "--session", "go"]
    if exit_status is not None:
        argv += ["--exit-status", str(exit_status)]
    status, _, err = run_cli(capsys, *argv)
    assert status == 0, err
    return f"go/roman--{model}"


def keys(into: Path, run_key: str) -> list[str]:
    """The failing check keys of a run."""
    return sorted(fid.split("#grader:", 1)[1] for fid in failure_ids(into)[run_key])


def test_committed_go_output_failures_are_what_go_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    into = tmp_path / "sessions"
    reported = go_json_failures((GO / "out" / "buggy.json.txt").read_text())
    assert reported == sorted(["TestHeldOutToRoman", "TestHeldOutToRoman/IV", "TestHeldOutToRoman/IX", "TestHeldOutToRoman/XIV", "TestHeldOutToRoman/MMMCMXCIX"])
    for kind in ("json", "v"):
        name = f"buggy.{kind}.txt"
        run = import_go(capsys, into, GO / "buggy", GO / "out" / name, f"m-{kind}", EXIT[name])
        assert keys(into, run) == reported
    for kind in ("json", "v"):
        name = f"broken.{kind}.txt"
        text = (GO / "out" / name).read_text()
        assert "FAIL\texample.com/roman [build failed]" in text and go_json_failures(text) == []
        run = import_go(capsys, into, GO / "broken", GO / "out" / name, f"broken-{kind}", EXIT[name])
        assert keys(into, run) == ["build:example.com/roman"]
    rows = {r["run"]: r for r in listed(capsys, into)}
    assert {k: (r["outcome"], r["files"], r["turns"]) for k, r in rows.items()} == {
        "roman--m-json": ("fail", 1, 2),
        "roman--m-v": ("fail", 1, 2),
        "roman--broken-json": ("fail", 1, 2),
        "roman--broken-v": ("fail", 1, 2),
    }
    checked(capsys, into)
    store = SessionStore(into)
    store.scan()
    run = store.run("go/roman--m-json")
    assert run is not None and run.graders[0].format == "go-test-json" and run.graders[0].exit_status == 1
    assert store.text(run.graders[0].output_ref).text == (GO / "out" / "buggy.json.txt").read_text()
    assert store.brief(run).text == (GO / "brief.md").read_text()
    assert [f.path for f in run.attempts[0].files] == ["roman.go"]


def load_generator() -> ModuleType:
    """The fixture generator script, as a module."""
    spec = importlib.util.spec_from_file_location("go_fixture_generator", GO / "make_fixtures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed")
def test_live_go_test_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Grade the fixture code with the real go toolchain now, then import what it printed."""
    generator = load_generator()
    into = tmp_path / "sessions"
    for case in ("buggy", "broken"):
        outputs = generator.grade(GO / case, GO / "heldout", str(tmp_path / "go"))
        for kind, (text, status) in outputs.items():
            out_file = tmp_path / f"{case}.{kind}.txt"
            out_file.write_text(text)
            run = import_go(capsys, into, GO / case, out_file, f"{case}-{kind}", status)
            if case == "buggy":
                assert status == 1
                assert keys(into, run) == go_json_failures(outputs["json"][0]) != []
            else:
                assert status != 0 and "[build failed]" in text
                assert keys(into, run) == ["build:example.com/roman"]
    checked(capsys, into)


SOLUTION = "def add(a, b):\n    return a - b\n"
HELD_OUT = '''import pytest
from solution import add

def test_add_zero():
    assert add(2, 0) == 2

def test_add():
    assert add(2, 3) == 5

@pytest.mark.parametrize("a,b", [(1, 2), (0, 0)])
def test_add_param(a, b):
    assert add(a, b) == a + b

@pytest.fixture
def broken():
    raise RuntimeError("fixture exploded")

def test_uses_fixture(broken):
    pass

def test_skipped():
    pytest.skip("not graded")
'''


def run_pytest(tmp_path: Path) -> tuple[Path, Path, Path, int]:
    """Really run ``pytest -rA --junitxml`` on a held-out test; (code folder, text, xml, exit)."""
    code = tmp_path / "code"
    code.mkdir()
    (code / "solution.py").write_text(SOLUTION)
    work = tmp_path / "grade"
    work.mkdir()
    (work / "solution.py").write_text(SOLUTION)
    (work / "test_heldout.py").write_text(HELD_OUT)
    (work / "pytest.ini").write_text("[pytest]\n")
    xml = tmp_path / "junit.xml"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    p = subprocess.run(
        [sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider", f"--junitxml={xml}", "test_heldout.py"],
        cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False,
    )
    text = tmp_path / "pytest.txt"
    text.write_bytes(p.stdout)
    return code, text, xml, p.returncode


def pytest_reported(text: str) -> list[str]:
    """Node ids pytest's short summary lists as FAILED or ERROR."""
    ids = []
    for line in text.splitlines():
        for word in ("FAILED ", "ERROR "):
            if line.startswith(word):
                ids.append(line[len(word):].split(" - ")[0].strip())
    return sorted(ids)


def junit_reported(path: Path) -> list[str]:
    """``classname::name`` of every testcase with a failure or error element."""
    root = ET.parse(path).getroot()
    return sorted(
        f"{case.get('classname')}::{case.get('name')}"
        for case in root.iter("testcase")
        if case.find("failure") is not None or case.find("error") is not None
    )


def test_pytest_and_junit_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, text, xml, status = run_pytest(tmp_path)
    assert status == 1
    into = tmp_path / "sessions"
    for fmt, output, expected in (("pytest", text, pytest_reported(text.read_text())), ("junit", xml, junit_reported(xml))):
        assert len(expected) == 3, expected
        argv = ["import", fmt, str(code), "--grader-output", str(output), "--exit-status", str(status), "--model", "m", "--into", str(into)]
        assert run_cli(capsys, *argv)[0] == 0
        run_key = f"{fmt}-code/code--m"
        assert sorted(fid.split("#grader:", 1)[1] for fid in failure_ids(into)[run_key]) == expected
    rows = listed(capsys, into)
    assert [(r["session"], r["outcome"], r["files"], r["brief_chars"] > 0) for r in rows] == [("junit-code", "fail", 1, True), ("pytest-code", "fail", 1, True)]
    checked(capsys, into)


@pytest.mark.parametrize(
    ("fmt", "why"),
    [
        ("go-test", "no `go test -json` events and no `go test -v` lines"),
        ("junit", "no <testsuite> or <testcase> element at the start"),
        ("pytest", "no pytest session header, summary or final `N passed/failed in Xs` line"),
    ],
)
def test_wrong_grader_output_gets_one_line(fmt: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "output.txt"
    out.write_text("Build succeeded.\nAll good here.\n")
    into = tmp_path / "sessions"
    code, stdout, err = run_cli(capsys, "import", fmt, str(GO / "buggy"), "--grader-output", str(out), "--into", str(into))
    assert code == 1 and stdout == ""
    assert err.count("\n") == 1 and err.startswith(f"reviewer import: {out}: not a {fmt} file ({why}")
    assert not into.exists()


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(capsys, "import", "go-test", str(GO / "buggy"))[0] == 2
    assert run_cli(capsys, "import", "inspect", "x.eval", "--grader-output", "y")[0] == 2
    assert run_cli(capsys, "import", "inspect", "x.eval", "--session", "../evil")[0] == 2
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, "import", "nosuchformat", "x")
    assert exc.value.code == 2


def test_help_documents_exit_codes_and_mapping(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, "import", "--help")
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert "exit status:" in text and "C passes; I, N and P (partial) fail" in text


def test_brief_missing_is_said_and_folder_caps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = tmp_path / "work"
    (code / "pkg").mkdir(parents=True)
    (code / "pkg" / "a.go").write_text("package pkg\n")
    (code / ".git").mkdir()
    (code / ".git" / "config").write_text("[core]\n")
    (code / "link.go").symlink_to(tmp_path / "outside.go")
    (tmp_path / "outside.go").write_text("secret")
    os.mkfifo(code / "pipe")
    output = code / "grader.out"
    output.write_text((GO / "out" / "buggy.v.txt").read_text())
    into = tmp_path / "sessions"
    assert run_cli(capsys, "import", "go-test", str(code), "--grader-output", str(output), "--into", str(into))[0] == 0
    checked(capsys, into)
    store = SessionStore(into)
    store.scan()
    run = store.runs[0]
    assert (run.session, run.id, run.task, run.model) == ("go-test-work", "work--unknown", "work", "unknown")
    assert [f.path for f in run.attempts[0].files] == ["pkg/a.go"]
    assert "without `--brief FILE`" in store.brief(run).text
    assert sorted(s.split(":")[0] for s in run.metadata["skipped_files"]) == ["link.go", "pipe"]
