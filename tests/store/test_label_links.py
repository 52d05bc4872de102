"""Labels never go through a link: a symlinked ``<session>/labels`` (or session folder) is refused and named."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reviewer.model.label import Verdict
from reviewer.store.fs.nofollow import LinkOnPath
from reviewer.store.labels import Labeller, LabelStore, SaveFailed, read_all_labels
from reviewer.store.labels.adjudication import adjudicate
from reviewer.store.sessions.store import SessionStore

F1 = "s1/r1#heldout:TestToRoman"


def labeller(folder: Path, who: str = "alice") -> Labeller:
    store = SessionStore(folder)
    store.scan()
    return Labeller(store, LabelStore(folder, who))


@pytest.fixture
def linked(folder: Path, tmp_path: Path) -> Path:
    """``s1/labels`` links to a folder elsewhere that already holds a labels file."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "alice.toml").write_text('format = 1\nreviewer = "alice"\nsession = "s1"\n')
    (elsewhere / ".alice.toml.tmp-1-ab").write_text("a temp file start-up cleanup would remove\n")
    (elsewhere / "alice").mkdir()
    (elsewhere / "alice" / "r1.toml").write_text('format = 2\nreviewer = "alice"\nsession = "s1"\nrun = "r1"\n')
    os.symlink(elsewhere, folder / "s1" / "labels")
    return elsewhere


def test_a_decision_in_a_linked_labels_folder_is_refused_and_kept(folder: Path, linked: Path) -> None:
    before = sorted(p.name for p in linked.iterdir())
    lab = labeller(folder)
    with pytest.raises(SaveFailed, match="symbolic link"):
        lab.decide(F1, Verdict.CAPABILITY)
    assert lab.labels.pending_count() == 1
    assert sorted(p.name for p in linked.iterdir()) == before  # not even the stale temp was cleaned there
    assert [p.name for p in (linked / "alice").iterdir()] == ["r1.toml"]
    assert any("symbolic link" in e.reason for e in lab.labels.load(["s1"]))


def test_adjudication_in_a_linked_labels_folder_is_refused(folder: Path, linked: Path) -> None:
    with pytest.raises(LinkOnPath):
        adjudicate(folder, "s1", "r1", "heldout:TestToRoman", Verdict.CAPABILITY)
    assert not (linked / "_adjudicated.toml").exists() and not (linked / "_adjudicated").exists()


def test_other_reviewers_behind_a_link_are_reported_not_read(folder: Path, linked: Path) -> None:
    files = read_all_labels(folder, ["s1", "s2"])
    assert [(f.refused, bool(f.labels)) for f in files if f.refused] == [(files[0].refused, False)]
    [(where, why)] = files[0].refused
    assert where == str(folder / "s1" / "labels") and "symbolic link" in why


def test_a_linked_session_folder_is_refused_too(tmp_path: Path, folder: Path) -> None:
    elsewhere = tmp_path / "elsewhere-session"
    (elsewhere / "labels").mkdir(parents=True)
    store = LabelStore(folder, "alice")
    os.symlink(elsewhere, folder / "s9")
    with pytest.raises(LinkOnPath, match="s9: is a symbolic link"):
        store.put("s9", "r1", "heldout:TestToRoman", None)
    assert list((elsewhere / "labels").iterdir()) == []


def test_a_linked_reviewer_folder_is_refused_and_named(folder: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere-reviewer"
    elsewhere.mkdir()
    (elsewhere / "r1.toml").write_text('format = 2\nreviewer = "alice"\nsession = "s1"\nrun = "r1"\n')
    (folder / "s1" / "labels").mkdir()
    os.symlink(elsewhere, folder / "s1" / "labels" / "alice")
    lab = labeller(folder)
    with pytest.raises(SaveFailed, match="symbolic link"):
        lab.decide(F1, Verdict.CAPABILITY)
    assert [p.name for p in elsewhere.iterdir()] == ["r1.toml"]
    refused = [text for f in read_all_labels(folder, ["s1"]) for text in f.problems]
    assert len(refused) == 1 and refused[0].startswith(str(folder / "s1" / "labels" / "alice") + ": is a symbolic link")
