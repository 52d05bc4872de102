"""Labels: saved at once, atomically, one file per run and reviewer, merged with outside changes, never clobbered."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

import pytest
from labelkit import on_disk, reviewer_files, run_file, verdicts

from reviewer.model.label import Verdict, reviewer_file_stem
from reviewer.store.labels import Labeller, LabelStore, SaveFailed, parse_labels, read_all_labels
from reviewer.store.sessions.store import SessionStore

F1 = "s1/r1#heldout:TestToRoman"
F2 = "s2/r3#heldout:test_connected"
F3 = "s2/r3#heldout:test_trail"


def labeller(folder: Path, who: str = "alice") -> Labeller:
    store = SessionStore(folder)
    store.scan()
    return Labeller(store, LabelStore(folder, who), clock=lambda: "2026-11-29T12:00:00Z")


def test_decision_is_on_disk_in_the_runs_file_before_decide_returns(folder: Path) -> None:
    lab = labeller(folder)
    lab.decide(F2, Verdict.SPECIFICATION, note="oracle wants yes", tags=("vocabulary-mismatch",))
    path = run_file(folder, "s2", "r3")
    doc = tomllib.loads(path.read_text())
    assert (doc["format"], doc["reviewer"], doc["run"], doc["session"]) == (2, "alice", "r3", "s2")
    [label] = parse_labels(path.read_bytes(), "s2", "?").labels
    assert (label.run, label.check, label.verdict, label.note, label.tags) == (
        "r3", "heldout:test_connected", Verdict.SPECIFICATION, "oracle wants yes", ("vocabulary-mismatch",))
    assert label.evidence.startswith("sha256:")
    assert reviewer_files(folder, "s2") == ["r3.toml"]  # no temp file left, nothing else written
    assert sorted(p.name for p in (folder / "s2" / "labels").iterdir()) == ["alice"]


def test_files_are_deterministic_and_a_cleared_runs_file_goes(folder: Path) -> None:
    a = labeller(folder)
    a.decide(F3, Verdict.CAPABILITY)
    a.decide(F2, Verdict.SPECIFICATION)
    first = run_file(folder, "s2", "r3").read_bytes()
    a.clear(F2)
    a.decide(F2, Verdict.SPECIFICATION)
    assert run_file(folder, "s2", "r3").read_bytes() == first
    assert first.index(b"test_connected") < first.index(b"test_trail")
    a.clear(F2)
    a.clear(F3)
    assert reviewer_files(folder, "s2") == []


def test_a_decision_touches_only_its_runs_file(folder: Path) -> None:
    a = labeller(folder)
    a.decide(F1, Verdict.SPECIFICATION)
    before = run_file(folder, "s1", "r1").stat()
    a.decide(F2, Verdict.CAPABILITY)
    after = run_file(folder, "s1", "r1").stat()
    assert (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns)


def test_undo_restores_previous_state(folder: Path) -> None:
    a = labeller(folder)
    a.decide(F1, Verdict.SPECIFICATION)
    a.decide(F1, Verdict.CAPABILITY)
    a.undo()
    assert a.labels.get("s1", "r1", "heldout:TestToRoman").verdict is Verdict.SPECIFICATION  # type: ignore[union-attr]
    a.undo()
    assert a.labels.get("s1", "r1", "heldout:TestToRoman") is None
    assert on_disk(folder, "s1") == {} and not run_file(folder, "s1", "r1").exists()
    assert a.undo() is None


def test_two_reviewers_write_separate_folders(folder: Path) -> None:
    labeller(folder, "alice").decide(F1, Verdict.SPECIFICATION)
    labeller(folder, "Bob Smith").decide(F1, Verdict.CAPABILITY)
    names = sorted(p.name for p in (folder / "s1" / "labels").iterdir())
    assert names == sorted(["alice", reviewer_file_stem("Bob Smith")])
    files = read_all_labels(folder, ["s1"])
    assert sorted((f.reviewer, f.labels[0].verdict.value) for f in files) == [
        ("Bob Smith", "capability"), ("alice", "specification")]


@pytest.mark.parametrize("name", ["a/b", "..", "../../etc", "Zoë", "a b", "ALICE", "alice+x", "", "名前", "a\x00b"])
def test_reviewer_file_names_are_safe(name: str) -> None:
    stem = reviewer_file_stem(name)
    assert stem and "/" not in stem and "\x00" not in stem and stem not in (".", "..")
    assert stem.isascii() and not stem.startswith((".", "_"))


def test_reviewer_file_names_do_not_collide() -> None:
    names = ["alice", "Alice", "ALICE", "a/b", "a-b", "a b", "a_b", "..", "zoë", "zoe", "Zoë"]
    stems = [reviewer_file_stem(n) for n in names]
    assert len(set(s.lower() for s in stems)) == len(names)


@pytest.mark.parametrize("run", ["r1", "roman-go--model-a", "_x.y", "a/b", "..", "Zoë", "a" * 240, "x+y"])
def test_run_file_names_are_safe_and_say_their_run(folder: Path, run: str) -> None:
    from reviewer.store.labels import run_file_name

    name = run_file_name(run)
    assert name.endswith(".toml") and "/" not in name and not name.startswith(".") and len(name) < 255
    assert name.isascii() and (name == f"{run}.toml") == (run in ("r1", "roman-go--model-a", "_x.y"))


def test_outside_change_is_merged_not_clobbered(folder: Path) -> None:
    a1 = labeller(folder)
    a1.decide(F2, Verdict.SPECIFICATION)
    a2 = labeller(folder)  # a second instance, same reviewer
    a2.decide(F3, Verdict.CAPABILITY)
    a1.decide(F1, Verdict.CAPABILITY)  # a1 saves to s1: unrelated
    a1.decide(F2, Verdict.CAPABILITY)  # a1 re-reads r3's file and keeps a2's label
    assert verdicts(folder, "s2") == {F2: "capability", F3: "capability"}


def test_damaged_labels_file_is_never_overwritten(folder: Path) -> None:
    path = run_file(folder, "s2", "r3")
    path.parent.mkdir(parents=True)
    damaged = b'format = 2\nreviewer = "alice"\n<<<<<<< HEAD\n[[label]]\n'
    path.write_bytes(damaged)
    a = labeller(folder)
    with pytest.raises(SaveFailed, match="r3.toml in s2: holds git conflict markers"):
        a.decide(F2, Verdict.SPECIFICATION)
    assert path.read_bytes() == damaged
    assert a.labels.get("s2", "r3", "heldout:test_connected").verdict is Verdict.SPECIFICATION  # type: ignore[union-attr]
    a.decide(F1, Verdict.CAPABILITY)  # another run's file is written meanwhile
    assert verdicts(folder, "s1") == {F1: "capability"}
    path.unlink()
    assert a.labels.retry() == []
    assert verdicts(folder, "s2") == {F2: "specification"}


def test_newer_labels_file_is_read_but_never_rewritten(folder: Path) -> None:
    path = run_file(folder, "s1", "r1")
    path.parent.mkdir(parents=True)
    newer = (b'format = 3\nreviewer = "alice"\nsession = "s1"\nrun = "r1"\n[[label]]\nrun = "r1"\n'
             b'check = "heldout:TestToRoman"\nverdict = "capability"\nconfidence = 0.9\n')
    path.write_bytes(newer)
    a = labeller(folder)
    assert a.labels.get("s1", "r1", "heldout:TestToRoman").verdict is Verdict.CAPABILITY  # type: ignore[union-attr]
    with pytest.raises(SaveFailed, match="newer version"):
        a.clear(F1)
    assert path.read_bytes() == newer


def test_stale_temp_files_are_cleaned_and_permissions_kept(folder: Path) -> None:
    a = labeller(folder)
    a.decide(F1, Verdict.SPECIFICATION)
    path = run_file(folder, "s1", "r1")
    os.chmod(path, 0o600)
    stale = path.with_name(".r1.toml.tmp-99999-deadbeef")
    stale.write_text("half")
    b = labeller(folder)
    b.labels.load(["s1"])
    assert not stale.exists()
    b.decide(F1, Verdict.CAPABILITY)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_read_only_folder_redirects_to_user_data(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if os.geteuid() == 0:  # root may write anywhere: make the permission check see what a user sees
        import reviewer.store.fs.paths as paths_mod

        real = paths_mod.writable
        monkeypatch.setattr(paths_mod, "writable", lambda p: real(p) and not p.is_relative_to(folder))
    os.chmod(folder / "s1", 0o555)
    try:
        a = labeller(folder)
        a.decide(F1, Verdict.SPECIFICATION)
        assert a.labels.redirected is not None
        assert (a.labels.redirected / "s1" / "labels" / "alice" / "r1.toml").is_file()
        assert a.labels.redirected.is_relative_to(tmp_path / "xdg-data")
        path, reason = a.labels.where("s1", "r1")
        assert path == a.labels.redirected / "s1" / "labels" / "alice" / "r1.toml" and "not writable" in reason
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


def test_a_label_on_a_run_id_that_is_no_folder_name_gets_a_file_of_its_own(folder: Path) -> None:
    from reviewer.model.label import Label

    store = LabelStore(folder, "alice")
    odd = Label("s1", "../escape", "heldout:T", Verdict.CAPABILITY, "alice", "2026-11-29T12:00:00Z")
    store.put("s1", "../escape", "heldout:T", odd)
    [name] = reviewer_files(folder, "s1")
    assert name.startswith("escape+") and name.endswith(".toml")
    assert on_disk(folder, "s1") == {("../escape", "heldout:T"): odd}
    fresh = LabelStore(folder, "alice")
    assert fresh.get("s1", "../escape", "heldout:T") == odd
    assert fresh.load(["s1"]) == []
