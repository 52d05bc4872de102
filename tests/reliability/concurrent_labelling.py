"""Two processes label the same folder at the same time; count the labels that go missing.

    python tests/reliability/concurrent_labelling.py --rounds 20 [--json] [--seed N] [--journal]

Each round writes a fresh folder (one session, 40 failures) and starts two real processes that
label through the app's own save path (Labeller, LabelStore, LabelFile: re-read and merge under
a folder lock, atomic replace), interleaved with small random sleeps: once both as the same
reviewer (one labels file, both writing it) and once as two reviewers. Each process labels its
half of the failures, then goes over them again changing every verdict, and reports each label
after decide() returns. At the end every acknowledged label must be on disk, as last decided.
With ``--journal`` both save as they do for a big labels file (each decision appended to the
journal, ``REVIEWER_JOURNAL_FROM=0``) and the first also folds the journal into the TOML every
few decisions while the other keeps appending. Figures: rounds, processes, acknowledged,
interleavings (how often the next save in time came from the other process), lost,
corrupt_files, journal.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS))

from sessionkit import RunSpec, write_session  # noqa: E402

from reviewer.model.label import Verdict  # noqa: E402

SESSION = "c"
FAILURES = 40
MODES = {"same-reviewer": ("alice", "alice"), "two-reviewers": ("alice", "bob")}
FOLD_EVERY = 9


def make_folder(root: Path) -> list[str]:
    """A session of four runs with ten failures each; returns the failure ids."""
    checks = [{"key": f"T{i:02d}", "status": "fail", "message": f"check {i}"} for i in range(FAILURES // 4)]
    write_session(root, SESSION, [RunSpec(f"r{n}", checks=checks) for n in range(4)])
    return [f"{SESSION}/r{n}#heldout:T{i:02d}" for n in range(4) for i in range(FAILURES // 4)]


def child(root: Path, reviewer: str, part: int, seed: int, journal: bool = False) -> None:
    """Label every other failure twice over (verdicts flipped the second time), with pauses."""
    from reviewer.store.labeller import Labeller
    from reviewer.store.labels import LabelStore
    from reviewer.store.sessions import SessionStore

    rng = random.Random(seed)
    store = SessionStore(root)
    store.scan()
    labeller = Labeller(store, LabelStore(root, reviewer))
    mine = [f.id for r in store.runs for f in store.failures(r)][part::2]
    print("ready", flush=True)
    sys.stdin.readline()  # both start together
    n = 0
    for sweep, verdict in enumerate((Verdict.SPECIFICATION, Verdict.CAPABILITY)):
        for fid in mine:
            v = verdict if (sum(map(ord, fid)) + sweep) % 3 else Verdict.DEFERRED
            labeller.decide(fid, v, note=f"{reviewer} part {part} sweep {sweep}")
            print(f"ack {fid} {v.value} {time.monotonic_ns()}", flush=True)
            n += 1
            if journal and part == 0 and n % FOLD_EVERY == 0:
                labeller.labels.file(SESSION).fold()
            time.sleep(rng.uniform(0, 0.004))


def read_labels(root: Path, reviewer: str) -> dict[str, str] | None:
    """failure id -> verdict in a reviewer's labels file (None when it cannot be parsed)."""
    from reviewer.store.labels import LabelStore

    lf = LabelStore(root, reviewer).file(SESSION)  # the TOML and its journal, as the store reads them
    if lf.error:
        return None
    return {f"{SESSION}/{run}#{check}": lab.verdict.value for (run, check), lab in lf.labels.items()}


def one_round(root: Path, reviewers: tuple[str, str], seed: int, journal: bool = False) -> dict[str, int]:
    """Run both processes to the end; compare their last acknowledged labels with the disk."""
    env = {**os.environ, "REVIEWER_JOURNAL_FROM": "0"} if journal else None
    procs = [
        subprocess.Popen([sys.executable, __file__, "--child", str(root), "--reviewer", name, "--part", str(part),
                          "--seed", str(seed * 2 + part), *(["--journal"] if journal else [])],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        for part, name in enumerate(reviewers)
    ]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    expected: dict[tuple[str, str], str] = {}
    order: list[tuple[int, int]] = []
    for part, (p, name) in enumerate(zip(procs, reviewers)):
        out, _ = p.communicate(timeout=300)
        if p.returncode != 0:
            raise RuntimeError(f"a labelling process failed with status {p.returncode}")
        for line in out.splitlines():
            kind, fid, verdict, at = line.split()
            if kind == "ack":
                expected[(name, fid)] = verdict
                order.append((int(at), part))
    order.sort()
    switches = sum(1 for a, b in zip(order, order[1:]) if a[1] != b[1])
    lost = corrupt = 0
    for name in sorted(set(reviewers)):
        disk = read_labels(root, name)
        if disk is None:
            corrupt += 1
            disk = {}
        lost += sum(1 for (who, fid), verdict in expected.items() if who == name and disk.get(fid) != verdict)
    return {"acknowledged": len(expected), "switches": switches, "lost": lost, "corrupt": corrupt}


def measure(rounds: int, seed: int, journal: bool = False) -> dict[str, int]:
    """Rounds alternate between the same reviewer and two reviewers."""
    totals = {"rounds": rounds, "processes": 2 * rounds, "acknowledged": 0, "interleavings": 0, "lost": 0,
              "corrupt_files": 0, "journal": int(journal)}
    modes = list(MODES.values())
    for n in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "sessions"
            make_folder(root)
            r = one_round(root, modes[n % len(modes)], seed * 1000 + n, journal)
        totals["acknowledged"] += r["acknowledged"]
        totals["interleavings"] += r["switches"]
        totals["lost"] += r["lost"]
        totals["corrupt_files"] += r["corrupt"]
    return totals


def main() -> int:
    """Command line."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--journal", action="store_true", help="save as a big labels file does: through the journal")
    p.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--reviewer", default="alice", help=argparse.SUPPRESS)
    p.add_argument("--part", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args.child, args.reviewer, args.part, args.seed, args.journal)
        return 0
    started = time.monotonic()
    figures = measure(args.rounds, args.seed, args.journal)
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k:>13}: {v}")
        print(f"{'seconds':>13}: {time.monotonic() - started:.1f}")
    return 0 if figures["lost"] == figures["corrupt_files"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
