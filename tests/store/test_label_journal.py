"""Big labels files take decisions in a journal: one line appended, folded into the TOML later, nothing lost."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

import reviewer.store.labeljournal as jr
from reviewer.model.label import Label, Verdict
from reviewer.store import labelcodec
from reviewer.store.labelcodec import labels_to_bytes, parse_labels
from reviewer.store.labeller import Labeller, SaveFailed
from reviewer.store.labelread import clear_cache, read_labels_file
from reviewer.store.labels import LabelStore, read_all_labels
from reviewer.store.sessions import SessionStore

F1 = "s1/r1#heldout:TestToRoman"
F2 = "s2/r3#heldout:test_connected"
F3 = "s2/r3#heldout:test_trail"
TOML = ("s2", "labels", "alice.toml")


@pytest.fixture
def journal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every labels file takes decisions in its journal once it exists (as a 1 MB file would)."""
    monkeypatch.setattr(jr, "JOURNAL_FROM", 0)
    clear_cache()


def labeller(folder: Path, who: str = "alice", clock: str = "2026-11-29T12:00:00Z") -> Labeller:
    store = SessionStore(folder)
    store.scan()
    return Labeller(store, LabelStore(folder, who), clock=lambda: clock)


def on_disk(folder: Path, session: str = "s2", who: str = "alice") -> dict[str, str]:
    """check -> verdict as a fresh reader sees the file and its journal."""
    clear_cache()
    parsed = read_labels_file(folder / session / "labels" / f"{who}.toml", session, who)
    return {k[1]: lab.verdict.value for k, lab in parsed.labels.items()}


# ---- the codec ------------------------------------------------------------------------------

text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
labels_strategy = st.lists(st.tuples(text.filter(bool), text.filter(bool), st.sampled_from(list(Verdict)), text, text,
                                     st.lists(text, max_size=3), text), max_size=6)


@settings(max_examples=150, deadline=None)
@given(labels_strategy, text.filter(bool))
def test_the_fast_writer_and_reader_agree_with_tomli(rows: list, reviewer: str) -> None:  # type: ignore[type-arg]
    labels = {(r, c): Label("s", r, c, v, reviewer, at, ev, tuple(tags), note) for r, c, v, at, ev, tags, note in rows}
    doc = {"format": 1, "reviewer": reviewer, "session": "s", "label": [
        {"check": lab.check, "evidence": lab.evidence, "labelled_at": lab.labelled_at, "note": lab.note, "run": lab.run,
         "tags": sorted(lab.tags), "verdict": lab.verdict.value} for _, lab in sorted(labels.items())]}
    data = labels_to_bytes("s", reviewer, labels)
    assert data == tomli_w.dumps(doc).encode()
    reference = {(t["run"], t["check"]): labelcodec.label_from_table(t, "s", reviewer) for t in tomllib.loads(data.decode())["label"]}
    assert parse_labels(data, "s", "?").labels == reference


def test_a_hand_edited_file_is_read_by_the_general_parser() -> None:
    data = b'format = 1\nreviewer = "alice"\n\n[[label]]\nrun = "r1"\ncheck = "h:T"  # reordered, commented\nverdict = "capability"\n'
    [lab] = parse_labels(data, "s", "?").labels.values()
    assert (lab.run, lab.check, lab.verdict) == ("r1", "h:T", Verdict.CAPABILITY)
    with pytest.raises(labelcodec.NotOurLayout):
        labelcodec.fast_parse(data.decode(), "s", "?")


# ---- the journal ----------------------------------------------------------------------------

def test_a_decision_on_a_big_file_is_one_line_appended(folder: Path, journal: None) -> None:
    a = labeller(folder)
    a.decide(F2, Verdict.SPECIFICATION)  # the first decision makes the TOML file
    toml = folder.joinpath(*TOML)
    before = (toml.read_bytes(), os.stat(toml).st_mtime_ns)
    a.decide(F3, Verdict.CAPABILITY, note="two\nlines")
    a.clear(F2)
    assert (toml.read_bytes(), os.stat(toml).st_mtime_ns) == before  # never rewritten
    lines = toml.with_suffix(".journal").read_text().splitlines()
    assert json.loads(lines[0])["journal"] == 1 and len(lines) == 3
    assert json.loads(lines[2]) == {"check": "heldout:test_connected", "clear": True, "labelled_at": json.loads(lines[2])["labelled_at"],
                                    "run": "r3"}
    assert on_disk(folder) == {"heldout:test_trail": "capability"}
    fresh = LabelStore(folder, "alice")
    assert fresh.get("s2", "r3", "heldout:test_trail").note == "two\nlines"  # type: ignore[union-attr]
    assert [f.reviewer for f in read_all_labels(folder, ["s2"])] == ["alice"]


def test_a_long_journal_is_folded_into_the_toml_at_load(folder: Path, journal: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jr, "FOLD_RECORDS", 2)
    a = labeller(folder)
    for fid, v in ((F2, Verdict.SPECIFICATION), (F3, Verdict.CAPABILITY), (F2, Verdict.DEFERRED)):
        a.decide(fid, v)
    toml = folder.joinpath(*TOML)
    assert toml.with_suffix(".journal").exists()
    LabelStore(folder, "alice").load(["s2"])
    assert not toml.with_suffix(".journal").exists()
    assert {k[1]: v.verdict.value for k, v in parse_labels(toml.read_bytes(), "s2", "?").labels.items()} == {
        "heldout:test_connected": "deferred", "heldout:test_trail": "capability"}


def test_a_line_cut_short_by_a_crash_is_ignored_and_cut_off(folder: Path, journal: None) -> None:
    a = labeller(folder)
    a.decide(F2, Verdict.SPECIFICATION)
    a.decide(F3, Verdict.CAPABILITY)
    path = folder.joinpath(*TOML).with_suffix(".journal")
    with open(path, "ab") as fh:
        fh.write(b'{"check":"heldout:test_connected","evid')  # never acknowledged
    assert on_disk(folder) == {"heldout:test_connected": "specification", "heldout:test_trail": "capability"}
    b = labeller(folder)
    b.decide(F2, Verdict.CAPABILITY)
    assert all(json.loads(line) for line in path.read_text().splitlines())
    assert on_disk(folder) == {"heldout:test_connected": "capability", "heldout:test_trail": "capability"}


def test_a_damaged_journal_is_never_written_to(folder: Path, journal: None) -> None:
    a = labeller(folder)
    a.decide(F2, Verdict.SPECIFICATION)
    a.decide(F3, Verdict.CAPABILITY)
    path = folder.joinpath(*TOML).with_suffix(".journal")
    damaged = path.read_bytes() + b"<<<<<<< HEAD\n"
    path.write_bytes(damaged)
    b = labeller(folder)
    assert "conflict markers" in b.labels.file("s2").error
    with pytest.raises(SaveFailed, match="conflict markers"):
        b.decide(F2, Verdict.DEFERRED)
    assert path.read_bytes() == damaged and b.labels.pending_count() == 1
    assert [f.error for f in read_all_labels(folder, ["s2"]) if f.error]


def test_two_instances_append_to_one_journal_and_see_each_other(folder: Path, journal: None) -> None:
    a1 = labeller(folder, clock="2026-11-29T12:00:00Z")
    a1.decide(F2, Verdict.SPECIFICATION)
    a2 = labeller(folder, clock="2026-11-29T12:00:01Z")
    a2.decide(F3, Verdict.CAPABILITY)
    a1.decide(F2, Verdict.CAPABILITY)
    assert a1.labels.get("s2", "r3", "heldout:test_trail").verdict is Verdict.CAPABILITY  # type: ignore[union-attr]
    assert a2.labels.resync() == (["s2"], [])
    assert a2.labels.get("s2", "r3", "heldout:test_connected").verdict is Verdict.CAPABILITY  # type: ignore[union-attr]
    assert on_disk(folder) == {"heldout:test_connected": "capability", "heldout:test_trail": "capability"}


def test_an_older_toml_checked_out_under_the_journal_is_folded_with_this_sessions_decisions(folder: Path, journal: None) -> None:
    old = labeller(folder, clock="2020-01-01T00:00:00Z")
    old.decide(F2, Verdict.CAPABILITY)
    toml = folder.joinpath(*TOML)
    older = toml.read_bytes()
    a = labeller(folder, clock="2026-11-29T12:00:00Z")
    a.decide(F2, Verdict.SPECIFICATION)
    a.decide(F3, Verdict.CAPABILITY)
    toml.unlink()
    toml.write_bytes(older)  # git checkout of the older file: a new inode and mtime
    assert on_disk(folder) == {"heldout:test_connected": "specification", "heldout:test_trail": "capability"}
    assert a.labels.resync() == (["s2"], [])
    assert not toml.with_suffix(".journal").exists()  # the outside change folds
    assert {k[1]: v.verdict.value for k, v in parse_labels(toml.read_bytes(), "s2", "?").labels.items()} == {
        "heldout:test_connected": "specification", "heldout:test_trail": "capability"}


def test_a_newer_label_in_a_pulled_toml_wins_over_an_older_journal_line(folder: Path, journal: None) -> None:
    a = labeller(folder, clock="2026-01-01T00:00:00Z")
    a.decide(F2, Verdict.SPECIFICATION)
    a.decide(F3, Verdict.SPECIFICATION)  # in the journal, decided at 2026-01-01
    toml = folder.joinpath(*TOML)
    pulled = {("r3", "heldout:test_trail"): Label("s2", "r3", "heldout:test_trail", Verdict.CAPABILITY, "alice",
                                                  "2026-06-01T00:00:00Z")}
    toml.unlink()
    toml.write_bytes(labels_to_bytes("s2", "alice", pulled))
    assert on_disk(folder)["heldout:test_trail"] == "capability"


def test_another_reviewers_file_over_the_budget_is_reported_not_read(folder: Path) -> None:
    labeller(folder, "bob").decide(F2, Verdict.SPECIFICATION)
    labeller(folder, "carol").decide(F2, Verdict.CAPABILITY)
    big = folder / "s2" / "labels" / "bob.toml"
    files = read_all_labels(folder, ["s2"], budget=big.stat().st_size - 1)
    errors = {f.path.name: f.error for f in files if f.error}
    assert list(errors) == ["bob.toml"]  # carol's is 3 bytes shorter ("capability"): read
    assert "over the" in errors["bob.toml"] and "budget" in errors["bob.toml"]
    assert [(f.reviewer, len(f.labels)) for f in files] == [("bob", 0), ("carol", 1)]


def test_a_commit_folds_the_journal_first(tmp_path: Path, journal: None) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "git"))
    from gitkit import commit_all, git, sessions_repo

    from reviewer.store.git import commit_reviewer

    root = sessions_repo(tmp_path)
    a = labeller(root)
    a.decide(F2, Verdict.SPECIFICATION)
    a.decide(F3, Verdict.CAPABILITY)
    commit_all(root.parent, "plain git add -A: the journal is committed too")
    a.decide(F2, Verdict.DEFERRED)
    result = commit_reviewer(root, "alice")
    assert result.committed and "2 failures (0 specification, 1 capability, 1 deferred)" in result.message
    assert sorted(result.paths) == ["sessions/s2/labels/alice.journal", "sessions/s2/labels/alice.toml"]
    committed = git(root.parent, "show", "HEAD:sessions/s2/labels/alice.toml").encode()
    assert {k[1]: v.verdict.value for k, v in parse_labels(committed, "s2", "?").labels.items()} == {
        "heldout:test_connected": "deferred", "heldout:test_trail": "capability"}
    assert git(root.parent, "ls-files", "sessions/s2/labels") == "sessions/s2/labels/alice.toml\n"


def test_the_label_set_read_again_after_decisions_equals_one_built_from_scratch(
        folder: Path, journal: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from reviewer.store import agreement
    from reviewer.store.agreement import read_label_set

    builds = []
    real = agreement.build
    monkeypatch.setattr(agreement, "build", lambda files: builds.append(1) or real(files))

    a, b = labeller(folder), labeller(folder, "bob")
    a.decide(F2, Verdict.SPECIFICATION)
    b.decide(F2, Verdict.SPECIFICATION)
    first = read_label_set(folder, ["s1", "s2"])
    assert first.disagreeing == ()
    a.decide(F2, Verdict.CAPABILITY)  # journal lines: the set is updated, not rebuilt
    a.decide(F1, Verdict.DEFERRED)
    b.decide(F3, Verdict.CAPABILITY)
    b.clear(F2)
    a.decide(F3, Verdict.SPECIFICATION)
    again = read_label_set(folder, ["s1", "s2"])
    assert len(builds) == 2  # the first read, and once more because a file appeared (alice in s1); the rest updates
    clear_cache()
    fresh = read_label_set(folder, ["s1", "s2"])
    assert again.by_failure == fresh.by_failure and again.disagreeing == fresh.disagreeing == (("s2", "r3", "heldout:test_trail"),)
    assert set(first.by_failure) == {("s2", "r3", "heldout:test_connected")}  # the first result was not changed under it
