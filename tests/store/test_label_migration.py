"""Format 1 (``<session>/labels/<reviewer>.toml`` and its journal) keeps working: read as it was, and
moved into one file per run on the reviewer's next decision in that session, without losing a label."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
from labelkit import all_entries, on_disk, reviewer_files, run_file, table, verdicts, write_old_file

from reviewer.model.label import Label, Verdict
from reviewer.store.labels import Labeller, LabelStore, SaveFailed, clear_cache, parse_labels, read_all_labels
from reviewer.store.labels.adjudication import adjudicate
from reviewer.store.labels.final import read_adjudications
from reviewer.store.sessions.store import SessionStore

F1 = "s1/r1#heldout:TestToRoman"
F2 = "s2/r3#heldout:test_connected"
F3 = "s2/r3#heldout:test_trail"
K2, K3 = ("r3", "heldout:test_connected"), ("r3", "heldout:test_trail")


def labeller(folder: Path, who: str = "alice", clock: str = "2026-12-01T00:00:00Z") -> Labeller:
    store = SessionStore(folder)
    store.scan()
    return Labeller(store, LabelStore(folder, who), clock=lambda: clock)


def old_session(folder: Path) -> Path:
    """alice's format-1 file in s2, a big one with its journal: a label, a removal, a note, a label
    on a run gone from the folder, and a line a crash cut short."""
    return write_old_file(
        folder, "s2", "alice",
        [table("r3", "heldout:test_connected", "capability", "2026-01-01T00:00:00Z"),
         table("gone", "heldout:T9", "deferred", "2026-01-01T00:00:00Z", note="kept for later")],
        journal=[table("r3", "heldout:test_trail", "specification", "2026-01-02T00:00:00Z", note="from the journal"),
                 {"check": "heldout:test_connected", "clear": True, "labelled_at": "2026-01-03T00:00:00Z", "run": "r3"},
                 {"check": "heldout:test_connected", "entry": "note", "evidence": "", "note": "a note only",
                  "noted_at": "2026-01-04T00:00:00Z", "run": "r3", "tags": []},
                 b'{"check":"heldout:test_connected","clear":tr'])


def test_a_format_1_file_and_its_journal_read_as_before(folder: Path) -> None:
    old_session(folder)
    assert verdicts(folder, "s2") == {F3: "specification", "s2/gone#heldout:T9": "deferred"}
    a = labeller(folder)
    assert a.labels.get("s2", *K3).note == "from the journal"  # type: ignore[union-attr]
    assert a.labels.get("s2", *K2) is None and a.note_of(F2).note == "a note only"  # type: ignore[union-attr]
    assert a.labels.load(["s2"]) == []  # the cut-short last line was never acknowledged: not a problem
    assert reviewer_files(folder, "s2") == []  # reading moves nothing


def test_the_next_decision_moves_every_label_into_run_files_and_removes_the_old_file(folder: Path) -> None:
    old = old_session(folder)
    before = all_entries(folder, "s2")
    a = labeller(folder)
    a.decide(F1, Verdict.CAPABILITY)  # a decision in another session moves nothing here
    assert old.exists()
    a.decide(F3, Verdict.CAPABILITY)
    assert not old.exists() and not old.with_suffix(".journal").exists()
    assert reviewer_files(folder, "s2") == ["gone.toml", "r3.toml"]
    after = all_entries(folder, "s2")
    assert after.pop(K3)[0].verdict is Verdict.CAPABILITY
    before.pop(K3)
    assert after == before  # every other label moved as it was
    doc = tomllib.loads(run_file(folder, "s2", "r3").read_text())
    assert [n["note"] for n in doc["note"]] == ["a note only"]
    assert [m for m in a.labels.take_moved()] == [
        f"2 labels of {old} moved into {folder / 's2' / 'labels' / 'alice'}/ (one file per run, format 2); "
        "the old file and its journal removed"]


def test_a_damaged_line_is_named_the_rest_read_and_nothing_moved_until_it_is_repaired(folder: Path) -> None:
    old = write_old_file(folder, "s2", "alice", [table("r3", "heldout:test_connected")],
                         journal=[table("r3", "heldout:test_trail", "specification"), b"{not json\n",
                                  table("gone", "heldout:T1", "deferred")])
    a = labeller(folder)
    problems = a.labels.load(["s2"])
    assert [(e.path, e.reason) for e in problems] == [
        (str(old), "alice.journal line 3 is not JSON: that decision was not read")]
    assert verdicts(folder, "s2") == {F2: "capability", F3: "specification", "s2/gone#heldout:T1": "deferred"}
    journal = old.with_suffix(".journal").read_bytes()
    with pytest.raises(SaveFailed, match="alice.toml in s2: alice.journal line 3 is not JSON.*nothing is written"):
        a.decide(F2, Verdict.SPECIFICATION)
    assert old.with_suffix(".journal").read_bytes() == journal and reviewer_files(folder, "s2") == []
    assert a.labels.pending_count() == 1
    old.with_suffix(".journal").write_bytes(journal.replace(b"{not json\n", b""))  # repaired by hand
    assert a.labels.retry() == []
    assert not old.exists() and verdicts(folder, "s2") == {
        F2: "specification", F3: "specification", "s2/gone#heldout:T1": "deferred"}


@pytest.mark.parametrize("bad", [b"<<<<<<< HEAD\n", b'{"check":"x","run":"r3","verdict":"maybe"}\n'])
def test_a_damaged_journal_line_is_never_written_to(folder: Path, bad: bytes) -> None:
    old = write_old_file(folder, "s2", "alice", [table("r3", "heldout:test_connected")], journal=[bad])
    reasons = [e.reason for e in labeller(folder).labels.load(["s2"])]
    assert len(reasons) == 1 and reasons[0].startswith("alice.journal line 2 ")
    with pytest.raises(SaveFailed):
        labeller(folder).decide(F3, Verdict.CAPABILITY)
    assert old.exists() and reviewer_files(folder, "s2") == []


def test_an_older_toml_checked_out_under_the_journal_loses_no_journal_decision(folder: Path) -> None:
    old = write_old_file(folder, "s2", "alice", [table("r3", "heldout:test_connected", "specification",
                                                       "2026-06-01T00:00:00Z")],
                         journal=[table("r3", "heldout:test_trail", "capability", "2026-06-02T00:00:00Z"),
                                  table("r3", "heldout:test_connected", "deferred", "2026-06-03T00:00:00Z")])
    st = old.stat()
    header = {"base": [st.st_ino, st.st_size, st.st_mtime_ns], "journal": 1, "reviewer": "alice", "session": "s2"}
    journal = old.with_suffix(".journal")
    lines = journal.read_bytes().split(b"\n")
    journal.write_bytes(json.dumps(header).encode() + b"\n" + b"\n".join(lines[1:]))
    old.unlink()  # git checkout of an older file: a new inode, and an older label of F2
    write_old_file(folder, "s2", "alice", [table("r3", "heldout:test_connected", "capability", "2020-01-01T00:00:00Z"),
                                            table("r3", "heldout:test_trail", "specification", "2026-09-01T00:00:00Z")])
    # the TOML changed since the journal began: a journal line wins only over an older entry
    assert verdicts(folder, "s2") == {F2: "deferred", F3: "specification"}


def test_two_files_of_one_reviewer_in_both_layouts_are_merged_by_readers(folder: Path) -> None:
    a = labeller(folder, clock="2026-12-01T00:00:00Z")
    a.decide(F2, Verdict.SPECIFICATION)
    # a teammate's old version of reviewer, same reviewer name, pushed a format-1 file later
    write_old_file(folder, "s2", "alice", [table("r3", "heldout:test_connected", "specification", "2026-12-01T00:00:00Z",
                                                 evidence=a.labels.get("s2", *K2).evidence),  # type: ignore[union-attr]
                                           table("r3", "heldout:test_trail", "capability", "2026-11-01T00:00:00Z")])
    clear_cache()
    assert verdicts(folder, "s2") == {F2: "specification", F3: "capability"}
    assert all(len(v) == 1 for v in all_entries(folder, "s2").values())  # the same label twice is one label
    b = labeller(folder)
    b.decide(F1, Verdict.DEFERRED)
    b.decide(F3, Verdict.SPECIFICATION)  # moves the old file into the run files, merged
    assert verdicts(folder, "s2") == {F2: "specification", F3: "specification"}
    assert not (folder / "s2" / "labels" / "alice.toml").exists()


def test_labels_are_never_lost_when_moving_is_cut_short(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash after some run files are written and before the old file is removed: readers see
    every label once; the next decision finishes the move."""
    import reviewer.store.fs.atomic as atomic

    rows = [table(f"run{n}", "heldout:T", "capability", f"2026-01-01T00:00:{n:02d}Z") for n in range(30)]
    old = write_old_file(folder, "s2", "alice", rows + [table("r3", "heldout:test_trail")])
    before = all_entries(folder, "s2")
    real = os.replace
    done: list[str] = []

    def crash_after_some(src: object, dst: object) -> None:
        if len(done) == 12:
            raise KeyboardInterrupt("kill -9")  # nothing after this runs: like a killed process
        done.append(str(dst))
        real(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(atomic.os, "replace", crash_after_some)
    with pytest.raises(KeyboardInterrupt):
        LabelStore(folder, "alice").put("s2", "r3", "heldout:test_connected", None)
    monkeypatch.setattr(atomic.os, "replace", real)
    assert old.exists() and len(reviewer_files(folder, "s2")) == 12
    assert all_entries(folder, "s2") == before  # both layouts hold the moved ones: each read once
    labeller(folder).decide(F2, Verdict.CAPABILITY)
    assert not old.exists() and len(reviewer_files(folder, "s2")) == 31
    after = all_entries(folder, "s2")
    assert after.pop(K2)[0].verdict is Verdict.CAPABILITY and after == before


def test_another_reviewers_files_over_the_budget_are_reported_not_read(folder: Path) -> None:
    labeller(folder, "bob").decide(F2, Verdict.SPECIFICATION)
    write_old_file(folder, "s2", "carol", [table("r3", "heldout:test_connected")])
    bob = run_file(folder, "s2", "r3", "bob")
    files = read_all_labels(folder, ["s2"], budget=bob.stat().st_size - 1)
    refused = {f.stem: f.problems for f in files if f.refused}
    assert list(refused) == ["bob"]  # carol's old file is smaller: read
    assert "over the 0 MiB budget" in refused["bob"][0]
    assert [(f.reviewer, len(f.labels)) for f in files] == [("", 0), ("carol", 1)]


def test_format_1_adjudications_read_and_moved_at_the_next_adjudication(folder: Path) -> None:
    settled = {"alice": "specification", "bob": "capability"}
    path = write_old_file(folder, "s2", "final",
                          [{**table("r3", "heldout:test_connected", "specification", "2026-12-01T00:00:00Z",
                                    note="adjudicated by carol: the brief never says yes"), "settled": settled}],
                          name="_adjudicated.toml")
    got = read_adjudications(folder, ["s2"])[("s2", *K2)]
    assert (got.adjudicator, got.note) == ("carol", "the brief never says yes")  # the old form read in the new
    assert [s for s in got.settled] == [("alice", Verdict.SPECIFICATION), ("bob", Verdict.CAPABILITY)]
    adjudicate(folder, "s2", *K3, Verdict.CAPABILITY, adjudicator="dora", clock=lambda: "2026-12-02T00:00:00Z")
    assert not path.exists()
    [moved] = (folder / "s2" / "labels" / "_adjudicated").iterdir()
    doc = tomllib.loads(moved.read_text())
    assert [(t["check"], t.get("adjudicator"), t["note"]) for t in doc["label"]] == [
        ("heldout:test_connected", "carol", "the brief never says yes"), ("heldout:test_trail", "dora", "")]
    clear_cache()
    assert set(read_adjudications(folder, ["s2"])) == {("s2", *K2), ("s2", *K3)}


def test_the_label_set_read_again_after_decisions_equals_one_built_from_scratch(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reviewer.store.labels import agreement
    from reviewer.store.labels.agreement import read_label_set

    builds = []
    real = agreement.build
    monkeypatch.setattr(agreement, "build", lambda files: builds.append(1) or real(files))
    a, b = labeller(folder), labeller(folder, "bob")
    a.decide(F2, Verdict.SPECIFICATION)
    b.decide(F2, Verdict.SPECIFICATION)
    a.decide(F1, Verdict.DEFERRED)
    first = read_label_set(folder, ["s1", "s2"])
    assert first.disagreeing == ()
    a.decide(F2, Verdict.CAPABILITY)  # files changed: the set is updated, not rebuilt
    a.decide(F1, Verdict.SPECIFICATION)
    b.decide(F3, Verdict.CAPABILITY)
    b.clear(F2)
    a.decide(F3, Verdict.SPECIFICATION)
    again = read_label_set(folder, ["s1", "s2"])
    assert len(builds) == 1
    clear_cache()
    fresh = read_label_set(folder, ["s1", "s2"])
    assert again.by_failure == fresh.by_failure
    assert again.disagreeing == fresh.disagreeing == (("s2", "r3", "heldout:test_trail"),)
    assert set(first.by_failure) == {("s1", "r1", "heldout:TestToRoman"), ("s2", "r3", "heldout:test_connected")}


def test_parse_reads_both_formats_and_names_each_bad_table(folder: Path) -> None:
    data = (b'format = 2\nreviewer = "alice"\nrun = "r3"\nsession = "s2"\n\n'
            b'[[label]]\ncheck = "a"\nrun = "r3"\nverdict = "capability"\n\n'
            b'[[label]]\ncheck = "b"\nrun = "r3"\nverdict = "maybe"\n\n'
            b'[[label]]\ncheck = "c"\nrun = "r9"\nverdict = "capability"\n')
    got = parse_labels(data, "s2", "?")
    assert [x.check for x in got.labels] == ["a"]
    assert got.damage == ("[[label]] 2 (run r3, check b) has no verdict this program knows ('maybe')",
                          "[[label]] 3 (run r9, check c) names run 'r9', not the file's run 'r3'")
    old = parse_labels(b'format = 1\nreviewer = "alice"\nsession = "s2"\n[[label]]\ncheck = "a"\nrun = "r1"\n'
                       b'verdict = "deferred"\n', "s2", "?")
    assert (old.run, [x.run for x in old.labels], old.damage) == ("", ["r1"], ())


def test_labels_in_force_are_those_in_the_folder_and_a_fresh_store_reads_them_back(folder: Path) -> None:
    a = labeller(folder)
    for fid, v in ((F1, Verdict.SPECIFICATION), (F2, Verdict.CAPABILITY), (F3, Verdict.DEFERRED)):
        a.decide(fid, v)
    fresh = LabelStore(folder, "alice")
    assert sorted((lab.run, lab.check, lab.verdict) for lab in [*fresh.run_labels("s1", "r1").values(),
                                                                *fresh.run_labels("s2", "r3").values()]) == [
        ("r1", "heldout:TestToRoman", Verdict.SPECIFICATION), ("r3", "heldout:test_connected", Verdict.CAPABILITY),
        ("r3", "heldout:test_trail", Verdict.DEFERRED)]
    assert {k: v.verdict for k, v in on_disk(folder, "s2").items()} == {K2: Verdict.CAPABILITY, K3: Verdict.DEFERRED}
    assert isinstance(next(iter(on_disk(folder, "s1").values())), Label)


def test_a_hashed_name_and_the_per_user_folder_keep_working(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reviewer whose name is not plain ASCII (a slug and a hash), and labels kept in the per-user
    folder of a read-only sessions folder: format-1 files there are read, then moved there."""
    import os

    import reviewer.store.fs.paths as paths_mod
    from reviewer.model.label import reviewer_file_stem
    from reviewer.store.fs.paths import fallback_root

    old = write_old_file(folder, "s2", "Zoë Ng", [table("r3", "heldout:test_connected", "specification")])
    assert old.name == reviewer_file_stem("Zoë Ng") + ".toml" and "+" in old.name
    z = labeller(folder, "Zoë Ng")
    assert z.labels.get("s2", *K2).verdict is Verdict.SPECIFICATION  # type: ignore[union-attr]
    z.decide(F3, Verdict.CAPABILITY)
    assert not old.exists() and verdicts(folder, "s2", "Zoë Ng") == {F2: "specification", F3: "capability"}
    assert (folder / "s2" / "labels" / reviewer_file_stem("Zoë Ng") / "r3.toml").is_file()

    per_user = fallback_root(folder)
    kept = write_old_file(per_user, "s1", "alice", [table("r1", "heldout:TestToRoman", "deferred")])
    real = paths_mod.writable
    monkeypatch.setattr(paths_mod, "writable", lambda p: real(p) and not Path(p).is_relative_to(folder))
    os.chmod(folder / "s1", 0o555)
    try:
        a = labeller(folder)
        assert a.labels.get("s1", "r1", "heldout:TestToRoman").verdict is Verdict.DEFERRED  # type: ignore[union-attr]
        a.decide(F1, Verdict.CAPABILITY)
        assert not kept.exists() and (per_user / "s1" / "labels" / "alice" / "r1.toml").is_file()
        assert not (folder / "s1" / "labels").exists()
    finally:
        os.chmod(folder / "s1", 0o755)
