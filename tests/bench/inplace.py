"""A harness's own log opened in place, beside the peers' own viewers, and what git holds then.

    python tests/bench/inplace.py [--samples 5000] [--trajectories 10000] [--rounds 1] [--json] [--work DIR]

(a) An Inspect ``.eval`` of ``--samples`` samples (``importgen.py``, every entry zstd; written
    again by ``inspect_ai.log.write_eval_log`` when ``inspect_ai`` is importable, so the file is
    Inspect's own). ``reviewer LOG`` runs in tmux at 200x50 (the screen read every 10 ms): the
    time from starting it until the first failure is drawn (a failing check marked ``◀`` in the
    Grader pane), first with no index cache (``eval_reviewer_cold_s``: the first open reads every
    sample once, in a second process, while the app opens among the first samples), then with it
    (``eval_reviewer_warm_s``). Beside it, ``inspect view`` serving the log's folder with Debian's
    chromium (headless, Playwright): from starting the server until its sample list shows the
    first sample (``eval_inspect_view_list_s``) and until the first sample, opened from the list,
    shows its page (``Sample 1 (Epoch 1)`` and its scores: ``eval_inspect_view_sample_s``).
(b) ``--trajectories`` mini-swe-agent trajectories in a folder: ``reviewer FOLDER`` until the
    first run is drawn in every pane (cold and warm), beside ``mini-extra inspector FOLDER`` until
    the first trajectory is shown (``terminal.py``'s conditions).
(c) A sessions repository holding each log in place (``session.toml`` and the log) against one
    holding the import of it: the files ``git add`` takes (``git ls-files``), and the seconds the
    import took.

A peer that is not installed (``pip install '.[bench]'``; Debian's chromium) is skipped and says
so (``*_available``). Rounds are interleaved; figures are medians. One JSON line with ``--json``.
The machine may be shared: compare figures from the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from importgen import write_eval, write_trajectories  # noqa: E402
from terminal import Term, compiled, inspector_shows, reviewer_shows  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
FIRST_FAILURE = "◀"
"""The Grader pane marks the failing check the screen is about."""
CACHE_WAIT = 900.0
"""The longest a cold open is left running for its index cache to be written."""


def has_module(name: str) -> bool:
    """Whether a module is importable here (without importing it)."""
    import importlib.util

    return importlib.util.find_spec(name) is not None


def peer(name: str) -> str | None:
    """A peer's command installed beside this interpreter (or on the PATH)."""
    beside = Path(sys.executable).with_name(name)
    return str(beside) if beside.exists() else shutil.which(name)


def inspect_written(path: Path, samples: int) -> tuple[Path, bool]:
    """The benchmark's ``.eval``, written again by Inspect itself when it is installed."""
    write_eval(path, samples)
    if not has_module("inspect_ai"):
        return path, False
    own = path.with_name("inspect-" + path.name)
    code = ("import sys\nfrom inspect_ai.log import read_eval_log, write_eval_log\n"
            "write_eval_log(read_eval_log(sys.argv[1]), sys.argv[2], format='eval')\n")
    subprocess.run([sys.executable, "-c", code, str(path), str(own)], check=True, capture_output=True, timeout=1800)
    path.unlink()
    return own.rename(path), True


def homes(work: Path, name: str) -> dict[str, str]:
    """Fresh XDG folders (no settings, no index cache)."""
    home = work / "homes" / name
    return {f"XDG_{k}_HOME": str(home / k.lower()) for k in ("DATA", "CONFIG", "CACHE")}


def cache_written(env: dict[str, str]) -> bool:
    """Whether an index cache was written under these XDG folders."""
    folder = Path(env["XDG_CACHE_HOME"]) / "reviewer"
    return folder.is_dir() and any(p.name.startswith("index-") for p in folder.iterdir())


def open_in_tmux(command: list[str], env: dict[str, str], shown: Callable[[str], bool], wait_cache: bool) -> float:
    """Seconds from starting ``command`` in tmux until ``shown`` holds; with ``wait_cache`` the app
    is left running until its index cache is written (the warm open after it reads it)."""
    term = Term(command, env)
    try:
        opened = term.until(shown, 600) - term.started
        if wait_cache:
            deadline = time.monotonic() + CACHE_WAIT
            while not cache_written(env) and time.monotonic() < deadline:
                time.sleep(0.5)
        term.key("q")
        time.sleep(0.5)
        return opened
    finally:
        term.close()


def free_port() -> int:
    """A free TCP port on the loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def inspect_view(folder: Path, env: dict[str, str]) -> tuple[float, float]:
    """``inspect view`` of a folder in headless chromium: seconds from starting the server until the
    sample list shows the first sample, and until that sample, opened, shows its page."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"], headless=True)
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            started = time.perf_counter()
            server = subprocess.Popen([str(peer("inspect")), "view", "--log-dir", str(folder), "--port", str(port)],
                                      env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                deadline = time.monotonic() + 120
                while True:
                    try:
                        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                        break
                    except OSError:
                        if time.monotonic() > deadline:
                            raise TimeoutError("inspect view never listened") from None
                        time.sleep(0.01)
                page.goto(f"http://127.0.0.1:{port}/")
                first = page.get_by_text("tests in test_solution.py").first
                first.wait_for(timeout=600_000)
                listed = time.perf_counter() - started
                first.click()
                page.get_by_text("Sample 1 (Epoch 1)").first.wait_for(timeout=600_000)
                page.get_by_text("SCORES").first.wait_for(timeout=600_000)
                opened = time.perf_counter() - started
            finally:
                server.terminate()
                server.wait(timeout=30)
        finally:
            browser.close()
    return listed, opened


def git_files(work: Path, name: str, fill: Callable[[Path], None]) -> int:
    """The files ``git add`` of a sessions repository filled by ``fill`` takes."""
    repo = work / "repos" / name
    repo.mkdir(parents=True)
    fill(repo)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    listed = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], check=True, capture_output=True).stdout
    return listed.count(b"\0")


def log_session(log: Path, fmt: str) -> Callable[[Path], None]:
    """A session folder holding the log (copied) named in its session.toml."""
    def fill(repo: Path) -> None:
        folder = repo / "run"
        folder.mkdir()
        if log.is_dir():
            shutil.copytree(log, folder / log.name)
        else:
            shutil.copy(log, folder / log.name)
        (folder / "session.toml").write_text(f'format = 1\n\n[log]\nformat = "{fmt}"\npath = "{log.name}"\n')
    return fill


def import_session(sources: list[Path], fmt: str, seconds: list[float]) -> Callable[[Path], None]:
    """The log imported as run folders (the import's wall time appended to ``seconds``)."""
    def fill(repo: Path) -> None:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "reviewer.cli", "import", fmt, *map(str, sources), "--into", str(repo),
                        "--session", "run"], check=True, capture_output=True)
        seconds.append(time.perf_counter() - started)
    return fill


def run(samples: int, trajectories: int, rounds: int, work: Path) -> dict[str, Any]:
    """Every measure; medians."""
    compiled()
    out: dict[str, Any] = {"samples": samples, "trajectories": trajectories, "rounds": rounds}
    logs = work / "logs"
    logs.mkdir(parents=True)
    log, out["eval_written_by_inspect_ai"] = inspect_written(logs / "bench.eval", samples)
    trajs = work / "trajectories"
    write_trajectories(trajs, trajectories)
    view = peer("inspect") is not None and has_module("playwright") and CHROMIUM.exists()
    inspector = peer("mini-extra")
    out["inspect_view_available"], out["mini_inspector_available"] = view, inspector is not None
    figures: dict[str, list[float]] = {}

    def add(key: str, value: float) -> None:
        figures.setdefault(key, []).append(value)

    for r in range(rounds):
        for name, target, shown in (("eval", log, lambda s: FIRST_FAILURE in s),
                                    ("mini", trajs, reviewer_shows(0))):
            env = homes(work, f"{name}-{r}")
            labels = work / "labels" / f"{name}-{r}"
            labels.mkdir(parents=True)
            command = [sys.executable, "-m", "reviewer.cli", str(target), "--labels", str(labels), "--reviewer", "bench"]
            add(f"{name}_reviewer_cold_s", open_in_tmux(command, env, shown, wait_cache=True))
            add(f"{name}_reviewer_warm_s", open_in_tmux(command, env, shown, wait_cache=False))
        if view:
            listed, opened = inspect_view(logs, homes(work, f"view-{r}"))
            add("eval_inspect_view_list_s", listed)
            add("eval_inspect_view_sample_s", opened)
        if inspector is not None:
            add("mini_inspector_s", open_in_tmux([inspector, "inspector", str(trajs)], homes(work, f"inspector-{r}"),
                                                 inspector_shows(0, trajectories), wait_cache=False))
    out.update({k: round(statistics.median(v), 3) for k, v in figures.items()})
    if view:
        out["eval_ratio_cold_vs_inspect_view_sample"] = round(out["eval_reviewer_cold_s"] / out["eval_inspect_view_sample_s"], 3)
        out["eval_ratio_warm_vs_inspect_view_sample"] = round(out["eval_reviewer_warm_s"] / out["eval_inspect_view_sample_s"], 3)
    if inspector is not None:
        out["mini_ratio_cold_vs_inspector"] = round(out["mini_reviewer_cold_s"] / out["mini_inspector_s"], 3)
        out["mini_ratio_warm_vs_inspector"] = round(out["mini_reviewer_warm_s"] / out["mini_inspector_s"], 3)
    imports: list[float] = []
    out["git_files_eval_in_place"] = git_files(work, "eval-in-place", log_session(log, "inspect"))
    out["git_files_eval_imported"] = git_files(work, "eval-imported", import_session([log], "inspect", imports))
    out["git_files_mini_in_place"] = git_files(work, "mini-in-place", log_session(trajs, "mini-swe-agent"))
    out["git_files_mini_imported"] = git_files(work, "mini-imported", import_session(
        sorted(trajs.glob("*.traj.json")), "mini-swe-agent", imports))
    out["eval_import_s"], out["mini_import_s"] = round(imports[0], 2), round(imports[1], 2)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=5000)
    parser.add_argument("--trajectories", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--work", type=Path, help="where to build the data (default: a temporary folder)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="inplace-bench-") as tmp:
        work = args.work if args.work is not None else Path(tmp)
        out = run(args.samples, args.trajectories, args.rounds, work)
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        for key, value in out.items():
            print(f"{key:44} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
