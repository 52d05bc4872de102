"""Finding 18 (finding 8 of the 'promises under attack' pass): two ``[[label]]`` tables for one failure.

A hand merge (or a ``git merge`` resolved by keeping both sides) leaves alice's labels file with
two tables for ``s2/r3#heldout:test_connected``: specification, labelled 2026-11-29, and below
it capability, labelled 2026-11-01. Before the fix the later table won although it was older,
``reviewer check`` said nothing, and the next save (a decision on any other failure of that file)
deleted the other verdict.

Live: the file really holds two different verdicts for that one failure, the newer one first
(read with plain ``tomllib``). Contained, through the command line a user runs (the ``reviewer``
package this process imports) and the app: the newer verdict is the one in force everywhere
(``failures``, ``show``, ``export``); ``check`` exits non-zero and names the duplicate, and so
do ``failures``, ``show``, ``export``, ``stats`` and ``agreement`` on stderr (non-zero exit); the
app lists it in its E list; a decision on another failure of the same file keeps both verdicts
on disk; only a decision on that failure replaces them, and the command says it did.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tomllib
from pathlib import Path

from clikit import imported_cli as cli

from attacks import Outcome

FINDING = 18
TITLE = "two [[label]] tables for one failure: the older wins, check is silent, the next save drops one"
FAILURE = "s2/r3#heldout:test_connected"
OTHER = "s2/r3#heldout:test_trail"
TABLE = ('\n[[label]]\ncheck = "heldout:test_connected"\nevidence = ""\nlabelled_at = "{at}"\nnote = "{note}"\n'
         'run = "r3"\ntags = []\nverdict = "{verdict}"\n')


def make_folder(work: Path) -> Path:
    """The small folder, alice's format-1 file in s2 with the duplicate (newer first), bob's label beside it."""
    from sessionkit import small_folder

    root = small_folder(work / "sessions")
    labels = root / "s2" / "labels"
    labels.mkdir()
    (labels / "alice.toml").write_text(
        'format = 1\nreviewer = "alice"\nsession = "s2"\n'
        + TABLE.format(at="2026-11-29T12:00:00Z", note="newer", verdict="specification")
        + TABLE.format(at="2026-11-01T12:00:00Z", note="older", verdict="capability"))
    (labels / "bob.toml").write_text('format = 1\nreviewer = "bob"\nsession = "s2"\n'
                                     + TABLE.format(at="2026-11-02T12:00:00Z", note="", verdict="capability"))
    return root


def verdicts_on_disk(root: Path) -> list[str]:
    """Every verdict alice's files hold for the failure, read with plain tomllib (either layout)."""
    found = []
    for path in sorted((root / "s2" / "labels").rglob("*.toml")):
        if path.name.startswith("alice") or path.parent.name == "alice":
            doc = tomllib.loads(path.read_text())
            found += [t["verdict"] for t in doc.get("label", []) if t.get("check") == "heldout:test_connected"]
    return sorted(found)


def names_it(done: subprocess.CompletedProcess[str]) -> bool:
    """The command exited non-zero and said there are two labels on the failure."""
    said = done.stdout + done.stderr
    return done.returncode != 0 and "2 labels on s2/r3#heldout:test_connected" in said


def check(work: Path) -> Outcome:
    """Build the duplicate, show it is there, then run every command and the app over it."""
    root = make_folder(work)
    doc = tomllib.loads((root / "s2" / "labels" / "alice.toml").read_text())
    tables = [t for t in doc["label"] if t["check"] == "heldout:test_connected"]
    live = len(tables) == 2 and tables[0]["verdict"] != tables[1]["verdict"] and tables[0]["labelled_at"] > tables[1][
        "labelled_at"]
    results: dict[str, bool] = {}
    notes: list[str] = []
    done = cli(work, "check", str(root))
    results["check"] = names_it(done)
    notes.append(f"check: exit {done.returncode} {done.stdout.strip().splitlines()[-1][:80] if done.stdout.strip() else ''}")
    done = cli(work, "failures", str(root), "--reviewer", "alice", "--json")
    rows = {r["id"]: r["verdict"] for r in json.loads(done.stdout or "[]")}
    results["failures"] = names_it(done) and rows.get(FAILURE) == "specification"
    notes.append(f"failures: {FAILURE} = {rows.get(FAILURE)}, exit {done.returncode}")
    done = cli(work, "show", str(root), "--failure", FAILURE, "--reviewer", "alice")
    results["show"] = names_it(done) and "label specification" in done.stdout
    done = cli(work, "export", str(root), "--reviewer", "alice", "--format", "jsonl")
    exported = [json.loads(x) for x in done.stdout.splitlines() if x.strip()]
    results["export"] = names_it(done) and [(r["check"], r["verdict"]) for r in exported] == [
        ("heldout:test_connected", "specification")]
    results["stats"] = names_it(cli(work, "stats", str(root), "--reviewer", "alice"))
    results["agreement"] = names_it(cli(work, "agreement", str(root)))
    results["app"] = asyncio.run(app_lists(root))
    done = cli(work, "label", str(root), "--failure", OTHER, "--verdict", "capability", "--reviewer", "alice")
    kept = verdicts_on_disk(root)
    results["kept on the next save"] = done.returncode == 0 and kept == ["capability", "specification"]
    notes.append(f"after labelling {OTHER}: alice's files hold {kept} for {FAILURE}")
    done = cli(work, "label", str(root), "--failure", FAILURE, "--verdict", "capability", "--reviewer", "alice")
    results["resolved only by deciding it"] = (done.returncode == 0 and verdicts_on_disk(root) == ["capability"]
                                               and "replaces the 2 labels" in done.stdout)
    missed = [k for k, ok in results.items() if not ok]
    detail = (f"alice's file holds {[(t['verdict'], t['labelled_at']) for t in tables]} for {FAILURE}; "
              f"contained: {len(results) - len(missed)}/{len(results)}"
              + (f", not contained: {', '.join(missed)}" if missed else "") + "; " + "; ".join(notes))
    return Outcome(not missed, live, detail, {"contained": len(results) - len(missed), "cases": len(results)})


async def app_lists(root: Path) -> bool:
    """The app opened on the folder as alice: the duplicate is in its E list (what did not load, and why)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "ui"))
    from uihelp import make_app, settle

    app = make_app(root, reviewer="alice")
    async with app.run_test(size=(200, 50), notifications=True) as pilot:
        await settle(app, pilot)
        listed = [f"{e.path}: {e.reason}" for e in app.session.folder.load_errors]
        return any("2 labels on s2/r3#heldout:test_connected" in text for text in listed)
