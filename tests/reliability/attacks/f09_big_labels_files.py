"""Finding 9: big labels files freeze the screen: every decision rewrote the whole file, and another
reviewer's huge file was parsed whole.

Live: what a decision used to cost, measured on this very file (parse it with ``tomli`` and
write it again with ``tomli_w``, as every save did) for a reviewer's file of 50,000 labels
(12 MB), and the size of another reviewer's file (70 MB, over the read budget) that a plain
reader parses whole. Contained: a decision through the store (``Labeller.decide``, the app's
and the commands' path) takes a journal line, not a rewrite (the TOML's bytes do not change),
under 50 ms each, or, on a machine so loaded that the old rewrite itself took seconds, under a
twentieth of it (each line is fsynced, and a shared 2-core box running other tests beside this
one has seen the first, file-creating decision at 56 ms against a 4.6 s rewrite); a fresh store reads every decision back; the other reviewer's file is reported
as over the budget and not read (no labels from it, the process's peak memory barely moves).
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
    from reviewer.store.labeller import Labeller
    try:
        from reviewer.store.labelread import READ_BUDGET, clear_cache
    except ImportError:  # the code before the fix: no budget, no cache
        READ_BUDGET, clear_cache = 64 << 20, lambda: None  # noqa: N806
    from reviewer.store.labels import LabelStore, read_all_labels
    from reviewer.store.sessions import SessionStore
    from reviewer.store.tomlfile import parse_toml_bytes

    root = small_folder(work / "sessions")
    folder = root / "s2" / "labels"
    folder.mkdir()
    rows = [(f"gone-{i // 20:05d}", f"heldout:T{i % 20:02d}", "capability", "sha256:" + f"{i:064x}") for i in range(LABELS)]
    toml = folder / "alice.toml"
    toml.write_bytes(label_file("s2", "alice", rows))
    t0 = time.perf_counter()
    tomli_w.dumps(parse_toml_bytes(toml.read_bytes()))  # what every decision did: parse it all, write it all
    old_s = time.perf_counter() - t0

    store = SessionStore(root)
    store.scan()
    labeller = Labeller(store, LabelStore(root, "alice"))
    labeller.labels.load(["s2"])
    before = toml.read_bytes()
    took = []
    for n, fid in enumerate(["s2/r3#heldout:test_connected", "s2/r3#heldout:test_trail"] * 3):
        t0 = time.perf_counter()
        labeller.decide(fid, Verdict.SPECIFICATION if n % 2 else Verdict.CAPABILITY)
        took.append(time.perf_counter() - t0)
    unchanged = toml.read_bytes() == before
    clear_cache()
    fresh = LabelStore(root, "alice").file("s2")
    back = (fresh.get("r3", "heldout:test_connected"), fresh.get("r3", "heldout:test_trail"))
    read_back = len(fresh.labels) == LABELS + 2 and [lab.verdict for lab in back if lab] == [
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
    bob = [f for f in files if f.path.name == "bob.toml"]
    reported = len(bob) == 1 and not bob[0].labels and "budget" in bob[0].error
    worst_ms = max(took) * 1000
    live = old_s > 0.3 and live_other
    bound_ms = max(50.0, old_s * 1000 / 20)
    ok = worst_ms < bound_ms and unchanged and read_back and reported and grew_mb < 64
    detail = (f"the old save (parse and write {LABELS:,} labels, {toml.stat().st_size / 1e6:.1f} MB) takes {old_s:.2f} s a "
              f"decision; through the store now: worst {worst_ms:.1f} ms of {len(took)} decisions (bound "
              f"{bound_ms:.0f} ms), TOML "
              f"{'untouched (journal lines)' if unchanged else 'REWRITTEN'}, read back by a fresh store: {read_back}; "
              f"bob's {other.stat().st_size / 1e6:.0f} MB file: {bob[0].error if bob else 'MISSING'!r}, peak memory grew "
              f"{grew_mb:.0f} MB")
    return Outcome(ok, live, detail, {"old_decision_s": round(old_s, 2), "decision_ms_max": round(worst_ms, 2),
                                      "other_file_mb": round(other.stat().st_size / 1e6), "rss_growth_mb": round(grew_mb)})
