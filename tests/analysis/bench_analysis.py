"""Benchmark (prints figures, asserts nothing): evidence, facts, stats and clusters on a folder
of 1,200 runs with 3 failures each, half of them labelled.

    .venv/bin/python tests/analysis/bench_analysis.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]

from analysis_kit import fail  # noqa: E402
from sessionkit import RunSpec, write_session  # noqa: E402

from reviewer.analysis.clusters import find_clusters  # noqa: E402
from reviewer.analysis.evidence.engine import evidence_for  # noqa: E402
from reviewer.analysis.stats.facts import collect  # noqa: E402
from reviewer.analysis.stats.summary import compute_stats, render_stats  # noqa: E402
from reviewer.model.label import Verdict  # noqa: E402
from reviewer.store.labels import Labeller, LabelStore  # noqa: E402
from reviewer.store.sessions.store import SessionStore  # noqa: E402

MESSAGES = [
    "E       AssertionError: assert 'true' == 'yes'\nE         - yes\nE         + true",
    "E       KeyError: 'path'",
    '    roman_test.go:24: ToRoman(4) returned "IIII", expected "IV"',
]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "sessions"
        t = time.perf_counter()
        for s in range(12):
            runs = [RunSpec(f"r{i}", task=f"task-{i % 30}", model=f"model-{i % 40}",
                            checks=[fail(f"c{j}", MESSAGES[j]) for j in range(3)]) for i in range(100)]
            write_session(root, f"s{s}", runs)
        print(f"write 1,200 runs: {time.perf_counter() - t:.2f}s")
        store = SessionStore(root)
        store.scan()
        labeller = Labeller(store, LabelStore(root, "alice"))
        t = time.perf_counter()
        ids = [f.id for run in store.runs[::2] for f in store.failures(run)]
        labeller.decide_many(ids, Verdict.SPECIFICATION)
        print(f"label {len(ids)} failures: {time.perf_counter() - t:.2f}s")
        store = SessionStore(root)
        store.scan()
        t = time.perf_counter()
        n = 0
        for run in store.runs:
            for f in store.failures(run):
                evidence_for(store, run, f)
                n += 1
        dt = time.perf_counter() - t
        print(f"evidence for {n} failures: {dt:.2f}s ({dt / n * 1000:.2f} ms each)")
        t = time.perf_counter()
        facts = collect(store)
        print(f"collect (final verdicts + staleness of {len(ids)} labels): {time.perf_counter() - t:.2f}s")
        t = time.perf_counter()
        render_stats(compute_stats(facts))
        print(f"stats + render: {time.perf_counter() - t:.3f}s")
        t = time.perf_counter()
        clusters = find_clusters(facts)
        print(f"clusters ({len(clusters)}): {time.perf_counter() - t:.3f}s")


if __name__ == "__main__":
    main()
