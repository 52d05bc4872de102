"""Finding 2: ``<session>/labels`` is a symlink (a repository can commit one) to a folder elsewhere.

Live: the link resolves outside the sessions folder and a plain write into it lands there.
Then reviewer writes the ways a user does: ``reviewer label``, the store's ``Labeller.decide``,
``reviewer adjudicate`` (the adjudications file), and the app (``s``), on a folder whose first
session's ``labels`` links elsewhere. Contained: nothing is created behind the link, each write
is refused with a message naming the link (the CLI exits 1, the store raises ``SaveFailed``),
the decision stays pending in memory, and a label in the other session (a real folder) is
still saved.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from attacks import Outcome

FINDING = 2
TITLE = "a symlinked <session>/labels folder: labels and adjudications written outside the sessions folder"
F1 = "s1/r1#heldout:TestToRoman"
F2 = "s2/r3#heldout:test_connected"


def check(work: Path) -> Outcome:
    """Link ``s1/labels`` elsewhere, show it is live, then write through every path."""
    from gitkit import cli
    from sessionkit import small_folder

    from reviewer.model.label import Verdict
    from reviewer.store.labels import Labeller, LabelStore, SaveFailed
    from reviewer.store.sessions.store import SessionStore

    root = small_folder(work / "sessions")
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, root / "s1" / "labels")
    probe = root / "s1" / "labels" / "probe.toml"
    probe.write_text("x\n")
    live = (elsewhere / "probe.toml").exists() and not probe.resolve().is_relative_to(root.resolve())
    (elsewhere / "probe.toml").unlink()

    notes, refused = [], 0
    done = cli("label", str(root), "--failure", F1, "--verdict", "capability", "--reviewer", "alice")
    refused += done.returncode == 1 and "symbolic link" in done.stderr
    notes.append(f"reviewer label: exit {done.returncode} {done.stderr.strip()[:90]}")
    store = SessionStore(root)
    store.scan()
    labeller = Labeller(store, LabelStore(root, "bob"))
    try:
        labeller.decide(F1, Verdict.SPECIFICATION)
        notes.append("Labeller.decide saved")
    except SaveFailed as exc:
        refused += "symbolic link" in str(exc)
    pending = labeller.labels.pending_count() == 1
    labeller.decide(F2, Verdict.CAPABILITY)  # the other session's labels folder is real
    other_saved = (root / "s2" / "labels" / "bob" / "r3.toml").is_file()
    done = cli("adjudicate", str(root), "--failure", F1, "--verdict", "capability", "--reviewer", "carol")
    refused += done.returncode == 1 and "symbolic link" in done.stderr
    notes.append(f"reviewer adjudicate: exit {done.returncode}")
    refused += asyncio.run(app_label(root))
    outside = sorted(p.name for p in elsewhere.iterdir())
    ok = refused == 4 and not outside and pending and other_saved
    detail = (f"the link resolves outside and a plain write lands there: {live}; reviewer refused {refused}/4 writes "
              f"(label, decide, adjudicate, the app's s), files behind the link: {outside or 'none'}, decision kept "
              f"pending: {pending}, the other session still saved: {other_saved}; " + "; ".join(notes))
    return Outcome(ok, live, detail, {"refused": refused, "written_outside": len(outside)})


async def app_label(root: Path) -> int:
    """Press ``s`` in the app on the linked session's failure; 1 when the app says it was not saved."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "ui"))
    from uihelp import make_app, press, settle

    app = make_app(root, reviewer="dora", start_failure=F1)
    async with app.run_test(size=(200, 50), notifications=True) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "s")
        await settle(app, pilot)
        said = " ".join(n.message for n in app.notes)
        return int("symbolic link" in said and app.session.labeller.labels.pending_count() >= 1)
