"""Small sessions folders with labels, written with the real store, for the analysis tests."""

from __future__ import annotations

import tomllib
from pathlib import Path

import tomli_w
from sessionkit import RunSpec, write_session

from reviewer.model.label import Verdict
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.sessions.store import SessionStore

CLOCK = "2026-11-29T12:00:00Z"


def fail(key: str, message: str = "boom") -> dict[str, str]:
    """A recorded failing check."""
    return {"key": key, "status": "fail", "message": message}


def labeller(root: Path, who: str) -> Labeller:
    """A labeller for one reviewer over a freshly scanned folder."""
    store = SessionStore(root)
    store.scan()
    return Labeller(store, LabelStore(root, who), clock=lambda: CLOCK)


def label(root: Path, who: str, decisions: dict[str, Verdict]) -> None:
    """Save one reviewer's decisions through the same code path as the app."""
    lab = labeller(root, who)
    for failure_id, verdict in decisions.items():
        lab.decide(failure_id, verdict)


def stats_folder(root: Path) -> Path:
    """Two tasks, five runs, six failures (see test_stats for the hand count)."""
    write_session(root, "s1", [
        RunSpec("r1", task="connected", model="model-a", checks=[fail("c1"), fail("c2")]),
        RunSpec("r2", task="connected", model="model-b", checks=[fail("c1")]),
        RunSpec("r3", task="connected", model="model-c", checks=[fail("c1"), fail("c2")]),
    ])
    write_session(root, "s2", [
        RunSpec("r4", task="roman", model="model-a", checks=[fail("TestToRoman")]),
        RunSpec("r5", task="roman", model="model-b", outcome="pass", checks=[{"key": "TestToRoman", "status": "pass"}]),
    ])
    return root


def add_grader_source(run_dir: Path, ref: str) -> None:
    """Record a grader source file (relative to the run folder) in a run's manifest."""
    path = run_dir / "run.toml"
    doc = tomllib.loads(path.read_text())
    doc["grader"][0]["source"] = [ref]
    path.write_bytes(tomli_w.dumps(doc).encode())
