"""A note on an unlabelled failure invents no verdict: a note-only entry, unlabelled everywhere."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from labelkit import run_file

from reviewer.cli import main
from reviewer.model.label import Label, Note, Verdict
from reviewer.review.decisions import Decisions
from reviewer.store.labels import Labeller, LabelStore, parse_labels
from reviewer.store.labels.agreement import read_label_set
from reviewer.store.sessions.store import SessionStore

F2 = "s2/r3#heldout:test_connected"
F3 = "s2/r3#heldout:test_trail"
CLOCK = iter(f"2026-11-29T12:00:{n:02d}Z" for n in range(60))


def labeller(folder: Path, who: str = "alice") -> Labeller:
    store = SessionStore(folder)
    store.scan()
    return Labeller(store, LabelStore(folder, who), clock=lambda: next(CLOCK))


def test_a_note_on_an_unlabelled_failure_is_a_note_entry_not_a_label(folder: Path) -> None:
    a = labeller(folder)
    entry = a.annotate(F2, note="the brief never says yes")
    assert isinstance(entry, Note) and entry.evidence.startswith("sha256:")
    assert a.labels.get("s2", "r3", "heldout:test_connected") is None
    assert a.state(*a.find(F2)).label is None
    doc = tomllib.loads(run_file(folder, "s2", "r3").read_text())
    assert "label" not in doc
    assert [(n["run"], n["check"], n["note"]) for n in doc["note"]] == [("r3", "heldout:test_connected", "the brief never says yes")]
    # a fresh reader (another process, the app tomorrow) sees the note, and no label
    again = labeller(folder)
    assert again.note_of(F2).note == "the brief never says yes"
    assert again.annotation(F2) == ("the brief never says yes", ())
    assert again.labels.get("s2", "r3", "heldout:test_connected") is None


def test_labelling_takes_the_note_over_and_undo_brings_the_note_entry_back(folder: Path) -> None:
    a = labeller(folder)
    a.annotate(F2, note="wants yes")
    a.annotate(F2, tags=("vocabulary-mismatch",))
    lab = a.decide(F2, Verdict.SPECIFICATION)
    assert (lab.note, lab.tags) == ("wants yes", ("vocabulary-mismatch",))
    assert a.note_of(F2) is None
    assert "note" not in tomllib.loads(run_file(folder, "s2", "r3").read_text())
    a.undo()
    assert a.labels.get("s2", "r3", "heldout:test_connected") is None
    assert (a.note_of(F2).note, a.note_of(F2).tags) == ("wants yes", ("vocabulary-mismatch",))
    a.undo()
    assert a.note_of(F2).tags == ()
    a.undo()
    assert a.note_of(F2) is None


def test_an_empty_note_removes_the_entry_and_a_labelled_failure_keeps_its_verdict(folder: Path) -> None:
    a = labeller(folder)
    a.annotate(F2, note="x")
    a.annotate(F2, note="")
    assert a.note_of(F2) is None
    a.decide(F3, Verdict.CAPABILITY)
    lab = a.annotate(F3, note="model bug")
    assert isinstance(lab, Label) and lab.verdict is Verdict.CAPABILITY and lab.note == "model bug"


def test_a_reader_of_the_labels_alone_reads_the_file_whole(folder: Path) -> None:
    """``parse_labels`` of a file with notes gives exactly its labels; the notes are a separate table."""
    a = labeller(folder)
    a.decide(F3, Verdict.CAPABILITY)
    a.annotate(F2, note="later")
    data = run_file(folder, "s2", "r3").read_bytes()
    parsed = parse_labels(data, "s2", "?")
    assert [(x.run, x.check) for x in parsed.labels] == [("r3", "heldout:test_trail")]
    assert [(x.run, x.check) for x in parsed.notes] == [("r3", "heldout:test_connected")]
    doc = tomllib.loads(data.decode())  # a reader that looks at `label` only
    assert doc["format"] == 2 and [t["check"] for t in doc["label"]] == ["heldout:test_trail"]


def test_note_entries_count_as_unlabelled_in_stats_export_agreement_and_progress(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = labeller(folder)
    a.annotate(F2, note="only a note")
    b = labeller(folder, "bob")
    b.decide(F2, Verdict.SPECIFICATION)
    seen = Decisions(a)
    assert a.labels.run_labels("s2", "r3") == {} and not seen.decided(F2) and seen.verdict(F2) == ""
    assert main(["export", str(folder), "--format", "jsonl", "--include-deferred"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(r["reviewer"], r["check"]) for r in rows] == [("bob", "heldout:test_connected")]
    labels = read_label_set(folder, ["s1", "s2"])
    assert [lab.reviewer for lab in labels.by_failure[("s2", "r3", "heldout:test_connected")]] == ["bob"]
    assert main(["stats", str(folder), "--json", "--final"]) == 0
    stats = json.loads(capsys.readouterr().out)
    connected = next(t for t in stats["tasks"] if t["task"] == "connected")
    # bob's verdict alone is the final one: alice's note neither adds a verdict nor disputes his
    assert (connected["labelled"], connected["specification"], connected["capability"]) == (1, 1, 0)
    progress = {p["reviewer"]: p for p in stats["reviewers"]}
    assert progress["alice"]["labelled"] == 0 and progress["alice"]["deferred"] == 0
    assert main(["failures", str(folder), "--unlabelled", "--reviewer", "alice", "--json"]) == 0
    assert F2 in [r["id"] for r in json.loads(capsys.readouterr().out)]


def test_notes_survive_a_label_saved_by_another_instance(folder: Path) -> None:
    """Two processes, one file: a note written by one is kept when the other saves a label."""
    first, second = labeller(folder), labeller(folder)
    first.labels.load(["s2"])
    second.labels.load(["s2"])
    first.annotate(F2, note="keep me")
    second.decide(F3, Verdict.CAPABILITY)
    parsed = parse_labels(run_file(folder, "s2", "r3").read_bytes(), "s2", "?")
    assert [(n.check, n.note) for n in parsed.notes] == [("heldout:test_connected", "keep me")]
    assert [x.check for x in parsed.labels] == ["heldout:test_trail"]
