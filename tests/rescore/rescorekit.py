"""Helpers for the re-score tests: a real sandbox, real programs, copies of the real corpus."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sessionkit import example_corpus

from reviewer.rescore.layout import fresh_staging, write
from reviewer.rescore.runtime import find_python, python_executable
from reviewer.rescore.sandbox import (
    Limits,
    Outcome,
    SandboxUnavailable,
    Tool,
    require_sandbox,
    run_sandboxed,
)

REPO = Path(__file__).resolve().parents[2]
SESSIONS = REPO / "sessions"


def sandbox_tool() -> Tool:
    """The working sandbox, or a failed test that says what is missing (CI installs bubblewrap)."""
    try:
        return require_sandbox()
    except SandboxUnavailable as exc:
        pytest.fail(f"the sandbox tests need a working bubblewrap: {exc}")


def run_python(code: str, limits: Limits, args: tuple[str, ...] = ()) -> Outcome:
    """Run ``code`` as prog.py with the project's Python inside the sandbox."""
    tool = sandbox_tool()
    py = find_python(python_executable())
    with fresh_staging() as staging:
        write(staging, "ws/prog.py", code.encode())
        wrapper = f"#!/bin/sh\nexec '{py.executable}' \"$@\"\n".encode()
        write(staging, "bin/python", wrapper, 0o755)
        script = "cp -R /sandbox/in/ws /sandbox/run && mkdir -p /sandbox/tmp /sandbox/home && cd /sandbox/run && exec python prog.py \"$@\""
        env = {"PATH": "/sandbox/in/bin:/usr/bin:/bin", "HOME": "/sandbox/home", "TMPDIR": "/sandbox/tmp",
               "LANG": "C.UTF-8"}
        return run_sandboxed(tool, staging, ["/bin/sh", "-c", script, "prog", *args], binds=list(py.binds),
                             env=env, limits=limits)


def corpus_copy(tmp_path: Path) -> Path:
    """A private copy of the bundled corpus (records are written into it)."""
    return example_corpus(tmp_path / "sessions")


def processes_with(marker: str) -> list[int]:
    """Pids whose command line holds ``marker`` (left-over sandbox processes)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                if marker.encode() in fh.read():
                    found.append(int(name))
        except OSError:
            continue
    return found


def synthetic(root: Path, files: dict[str, str], checker: str, rerun: dict[str, object] | None = None,
              run_id: str = "r1", expected_dir: str = "") -> Path:
    """A sessions folder with one run whose grader ``check`` is ``python check.py`` (fallback
    format, recorded as failing): ``files`` are attempt 1, ``checker`` is graders/check.py."""
    import tomli_w

    session = root / "s1"
    (session / "graders").mkdir(parents=True, exist_ok=True)
    (session / "graders" / "check.py").write_text(checker)
    (session / "session.toml").write_bytes(tomli_w.dumps({"format": 1, "session": {"harness": "t"}}).encode())
    rdir = session / "runs" / run_id
    for rel, text in files.items():
        path = rdir / "attempts" / "1" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (rdir / "grader").mkdir(parents=True, exist_ok=True)
    (rdir / "grader" / "check.out").write_text("FAIL: recorded\n")
    (rdir / "brief.md").write_text("# brief\n")
    table = {"command": "python check.py", "runtime": "python>=3.11", "files": ["../../graders/check.py"],
             "time_limit": 60, **(rerun or {})}
    doc = {"format": 1,
           "run": {"task": "t", "model": "m", "outcome": "fail", "brief": "brief.md", "expected_dir": expected_dir},
           "attempt": [{"files": sorted(files)}],
           "grader": [{"name": "check", "command": "python check.py", "exit_status": 1, "output": "grader/check.out",
                       "format": "fallback", "source": ["../../graders/check.py"], "rerun": table}]}
    (rdir / "run.toml").write_bytes(tomli_w.dumps(doc).encode())
    return root
