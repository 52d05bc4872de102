"""A note on an unlabelled failure invents no verdict: a note-only entry, unlabelled everywhere."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from reviewer.cli import main
from reviewer.model.label import Label, Note, Verdict
from reviewer.store.agreement import read_label_set
from reviewer.store.labelfile import parse_labels
from reviewer.store.labeller import Labeller
from reviewer.store.labels import LabelStore
from reviewer.store.progress import Progress
from reviewer.store.sessions import SessionStore

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
    doc = tomllib.loads((folder / "s2" / "labels" / "alice.toml").read_text())
    assert doc["label"] == []
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
    assert "note" not in tomllib.loads((folder / "s2" / "labels" / "alice.toml").read_text())
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


def test_an_older_reader_reads_the_labels_file_whole(folder: Path) -> None:
    """``parse_labels`` of a file with notes gives exactly its labels; the notes are a separate table."""
    a = labeller(folder)
    a.decide(F3, Verdict.CAPABILITY)
    a.annotate(F2, note="later")
    data = (folder / "s2" / "labels" / "alice.toml").read_bytes()
    parsed = parse_labels(data, "s2", "?")
    assert list(parsed.labels) == [("r3", "heldout:test_trail")] and list(parsed.notes) == [("r3", "heldout:test_connected")]
    # what a reader of format 1 before notes looked at: `format`, `reviewer`, `label`
    doc = tomllib.loads(data.decode())
    assert doc["format"] == 1 and [t["check"] for t in doc["label"]] == ["heldout:test_trail"]


def test_note_entries_count_as_unlabelled_in_stats_export_agreement_and_progress(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = labeller(folder)
    a.annotate(F2, note="only a note")
    b = labeller(folder, "bob")
    b.decide(F2, Verdict.SPECIFICATION)
    assert Progress(a).labelled("s2/r3") == 0 and not Progress(a).decided(F2) and Progress(a).verdict(F2) == ""
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
    parsed = parse_labels((folder / "s2" / "labels" / "alice.toml").read_bytes(), "s2", "?")
    assert parsed.notes[("r3", "heldout:test_connected")].note == "keep me"
    assert list(parsed.labels) == [("r3", "heldout:test_trail")]
