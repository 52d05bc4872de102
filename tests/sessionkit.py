"""Writing small sessions folders in the documented format, for tests."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

EXAMPLE_CORPUS = Path(__file__).resolve().parent.parent / "sessions"
"""The checkout's example corpus. Tests never read it in place: :func:`example_corpus` copies it."""
WRITTEN_BY_REVIEWERS = ("labels", "rescores", "tags.toml")
"""What labelling, re-scoring and tagging write into a sessions folder (none of it is in git)."""


def example_corpus(dest: Path) -> Path:
    """A copy of the checkout's example corpus at ``dest``, as git has it: without the labels,
    re-scores and tags a reviewer may have written into it in place (``reviewer sessions`` of the
    Quick start did, with code from before the corpus was redirected to the per-user folder)."""
    shutil.copytree(EXAMPLE_CORPUS, dest, symlinks=True, ignore=shutil.ignore_patterns(*WRITTEN_BY_REVIEWERS))
    return dest


def example_corpus_built() -> bool:
    """The example corpus holds runs (a source tree without them skips the tests that need it)."""
    return any(EXAMPLE_CORPUS.glob("*/runs/*/run.toml"))


@dataclass
class RunSpec:
    """A run to write: files per attempt, recorded checks, transcript turns."""

    id: str
    task: str = "roman-go"
    model: str = "model-a"
    outcome: str = "fail"
    brief: str = "# Roman numerals\n\nWrite roman.go in package roman.\n"
    attempts: list[dict[str, str]] = field(default_factory=lambda: [{"roman.go": "package roman\n"}])
    checks: list[dict[str, str]] = field(
        default_factory=lambda: [
            {"key": "TestToRoman", "status": "fail", "message": 'ToRoman(4) = "IIII", want "IV"'},
            {"key": "TestFromRoman", "status": "pass"},
        ]
    )
    output: str = "--- FAIL: TestToRoman (0.00s)\nFAIL\n"
    turns: list[dict[str, Any]] = field(
        default_factory=lambda: [
            {"role": "user", "text": "Write roman.go"},
            {"role": "assistant", "text": "done", "attempt": 1},
        ]
    )
    extra_run: dict[str, Any] = field(default_factory=dict)


def write_toml(path: Path, doc: dict[str, Any]) -> None:
    """Write a TOML file, creating folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(tomli_w.dumps(doc).encode())


def write_session(root: Path, session: str, runs: list[RunSpec], harness: str = "TestHarness") -> Path:
    """Write one session with its runs; returns the session folder."""
    sdir = root / session
    write_toml(sdir / "session.toml", {"format": 1, "session": {"harness": harness, "harness_version": "1.0", "models": sorted({r.model for r in runs})}})
    for spec in runs:
        rdir = sdir / "runs" / spec.id
        (rdir).mkdir(parents=True, exist_ok=True)
        (rdir / "brief.md").write_text(spec.brief)
        attempts = []
        for n, files in enumerate(spec.attempts, start=1):
            for path, text in files.items():
                target = rdir / "attempts" / str(n) / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text)
            attempts.append({"files": sorted(files)})
        (rdir / "grader").mkdir(exist_ok=True)
        (rdir / "grader" / "heldout.out").write_text(spec.output)
        grader: dict[str, Any] = {
            "name": "heldout",
            "command": "go test -v ./...",
            "exit_status": 1 if spec.outcome == "fail" else 0,
            "output": "grader/heldout.out",
        }
        if spec.checks:
            grader["check"] = spec.checks
        write_toml(rdir / "transcript.toml", {"format": 1, "turn": spec.turns})
        run = {"task": spec.task, "model": spec.model, "access": "local", "outcome": spec.outcome, "brief": "brief.md", "transcript": "transcript.toml", **spec.extra_run}
        write_toml(rdir / "run.toml", {"format": 1, "run": run, "attempt": attempts, "grader": [grader]})
    return sdir


def small_folder(root: Path) -> Path:
    """Two sessions, four runs, three failures: a folder most tests can share."""
    write_session(
        root,
        "s1",
        [
            RunSpec("r1", model="model-a"),
            RunSpec("r2", model="model-b", outcome="pass", checks=[{"key": "TestToRoman", "status": "pass"}]),
        ],
    )
    write_session(
        root,
        "s2",
        [
            RunSpec("r3", task="connected", model="model-a", checks=[
                {"key": "test_connected", "status": "fail", "message": "expected connected=yes, got connected=true"},
                {"key": "test_trail", "status": "error", "message": "KeyError: 'path'"},
            ]),
            RunSpec("r4", task="connected", model="model-b", outcome="pass", checks=[{"key": "test_connected", "status": "pass"}]),
        ],
    )
    return root
