"""Labels: saved at once, atomically, per reviewer, merged with outside changes, never clobbered."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from reviewer.model.label import Verdict, reviewer_file_stem
from reviewer.store.labelfile import parse_labels
from reviewer.store.labeller import Labeller, SaveFailed
from reviewer.store.labels import LabelStore, read_all_labels
from reviewer.store.sessions import SessionStore

F1 = "s1/r1#heldout:TestToRoman"
F2 = "s2/r3#heldout:test_connected"
F3 = "s2/r3#heldout:test_trail"


def labeller(folder: Path, who: str = "alice") -> Labeller:
    store = SessionStore(folder)
    store.scan()
    return Labeller(store, LabelStore(folder, who), clock=lambda: "2026-11-29T12:00:00Z")


def test_decision_is_on_disk_before_decide_returns(folder: Path) -> None:
    lab = labeller(folder)
    lab.decide(F2, Verdict.SPECIFICATION, note="oracle wants yes", tags=("vocabulary-mismatch",))
    path = folder / "s2" / "labels" / "alice.toml"
    parsed = parse_labels(path.read_bytes(), "s2", "?")
    [label] = parsed.labels.values()
    assert (label.run, label.check, label.verdict, label.note, label.tags) == (
        "r3", "heldout:test_connected", Verdict.SPECIFICATION, "oracle wants yes", ("vocabulary-mismatch",))
    assert label.evidence.startswith("sha256:")
    assert not [p for p in path.parent.iterdir() if p.name != "alice.toml"]


def test_files_are_deterministic(folder: Path, tmp_path: Path) -> None:
    a = labeller(folder)
    a.decide(F3, Verdict.CAPABILITY)
    a.decide(F2, Verdict.SPECIFICATION)
    first = (folder / "s2" / "labels" / "alice.toml").read_bytes()
    a.clear(F2)
    a.decide(F2, Verdict.SPECIFICATION)
    assert (folder / "s2" / "labels" / "alice.toml").read_bytes() == first
    assert first.index(b"test_connected") < first.index(b"test_trail")


def test_undo_restores_previous_state(folder: Path) -> None:
    a = labeller(folder)
    a.decide(F1, Verdict.SPECIFICATION)
    a.decide(F1, Verdict.CAPABILITY)
    a.undo()
    assert a.labels.get("s1", "r1", "heldout:TestToRoman").verdict is Verdict.SPECIFICATION
    a.undo()
    assert a.labels.get("s1", "r1", "heldout:TestToRoman") is None
    assert parse_labels((folder / "s1" / "labels" / "alice.toml").read_bytes(), "s1", "?").labels == {}
    assert a.undo() is None


def test_two_reviewers_write_separate_files(folder: Path) -> None:
    labeller(folder, "alice").decide(F1, Verdict.SPECIFICATION)
    labeller(folder, "Bob Smith").decide(F1, Verdict.CAPABILITY)
    names = sorted(p.name for p in (folder / "s1" / "labels").iterdir())
    assert names == sorted(["alice.toml", reviewer_file_stem("Bob Smith") + ".toml"])
    files = read_all_labels(folder, ["s1"])
    assert sorted((f.reviewer, f.labels[0].verdict.value) for f in files) == [
        ("Bob Smith", "capability"), ("alice", "specification")]


@pytest.mark.parametrize("name", ["a/b", "..", "../../etc", "Zoë", "a b", "ALICE", "alice+x", "", "名前", "a\x00b"])
def test_reviewer_file_names_are_safe(name: str) -> None:
    stem = reviewer_file_stem(name)
    assert stem and "/" not in stem and "\x00" not in stem and stem not in (".", "..")
    assert stem.isascii() and not stem.startswith(".")


def test_reviewer_file_names_do_not_collide() -> None:
    names = ["alice", "Alice", "ALICE", "a/b", "a-b", "a b", "a_b", "..", "zoë", "zoe", "Zoë"]
    stems = [reviewer_file_stem(n) for n in names]
    assert len(set(s.lower() for s in stems)) == len(names)


def test_outside_change_is_merged_not_clobbered(folder: Path) -> None:
    a1 = labeller(folder)
    a1.decide(F2, Verdict.SPECIFICATION)
    a2 = labeller(folder)  # a second instance, same reviewer
    a2.decide(F3, Verdict.CAPABILITY)
    a1.decide(F1, Verdict.CAPABILITY)  # a1 saves to s1: unrelated
    a1.decide(F2, Verdict.CAPABILITY)  # a1 re-reads s2 and keeps a2's label
    labels = parse_labels((folder / "s2" / "labels" / "alice.toml").read_bytes(), "s2", "?").labels
    assert {k[1]: v.verdict.value for k, v in labels.items()} == {
        "heldout:test_connected": "capability", "heldout:test_trail": "capability"}


def test_damaged_labels_file_is_never_overwritten(folder: Path) -> None:
    path = folder / "s2" / "labels" / "alice.toml"
    path.parent.mkdir(parents=True)
    damaged = b'format = 1\nreviewer = "alice"\n<<<<<<< HEAD\n[[label]]\n'
    path.write_bytes(damaged)
    a = labeller(folder)
    with pytest.raises(SaveFailed):
        a.decide(F2, Verdict.SPECIFICATION)
    assert path.read_bytes() == damaged
    assert a.labels.get("s2", "r3", "heldout:test_connected").verdict is Verdict.SPECIFICATION
    path.unlink()
    assert a.labels.retry() == []
    assert b"test_connected" in path.read_bytes()


def test_newer_labels_file_is_read_but_never_rewritten(folder: Path) -> None:
    path = folder / "s1" / "labels" / "alice.toml"
    path.parent.mkdir(parents=True)
    newer = (b'format = 2\nreviewer = "alice"\nsession = "s1"\n[[label]]\nrun = "r1"\ncheck = "heldout:TestToRoman"\n'
             b'verdict = "capability"\nconfidence = 0.9\n')
    path.write_bytes(newer)
    a = labeller(folder)
    assert a.labels.get("s1", "r1", "heldout:TestToRoman").verdict is Verdict.CAPABILITY
    with pytest.raises(SaveFailed):
        a.clear(F1)
    assert path.read_bytes() == newer


def test_stale_temp_files_are_cleaned_and_permissions_kept(folder: Path) -> None:
    a = labeller(folder)
    a.decide(F1, Verdict.SPECIFICATION)
    path = folder / "s1" / "labels" / "alice.toml"
    os.chmod(path, 0o600)
    stale = path.with_name(".alice.toml.tmp-99999-deadbeef")
    stale.write_text("half")
    b = labeller(folder)
    b.labels.file("s1")
    assert not stale.exists()
    b.decide(F1, Verdict.CAPABILITY)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_read_only_folder_redirects_to_user_data(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if os.geteuid() == 0:  # root may write anywhere: make the permission check see what a user sees
        import reviewer.store.labels as labels_mod

        real = labels_mod.writable
        monkeypatch.setattr(labels_mod, "writable", lambda p: real(p) and not p.is_relative_to(folder))
    os.chmod(folder / "s1", 0o555)
    try:
        a = labeller(folder)
        a.decide(F1, Verdict.SPECIFICATION)
        assert a.labels.redirected is not None
        assert (a.labels.redirected / "s1" / "labels" / "alice.toml").is_file()
        assert a.labels.redirected.is_relative_to(tmp_path / "xdg-data")
    finally:
        os.chmod(folder / "s1", 0o755)


def test_stale_when_evidence_changes(folder: Path) -> None:
    a = labeller(folder)
    a.decide(F1, Verdict.SPECIFICATION)
    code = folder / "s1" / "runs" / "r1" / "attempts" / "1" / "roman.go"
    code.write_text("package roman // re-recorded\n")
    b = labeller(folder)
    run, failure = b.find(F1)
    state = b.state(run, failure)
    assert state.stale and not state.decided
