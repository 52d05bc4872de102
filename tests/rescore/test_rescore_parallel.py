"""``reviewer rescore -j N`` on this machine: the same results at any N, in the same records, and
Ctrl-C kills the running sandboxes, keeps what finished, and exits 130."""

from __future__ import annotations

import json
import signal
import tomllib
from pathlib import Path

from parallelkit import quick_and_slow, reviewer, start_reviewer, until
from rescorekit import corpus_copy, processes_with, sandbox_tool


def outcome(stdout: str) -> list[tuple[str, bool, str, str]]:
    rows = [json.loads(line) for line in stdout.splitlines()]
    return sorted((r["failure"], r["flipped"], r["before"], r["after"]) for r in rows)


def test_one_job_and_two_give_the_same_results_in_the_same_record(tmp_path: Path) -> None:
    sandbox_tool()
    one, two = corpus_copy(tmp_path / "one"), corpus_copy(tmp_path / "two")
    runs = [reviewer("rescore", str(folder), "--all-proposed", "--json", "--reviewer", "bo", "-j", jobs)
            for folder, jobs in ((one, "1"), (two, "2"))]
    assert [r.returncode for r in runs] == [0, 0], runs[1].stderr
    assert outcome(runs[0].stdout) == outcome(runs[1].stdout) and len(outcome(runs[0].stdout)) >= 5
    for folder in (one, two):
        records = sorted(p.relative_to(folder).as_posix() for p in folder.glob("*/rescores/*.toml"))
        assert records == ["oracle-2026-10/rescores/bo.toml"]
    tables = [tomllib.loads((f / "oracle-2026-10/rescores/bo.toml").read_text())["rescore"] for f in (one, two)]
    assert [sorted(t["grading"] for t in table) for table in tables][0] == sorted(t["grading"] for t in tables[1])


def test_jobs_must_be_at_least_one(tmp_path: Path) -> None:
    done = reviewer("rescore", str(tmp_path), "--all-proposed", "-j", "0")
    assert done.returncode == 2 and "at least 1" in done.stderr


def test_ctrl_c_kills_the_sandboxes_and_keeps_what_finished(tmp_path: Path) -> None:
    sandbox_tool()
    root, (quick, slow), marker = quick_and_slow(tmp_path / "sessions")
    proc = start_reviewer("rescore", str(root), "--failure", quick, "--failure", slow, "--repair",
                          "lift-limit:recursion", "--json", "--reviewer", "bo", "-j", "2")
    try:
        assert proc.stdout is not None
        first = json.loads(proc.stdout.readline())
        assert first["failure"] == quick and first["after"] == "fail"
        until(lambda: bool(processes_with(marker)), "the slow grader running in its sandbox")
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert rest == ""
    until(lambda: not processes_with(marker), "the slow grader's sandbox gone", limit=10)
    table = tomllib.loads((root / "s1" / "rescores" / "bo.toml").read_text())["rescore"]
    assert [t["failures"] for t in table] == [[quick]]
