"""SIGKILL a labelling process at random moments, many of them inside a save; count what is lost.

    python tests/reliability/kill_during_save.py --trials 200 [--json] [--seed N] [--journal]

A child process labels failures in a loop through the app's own save path (Labeller.decide,
LabelStore, LabelFile: temp file, fsync, rename) and reports each label after decide()
returns. The parent kills it at a random moment, reads the labels back (the TOML and its
journal, as the store reads them), and after every trial restarts the app's start-up cleanup.
With ``--journal`` the child saves as it does for a big labels file (every decision appended to
the journal, ``REVIEWER_JOURNAL_FROM=0``) and folds the journal into the TOML every few
decisions, so kills land inside appends and inside folds. Every third step writes or removes
a note-only entry (``n`` on a failure with no label, Labeller.annotate) on a failure that is
never labelled, so note entries and their removals go through the same appends, folds and kills.
Figures: trials, acknowledged (labels and notes), notes_acknowledged, kills_mid_write, lost,
corrupt_files, orphan_temp_files, journal.
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
from reviewer.store.atomic import TEMP_MARK  # noqa: E402
from reviewer.store.labels import LabelStore  # noqa: E402

FOLD_EVERY = 7
"""With ``--journal``: the child folds its journal into the TOML after this many decisions."""

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


def child(root: Path, trial: int, journal: bool = False) -> None:
    """Label failures and write or remove note entries in a loop, reporting begin/ack lines; runs until killed."""
    from reviewer.store.labeller import Labeller
    from reviewer.store.sessions import SessionStore

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
        if journal and n % FOLD_EVERY == 0:
            out.write("begin fold\n")
            out.flush()
            labeller.labels.file(SESSION).fold()
            out.write("ack fold\n")
            out.flush()


def read_back(root: Path) -> tuple[dict[str, str] | None, dict[str, str], int]:
    """Labels on disk (None when the file is corrupt) and note entries after the start-up cleanup,
    and temp files left."""
    store = LabelStore(root, REVIEWER)
    lf = store.file(SESSION)  # start-up: cleans stale temp files
    folder = lf.path.parent
    orphans = sum(1 for p in folder.iterdir() if TEMP_MARK in p.name) if folder.is_dir() else 0
    if lf.error:  # the TOML or its journal cannot be read: corrupt
        return None, {}, orphans
    notes = {f"{SESSION}/{k[0]}#{k[1]}": n.note for k, n in lf.notes.items()}
    return {f"{SESSION}/{k[0]}#{k[1]}": lab.verdict.value for k, lab in lf.labels.items()}, notes, orphans


def one_trial(root: Path, trial: int, rng: random.Random, journal: bool = False) -> dict[str, int]:
    """Run a child, kill it at a random moment, check every acknowledged label."""
    env = {**os.environ, "REVIEWER_JOURNAL_FROM": "0"} if journal else None
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", str(root), "--trial", str(trial), *(["--journal"] if journal else [])],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
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
        if len(parts) == 3 and parts[0] == "ack" and parts[1] != "fold":
            acked[parts[1]] = parts[2]
        elif len(parts) == 3 and parts[0] == "ack-note":
            noted[parts[1]] = "" if parts[2] == "-" else parts[2]
    mid_write = bool(lines) and lines[-1].startswith("begin")
    disk, notes, orphans = read_back(root)
    count = len(acked) + len(noted)
    if disk is None:
        return {"acknowledged": count, "notes": len(noted), "mid": int(mid_write), "lost": count, "corrupt": 1,
                "orphans": orphans}
    lost = sum(1 for fid, verdict in acked.items() if disk.get(fid) != verdict and not overwritten_later(fid, lines))
    lost += sum(1 for fid, text in noted.items()
                if (notes.get(fid, "") != text or fid in disk) and not overwritten_later(fid, lines, "note"))
    return {"acknowledged": count, "notes": len(noted), "mid": int(mid_write), "lost": lost, "corrupt": 0,
            "orphans": orphans}


def overwritten_later(fid: str, lines: list[str], kind: str = "") -> bool:
    """True when a later, unacknowledged save of the same failure (of a note entry: ``kind`` "note") may have landed."""
    suffix = f"-{kind}" if kind else ""
    last_ack = max(i for i, line in enumerate(lines) if line.startswith(f"ack{suffix} {fid} "))
    return any(line.startswith(f"begin{suffix} {fid} ") for line in lines[last_ack + 1 :])


def measure(trials: int, seed: int, journal: bool = False) -> dict[str, int]:
    """Run the trials in a fresh folder and add up the figures."""
    rng = random.Random(seed)
    totals = {"trials": trials, "acknowledged": 0, "notes_acknowledged": 0, "kills_mid_write": 0, "lost": 0,
              "corrupt_files": 0, "orphan_temp_files": 0, "journal": int(journal)}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "sessions"
        make_folder(root)
        for trial in range(trials):
            r = one_trial(root, trial, rng, journal)
            totals["acknowledged"] += r["acknowledged"]
            totals["notes_acknowledged"] += r["notes"]
            totals["kills_mid_write"] += r["mid"]
            totals["lost"] += r["lost"]
            totals["corrupt_files"] += r["corrupt"]
            totals["orphan_temp_files"] += r["orphans"]
    return totals


def main() -> int:
    """Command line."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--trials", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--journal", action="store_true", help="save as a big labels file does: through the journal")
    p.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--trial", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args.child, args.trial, args.journal)
        return 0
    started = time.monotonic()
    figures = measure(args.trials, args.seed, args.journal)
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k:>18}: {v}")
        print(f"{'seconds':>18}: {time.monotonic() - started:.1f}")
    return 0 if figures["lost"] == figures["corrupt_files"] == figures["orphan_temp_files"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
