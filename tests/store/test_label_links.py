"""Labels never go through a link: a symlinked ``<session>/labels`` (or session folder) is refused and named."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reviewer.model.label import Verdict
from reviewer.store.adjudication import adjudicate
from reviewer.store.labeller import Labeller, SaveFailed
from reviewer.store.labels import LabelStore, read_all_labels
from reviewer.store.nofollow import LinkOnPath
from reviewer.store.sessions import SessionStore

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
    os.symlink(elsewhere, folder / "s1" / "labels")
    return elsewhere


def test_a_decision_in_a_linked_labels_folder_is_refused_and_kept(folder: Path, linked: Path) -> None:
    before = sorted(p.name for p in linked.iterdir())
    lab = labeller(folder)
    with pytest.raises(SaveFailed, match="symbolic link"):
        lab.decide(F1, Verdict.CAPABILITY)
    assert lab.labels.pending_count() == 1
    assert sorted(p.name for p in linked.iterdir()) == before  # not even the stale temp was cleaned there
    assert "symbolic link" in lab.labels.file("s1").error


def test_adjudication_in_a_linked_labels_folder_is_refused(folder: Path, linked: Path) -> None:
    with pytest.raises(LinkOnPath):
        adjudicate(folder, "s1", "r1", "heldout:TestToRoman", Verdict.CAPABILITY)
    assert not (linked / "_adjudicated.toml").exists()


def test_other_reviewers_behind_a_link_are_reported_not_read(folder: Path, linked: Path) -> None:
    files = read_all_labels(folder, ["s1", "s2"])
    assert [(f.path, bool(f.labels)) for f in files if f.error] == [(folder / "s1" / "labels", False)]
    assert "symbolic link" in files[0].error


def test_a_linked_session_folder_is_refused_too(tmp_path: Path, folder: Path) -> None:
    elsewhere = tmp_path / "elsewhere-session"
    (elsewhere / "labels").mkdir(parents=True)
    lab = labeller(folder)
    lf = lab.labels.file("s1")
    lf.path = folder / "s9" / "labels" / "alice.toml"
    os.symlink(elsewhere, folder / "s9")
    with pytest.raises(LinkOnPath, match="s9: is a symbolic link"):
        lf.change("r1", "heldout:TestToRoman", None)
    assert list((elsewhere / "labels").iterdir()) == []
