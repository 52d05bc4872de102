"""Two processes label the same folder at the same time; count the labels that go missing.

    python tests/reliability/concurrent_labelling.py --rounds 20 [--json] [--seed N] [--old-file]

Each round writes a fresh folder (one session, four runs, 40 failures) and starts two real
processes that label through the app's own save path (Labeller, LabelStore: under the labels
folder's lock, the run's file read again and merged, then replaced atomically), interleaved with
small random sleeps: once both as the same reviewer (the same run files, both writing them) and
once as two reviewers. Each process labels its half of the failures (every run has failures of
both halves), then goes over them again changing every verdict, and reports each label after
decide() returns. At the end every acknowledged label must be on disk, as last decided. With
``--old-file`` each reviewer starts with a format-1 file (``labels/<reviewer>.toml`` and a journal,
as an earlier version wrote them) holding labels on runs gone from the folder: the first decision
of either process moves it into run files while the other process is labelling; those labels
must all be on disk at the end too, and the old file gone. Figures: rounds, processes,
acknowledged, interleavings (how often the next save in time came from the other process), lost,
corrupt_files, old_file.
"""

from __future__ import annotations

import argparse
import json
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
OLD_LABELS = 30
"""With ``--old-file``: labels each reviewer's format-1 file holds (on runs gone from the folder)."""


def make_folder(root: Path) -> list[str]:
    """A session of four runs with ten failures each; returns the failure ids."""
    checks = [{"key": f"T{i:02d}", "status": "fail", "message": f"check {i}"} for i in range(FAILURES // 4)]
    write_session(root, SESSION, [RunSpec(f"r{n}", checks=checks) for n in range(4)])
    return [f"{SESSION}/r{n}#heldout:T{i:02d}" for n in range(4) for i in range(FAILURES // 4)]


def old_files(root: Path, reviewers: tuple[str, ...]) -> dict[tuple[str, str], str]:
    """Each reviewer's format-1 file, half its labels in the journal; (reviewer, failure id) -> verdict."""
    from labelkit import table, write_old_file

    expected = {}
    for name in sorted(set(reviewers)):
        rows = [table(f"gone{n % 7}", f"heldout:G{n:02d}", "capability" if n % 2 else "specification")
                for n in range(OLD_LABELS)]
        write_old_file(root, SESSION, name, rows[: OLD_LABELS // 2], journal=rows[OLD_LABELS // 2:])
        expected.update({(name, f"{SESSION}/{t['run']}#{t['check']}"): t["verdict"] for t in rows})
    return expected


def child(root: Path, reviewer: str, part: int, seed: int) -> None:
    """Label every other failure twice over (verdicts flipped the second time), with pauses."""
    from reviewer.store.labels import Labeller, LabelStore
    from reviewer.store.sessions.store import SessionStore

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
            time.sleep(rng.uniform(0, 0.004))


def read_labels(root: Path, reviewer: str) -> dict[str, str] | None:
    """failure id -> verdict of a reviewer's labels on disk, as a fresh store reads them (None when
    a file cannot be read whole)."""
    from reviewer.store.labels import LabelStore, clear_cache

    clear_cache()
    store = LabelStore(root, reviewer)
    if store.load([SESSION]):
        return None
    return {lab.failure_id: lab.verdict.value for lab in store.mine_all()}


def one_round(root: Path, reviewers: tuple[str, str], seed: int, old_file: bool = False) -> dict[str, int]:
    """Run both processes to the end; compare their last acknowledged labels with the disk."""
    expected: dict[tuple[str, str], str] = old_files(root, reviewers) if old_file else {}
    moved = len(expected)
    procs = [
        subprocess.Popen([sys.executable, __file__, "--child", str(root), "--reviewer", name, "--part", str(part),
                          "--seed", str(seed * 2 + part)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for part, name in enumerate(reviewers)
    ]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
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
        corrupt += (root / SESSION / "labels" / f"{name}.toml").exists()  # the old file must have been moved
    return {"acknowledged": len(expected) - moved, "moved": moved, "switches": switches, "lost": lost,
            "corrupt": corrupt}


def measure(rounds: int, seed: int, old_file: bool = False) -> dict[str, int]:
    """Rounds alternate between the same reviewer and two reviewers."""
    totals = {"rounds": rounds, "processes": 2 * rounds, "acknowledged": 0, "interleavings": 0, "lost": 0,
              "corrupt_files": 0, "old_file": int(old_file), "old_labels": 0}
    modes = list(MODES.values())
    for n in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "sessions"
            make_folder(root)
            r = one_round(root, modes[n % len(modes)], seed * 1000 + n, old_file)
        totals["acknowledged"] += r["acknowledged"]
        totals["old_labels"] += r["moved"]
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
    p.add_argument("--old-file", action="store_true",
                   help="each reviewer starts with a format-1 file that the first decision moves into run files")
    p.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--reviewer", default="alice", help=argparse.SUPPRESS)
    p.add_argument("--part", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args.child, args.reviewer, args.part, args.seed)
        return 0
    started = time.monotonic()
    figures = measure(args.rounds, args.seed, args.old_file)
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k:>13}: {v}")
        print(f"{'seconds':>13}: {time.monotonic() - started:.1f}")
    return 0 if figures["lost"] == figures["corrupt_files"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
