"""Import speed against the floor: a stdlib read of the same files, and Inspect's own reader.

    python tests/bench/imports.py [--json] [--sizes 1000,10000] [--samples 5000] [--rounds 3] [--strace]

Generates mini-swe-agent trajectories of ~20 messages (``--sizes``) and an Inspect ``.eval`` of
``--samples`` samples with zstd entries (see ``importgen.py``), then, in interleaved rounds,
times in child processes:

- ``import``: ``reviewer import mini-swe-agent FILES`` / ``reviewer import inspect LOG`` into a
  fresh folder (interpreter start, reading, writing, the final ``syncfs``: what a user waits for);
- ``floor``: a stdlib read of the same files: each trajectory opened, read and ``json.loads``-ed;
  for the log, ``zipfile``'s directory plus every sample entry decompressed (``zstandard``, as
  nothing in the stdlib reads method 93 before Python 3.14) and ``json.loads``-ed;
- ``inspect_read``: ``inspect_ai.log.read_eval_log`` of the log (the time of the call, its
  import excluded), when ``inspect_ai`` is importable (``pip install '.[bench]'``).

- ``write_floor``: a plain loop writing the files the import wrote (``makedirs``, ``open``,
  ``write``; one ``sync``), their bytes already in memory: what writing alone costs on this disk.

Prints medians and ratios (``ratio = import / floor``, ``ratio_read_write = import / (floor +
write_floor)``, ``vs_read_eval_log = import / inspect_read``) and the import's CPU seconds
(user + system of the process and its workers).
With ``--strace`` (and ``strace`` on the PATH) one more import of each kind runs under
``strace -f -c`` and the counts of ``mkdir`` (and failed ones), ``openat`` and all calls are
printed. The machine may be shared: figures are noisy; compare ratios from the same run.
"""

from __future__ import annotations

import argparse
import json
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
sys.path.insert(0, str(HERE))

import importgen

REVIEWER = "import sys; from reviewer.cli import main; sys.exit(main(sys.argv[1:]))"
FLOOR_FILES = """
import json, sys, time
t = time.perf_counter()
for path in open(sys.argv[1]).read().split("\\n"):
    with open(path, "rb") as f:
        json.loads(f.read())
print(time.perf_counter() - t)
"""
FLOOR_EVAL = """
import io, json, sys, time, zipfile, zstandard
t = time.perf_counter()
with open(sys.argv[1], "rb") as f, zipfile.ZipFile(f) as z:
    for info in z.infolist():
        if not info.filename.startswith("samples/"):
            continue
        f.seek(info.header_offset + 30 + len(info.filename.encode()))
        packed = f.read(info.compress_size)
        data = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(packed), read_across_frames=True).read()
        json.loads(data)
print(time.perf_counter() - t)
"""
FLOOR_WRITE = """
import os, sys, time
src, dst = sys.argv[1], sys.argv[2]
files = []
for folder, _dirs, names in os.walk(src):
    for name in names:
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            files.append((os.path.relpath(path, src), f.read()))
t = time.perf_counter()
made = set()
for rel, data in files:
    parent = os.path.dirname(os.path.join(dst, rel))
    if parent not in made:
        os.makedirs(parent, exist_ok=True)
        made.add(parent)
    with open(os.path.join(dst, rel), "wb") as f:
        f.write(data)
os.sync()
print(time.perf_counter() - t)
"""
INSPECT_READ = """
import sys, time
from inspect_ai.log import read_eval_log
t = time.perf_counter()
log = read_eval_log(sys.argv[1])
assert len(log.samples) == int(sys.argv[2]), len(log.samples)
print(time.perf_counter() - t)
"""


CPU: list[float] = []


def wall(argv: list[str]) -> float:
    """Seconds the command takes, from the outside; it must succeed. Its CPU seconds go to CPU."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(argv[:4])}...: {done.stderr[-800:]}")
    return seconds


def inner(argv: list[str]) -> float:
    """The seconds a timing script prints."""
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"failed: {done.stderr[-800:]}")
    return float(done.stdout.split()[-1])


def inspect_available() -> bool:
    """True when ``inspect_ai`` can be imported by this interpreter."""
    probe = subprocess.run([sys.executable, "-c", "import inspect_ai.log"], capture_output=True, check=False)
    return probe.returncode == 0


def import_argv(kind: str, sources: list[Path], into: Path, workers: int | None) -> list[str]:
    """The reviewer command line of one import."""
    argv = [sys.executable, "-c", REVIEWER, "import", kind, *map(str, sources), "--into", str(into), "--session", "bench"]
    return argv + (["--workers", str(workers)] if workers is not None else [])


def strace_counts(argv: list[str], work: Path) -> dict[str, int]:
    """Syscall counts of ``argv`` under ``strace -f -c`` (empty when strace is missing)."""
    if shutil.which("strace") is None:
        return {}
    out = work / "strace.txt"
    subprocess.run(["strace", "-f", "-c", "-o", str(out), *argv], capture_output=True, check=False)
    counts: dict[str, int] = {}
    for line in out.read_text().splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[-1] in ("mkdir", "mkdirat", "openat", "open", "total"):
            has_errors = len(parts) == 6
            counts[parts[-1]] = counts.get(parts[-1], 0) + int(parts[3])
            if has_errors:
                counts[f"{parts[-1]}_failed"] = counts.get(f"{parts[-1]}_failed", 0) + int(parts[4])
    return counts


def measure(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Generate the inputs, time every case in interleaved rounds; the figures."""
    sizes = [int(s) for s in args.sizes.split(",") if s]
    trajs = importgen.write_trajectories(work / "trajs", max(sizes)) if sizes else []
    log = importgen.write_eval(work / "bench.eval", args.samples) if args.samples else None
    lists = {}
    for n in sizes:
        lists[n] = work / f"files-{n}.txt"
        lists[n].write_text("\n".join(str(p) for p in trajs[:n]))
    has_inspect = log is not None and inspect_available()
    times: dict[str, list[float]] = {}
    serial = 0
    for _round in range(args.rounds):
        for n in sizes:
            serial += 1
            times.setdefault(f"mini_{n}_floor_s", []).append(inner([sys.executable, "-c", FLOOR_FILES, str(lists[n])]))
            times.setdefault(f"mini_{n}_import_s", []).append(wall(import_argv("mini-swe-agent", trajs[:n], work / f"out{serial}", args.workers)))
            times.setdefault(f"mini_{n}_import_cpu_s", []).append(CPU[-1])
            times.setdefault(f"mini_{n}_write_floor_s", []).append(inner([sys.executable, "-c", FLOOR_WRITE, str(work / f"out{serial}"), str(work / f"copy{serial}")]))
            shutil.rmtree(work / f"out{serial}")
            shutil.rmtree(work / f"copy{serial}")
        if log is not None:
            serial += 1
            times.setdefault("inspect_floor_s", []).append(inner([sys.executable, "-c", FLOOR_EVAL, str(log)]))
            times.setdefault("inspect_import_s", []).append(wall(import_argv("inspect", [log], work / f"out{serial}", args.workers)))
            times.setdefault("inspect_import_cpu_s", []).append(CPU[-1])
            times.setdefault("inspect_write_floor_s", []).append(inner([sys.executable, "-c", FLOOR_WRITE, str(work / f"out{serial}"), str(work / f"copy{serial}")]))
            shutil.rmtree(work / f"out{serial}")
            shutil.rmtree(work / f"copy{serial}")
            if has_inspect:
                times.setdefault("inspect_read_s", []).append(inner([sys.executable, "-c", INSPECT_READ, str(log), str(args.samples)]))
    figures: dict[str, Any] = {k: round(statistics.median(v), 3) for k, v in times.items()}
    for n in sizes:
        figures[f"mini_{n}_ratio"] = round(figures[f"mini_{n}_import_s"] / figures[f"mini_{n}_floor_s"], 2)
        figures[f"mini_{n}_ratio_read_write"] = round(figures[f"mini_{n}_import_s"] / (figures[f"mini_{n}_floor_s"] + figures[f"mini_{n}_write_floor_s"]), 2)
    if log is not None:
        figures["inspect_ratio"] = round(figures["inspect_import_s"] / figures["inspect_floor_s"], 2)
        figures["inspect_ratio_read_write"] = round(figures["inspect_import_s"] / (figures["inspect_floor_s"] + figures["inspect_write_floor_s"]), 2)
        if has_inspect:
            figures["inspect_vs_read_eval_log"] = round(figures["inspect_import_s"] / figures["inspect_read_s"], 2)
    figures["inspect_ai_available"] = has_inspect
    figures["rounds"] = args.rounds
    if args.strace:
        if sizes:
            figures[f"mini_{max(sizes)}_strace"] = strace_counts(import_argv("mini-swe-agent", trajs, work / "strace-mini", args.workers), work)
        if log is not None:
            figures["inspect_strace"] = strace_counts(import_argv("inspect", [log], work / "strace-inspect", args.workers), work)
    return figures


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--sizes", default="1000,10000", help="trajectory counts (comma-separated; empty for none)")
    parser.add_argument("--samples", type=int, default=5000, help="samples in the Inspect log (0: none)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (medians are printed)")
    parser.add_argument("--workers", type=int, help="reviewer import --workers (default: its own choice)")
    parser.add_argument("--strace", action="store_true", help="count system calls of one import of each kind")
    parser.add_argument("--work", type=Path, help="folder for the generated inputs (default: a temporary one)")
    args = parser.parse_args()
    if args.work is not None:
        args.work.mkdir(parents=True, exist_ok=True)
        figures = measure(args, args.work)
    else:
        with tempfile.TemporaryDirectory(prefix="reviewer-import-bench-") as work:
            figures = measure(args, Path(work))
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        for key in sorted(figures):
            print(f"{key}: {figures[key]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
