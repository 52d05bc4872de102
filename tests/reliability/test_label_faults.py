"""Faults during a session: the decision is kept, nothing saved is lost, and it is saved after.

Every fault of :mod:`faultkit` (disk full and a read-only folder, each both patched and for real
on a tmpfs when mounting is permitted; the labels file replaced by a directory or a symlink) is
tried through the store (Labeller) and through the app (Pilot): label, fault, label more (an
error is shown, the decision is kept in memory, the labels saved before are intact), fault
removed, retry: every decision is on disk. A folder read-only from the start is another case
(labels go to the per-user folder: tests/store). Each fault also hits a big labels file, whose
decisions go to its journal (``journal``: the fault on the journal, ``journal-toml``: on the
TOML beside it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from faultkit import FAULTS, NEEDS_MOUNT, Fault, ReplacedByDirectory, ReplacedBySymlink, mount_permitted
from sessionkit import RunSpec, write_session

import reviewer.store.labeljournal as jr
from reviewer.model.label import Verdict
from reviewer.store.atomic import TEMP_MARK
from reviewer.store.labelcodec import labels_to_bytes
from reviewer.store.labeller import Labeller, SaveFailed
from reviewer.store.labelread import clear_cache, read_labels_file
from reviewer.store.labels import LabelStore
from reviewer.store.sessions import SessionStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
from uihelp import make_app, press, settle, sync  # noqa: E402
from uikit import basic_folder  # noqa: E402

REASONS = {
    "disk-full-patched-write": "No space left on device",
    "disk-full-tmpfs": "No space left on device",
    "read-only-patched-open": "Read-only file system",
    "read-only-remount": "Read-only file system",
    "file-replaced-by-directory": "not a regular file",
    "file-replaced-by-symlink": "not a regular file",
}
MODES = {"toml": "alice.toml", "journal": "alice.journal", "journal-toml": "alice.toml"}
"""How labels are saved, and the file the fault hits."""


@pytest.fixture(params=list(MODES), ids=list(MODES))
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """A small labels file (rewritten whole) or a big one (decisions appended to its journal)."""
    if request.param != "toml":
        monkeypatch.setattr(jr, "JOURNAL_FROM", 0)
    clear_cache()
    return str(request.param)


def on_disk(path: Path, session: str) -> dict[str, str]:
    """``run#check`` -> verdict in a labels file (its journal applied, as the store reads it)."""
    toml = path.with_suffix(".toml")
    if not toml.is_file():
        return {}
    clear_cache()
    parsed = read_labels_file(toml, session, "alice")
    return {f"{run}#{check}": lab.verdict.value for (run, check), lab in parsed.labels.items() if run != "gone"}


def big_file(folder: Path) -> None:
    """A big file's TOML, there before the app starts: the app's decisions go to its journal."""
    (folder / "alice.toml").write_bytes(labels_to_bytes("s1", "alice", {}))


def pad_to_block(journal: Path) -> None:
    """Append a label of a run that is gone so the journal ends on a 4 KiB block: a full disk refuses the next line."""
    from dataclasses import replace

    from reviewer.model.label import Label

    key = ("gone", "heldout:padding")
    pad = Label("s1", *key, Verdict.DEFERRED, "alice", "2020-01-01T00:00:00Z")
    need = -(journal.stat().st_size + len(jr.record_line(key, pad, ""))) % 4096
    jr.append(journal, jr.record_line(key, replace(pad, note="p" * need), ""), b"")
    assert journal.stat().st_size % 4096 == 0


def need(fault_class: type[Fault]) -> None:
    """Skip a tmpfs fault where mounting is not permitted."""
    if fault_class in NEEDS_MOUNT and not mount_permitted():
        pytest.skip("mounting a tmpfs is not permitted here (needs root and CAP_SYS_ADMIN)")


def six_failures(root: Path) -> list[str]:
    """A session ``m`` whose one run fails six checks; their ids."""
    checks = [{"key": f"T{i}", "status": "fail", "message": f"check {i}"} for i in range(6)]
    write_session(root, "m", [RunSpec("run1", checks=checks)])
    return [f"m/run1#heldout:T{i}" for i in range(6)]


def saved_copy(fault: Fault) -> Path:
    """Where the labels saved before the fault are while it lasts."""
    if isinstance(fault, (ReplacedByDirectory, ReplacedBySymlink)):
        return fault.file.with_name(fault.file.name + ".aside")
    return fault.file


@pytest.mark.parametrize("fault_class", FAULTS, ids=[f.name for f in FAULTS])
def test_the_store_keeps_decisions_through_a_fault(tmp_path: Path, fault_class: type[Fault], mode: str) -> None:
    need(fault_class)
    root = tmp_path / "sessions"
    ids = six_failures(root)
    fault = fault_class(root / "m" / "labels", MODES[mode])
    fault.prepare()
    try:
        store = SessionStore(root)
        store.scan()
        labeller = Labeller(store, LabelStore(root, "alice"))
        labeller.decide(ids[0], Verdict.SPECIFICATION)  # a journal starts once the TOML exists
        labeller.decide(ids[1], Verdict.CAPABILITY)
        assert fault.dir.joinpath("alice.journal").exists() == (mode != "toml")
        before = fault.file.read_bytes()
        fault.arm()
        # a journal line longer than a block: a full disk cannot take it in the slack of the journal's last block
        note = "n" * 5000 if mode != "toml" else None
        for fid, verdict in ((ids[2], Verdict.SPECIFICATION), (ids[3], Verdict.DEFERRED)):
            with pytest.raises(SaveFailed, match=REASONS[fault.name]):
                labeller.decide(fid, verdict, note=note)
        assert labeller.labels.pending_count() == 2
        assert labeller.labels.get("m", "run1", "heldout:T2").verdict is Verdict.SPECIFICATION  # type: ignore[union-attr]
        assert saved_copy(fault).read_bytes() == before  # nothing saved before the fault is lost
        if isinstance(fault, ReplacedBySymlink):
            assert fault.target.read_bytes() == b'format = 1\nreviewer = "victim"\n'  # never written through
        assert labeller.labels.retry()  # still failing
        fault.clear()
        assert labeller.labels.retry() == []
        assert on_disk(fault.file, "m") == {
            "run1#heldout:T0": "specification", "run1#heldout:T1": "capability",
            "run1#heldout:T2": "specification", "run1#heldout:T3": "deferred",
        }
        assert labeller.labels.pending_count() == 0
        assert not [p for p in fault.dir.iterdir() if TEMP_MARK in p.name]
    finally:
        fault.close()


@pytest.mark.parametrize("fault_class", [ReplacedByDirectory, ReplacedBySymlink], ids=["directory", "symlink"])
def test_a_labels_file_removed_by_the_fault_gets_this_sessions_decisions_back(
        tmp_path: Path, fault_class: type[Fault]) -> None:
    root = tmp_path / "sessions"
    ids = six_failures(root)
    fault = fault_class(root / "m" / "labels", "alice.toml")
    store = SessionStore(root)
    store.scan()
    labeller = Labeller(store, LabelStore(root, "alice"))
    labeller.decide(ids[0], Verdict.SPECIFICATION)
    fault.arm()
    with pytest.raises(SaveFailed):
        labeller.decide(ids[1], Verdict.CAPABILITY)
    if fault.file.is_symlink():
        fault.file.unlink()
    else:
        fault.file.rmdir()  # the fault goes, but the file it replaced does not come back
    assert labeller.labels.retry() == []
    assert on_disk(fault.file, "m") == {"run1#heldout:T0": "specification", "run1#heldout:T1": "capability"}
    assert labeller.labels.take_restored() == [ids[0]]


@pytest.mark.parametrize("journal", [False, True], ids=["toml", "journal"])
@pytest.mark.parametrize("fault_class", FAULTS, ids=[f.name for f in FAULTS])
@sync
async def test_the_app_shows_the_fault_keeps_the_decision_and_saves_it_after(
        tmp_path: Path, fault_class: type[Fault], journal: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    need(fault_class)
    root = basic_folder(tmp_path / "sessions")
    fault = fault_class(root / "s1" / "labels", "alice.journal" if journal else "alice.toml")
    fault.prepare()
    if journal:  # a big file: its TOML is there already and the app's decisions go to its journal
        monkeypatch.setattr(jr, "JOURNAL_FROM", 0)
        big_file(fault.dir)
    first, second = "roman-go--model-a#heldout:TestToRoman", "roman-go--model-a#heldout:TestRoundTrip"
    try:
        app = make_app(root, reviewer="alice")
        async with app.run_test(size=(200, 50)) as pilot:
            await settle(app, pilot)
            await press(app, pilot, "s")
            assert on_disk(fault.file, "s1") == {first: "specification"}
            if journal:
                pad_to_block(fault.file)
            before = fault.file.read_bytes()
            fault.arm()
            await press(app, pilot, "c")
            assert app.session.decisions.progress.verdict(f"s1/{second}") == "capability"  # kept in memory, shown
            assert "1 decision not saved yet" in str(app.review_screen.query_one("#status").content)
            shown = [n for n in app.notes if "not saved" in (n.title or "")]
            assert shown and REASONS[fault.name] in str(shown[-1].message)
            assert saved_copy(fault).read_bytes() == before
            app.watch_labels()
            assert app.session.labeller.labels.pending_count() == 1  # the fault is still there
            fault.clear()
            app.watch_labels()
            await settle(app, pilot)
            assert on_disk(fault.file, "s1") == {first: "specification", second: "capability"}
            assert "not saved yet" not in str(app.review_screen.query_one("#status").content)
            assert any(n.title == "Saved" for n in app.notes)
    finally:
        fault.close()
