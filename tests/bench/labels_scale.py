"""What one decision costs as the reviewer's own labels grow: ``python tests/bench/labels_scale.py [--json]``.

For each size (2,000, 20,000 and 200,000 labels by default, ``--sizes``) a synthetic folder of 200
runs gets labels of reviewer ``alice``, that many (the folder's failures are left unlabelled; the
rest label runs no longer in the folder, 20 a run, as a long-lived reviewer's do), written
exactly as the app writes them: one file per run (``--layout new``, the default), or one
format-1 file for the session as earlier versions wrote it (``--layout old``: the first decision
then moves it into run files, ``move_s``). Then, each in the same process:

- ``load_s``: opening: a store reading every file of alice in the session (what the app does
  before its first screen, to report problems), parsed; ``load_warm_s``: the same through the
  index cache the app keeps (its second opening: unchanged files are not parsed again);
- ``store_ms``: ``Labeller.decide`` on a loaded store, per decision (median and worst of
  ``--decisions``), the path the app and the commands share;
- ``cli_s``: one ``reviewer label`` command, as a user runs it (process start and folder scan
  included);
- ``app_ms``: the real app (Textual ``run_test``) with ``s`` pressed on one failure after the
  other, timed from the key until the decision is on disk: a file of ``alice`` in the labels
  folder changed (its size or mtime). Only keys and files are used, never the app's internals;
  the first press waits for the app to be ready and is not counted. ``app_idle_ms``: until the
  app is idle again after the key (the screen repainted on the next failure). Decisions are
  one second apart, as a fast reviewer's are.

With ``--other-mb M`` another reviewer's labels file of about M MB is put beside it (``bob``,
arriving by ``git pull``): the app must keep the same per-decision time and ``rss_mb`` (peak
resident memory of the process) must stay far below the file's parsed size. At the end every
decision the app made is checked to be on disk through a fresh store (``on_disk``: the new labels,
at least ``expected_on_disk``).
Each size runs in its own process: ``rss_mb`` is that process's peak resident memory. ``--json``
prints one object.
Target: ``app_ms`` p95 under 50 ms at 200,000 labels.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE), str(REPO)]

from synth import generate, label_file, write_run_files  # noqa: E402

SESSION = "sweep-000"
TARGET_MS = 50.0
GAP = 1.0
"""Seconds between decisions in the app: a fast reviewer (the other reviewers' labels are read
again 0.3 s after each decision, so that work lands between decisions as it does in use)."""


def make_folder(root: Path, size: int, other_mb: int, layout: str = "new") -> None:
    """200 runs, ``size`` labels of alice (none on the folder's failures) in the layout asked for,
    maybe bob's big file (format 1, as a ``git pull`` may bring it)."""
    generate(root, 200, seed=3, labelled_share=0.0)
    rows = [(f"gone-{i // 20:06d}--model-00", f"heldout:TestCase{i % 20:02d}", "capability" if i % 3 else "specification",
             "sha256:" + f"{i:064x}") for i in range(size)]
    folder = root / SESSION / "labels"
    folder.mkdir(exist_ok=True)
    if layout == "old":
        (folder / "alice.toml").write_bytes(label_file(SESSION, "alice", rows))
    else:
        write_run_files(folder / "alice", SESSION, "alice", rows)
    if other_mb:
        per = len(label_file(SESSION, "bob", rows[:1000])) / 1000
        count = int(other_mb * 1e6 / per)
        with open(folder / "bob.toml", "wb") as out:
            out.write(label_file(SESSION, "bob", []))
            block = label_file(SESSION, "bob", [(f"b-{i:07d}", "heldout:TestCase00", "capability", "") for i in range(10_000)])
            body = block.split(b"\n", 3)[3]
            for start in range(0, count, 10_000):
                out.write(body.replace(b'run = "b-', f'run = "b{start:08d}-'.encode()))


def alice_state(root: Path) -> tuple[tuple[str, int, int], ...]:
    """(name, size, mtime) of every file of alice in the labels folder: what changes when a decision lands."""
    folder = root / SESSION / "labels"
    out = []
    for e in sorted(os.scandir(folder), key=lambda e: e.name):
        if "alice" in e.name:
            st = e.stat(follow_symlinks=False)
            out.append((e.name, st.st_size, st.st_mtime_ns))
    return tuple(out)


def store_decisions(root: Path, count: int) -> tuple[list[float], float, list[str], float | None]:
    """(seconds per decision, seconds to load alice's files, failure ids decided, seconds of the first
    decision when it moved a format-1 file) through the store."""
    from reviewer.model.label import Verdict
    from reviewer.store.labels import Labeller, LabelStore
    from reviewer.store.sessions.store import SessionStore

    store = SessionStore(root, use_index=False)
    store.scan()
    labeller = Labeller(store, LabelStore(root, "alice"))
    started = time.perf_counter()
    labeller.labels.load([SESSION])
    loaded = time.perf_counter() - started
    ids = [f.id for run in store.runs if run.session == SESSION for f in store.failures(run)][:count + 1]
    move = None
    if (root / SESSION / "labels" / "alice.toml").exists():  # the first decision moves it, once
        t0 = time.perf_counter()
        labeller.decide(ids[-1], Verdict.DEFERRED)
        move = time.perf_counter() - t0
    took = []
    for n, fid in enumerate(ids[:count]):
        t0 = time.perf_counter()
        labeller.decide(fid, Verdict.SPECIFICATION if n % 2 else Verdict.CAPABILITY)
        took.append(time.perf_counter() - t0)
    return took, loaded, ids[:count], move


def cli_seconds(root: Path, failure_id: str) -> float:
    """One ``reviewer label`` command, start to exit."""
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "reviewer.cli", "label", str(root), "--failure", failure_id,
                           "--verdict", "deferred", "--reviewer", "alice"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=REPO, timeout=600, check=False)
    took = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"reviewer label failed: {done.stderr[-500:]}")
    return took


WATCHER = """
import os, sys, time
folder = sys.argv[1]
def state():
    out = []
    for e in sorted(os.scandir(folder), key=lambda e: e.name):
        if "alice" in e.name:
            st = e.stat(follow_symlinks=False)
            out.append((e.name, st.st_size, st.st_mtime_ns))
    return out
for line in sys.stdin:
    before = state()
    print("armed", flush=True)
    while state() == before:
        time.sleep(0.0002)
    print(time.time_ns(), flush=True)
"""
"""A separate process that watches alice's files: the moment a decision is on disk is seen there,
whatever the app's event loop is busy with meanwhile (repainting the next failure)."""


async def app_decisions(root: Path, count: int) -> tuple[list[float], list[float]]:
    """Seconds from ``s`` to the decision on disk, and to the app idle again (screen repainted, the
    next failure shown), ``count`` times (after one uncounted press)."""
    from reviewer.store.sessions.store import SessionStore
    from reviewer.ui.launch import build_app

    app = build_app(SessionStore(root), reviewer="alice")
    took: list[float] = []
    idle: list[float] = []
    async with app.run_test(size=(200, 50)) as pilot:
        before, deadline = alice_state(root), time.perf_counter() + 600
        while alice_state(root) == before:  # ready: a press lands on disk (presses before the first screen are lost)
            if time.perf_counter() > deadline:
                raise TimeoutError("the app never saved a decision")
            await pilot.press("s")
            await asyncio.sleep(0.5)
        await asyncio.sleep(1.0)
        watcher = await asyncio.create_subprocess_exec(
            sys.executable, "-c", WATCHER, str(root / SESSION / "labels"),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert watcher.stdin is not None and watcher.stdout is not None
        try:
            for _ in range(count):
                watcher.stdin.write(b"watch\n")
                await watcher.stdin.drain()
                assert (await watcher.stdout.readline()).strip() == b"armed"
                t0, p0 = time.time_ns(), time.perf_counter()
                await pilot.press("s")
                idle.append(time.perf_counter() - p0)
                seen = await asyncio.wait_for(watcher.stdout.readline(), 60)
                took.append((int(seen) - t0) / 1e9)
                await asyncio.sleep(GAP)  # a reviewer reads the next failure before deciding
        finally:
            watcher.kill()
            await watcher.wait()
    return took, idle


def warm_load(root: Path) -> float:
    """Seconds to read alice's files through the folder's index cache, as the app's next opening does
    (one opening first fills the cache; files written in the last two seconds are never cached)."""
    from reviewer.store.labels import LabelStore, clear_cache
    from reviewer.store.sessions.store import SessionStore

    time.sleep(2.5)
    first = SessionStore(root)
    first.scan()
    store = LabelStore(root, "alice")
    store.index = first.index
    store.load([SESSION])
    first.save_index()
    clear_cache()
    again = SessionStore(root)
    again.scan()
    store = LabelStore(root, "alice")
    store.index = again.index
    started = time.perf_counter()
    store.load([SESSION])
    return time.perf_counter() - started


def on_disk(root: Path) -> int:
    """How many of the folder's failures carry a label of alice on disk, read by the store (a fresh one)."""
    from reviewer.store.labels import LabelStore, clear_cache

    clear_cache()
    store = LabelStore(root, "alice")
    store.load([SESSION])
    return sum(1 for lab in store.mine_all() if not lab.run.startswith("gone-"))


def labels_mb(root: Path) -> float:
    """Megabytes of alice's labels files in the session (either layout)."""
    folder = root / SESSION / "labels"
    files = [p for p in folder.rglob("*") if p.is_file() and (p.name.startswith("alice.") or p.parent.name == "alice")]
    return sum(p.stat().st_size for p in files) / 1e6


def ms(values: list[float]) -> dict[str, float]:
    """Median, 95th percentile and worst, in milliseconds."""
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    return {"p50": round(statistics.median(values) * 1000, 2), "p95": round(p95 * 1000, 2), "max": round(values[-1] * 1000, 2)}


def measure(size: int, decisions: int, root: Path, app: bool) -> dict[str, Any]:
    """Every figure for one size, on the folder made for it."""
    file_mb = labels_mb(root)
    took, loaded, ids, move = store_decisions(root, decisions)
    out: dict[str, Any] = {"labels": size, "file_mb": round(file_mb, 1), "load_s": round(loaded, 3),
                           "store_ms": ms(took), "cli_s": round(cli_seconds(root, ids[0]), 2)}
    if move is not None:
        out["move_s"] = round(move, 2)
    out["load_warm_s"] = round(warm_load(root), 3)
    if app:
        before = on_disk(root)
        took, idle = asyncio.run(app_decisions(root, decisions))
        out["app_ms"], out["app_idle_ms"] = ms(took), ms(idle)
        out["app_each_ms"] = [round(t * 1000, 1) for t in took]
        # each timed press labels the next unlabelled failure: that many new labels at least (the
        # uncounted first press may have re-labelled the failure the app opened on)
        out["on_disk"] = on_disk(root) - before
        out["expected_on_disk"] = decisions
    out["rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, measure each size, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="2000,20000,200000", help="labels of alice, comma separated")
    parser.add_argument("--layout", choices=["new", "old"], default="new",
                        help="alice's labels in one file per run (new) or in a format-1 file moved by the first decision (old)")
    parser.add_argument("--decisions", type=int, default=20, help="decisions timed per size (default 20)")
    parser.add_argument("--no-app", action="store_true", help="the store and the command only")
    parser.add_argument("--other-mb", type=int, default=0, help="another reviewer's file of this many MB beside it")
    parser.add_argument("--json", action="store_true", help="one JSON object on one line")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one is not None:  # one size in this process, on a folder made before (its peak memory is its own)
        print(json.dumps(measure(args.one, args.decisions, args.root, not args.no_app)))
        return 0
    results = []
    work = Path(tempfile.mkdtemp(prefix="reviewer-labels-bench-"))
    env = {**os.environ, **{k: str(work / k.lower()) for k in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")},
           "GIT_CONFIG_GLOBAL": os.devnull}
    try:
        for size in [int(s) for s in args.sizes.split(",") if s.strip()]:
            root = work / f"labels-{size}"
            make_folder(root, size, args.other_mb, args.layout)
            cmd = [sys.executable, __file__, "--one", str(size), "--root", str(root), "--decisions", str(args.decisions),
                   *(["--no-app"] if args.no_app else [])]
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=3600, check=False, env=env)
            if done.returncode != 0:
                raise RuntimeError(f"size {size} failed: {done.stderr[-2000:]}")
            results.append(json.loads(done.stdout.strip().splitlines()[-1]))
            shutil.rmtree(root, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    figures = {"decisions": args.decisions, "other_mb": args.other_mb, "layout": args.layout,
               "target_app_p95_ms": TARGET_MS, "sizes": results}
    if args.json:
        print(json.dumps(figures))
        return 0
    for r in results:
        app = r.get("app_ms", {})
        moved = f"; first decision moved the old file in {r['move_s']:.2f} s" if "move_s" in r else ""
        print(f"{r['labels']:>8} labels ({r['file_mb']:6.1f} MB): load {r['load_s']:6.2f} s (warm "
              f"{r['load_warm_s']:.2f} s){moved}; store p50 {r['store_ms']['p50']:8.2f} "
              f"max {r['store_ms']['max']:8.2f} ms; reviewer label {r['cli_s']:5.2f} s; app p50 {app.get('p50', '-')} "
              f"p95 {app.get('p95', '-')} max {app.get('max', '-')} ms (idle again p50 "
              f"{r.get('app_idle_ms', {}).get('p50', '-')} ms); new labels on disk {r.get('on_disk', '-')} (at least {r.get('expected_on_disk', '-')}); rss {r['rss_mb']} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
