"""Finding 9: big labels files freeze the screen: every decision rewrote the whole file, and another
reviewer's huge file was parsed whole.

Live: what a decision used to cost, measured on this very file (parse it with ``tomli`` and
write it again with ``tomli_w``, as every save did) for a reviewer's file of 50,000 labels
(12 MB, format 1, as a repository of an earlier version holds it), and the size of another
reviewer's file (70 MB, over the read budget) that a plain reader parses whole. Contained: the
first decision through the store (``Labeller.decide``, the app's and the commands' path) moves
the file into one small file per run, once (its time is a figure of its own); every decision
after it rewrites one run's file, under 50 ms each, or, on a machine so loaded that the old
rewrite itself took seconds, under a twentieth of it (each write is fsynced twice, and a shared
2-core box running other tests beside this one is slow at that); a fresh store reads every label
back; the other reviewer's file is reported as over the budget and not read (no labels from it,
the process's peak memory barely moves).
The app's own figure (``s`` until on disk, at 200, 20,000 and 200,000 labels) is the benchmark's:
``python tests/bench/labels_scale.py``.
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

from attacks import Outcome

FINDING = 9
TITLE = "a 50,000-label file rewritten at every decision; another reviewer's 70 MB file parsed whole"
LABELS = 50_000
OTHER_MB = 70


def check(work: Path) -> Outcome:
    """Build the two files, time the old rewrite, then decide through the store and read the others."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import tomli_w
    from sessionkit import small_folder
    from synth import label_file

    from reviewer.model.label import Verdict
    from reviewer.store.fs.tomlfile import parse_toml_bytes
    from reviewer.store.labels import READ_BUDGET, Labeller, LabelStore, clear_cache, read_all_labels
    from reviewer.store.sessions.store import SessionStore

    root = small_folder(work / "sessions")
    folder = root / "s2" / "labels"
    folder.mkdir()
    rows = [(f"gone-{i // 20:05d}", f"heldout:T{i % 20:02d}", "capability", "sha256:" + f"{i:064x}") for i in range(LABELS)]
    toml = folder / "alice.toml"
    toml.write_bytes(label_file("s2", "alice", rows))
    t0 = time.perf_counter()
    tomli_w.dumps(parse_toml_bytes(toml.read_bytes()))  # what every decision did: parse it all, write it all
    old_s = time.perf_counter() - t0
    size_mb = toml.stat().st_size / 1e6

    store = SessionStore(root)
    store.scan()
    labeller = Labeller(store, LabelStore(root, "alice"))
    labeller.labels.load(["s2"])
    t0 = time.perf_counter()
    labeller.decide("s2/r3#heldout:test_connected", Verdict.DEFERRED)  # the first decision moves the file, once
    move_s = time.perf_counter() - t0
    moved = not toml.exists() and len(list((folder / "alice").iterdir())) == LABELS // 20 + 1
    took = []
    for n, fid in enumerate(["s2/r3#heldout:test_connected", "s2/r3#heldout:test_trail"] * 3):
        t0 = time.perf_counter()
        labeller.decide(fid, Verdict.SPECIFICATION if n % 2 else Verdict.CAPABILITY)
        took.append(time.perf_counter() - t0)
    clear_cache()
    fresh = LabelStore(root, "alice")
    back = (fresh.get("s2", "r3", "heldout:test_connected"), fresh.get("s2", "r3", "heldout:test_trail"))
    fresh.load(["s2"])
    read_back = len(fresh.mine_all()) == LABELS + 2 and [lab.verdict for lab in back if lab] == [
        Verdict.CAPABILITY, Verdict.SPECIFICATION]

    other = folder / "bob.toml"
    block = label_file("s2", "bob", [(f"b{i:06d}", "heldout:T00", "capability", "") for i in range(5000)]).split(b"\n", 3)[3]
    with open(other, "wb") as out:
        out.write(b'format = 1\nreviewer = "bob"\nsession = "s2"\n')
        while out.tell() < OTHER_MB << 20:
            out.write(block)
    live_other = other.stat().st_size > READ_BUDGET
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    files = read_all_labels(root, ["s2"])
    grew_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) / 1024
    bob = [f for f in files if f.stem == "bob"]
    reported = len(bob) == 1 and not bob[0].labels and "budget" in " ".join(bob[0].problems)
    worst_ms = max(took) * 1000
    live = old_s > 0.3 and live_other
    bound_ms = max(50.0, old_s * 1000 / 20)
    ok = worst_ms < bound_ms and moved and read_back and reported and grew_mb < 64
    detail = (f"the old save (parse and write {LABELS:,} labels, {size_mb:.1f} MB) takes {old_s:.2f} s a "
              f"decision; through the store now: the first decision moved the file into one file per run in "
              f"{move_s:.2f} s (moved: {moved}), then worst {worst_ms:.1f} ms of {len(took)} decisions (bound "
              f"{bound_ms:.0f} ms), read back by a fresh store: {read_back}; "
              f"bob's {other.stat().st_size / 1e6:.0f} MB file: {bob[0].problems if bob else 'MISSING'!r}, peak memory grew "
              f"{grew_mb:.0f} MB")
    return Outcome(ok, live, detail, {"old_decision_s": round(old_s, 2), "move_s": round(move_s, 2),
                                      "decision_ms_max": round(worst_ms, 2),
                                      "other_file_mb": round(other.stat().st_size / 1e6), "rss_growth_mb": round(grew_mb)})
