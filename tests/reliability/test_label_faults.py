"""Faults during a session: the decision is kept, nothing saved is lost, and it is saved after.

Every fault of :mod:`faultkit` (disk full and a read-only folder, each both patched and for real
on a tmpfs when mounting is permitted; the labels file replaced by a directory or a symlink) is
tried through the store (Labeller) and through the app (Pilot): label, fault, label more (an
error is shown, the decision is kept in memory, the labels saved before are intact), fault
removed, retry: every decision is on disk. A folder read-only from the start is another case
(labels go to the per-user folder: tests/store). Each fault hits either the run's labels file
(``run-file``: ``labels/alice/run1.toml``) or a format-1 file the decision must first move into
the new layout (``old-file``: ``labels/alice.toml``, the fault on the labels folder that holds it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from faultkit import FAULTS, NEEDS_MOUNT, Fault, ReplacedByDirectory, ReplacedBySymlink, mount_permitted
from labelkit import table, verdicts, write_old_file
from sessionkit import RunSpec, write_session

from reviewer.model.label import Verdict
from reviewer.store.fs.atomic import TEMP_MARK
from reviewer.store.labels import Labeller, LabelStore, SaveFailed, clear_cache
from reviewer.store.sessions.store import SessionStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
from uihelp import make_app, press, settle, sync  # noqa: E402
from uikit import basic_folder  # noqa: E402

REASONS = {
    "disk-full-patched-write": "No space left on device",
    "disk-full-tmpfs": "No space left on device",
    "read-only-patched-open": "Read-only file system",
    "read-only-remount": "Read-only file system",
    "file-replaced-by-directory": "not a regular file",
    "file-replaced-by-symlink": "a symbolic link",
}
MODES = ("run-file", "old-file")


@pytest.fixture(autouse=True)
def fresh_reads() -> None:
    clear_cache()


def need(fault_class: type[Fault]) -> None:
    """Skip a tmpfs fault where mounting is not permitted."""
    if fault_class in NEEDS_MOUNT and not mount_permitted():
        pytest.skip("mounting a tmpfs is not permitted here (needs root and CAP_SYS_ADMIN)")


def six_failures(root: Path) -> list[str]:
    """A session ``m`` whose one run fails six checks; their ids."""
    checks = [{"key": f"T{i}", "status": "fail", "message": f"check {i}"} for i in range(6)]
    write_session(root, "m", [RunSpec("run1", checks=checks)])
    return [f"m/run1#heldout:T{i}" for i in range(6)]


def fault_for(fault_class: type[Fault], root: Path, session: str, run: str, mode: str) -> Fault:
    """The fault on the run's file, or on the format-1 file (and the labels folder that holds it)."""
    if mode == "run-file":
        return fault_class(root / session / "labels" / "alice", f"{run}.toml")
    return fault_class(root / session / "labels", "alice.toml")


def saved_copy(fault: Fault) -> Path:
    """Where the labels saved before the fault are while it lasts."""
    if isinstance(fault, (ReplacedByDirectory, ReplacedBySymlink)):
        return fault.file.with_name(fault.file.name + ".aside")
    return fault.file


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fault_class", FAULTS, ids=[f.name for f in FAULTS])
def test_the_store_keeps_decisions_through_a_fault(tmp_path: Path, fault_class: type[Fault], mode: str) -> None:
    need(fault_class)
    root = tmp_path / "sessions"
    ids = six_failures(root)
    fault = fault_for(fault_class, root, "m", "run1", mode)
    fault.prepare()
    try:
        store = SessionStore(root)
        store.scan()
        labeller = Labeller(store, LabelStore(root, "alice"))
        if mode == "run-file":
            labeller.decide(ids[0], Verdict.SPECIFICATION)
            labeller.decide(ids[1], Verdict.CAPABILITY)
        else:  # an earlier version's file, there before this session
            write_old_file(root, "m", "alice", [table("run1", "heldout:T0", "specification"),
                                                table("run1", "heldout:T1", "capability")])
            assert labeller.labels.load(["m"]) == []  # as the app does on opening
        before = fault.file.read_bytes()
        fault.arm()
        for fid, verdict in ((ids[2], Verdict.SPECIFICATION), (ids[3], Verdict.DEFERRED)):
            with pytest.raises(SaveFailed, match=REASONS[fault.name]):
                labeller.decide(fid, verdict)
        assert labeller.labels.pending_count() == 2
        assert labeller.labels.get("m", "run1", "heldout:T2").verdict is Verdict.SPECIFICATION  # type: ignore[union-attr]
        assert saved_copy(fault).read_bytes() == before  # nothing saved before the fault is lost
        if isinstance(fault, ReplacedBySymlink):
            assert fault.target.read_bytes() == b'format = 1\nreviewer = "victim"\n'  # never written through
        assert labeller.labels.retry()  # still failing
        fault.clear()
        assert labeller.labels.retry() == []
        clear_cache()
        assert verdicts(root, "m") == {
            "m/run1#heldout:T0": "specification", "m/run1#heldout:T1": "capability",
            "m/run1#heldout:T2": "specification", "m/run1#heldout:T3": "deferred",
        }
        assert not (root / "m" / "labels" / "alice.toml").exists()
        assert labeller.labels.pending_count() == 0
        assert not [p for p in (root / "m" / "labels").rglob("*") if TEMP_MARK in p.name]
    finally:
        fault.close()


@pytest.mark.parametrize("fault_class", [ReplacedByDirectory, ReplacedBySymlink], ids=["directory", "symlink"])
def test_a_labels_file_removed_by_the_fault_gets_this_sessions_decisions_back(
        tmp_path: Path, fault_class: type[Fault]) -> None:
    root = tmp_path / "sessions"
    ids = six_failures(root)
    fault = fault_for(fault_class, root, "m", "run1", "run-file")
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
    assert verdicts(root, "m") == {"m/run1#heldout:T0": "specification", "m/run1#heldout:T1": "capability"}
    assert labeller.labels.take_restored() == [ids[0]]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fault_class", FAULTS, ids=[f.name for f in FAULTS])
@sync
async def test_the_app_shows_the_fault_keeps_the_decision_and_saves_it_after(
        tmp_path: Path, fault_class: type[Fault], mode: str) -> None:
    need(fault_class)
    root = basic_folder(tmp_path / "sessions")
    run = "roman-go--model-a"
    first = f"s1/{run}#heldout:TestToRoman"
    fault = fault_for(fault_class, root, "s1", run, mode)
    fault.prepare()
    if mode == "old-file":  # an earlier version's file holds a label already: this decision must move it first
        write_old_file(root, "s1", "alice", [table(run, "heldout:TestToRoman", "specification")])
    try:
        app = make_app(root, reviewer="alice")
        async with app.run_test(size=(200, 50)) as pilot:
            await settle(app, pilot)
            if mode == "run-file":
                await press(app, pilot, "s")
            assert verdicts(root, "s1") == {first: "specification"}
            before = fault.file.read_bytes()
            fault.arm()
            shown = app.session.selection.failure_id
            assert shown.startswith(f"s1/{run}#") and shown != first
            await press(app, pilot, "c")
            assert app.session.decisions.verdict(shown) == "capability"  # kept in memory, shown
            assert "1 decision not saved yet" in str(app.review_screen.query_one("#status").content)
            said = [n for n in app.notes if "not saved" in (n.title or "")]
            assert said and REASONS[fault.name] in str(said[-1].message)
            assert saved_copy(fault).read_bytes() == before
            app.watch_labels()
            assert app.session.labeller.labels.pending_count() == 1  # the fault is still there
            fault.clear()
            app.watch_labels()
            await settle(app, pilot)
            clear_cache()
            assert verdicts(root, "s1")[shown] == "capability" and verdicts(root, "s1")[first] == "specification"
            assert "not saved yet" not in str(app.review_screen.query_one("#status").content)
            assert any(n.title == "Saved" for n in app.notes)
            assert not (root / "s1" / "labels" / "alice.toml").exists()
    finally:
        fault.close()
