"""A warm open reads the details of the runs it shows, not of every run in the folder."""

from __future__ import annotations

from pathlib import Path

import tomli_w
from uihelp import make_app, settle, sync

from reviewer.model.run import LazyRun

GO_OUTPUT = "=== RUN   TestA\n    a_test.go:3: got 1, want 2\n--- FAIL: TestA (0.00s)\n=== RUN   TestB\n--- PASS: TestB (0.00s)\nFAIL\n"


def folder(root: Path, runs: int) -> Path:
    """Runs whose checks come from their `go test -v` output (so counting parses or uses the index)."""
    (root / "s1").mkdir(parents=True)
    (root / "s1" / "session.toml").write_bytes(tomli_w.dumps({"format": 1, "session": {"harness": "t"}}).encode())
    for n in range(runs):
        rdir = root / "s1" / "runs" / f"r{n:03d}"
        (rdir / "attempts" / "1").mkdir(parents=True)
        (rdir / "grader").mkdir()
        (rdir / "brief.md").write_text("# Brief\n")
        (rdir / "attempts" / "1" / "a.go").write_text("package a\n")
        (rdir / "grader" / "out.txt").write_text(GO_OUTPUT)
        doc = {"format": 1, "run": {"task": f"t{n % 3}", "model": "m", "outcome": "fail", "brief": "brief.md"},
               "attempt": [{"files": ["a.go"]}],
               "grader": [{"name": "g", "exit_status": 1, "output": "grader/out.txt", "format": "go-test-v"}]}
        (rdir / "run.toml").write_bytes(tomli_w.dumps(doc).encode())
    return root


@sync
async def test_a_warm_open_and_its_count_leave_unseen_runs_unread(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from reviewer.store.fs import keys as fs_keys

    monkeypatch.setattr(fs_keys, "RACY_NS", 0)  # files written by the test are seconds old
    root = folder(tmp_path / "sessions", 40)
    cold = make_app(root, reviewer="ana")
    async with cold.run_test(size=(200, 50)) as pilot:
        await settle(cold, pilot)
        assert cold.session.folder.counting_done
    assert cold.session.store.index is not None and not cold.session.store.index.dirty, "the index was saved after the count"
    warm = make_app(root, reviewer="ana")
    async with warm.run_test(size=(200, 50)) as pilot:
        await settle(warm, pilot)
        assert warm.session.folder.counting_done and sum(len(ids) for ids in warm.session.folder.failure_ids.values()) == 40
        runs = warm.session.store.runs
        assert all(type(r) is LazyRun for r in runs)
        filled = [r.key for r in runs if r.filled]  # type: ignore[attr-defined]
        # the run on screen, and the next one read ahead: no others (40 runs were counted)
        assert warm.session.selection.run_key in filled and len(filled) <= 2, filled
