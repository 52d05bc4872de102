"""Re-scores per minute at scale: ``python tests/bench/rescore_scale.py [--json] [--failures 200]
[--jobs 1,2] [--cluster 1x2] [--no-cluster]``.

The folder: the bundled corpus's sessions whose failures ``reviewer rescore --all-proposed`` would
re-score (the command's own plan: failures with a proposed repair that their ``[grader.rerun]``
can run) are copied under new session names (``<session>-copy-001``, ...) into a temporary
folder until it holds ``--failures`` such failures (the checkout's ``sessions/`` is read, never
written). Each setting then re-scores its own fresh copy of that folder with the real command, as
a user runs it, timed whole (process start, folder scan, planning, the sandboxed runs, saving):

- ``-j N`` for each N of ``--jobs``: ``reviewer rescore COPY --all-proposed --json -j N``;
- ``cluster WxT``: the same with ``--cluster ADDRESS``, on a Dask ``LocalCluster`` of W worker
  processes with T threads each, started here first (``cluster_start_s``, not counted in the
  setting's time; the same machine's cores, so it measures the engine's cost, not more hardware).
  Needs the ``cluster`` extra; ``--no-cluster`` leaves it out.

Per setting: ``seconds`` (the command, whole), ``rescores`` (results printed), ``per_minute``
(results per minute), ``gradings`` (distinct gradings among them: failures of one grading share its
two sandboxed runs), ``errors`` (gradings that failed), ``saved`` (failures found in the copy's
``rescores/*.toml`` afterwards), ``first_result_s`` (until the first result was printed: start-up
and planning, which run before any sandbox, plus one grading) and ``exit`` (the command's status).
``--json`` prints one object on one line; the default prints a table.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(REPO)]

SESSIONS = REPO / "sessions"
REVIEWER = "bench"


def runnable_sessions(corpus: Path) -> dict[str, int]:
    """The sessions of ``corpus`` with failures ``--all-proposed`` re-scores, and how many each has."""
    from reviewer.commands.rescore import plan
    from reviewer.store.sessions.store import SessionStore

    store = SessionStore(corpus)
    store.scan()
    planned = plan(store, argparse.Namespace(all_proposed=True, failure=[]), ())
    found: dict[str, int] = {}
    for job in planned.jobs:
        session = job.run.key.split("/", 1)[0]
        found[session] = found.get(session, 0) + len(job.failures)
    return found


def build_folder(dest: Path, failures: int) -> dict[str, Any]:
    """A sessions folder of at least ``failures`` re-scorable failures, copies of the corpus's."""
    probe = dest.parent / "probe"
    shutil.copytree(SESSIONS, probe, symlinks=True)
    found = runnable_sessions(probe)
    if not found:
        raise SystemExit("the corpus has no failure that --all-proposed re-scores")
    per_copy = sum(found.values())
    copies = math.ceil(failures / per_copy)
    dest.mkdir()
    for i in range(1, copies + 1):
        for session in sorted(found):
            shutil.copytree(probe / session, dest / f"{session}-copy-{i:03d}", symlinks=True)
    shutil.rmtree(probe)
    return {"source_sessions": found, "copies": copies, "failures": copies * per_copy}


def saved_failures(folder: Path) -> int:
    """Failures the records of ``folder`` hold (every reviewer, every session)."""
    total = 0
    for path in folder.glob("*/rescores/*.toml"):
        doc = tomllib.loads(path.read_text())
        total += sum(len(t.get("failures", [])) for t in doc.get("rescore", []))
    return total


def run_setting(name: str, folder: Path, extra: list[str]) -> dict[str, Any]:
    """The real command over ``folder``, timed whole; its figures."""
    cmd = [sys.executable, "-m", "reviewer.cli", "rescore", str(folder), "--all-proposed", "--json",
           "--reviewer", REVIEWER, *extra]
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=folder.parent)
    assert proc.stdout is not None and proc.stderr is not None
    first = None
    rows = []
    for line in proc.stdout:
        if first is None:
            first = time.perf_counter() - started
        rows.append(json.loads(line))
    err = proc.stderr.read()
    status = proc.wait()
    seconds = time.perf_counter() - started
    results = [r for r in rows if "error" not in r]
    errors = {r["failure"].partition(":")[0] for r in rows if "error" in r}
    gradings = {r["failure"].partition(":")[0] for r in results}
    return {"setting": name, "exit": status, "seconds": round(seconds, 2), "rescores": len(results),
            "per_minute": round(60 * len(results) / seconds, 1), "gradings": len(gradings), "errors": len(errors),
            "saved": saved_failures(folder), "first_result_s": round(first or seconds, 2),
            "stderr_tail": err.strip().splitlines()[-1:] if status else []}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--failures", type=int, default=200)
    parser.add_argument("--jobs", default="1,2", help="the -j values, comma-separated")
    parser.add_argument("--cluster", default="1x2", help="the local cluster: WORKERSxTHREADS (comma-separated for several)")
    parser.add_argument("--no-cluster", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="reviewer-rescore-bench-"))
    try:
        base = work / "sessions"
        out: dict[str, Any] = {**build_folder(base, args.failures), "cores": len(os.sched_getaffinity(0)), "settings": []}
        for n, jobs in enumerate(j for j in args.jobs.split(",") if j):
            folder = work / f"j{n}" / "sessions"
            shutil.copytree(base, folder, symlinks=True)
            out["settings"].append(run_setting(f"-j {jobs}", folder, ["-j", jobs]))
            shutil.rmtree(folder.parent)
        if not args.no_cluster:
            from distributed import LocalCluster

            for n, shape in enumerate(s for s in args.cluster.split(",") if s):
                workers, threads = (int(x) for x in shape.split("x"))
                started = time.perf_counter()
                cluster = LocalCluster(n_workers=workers, threads_per_worker=threads, processes=True,
                                       dashboard_address=":0")
                start_s = time.perf_counter() - started
                folder = work / f"c{n}" / "sessions"
                shutil.copytree(base, folder, symlinks=True)
                try:
                    figures = run_setting(f"cluster {workers}x{threads}", folder, ["--cluster", cluster.scheduler_address])
                finally:
                    cluster.close()
                out["settings"].append({**figures, "cluster_start_s": round(start_s, 2)})
                shutil.rmtree(folder.parent)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['failures']} failures ({out['copies']} copies of {', '.join(sorted(out['source_sessions']))}), "
              f"{out['cores']} cores")
        print(f"{'setting':<14}{'seconds':>9}{'rescores':>10}{'per min':>9}{'gradings':>10}{'errors':>8}{'saved':>7}"
              f"{'first s':>9}")
        for s in out["settings"]:
            print(f"{s['setting']:<14}{s['seconds']:>9}{s['rescores']:>10}{s['per_minute']:>9}{s['gradings']:>10}"
                  f"{s['errors']:>8}{s['saved']:>7}{s['first_result_s']:>9}")
    return 0 if all(s["exit"] == 0 for s in out["settings"]) else 1


if __name__ == "__main__":
    sys.exit(main())
