"""Benchmark (not a test): git features on a repository with 5,000 commits vs a fresh one.

Builds, with ``git fast-import``, three repositories holding the same sessions folder (one session
of ``--failures`` failures, labelled by three reviewers):

- ``fresh``: one commit with the final state;
- ``churn``: ``--commits`` commits, every one of them a reviewer changing one label (the worst
  case: the label files themselves have thousands of versions);
- ``unrelated``: the same final state, then ``--commits`` commits touching files outside the
  sessions folder (a sessions folder inside a busy code repository).

Then times what opening the app and showing a failure's label history cost: ``repo_info`` +
``provenance`` (app start) and ``label_history`` (one failure), median of ``--repeat`` runs.

    .venv/bin/python tests/bench/git_history.py [--commits 5000] [--failures 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path[:0] = [str(HERE.parents[2]), str(HERE.parents[1])]

from sessionkit import RunSpec, write_session  # noqa: E402

from reviewer.model.label import Label, Verdict  # noqa: E402
from reviewer.store.git import clear_history_cache, label_history, provenance, repo_info  # noqa: E402
from reviewer.store.labels import run_file_bytes  # noqa: E402

REVIEWERS = ("alice", "bob", "carol")
TARGET = ("run000", "heldout:T00")


def sessions_files(failures: int, tmp: Path) -> dict[str, bytes]:
    """The sessions folder's files (without labels): runs of 10 failing checks each."""
    root = tmp / "src-sessions"
    runs = [
        RunSpec(f"run{r:03d}", checks=[{"key": f"T{i:02d}", "status": "fail", "message": f"check {i}"} for i in range(10)])
        for r in range(max(1, failures // 10))
    ]
    write_session(root, "m", runs)
    return {f"sessions/{p.relative_to(root).as_posix()}": p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


class LabelFiles:
    """Label files of the three reviewers, one per run, rendered by the labels writer."""

    def __init__(self, failures: int) -> None:
        self.keys = [(f"run{r:03d}", f"heldout:T{i:02d}") for r in range(max(1, failures // 10)) for i in range(10)]
        self.labels: dict[str, dict[tuple[str, str], Label]] = {r: {} for r in REVIEWERS}

    def set(self, reviewer: str, key: tuple[str, str], verdict: Verdict, when: str) -> None:
        """Set one label."""
        self.labels[reviewer][key] = Label("m", key[0], key[1], verdict, reviewer, when, "sha256:" + "0" * 32, (), "")

    def render(self, reviewer: str, run: str) -> tuple[str, bytes]:
        """The path and bytes of a reviewer's file of one run."""
        labels = [lab for (r, _), lab in self.labels[reviewer].items() if r == run]
        return f"sessions/m/labels/{reviewer}/{run}.toml", run_file_bytes("m", reviewer, run, labels, ())

    def every(self) -> dict[str, bytes]:
        """Every reviewer's files."""
        return dict(self.render(r, run) for r in REVIEWERS for run in sorted({k[0] for k in self.labels[r]}))


def fast_import(repo: Path, commits: list[tuple[str, dict[str, bytes]]]) -> None:
    """Create ``repo`` with these commits (message, changed files) on ``main``, checked out."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    out = bytearray()
    for n, (message, files) in enumerate(commits, start=1):
        who = REVIEWERS[n % 3]
        msg = message.encode()
        out += f"commit refs/heads/main\nmark :{n}\n".encode()
        out += f"author {who} <{who}@example.invalid> {1_700_000_000 + n * 60} +0000\n".encode()
        out += f"committer {who} <{who}@example.invalid> {1_700_000_000 + n * 60} +0000\n".encode()
        out += b"data %d\n%s\n" % (len(msg), msg)
        if n > 1:
            out += f"from :{n - 1}\n".encode()
        for path, data in files.items():
            out += f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n"
    subprocess.run(["git", "-C", str(repo), "fast-import", "--quiet"], input=bytes(out), check=True)
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", "-f", "main"], check=True)


def build(tmp: Path, commits: int, failures: int) -> dict[str, Path]:
    """The three repositories; returns their sessions folders."""
    base = sessions_files(failures, tmp)
    labels = LabelFiles(failures)
    history: list[tuple[str, dict[str, bytes]]] = [("sessions", dict(base))]
    keys = labels.keys
    for n in range(1, commits):
        reviewer = REVIEWERS[n % 3]
        key = TARGET if n % 250 < 3 else keys[(n * 7) % len(keys)]
        verdict = Verdict.SPECIFICATION if (n // 3) % 2 else Verdict.CAPABILITY
        labels.set(reviewer, key, verdict, f"2026-01-{1 + n // 1440:02d}T{n // 60 % 24:02d}:{n % 60:02d}:00Z")
        history.append((f"labels by {reviewer}", dict([labels.render(reviewer, key[0])])))
    final = dict(base)
    final.update(labels.every())
    repos = {"fresh": tmp / "fresh", "churn": tmp / "churn", "unrelated": tmp / "unrelated"}
    fast_import(repos["fresh"], [("sessions", final)])
    fast_import(repos["churn"], history)
    fast_import(repos["unrelated"], [("sessions", final)] + [
        ("code", {"src/module.txt": f"version {n}\n".encode()}) for n in range(1, commits)
    ])
    return {name: path / "sessions" for name, path in repos.items()}


def timed(fn, repeat: int) -> float:  # noqa: ANN001 - a zero-argument callable
    """Median wall time of ``fn()`` in milliseconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def measure(root: Path, repeat: int) -> dict[str, float]:
    """Open (repo_info + provenance), history of one failure cold (first call, one git log) and
    warm (another failure of the same session: the log output is cached), in ms."""
    def cold() -> None:
        clear_history_cache()
        label_history(root, "m", *TARGET)

    clear_history_cache()
    history = label_history(root, "m", *TARGET)
    return {
        "commits": int(subprocess.run(["git", "-C", str(root), "rev-list", "--count", "HEAD"], capture_output=True,
                                      text=True, check=True).stdout),
        "history_entries": len(history),
        "open_ms": round(timed(lambda: (repo_info(root), provenance(root)), repeat), 1),
        "history_ms": round(timed(cold, repeat), 1),
        "history_warm_ms": round(timed(lambda: label_history(root, "m", "run001", "heldout:T03"), repeat), 1),
    }


def main() -> int:
    """Build, measure, print."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--commits", type=int, default=5000)
    ap.add_argument("--failures", type=int, default=200, help="failures in the session (labels per reviewer)")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--json", action="store_true", help="print one JSON line")
    ap.add_argument("--keep", action="store_true", help="keep the repositories (path printed)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="reviewer-bench-"))
    try:
        t = time.perf_counter()
        roots = build(tmp, args.commits, args.failures)
        built = time.perf_counter() - t
        results = {name: measure(root, args.repeat) for name, root in roots.items()}
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps({"failures": args.failures, **results}, sort_keys=True))
        return 0
    print(f"built in {built:.1f}s ({'kept in ' + str(tmp) if args.keep else 'removed'}); "
          f"{args.failures} failures x {len(REVIEWERS)} reviewers; median of {args.repeat}")
    print(f"{'repository':<11} {'commits':>7} {'open ms':>8} {'history ms':>10} {'warm ms':>8} {'entries':>7}")
    for name, r in results.items():
        print(f"{name:<11} {r['commits']:>7} {r['open_ms']:>8.1f} {r['history_ms']:>10.1f} "
              f"{r['history_warm_ms']:>8.1f} {r['history_entries']:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
