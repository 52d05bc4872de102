"""SIGKILL a labelling process at random moments, many of them inside a save; count what is lost.

    python tests/reliability/kill_during_save.py --trials 200 [--json] [--seed N] [--old-file]

A child process labels failures in a loop through the app's own save path (Labeller.decide,
LabelStore: the run's file written to a temp file, fsynced, renamed) and reports each label
after decide() returns. The parent kills it at a random moment, reads the labels back as a fresh
store reads them, and after every trial runs the app's start-up cleanup. Every third step writes
or removes a note-only entry (``n`` on a failure with no label, Labeller.annotate) on a failure
that is never labelled, so note entries and their removals go through the same writes and kills.
With ``--old-file`` every trial starts from a format-1 file (``labels/<reviewer>.toml`` and its
journal, as an earlier version wrote them) holding every label on disk so far, so the child's
first decision moves 30 runs' labels into run files: kills land inside that move too, and every
label of the old file must survive it. Figures: trials, acknowledged (labels and notes),
notes_acknowledged, kills_mid_write, lost, corrupt_files, orphan_temp_files, old_file, old_labels,
kills_inside_the_move (kills before the first decision, the move, was acknowledged).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS))

from sessionkit import RunSpec, write_session  # noqa: E402

from reviewer.model.label import Verdict  # noqa: E402
from reviewer.store.fs.atomic import TEMP_MARK  # noqa: E402
from reviewer.store.labels import LabelStore, clear_cache  # noqa: E402

REVIEWER = "kill-test"
SESSION = "k"


def make_folder(root: Path, runs: int = 30) -> list[str]:
    """A session with ``runs`` runs of two failures each; returns the failure ids."""
    checks = [
        {"key": "TestA", "status": "fail", "message": "want 1"},
        {"key": "TestB", "status": "error", "message": "panic"},
    ]
    write_session(root, SESSION, [RunSpec(f"r{i:03d}", model=f"m{i % 5}", checks=checks) for i in range(runs)])
    return [f"{SESSION}/r{i:03d}#heldout:{k}" for i in range(runs) for k in ("TestA", "TestB")]


NOTE_CHECK = "TestB"
"""Failures of this check only ever get note-only entries (a labelled failure's note is its label's)."""


def child(root: Path, trial: int) -> None:
    """Label failures and write or remove note entries in a loop, reporting begin/ack lines; runs until killed."""
    from reviewer.store.labels import Labeller
    from reviewer.store.sessions.store import SessionStore

    store = SessionStore(root)
    store.scan()
    labeller = Labeller(store, LabelStore(root, REVIEWER))
    every = [f.id for r in store.runs for f in store.failures(r)]
    ids = [fid for fid in every if not fid.endswith(f":{NOTE_CHECK}")]
    note_ids = [fid for fid in every if fid.endswith(f":{NOTE_CHECK}")]
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    n = 0
    while True:
        if n % 3 == 2:  # a note entry: written on even visits of its failure, removed on odd ones
            visit = n // 3
            fid = note_ids[visit % len(note_ids)]
            text = f"t{trial}s{n}" if (visit // len(note_ids)) % 2 == 0 else ""
            out.write(f"begin-note {fid} {text or '-'}\n")
            out.flush()
            labeller.annotate(fid, note=text)
            out.write(f"ack-note {fid} {text or '-'}\n")
        else:
            fid = ids[n % len(ids)]
            verdict = Verdict.SPECIFICATION if (trial + n // len(ids)) % 2 == 0 else Verdict.CAPABILITY
            out.write(f"begin {fid} {verdict.value}\n")
            out.flush()
            labeller.decide(fid, verdict, note=f"trial {trial} step {n}")
            out.write(f"ack {fid} {verdict.value}\n")
        out.flush()
        n += 1


def read_back(root: Path) -> tuple[dict[str, str] | None, dict[str, str], int]:
    """Labels on disk (None when a file cannot be read whole) and note entries, read after the
    start-up cleanup as a fresh store reads them, and temp files left."""
    from labelkit import groups

    clear_cache()
    store = LabelStore(root, REVIEWER)
    problems = store.load([SESSION])  # start-up: cleans stale temp files
    labels_dir = root / SESSION / "labels"
    orphans = sum(1 for p in labels_dir.rglob("*") if TEMP_MARK in p.name) if labels_dir.is_dir() else 0
    if problems:
        return None, {}, orphans
    notes = {f"{SESSION}/{run}#{check}": n.note for g in groups(root, SESSION, REVIEWER)
             for (run, check), n in g.notes.items() if (run, check) not in g.entries}
    return {lab.failure_id: lab.verdict.value for lab in store.mine_all()}, notes, orphans


def to_old_file(root: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Put every label and note entry on disk back into a format-1 file and its journal (the run
    files removed), as an earlier version left them; what it holds (failure id -> verdict, -> note)."""
    import shutil

    from labelkit import groups, write_old_file

    from reviewer.store.labels import label_table
    from reviewer.store.labels.format import note_table

    disk, notes, _ = read_back(root)
    labels, entries = [], []
    for g in groups(root, SESSION, REVIEWER):
        labels += [label_table(labs[0]) for labs in g.entries.values()]
        entries += [{**note_table(n), "entry": "note"} for k, n in g.notes.items() if k not in g.entries]
    shutil.rmtree(root / SESSION / "labels" / REVIEWER, ignore_errors=True)
    half = len(labels) // 2
    write_old_file(root, SESSION, REVIEWER, labels[:half], journal=labels[half:] + entries)
    return dict(disk or {}), notes


def one_trial(root: Path, trial: int, rng: random.Random, old_file: bool = False) -> dict[str, int]:
    """Run a child, kill it at a random moment, check every acknowledged label (and, with
    ``old_file``, every label the format-1 file held before)."""
    before, before_notes = to_old_file(root) if old_file else ({}, {})
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", str(root), "--trial", str(trial)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "ready":
        proc.kill()
        raise RuntimeError("child did not start")
    time.sleep(rng.uniform(0.0, 0.25))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    lines = proc.stdout.read().splitlines()
    proc.stdout.close()
    acked: dict[str, str] = {}
    noted: dict[str, str] = {}
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[0] == "ack":
            acked[parts[1]] = parts[2]
        elif len(parts) == 3 and parts[0] == "ack-note":
            noted[parts[1]] = "" if parts[2] == "-" else parts[2]
    mid_write = bool(lines) and lines[-1].startswith("begin")
    disk, notes, orphans = read_back(root)
    count = len(acked) + len(noted)
    if disk is None:
        return {"acknowledged": count, "notes": len(noted), "mid": int(mid_write), "lost": count, "corrupt": 1,
                "orphans": orphans, "old": len(before) + len(before_notes),
            "in_move": int(bool(before) and mid_write and not acked and not noted)}
    lost = sum(1 for fid, verdict in acked.items() if disk.get(fid) != verdict and not overwritten_later(fid, lines))
    lost += sum(1 for fid, text in noted.items()
                if (notes.get(fid, "") != text or fid in disk) and not overwritten_later(fid, lines, "note"))
    decided = {line.split()[1] for line in lines if line.startswith("begin ")}
    lost += sum(1 for fid, verdict in before.items() if fid not in decided and disk.get(fid) != verdict)
    noted_now = {line.split()[1] for line in lines if line.startswith("begin-note ")}
    lost += sum(1 for fid, text in before_notes.items() if fid not in noted_now and notes.get(fid) != text)
    corrupt = int(bool(before) and (root / SESSION / "labels" / f"{REVIEWER}.toml").exists() and bool(acked))
    return {"acknowledged": count, "notes": len(noted), "mid": int(mid_write), "lost": lost, "corrupt": corrupt,
            "orphans": orphans, "old": len(before) + len(before_notes),
            "in_move": int(bool(before) and mid_write and not acked and not noted)}


def overwritten_later(fid: str, lines: list[str], kind: str = "") -> bool:
    """True when a later, unacknowledged save of the same failure (of a note entry: ``kind`` "note") may have landed."""
    suffix = f"-{kind}" if kind else ""
    last_ack = max(i for i, line in enumerate(lines) if line.startswith(f"ack{suffix} {fid} "))
    return any(line.startswith(f"begin{suffix} {fid} ") for line in lines[last_ack + 1 :])


def measure(trials: int, seed: int, old_file: bool = False) -> dict[str, int]:
    """Run the trials in a fresh folder and add up the figures."""
    rng = random.Random(seed)
    totals = {"trials": trials, "acknowledged": 0, "notes_acknowledged": 0, "kills_mid_write": 0, "lost": 0,
              "corrupt_files": 0, "orphan_temp_files": 0, "old_file": int(old_file), "old_labels": 0,
              "kills_inside_the_move": 0}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "sessions"
        make_folder(root)
        for trial in range(trials):
            r = one_trial(root, trial, rng, old_file)
            totals["acknowledged"] += r["acknowledged"]
            totals["notes_acknowledged"] += r["notes"]
            totals["kills_mid_write"] += r["mid"]
            totals["lost"] += r["lost"]
            totals["corrupt_files"] += r["corrupt"]
            totals["orphan_temp_files"] += r["orphans"]
            totals["old_labels"] += r["old"]
            totals["kills_inside_the_move"] += r["in_move"]
    return totals


def main() -> int:
    """Command line."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--trials", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--old-file", action="store_true",
                   help="start every trial from a format-1 file that the first decision moves into run files")
    p.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--trial", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args.child, args.trial)
        return 0
    started = time.monotonic()
    figures = measure(args.trials, args.seed, args.old_file)
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k:>18}: {v}")
        print(f"{'seconds':>18}: {time.monotonic() - started:.1f}")
    return 0 if figures["lost"] == figures["corrupt_files"] == figures["orphan_temp_files"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
