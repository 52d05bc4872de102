"""The benchmark that keeps us honest: ``python tests/bench/bench.py --runs N [--json] [--folder PATH]``.

Generates a synthetic sessions folder of N runs (``synth.py``; or measures ``--folder``) and, in
one process, measures:

- ``floor_s``: every run manifest read and parsed with the standard library alone;
- ``open_s``: constructing the app (fresh store, no index cache) until the whole run list is
  filled, the first failure is selected and all four panes show it, at 200x50; ``open_ratio`` =
  ``open_s / floor_s``. (The first failure is shown sooner, among the folder's first runs, while
  the rest is read: ``first_screen_s``, in the table only);
- ``warm_open_s``: the same again with the index cache the first open wrote, once the first app
  is collected (``first_gone_s`` after it closed);
- ``key_p50_ms`` / ``key_p95_ms``: the next-failure key until all four panes show the new
  failure and Textual has composed the frame that shows it (what it writes to a terminal), over
  200 presses 1/30 s apart (a held key's repeat rate; after the background count has finished);
- ``rss_mb``: peak resident memory after the app measurements (before the export step);
- ``bigfile_ms``: navigating to a 20,000-line code file until it is shown; ``longline_ms``:
  to a 10 MB single-line grader output until it is shown (the longest event-loop stall
  meanwhile is printed too);
- ``export_s``: ``reviewer export`` (the real command, in process) of a separate synthetic
  set of 100,000 labels, with the index cache primed by an export before (that first, cold
  export is printed as well).

Readiness is a predicate on the app's state, polled every millisecond. ``--json`` prints one
object on one line with exactly those keys plus ``runs``; the default prints a table.
Everything is written to a temporary folder (``XDG_*`` point there too) and removed afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import io
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
import weakref
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from synth import add_big_runs, generate  # noqa: E402

KEYS = ("runs", "floor_s", "open_s", "open_ratio", "warm_open_s", "key_p50_ms", "key_p95_ms", "rss_mb",
        "bigfile_ms", "longline_ms", "export_s")
TARGETS = {"open_ratio": 2, "open_s": 2, "warm_open_s": 0.5, "key_p95_ms": 50, "rss_mb": 250,
           "bigfile_ms": 300, "longline_ms": 300, "export_s": 2}
AT_10K = {"open_ratio", "open_s", "warm_open_s", "key_p95_ms"}
"""Targets set for 10,000 runs (not judged for bigger folders)."""
PRESSES = 200
PRESS_GAP = 1 / 30
"""Seconds from one failure on screen to the next press: a held key's repeat rate (30 a second).
Presses closer together than a paint measure the queue behind the screen, not the key."""
EXPORT_LABELS = 100_000
RACY_WAIT = 2.2
"""Seconds a freshly written file waits before the index cache records it (RACY_NS, and a margin)."""


def floor_seconds(root: Path) -> float:
    """Read and parse every ``<session>/runs/<run>/run.toml`` with os and tomllib only."""
    start = time.perf_counter()
    for session in os.scandir(root):
        if session.name.startswith(".") or not session.is_dir():
            continue
        try:
            runs = list(os.scandir(os.path.join(session.path, "runs")))
        except OSError:
            continue
        for run in runs:
            try:
                with open(os.path.join(run.path, "run.toml"), "rb") as f:
                    tomllib.load(f)
            except (OSError, tomllib.TOMLDecodeError, ValueError, RecursionError):
                pass
    return time.perf_counter() - start


def shown(app: Any) -> Any:
    """The view on screen when it is the one for the current selection, else None.

    The review screen applies a view to all four panes in one batch in the same handler that
    makes it the session's shown view, so a shown view means every pane has it.
    """
    session = app.session
    view = session.shown
    sel = session.selection
    if view is None or view.run is None or view.selection.run_key != sel.run_key:
        return None
    if view.selection.failure_id != sel.failure_id or view.selection.attempt != sel.attempt:
        return None
    return view


def code_shown(app: Any) -> bool:
    """The Code pane shows the selected attempt's file (or says there is none)."""
    from reviewer.ui.widgets.code import CodePane

    view = shown(app)
    return view is not None and app.review_screen.query_one(CodePane).shown is not None


def output_shown(app: Any) -> bool:
    """The Grader pane shows the current run's output."""
    from reviewer.ui.widgets.grader import GraderPane

    view = shown(app)
    return view is not None and bool(app.review_screen.query_one(GraderPane).output_plain)


def ready(app: Any) -> bool:
    """The run list has rows, a failure is selected and all four panes show it."""
    sel = app.session.selection
    return bool(sel.failure_id) and bool(app.session.folder.listing.rows) and shown(app) is not None


async def until(predicate: Callable[[], bool], limit: float = 120.0) -> float:
    """Poll every millisecond until ``predicate`` holds; returns when it did (perf_counter)."""
    deadline = time.perf_counter() + limit
    while not predicate():
        if time.perf_counter() > deadline:
            raise TimeoutError("the app did not get there in time")
        await asyncio.sleep(0.001)
    return time.perf_counter()


async def idle(app: Any, group: str = "") -> None:
    """Wait until no worker (of a group) is pending or running."""
    from textual.worker import WorkerState

    busy = (WorkerState.PENDING, WorkerState.RUNNING)
    await until(lambda: not any(w.state in busy and (not group or w.group == group) for w in app.workers), 600)


def make_app(root: Path) -> Any:
    """The app on a fresh store (as ``reviewer PATH`` builds it: the folder's scan begun in a
    thread beside the app, without the launcher's second process), reviewer "bench", with the
    collector tuned as ``reviewer PATH`` tunes it before the app runs (code from before the review
    session did that in the app's constructor)."""
    from reviewer.store.sessions.store import SessionStore
    from reviewer.ui import launch

    try:
        from reviewer.ui.startup.early_scan import EarlyScan as early_scan
    except ImportError:  # code from before the startup package: the launcher's own, or none
        early_scan = getattr(launch, "EarlyScan", None)
    if early_scan is None:  # code from before the launcher began the scan
        app = launch.build_app(SessionStore(root), reviewer="bench")
    else:  # as ``launch`` does: the scan begun in a thread as the app is built
        session, warning = launch.build_session(SessionStore(root), reviewer="bench")
        app = launch.app_for(session, None, None, [warning] if warning else [], early=early_scan(session))
    tune = getattr(launch, "tune_collector", None)
    if tune is not None:
        tune()
    MADE.append(weakref.ref(app))
    return app


MADE: list[weakref.ref[Any]] = []
"""Every app :func:`make_app` made, weakly."""


def apps_gone(timeout: float = 60) -> float:
    """Wait until every app made so far is garbage and collected; the seconds it took.

    As a new process would, the second open must start without the first app. Closing an app
    does not end a worker its daemon threads are running (a live rescan of the folder every two
    seconds takes 0.3 s at 10,000 runs), and that worker keeps the app alive; a collection before
    it ends frees nothing, and then the second open's first scan freezes the old app for good
    (``gc.freeze``, as a process's first scan does): 18 MB more on ``rss_mb`` in about half the
    runs. The launcher's and the scan's freezes of the first app are undone here too."""
    start = time.monotonic()
    while True:
        gc.unfreeze()
        gc.collect()
        if all(ref() is None for ref in MADE):
            return time.monotonic() - start
        if time.monotonic() - start > timeout:
            raise RuntimeError(f"an app was still alive {timeout} s after it closed")
        time.sleep(0.01)


async def painted(app: Any) -> float:
    """When Textual has next composed the screen (the frame it writes to a terminal; the test
    driver does not write it): the time ``call_after_refresh`` calls back, as perf_counter."""
    when: list[float] = []
    app.call_after_refresh(lambda: when.append(time.perf_counter()))
    await until(lambda: bool(when), 10)
    return when[0]


async def press_keys(app: Any, presses: int) -> list[float]:
    """Latency (seconds) of each next-failure press until every pane shows the new failure and
    Textual has composed the frame that shows it (:func:`painted`)."""
    from textual import events

    from reviewer.review.selection import Target

    first = app.session.selection
    latencies: list[float] = []
    while len(latencies) < presses:
        before = app.session.selection
        start = time.perf_counter()
        app.post_message(events.Key("j", "j"))
        try:
            await until(lambda before=before: app.session.selection != before and ready(app), 10)
            done = await painted(app)
        except TimeoutError:  # the last failure of the folder: start again from the first
            app.follow(Target(first.run_key, first.failure_id))
            await until(lambda: ready(app) and app.session.selection.failure_id == first.failure_id, 30)
            continue
        latencies.append(done - start)
        await asyncio.sleep(PRESS_GAP)
    return latencies


async def open_big(app: Any, failure_id: str, shown: Callable[[Any], bool]) -> tuple[float, float]:
    """Go to a failure; seconds until ``shown``, and the longest event-loop stall meanwhile."""
    from reviewer.review.selection import Target

    beats = [time.perf_counter()]
    stall = [0.0]

    def beat() -> None:
        now = time.perf_counter()
        stall[0] = max(stall[0], now - beats[-1])
        beats.append(now)

    timer = app.set_interval(0.005, beat)
    await asyncio.sleep(0.05)
    stall[0] = 0.0
    start = time.perf_counter()
    app.follow(Target(failure_id.partition("#")[0], failure_id))
    done = await until(lambda: app.session.selection.failure_id == failure_id and shown(app), 60)
    await asyncio.sleep(0.3)
    timer.stop()
    return done - start, stall[0]


async def measure_app(root: Path, big: dict[str, str], big_root: Path | None, presses: int) -> dict[str, float]:
    """Cold open, key latency, big file and long line, then the warm open."""
    out: dict[str, float] = {}
    start = time.perf_counter()
    app = make_app(root)
    async with app.run_test(size=(200, 50)):
        out["first_screen_s"] = await until(lambda: ready(app), 300) - start  # maybe among the first runs
        out["open_s"] = await until(lambda: ready(app) and app.session.folder.scanned, 300) - start
        counted = await until(lambda: app.session.folder.counting_done, 600)
        out["count_s"] = counted - start
        await idle(app, "count")
        await idle(app, "index")  # the index cache is written once counting is done
        latencies = await press_keys(app, presses)
        out["key_p50_ms"] = statistics.median(latencies) * 1000
        out["key_p95_ms"] = sorted(latencies)[max(0, int(len(latencies) * 0.95) - 1)] * 1000
        out["key_max_ms"] = max(latencies) * 1000
        if big_root is None:
            out.update(await measure_big(app, big))
        await idle(app)
    if big_root is not None:
        small = make_app(big_root)
        async with small.run_test(size=(200, 50)):
            await until(lambda: ready(small), 120)
            out.update(await measure_big(small, big))
            await idle(small)
    return out


async def measure_warm(root: Path) -> float:
    """Open again: the index cache written by the first open is there."""
    start = time.perf_counter()
    warm = make_app(root)
    async with warm.run_test(size=(200, 50)):
        scanned = await until(lambda: warm.session.folder.scanned, 300) - start
        took = await until(lambda: ready(warm), 300) - start
        if os.environ.get("BENCH_DEBUG"):
            index = warm.session.store.index
            print(f"warm: scanned after {scanned:.3f}s, index ignored={index.ignored!r} rejected={index.rejected} "
                  f"entries={len(index.entries)}", file=sys.stderr)
        await idle(warm)
    return took


async def measure_big(app: Any, big: dict[str, str]) -> dict[str, float]:
    """The 20,000-line file and the 10 MB line."""
    if app.session.selection.failure_id == big["bigfile"]:  # opened on it (``--folder``): time it from elsewhere
        await open_big(app, big["longline"], output_shown)
    bigfile, _ = await open_big(app, big["bigfile"], code_shown)
    longline, stall = await open_big(app, big["longline"], output_shown)
    return {"bigfile_ms": bigfile * 1000, "longline_ms": longline * 1000, "longline_stall_ms": stall * 1000}


def export_seconds(root: Path, out: Path) -> float:
    """``reviewer export ROOT -o OUT`` in this process."""
    from reviewer.cli import main

    start = time.perf_counter()
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        status = main(["export", str(root), "-o", str(out)])
    took = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"reviewer export failed with status {status}")
    return took


EXPORT_SET = """
import sys
from pathlib import Path
sys.path.insert(0, {here!r})
from synth import generate_export
generate_export(Path({root!r}), {labels})
"""


def run(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Everything, in order; returns the figures."""
    started = time.monotonic()
    for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        os.environ[name] = str(work / name.lower())
    export_root = work / "export"
    here = str(Path(__file__).resolve().parent)
    export_set = subprocess.Popen(  # written on the other core while this one writes the runs
        [sys.executable, "-c", EXPORT_SET.format(here=here, root=str(export_root), labels=args.export_labels)])
    big_root = None
    if args.folder:
        root = Path(args.folder).resolve()
        big_root = work / "big"
        big = add_big_runs(big_root)
        runs = sum(1 for s in root.iterdir() if (s / "runs").is_dir() for r in (s / "runs").iterdir() if r.is_dir())
    else:
        root = work / "sessions"
        generate(root, args.runs)
        big = add_big_runs(root)
        runs = args.runs
    if export_set.wait() != 0:
        raise RuntimeError("writing the export label set failed")
    written = time.monotonic()
    import reviewer.ui.app  # noqa: F401 - imported before anything is timed

    figures: dict[str, Any] = {"runs": runs, "setup_s": written - started, "floor_s": floor_seconds(root)}
    time.sleep(max(0.0, RACY_WAIT - (time.monotonic() - written)))
    figures.update(asyncio.run(measure_app(root, big, big_root, args.presses)))
    figures["rss_cold_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if os.environ.get("BENCH_DEBUG"):
        import threading

        print("threads after the first open:", [t.name for t in threading.enumerate()], file=sys.stderr)
    figures["first_gone_s"] = apps_gone()
    figures["warm_open_s"] = asyncio.run(measure_warm(root))
    figures["open_ratio"] = figures["open_s"] / figures["floor_s"]
    figures["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    figures["export_cold_s"] = export_seconds(export_root, work / "export-cold.toml")
    figures["export_s"] = export_seconds(export_root, work / "export.toml")
    figures["bench_s"] = time.monotonic() - started
    return figures


def table(figures: dict[str, Any]) -> str:
    """The figures with their targets, one a line."""
    lines = []
    for key in (*KEYS, "first_screen_s", "rss_cold_mb", "export_cold_s", "count_s", "key_max_ms", "longline_stall_ms", "first_gone_s",
                "setup_s", "bench_s"):
        if key not in figures:
            continue
        value = figures[key]
        target = TARGETS.get(key)
        if figures["runs"] > 10_000 and key in AT_10K:
            target = None  # the issue sets these at 10,000 runs; above, the folder's size decides
        if key == "rss_mb" and figures["runs"] >= 100_000:
            target = 600
        verdict = "" if target is None else ("  ok" if value < target else f"  MISSES (target < {target})")
        lines.append(f"{key:18} {value:>12,.3f}{verdict}" if isinstance(value, float) else f"{key:18} {value:>12,}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10_000, help="runs to generate (default 10,000)")
    parser.add_argument("--folder", help="measure this sessions folder instead of a generated one")
    parser.add_argument("--json", action="store_true", help="one JSON object on one line")
    parser.add_argument("--presses", type=int, default=PRESSES, help=argparse.SUPPRESS)
    parser.add_argument("--export-labels", type=int, default=EXPORT_LABELS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="reviewer-bench-"))
    try:
        figures = run(args, work)
        if args.json:
            print(json.dumps({k: round(figures[k], 4) if isinstance(figures[k], float) else figures[k] for k in KEYS}))
        else:
            print(table(figures))
        sys.stdout.flush()
    finally:
        remove_later(work)
    return 0


def remove_later(work: Path) -> None:
    """Remove the temporary folder (tens of thousands of files) without making the caller wait."""
    try:
        subprocess.Popen(["rm", "-rf", "--", str(work)], start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
