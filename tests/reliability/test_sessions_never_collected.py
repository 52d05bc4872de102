"""pytest never collects a sessions folder, so a recorded conftest.py or test file never runs.

A project with this repository's own pytest configuration (pyproject.toml copied as it is) gets
recorded ``conftest.py`` and ``test_*.py`` files that write a canary when imported: in a
session's attempt, at the top of the sessions folder, and in the tests' fixture and corpus
folders. pytest run as CI runs it, on ``.`` (which bypasses testpaths) and on ``tests`` runs the
one real test and never imports them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RECORDED = (
    "sessions/conftest.py",
    "sessions/evil/runs/r1/attempts/1/conftest.py",
    "sessions/evil/runs/r1/attempts/1/test_evil.py",
    "sessions/evil/runs/r1/attempts/2/tests/test_deep.py",
    "sessions/evil/labels/conftest.py",
    "tests/fixtures/grader/conftest.py",
    "tests/fixtures/grader/test_recorded.py",
    "tests/corpus/material/run/conftest.py",
)


def project(tmp_path: Path) -> tuple[Path, Path]:
    """The project and its canary file (absent until a recorded file runs)."""
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    (root / "tests").mkdir()
    (root / "tests" / "test_real.py").write_text("def test_real():\n    assert True\n")
    canary = tmp_path / "canary.txt"
    for rel in RECORDED:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"open({str(canary)!r}, 'a').write(__file__ + '\\n')\n\n\ndef test_recorded():\n    pass\n")
    return root, canary


@pytest.mark.parametrize("args", [[], ["."], ["tests"], ["--collect-only", "."]], ids=["ci", "dot", "tests", "collect"])
def test_recorded_conftest_and_tests_never_run(tmp_path: Path, args: list[str]) -> None:
    root, canary = project(tmp_path)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", *args], cwd=root, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not canary.exists(), canary.read_text()
    assert "recorded" not in done.stdout and "sessions" not in done.stdout
    assert ("1 passed" in done.stdout) or ("1 test collected" in done.stdout), done.stdout


def test_this_repository_collects_nothing_from_its_sessions_or_fixtures() -> None:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q"], cwd=REPO, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    assert ids and all(line.startswith("tests/") for line in ids)
    assert not [line for line in ids if line.startswith(("sessions/", "tests/fixtures/", "tests/corpus/material/"))]
