"""Note-only entries and adjudications on a big labels file: through the journal, the fold, the
shared reader, an outside change and a damaged journal, nothing of them is lost or invented."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

import reviewer.store.labeljournal as jr
from reviewer.model.label import Label, Note, Verdict
from reviewer.store.adjudication import adjudicate, adjudication_file
from reviewer.store.agreement import read_label_set
from reviewer.store.final import read_adjudications
from reviewer.store.labelcodec import (
    fast_parse,
    label_from_table,
    label_table,
    labels_to_bytes,
    note_from_table,
    note_table,
    parse_labels,
)
from reviewer.store.labeller import Labeller, SaveFailed
from reviewer.store.labelread import clear_cache, read_labels_file
from reviewer.store.labels import LabelStore, read_all_labels
from reviewer.store.sessions import SessionStore

F2 = "s2/r3#heldout:test_connected"
F3 = "s2/r3#heldout:test_trail"
K2 = ("r3", "heldout:test_connected")
K3 = ("r3", "heldout:test_trail")


@pytest.fixture
def journal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every labels file takes decisions in its journal once it exists (as a 1 MiB file would)."""
    monkeypatch.setattr(jr, "JOURNAL_FROM", 0)
    clear_cache()


def labeller(folder: Path, who: str = "alice", clock: str = "2026-11-29T12:00:00Z") -> Labeller:
    store = SessionStore(folder)
    store.scan()
    return Labeller(store, LabelStore(folder, who), clock=lambda: clock)


def paths(folder: Path, who: str = "alice") -> tuple[Path, Path]:
    toml = folder / "s2" / "labels" / f"{who}.toml"
    return toml, toml.with_suffix(".journal")


def fresh(folder: Path, who: str = "alice") -> Labeller:
    """Another process, or the app tomorrow: nothing kept in memory."""
    clear_cache()
    return labeller(folder, who)


def test_a_note_entry_on_a_big_file_is_a_journal_line_that_survives_a_reload_and_a_fold(folder: Path, journal: None) -> None:
    a = labeller(folder)
    a.decide(F3, Verdict.CAPABILITY)  # makes the TOML
    toml, jpath = paths(folder)
    before = toml.read_bytes()
    a.annotate(F2, note="the brief never says yes", tags=("vocabulary-mismatch",))
    assert toml.read_bytes() == before  # one line appended, the TOML untouched
    line = json.loads(jpath.read_text().splitlines()[-1])
    assert (line["entry"], line["note"], line["tags"], line["run"]) == ("note", "the brief never says yes",
                                                                        ["vocabulary-mismatch"], "r3")
    again = fresh(folder)
    assert again.note_of(F2).note == "the brief never says yes"  # type: ignore[union-attr]
    assert again.labels.get("s2", *K2) is None  # still unlabelled
    again.labels.file("s2").fold()
    assert not jpath.exists()
    doc = tomllib.loads(toml.read_text())
    assert [(n["check"], n["note"], n["tags"]) for n in doc["note"]] == [
        ("heldout:test_connected", "the brief never says yes", ["vocabulary-mismatch"])]
    assert [t["check"] for t in doc["label"]] == ["heldout:test_trail"]
    assert fresh(folder).annotation(F2) == ("the brief never says yes", ("vocabulary-mismatch",))


def test_removing_a_note_entry_is_a_journal_line_too_and_stays_removed_after_a_fold(folder: Path, journal: None) -> None:
    a = labeller(folder)
    a.decide(F3, Verdict.CAPABILITY)
    a.annotate(F2, note="x")
    a.labels.file("s2").fold()  # the note is in the TOML now
    toml, jpath = paths(folder)
    assert "[[note]]" in toml.read_text()
    a.annotate(F2, note="")
    assert json.loads(jpath.read_text().splitlines()[-1]) == {
        "check": "heldout:test_connected", "clear": True, "entry": "note", "noted_at": "2026-11-29T12:00:00Z", "run": "r3"}
    assert fresh(folder).note_of(F2) is None
    clear_cache()
    parsed = read_labels_file(toml, "s2", "alice")
    assert parsed.notes == {} and list(parsed.labels) == [K3]
    fresh(folder).labels.file("s2").fold()
    assert "note" not in tomllib.loads(toml.read_text())


def test_labelling_a_noted_failure_in_the_journal_takes_the_note_over_and_undo_brings_it_back(folder: Path, journal: None) -> None:
    a = labeller(folder)
    a.decide(F3, Verdict.CAPABILITY)
    a.annotate(F2, note="wants yes")
    lab = a.decide(F2, Verdict.SPECIFICATION)
    assert lab.note == "wants yes"
    b = fresh(folder)
    assert b.note_of(F2) is None and b.labels.get("s2", *K2).note == "wants yes"  # type: ignore[union-attr]
    a.undo()
    b = fresh(folder)
    assert b.labels.get("s2", *K2) is None and b.note_of(F2).note == "wants yes"  # type: ignore[union-attr]


def test_clearing_a_label_without_a_note_entry_appends_one_line(folder: Path, journal: None) -> None:
    a = labeller(folder)
    a.decide(F3, Verdict.CAPABILITY)
    a.decide(F2, Verdict.CAPABILITY)
    _, jpath = paths(folder)
    lines = len(jpath.read_text().splitlines())
    a.clear(F2)  # the Labeller also removes the note entry: there is none, so nothing to journal for it
    assert len(jpath.read_text().splitlines()) == lines + 1


def test_a_note_from_one_instance_and_a_label_from_another_both_land_in_the_journal(folder: Path, journal: None) -> None:
    first, second = labeller(folder), labeller(folder)
    first.decide(F3, Verdict.DEFERRED)
    second.labels.load(["s2"])
    first.annotate(F2, note="keep me")
    second.decide(F3, Verdict.CAPABILITY)  # catches up with the journal first
    clear_cache()
    parsed = read_labels_file(paths(folder)[0], "s2", "alice")
    assert parsed.notes[K2].note == "keep me" and parsed.labels[K3].verdict is Verdict.CAPABILITY
    assert second.note_of(F2).note == "keep me"  # type: ignore[union-attr]


def test_another_reviewers_journaled_note_is_read_and_never_counted_as_a_label(folder: Path, journal: None) -> None:
    bob = labeller(folder, "bob")
    bob.decide(F3, Verdict.CAPABILITY)
    bob.annotate(F2, note="bob looks again")
    files = {f.reviewer: f for f in read_all_labels(folder, ["s2"])}
    assert files["bob"].parsed is not None and files["bob"].parsed.notes[K2].note == "bob looks again"
    assert [lab.check for lab in files["bob"].labels] == ["heldout:test_trail"]
    bob.annotate(F2, note="bob changed his mind")  # the journal grew: read from where it was left
    files = {f.reviewer: f for f in read_all_labels(folder, ["s2"])}
    assert files["bob"].parsed.notes[K2].note == "bob changed his mind"  # type: ignore[union-attr]
    assert ("s2", *K2) not in read_label_set(folder, ["s2"]).by_failure
    bob.annotate(F2, note="")
    files = {f.reviewer: f for f in read_all_labels(folder, ["s2"])}
    assert files["bob"].parsed.notes == {}  # type: ignore[union-attr]


def test_after_an_outside_change_the_later_of_a_pulled_note_and_a_journal_note_wins(folder: Path, journal: None) -> None:
    a = labeller(folder, clock="2026-06-01T00:00:00Z")
    a.decide(F3, Verdict.CAPABILITY)
    a.annotate(F2, note="mine, june")  # a journal line
    toml, jpath = paths(folder)
    lab = a.labels.get("s2", *K3)
    assert lab is not None

    def pull(noted_at: str) -> None:  # git pull / checkout: a new TOML under the journal
        toml.unlink()
        toml.write_bytes(labels_to_bytes("s2", "alice", {K3: lab},
                                         {K2: Note("s2", *K2, "alice", noted_at, f"pulled, {noted_at[:7]}")}))
        clear_cache()

    pull("2026-01-01T00:00:00Z")  # older than the journal's line: the line wins
    assert read_labels_file(toml, "s2", "alice").notes[K2].note == "mine, june"
    pull("2026-09-01T00:00:00Z")  # newer: the pulled note wins
    assert read_labels_file(toml, "s2", "alice").notes[K2].note == "pulled, 2026-09"
    assert a.labels.resync() == (["s2"], [])  # the outside change folds
    assert not jpath.exists() and a.note_of(F2).note == "pulled, 2026-09"  # type: ignore[union-attr]
    assert parse_labels(toml.read_bytes(), "s2", "?").notes[K2].note == "pulled, 2026-09"


def test_a_note_waits_in_memory_while_the_journal_holds_conflict_markers(folder: Path, journal: None) -> None:
    a = labeller(folder)
    a.decide(F3, Verdict.CAPABILITY)
    a.decide(F2, Verdict.CAPABILITY)
    a.clear(F2)
    _, jpath = paths(folder)
    good = jpath.read_bytes()
    jpath.write_bytes(good + b"<<<<<<< HEAD\n")
    b = fresh(folder)
    with pytest.raises(SaveFailed, match="conflict markers"):
        b.annotate(F2, note="kept while the merge is resolved")
    assert jpath.read_bytes() == good + b"<<<<<<< HEAD\n"  # never written to
    assert b.note_of(F2).note == "kept while the merge is resolved"  # type: ignore[union-attr]
    jpath.write_bytes(good)  # resolved
    assert b.labels.retry() == []
    assert fresh(folder).note_of(F2).note == "kept while the merge is resolved"  # type: ignore[union-attr]


def test_an_adjudication_in_the_journal_keeps_its_adjudicator_and_settled_verdicts(folder: Path, journal: None) -> None:
    settled = (("alice", Verdict.SPECIFICATION), ("bob", Verdict.CAPABILITY))
    adjudicate(folder, "s2", *K3, Verdict.CAPABILITY, adjudicator="carol", clock=lambda: "2026-12-01T00:00:00Z")
    adjudicate(folder, "s2", *K2, Verdict.SPECIFICATION, note="the brief never says yes", adjudicator="carol",
               evidence="sha256:e", clock=lambda: "2026-12-01T00:00:01Z", settled=settled)
    path = folder / "s2" / "labels" / "_adjudicated.toml"
    line = json.loads(path.with_suffix(".journal").read_text().splitlines()[-1])
    assert (line["adjudicator"], line["settled"]) == ("carol", {"alice": "specification", "bob": "capability"})
    clear_cache()
    got = read_adjudications(folder, ["s2"])[("s2", *K2)]
    assert (got.adjudicator, got.settled, got.note) == ("carol", settled, "the brief never says yes")
    clear_cache()
    adjudication_file(folder, "s2").fold()
    assert not path.with_suffix(".journal").exists()
    doc = tomllib.loads(path.read_text())
    assert [t.get("settled") for t in doc["label"]] == [{"alice": "specification", "bob": "capability"}, None]
    assert fast_parse(path.read_text(), "s2", "final").labels[K2].settled == settled  # our layout, read fast


text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
label_rows = st.lists(st.tuples(text.filter(bool), text.filter(bool), st.sampled_from(list(Verdict)), text, text,
                                st.lists(text, max_size=2), text, text,
                                st.lists(st.tuples(text, st.sampled_from(list(Verdict))), max_size=2)), max_size=4)
note_rows = st.lists(st.tuples(text.filter(bool), text.filter(bool), text, text, st.lists(text, max_size=2), text),
                     max_size=4)


@settings(max_examples=200, deadline=None)
@given(label_rows, note_rows, text.filter(bool))
def test_the_fast_codec_writes_and_reads_notes_and_adjudications_as_tomli_does(rows: list, nrows: list, reviewer: str) -> None:  # type: ignore[type-arg]
    labels = {(r, c): Label("s", r, c, v, reviewer, at, ev, tuple(tags), n, adj, tuple(sorted(dict(settled).items())))
              for r, c, v, at, ev, tags, n, adj, settled in rows}
    notes = {(r, c): Note("s", r, c, reviewer, at, n, tuple(tags), ev) for r, c, at, n, tags, ev in nrows}
    doc: dict[str, object] = {"format": 1, "reviewer": reviewer, "session": "s",
                              "label": [label_table(lab) for _, lab in sorted(labels.items())]}
    if notes:
        doc["note"] = [note_table(n) for _, n in sorted(notes.items())]
    data = labels_to_bytes("s", reviewer, labels, notes)
    assert data == tomli_w.dumps(doc).encode()
    reference = tomllib.loads(data.decode())
    parsed = parse_labels(data, "s", "?")
    assert parsed.labels == {(t["run"], t["check"]): label_from_table(t, "s", reviewer) for t in reference["label"]}
    assert parsed.notes == {(t["run"], t["check"]): note_from_table(t, "s", reviewer) for t in reference.get("note", [])}
