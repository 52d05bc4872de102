"""The example corpus is never written into: the installed package's, and a source checkout's
``sessions/`` (the folder its ``pyproject.toml`` ships as ``reviewer.examples``), whose labels,
re-scores and tags go to the per-user data folder. The checkout's tests read the corpus as git has
it: labels written there by the Quick start broke nine of them."""

from __future__ import annotations

import shutil
from pathlib import Path

from reviewer.rescore.record import record_dir
from reviewer.store.fs.paths import fallback_root, installed_location
from reviewer.store.labels import LabelStore
from reviewer.store.labels.tags import vocabulary_folder

REPO = Path(__file__).resolve().parents[2]


def checkout(where: Path) -> Path:
    """A source checkout's layout: its pyproject.toml beside a copy of the example corpus's first session."""
    where.mkdir()
    shutil.copy(REPO / "pyproject.toml", where / "pyproject.toml")
    first = sorted(p for p in (REPO / "sessions").iterdir() if p.is_dir())[0]
    shutil.copytree(first, where / "sessions" / first.name, ignore=shutil.ignore_patterns("labels", "rescores"))
    return where / "sessions"


def test_this_checkouts_sessions_folder_is_the_example_corpus() -> None:
    assert installed_location(REPO / "sessions") == "bundled"
    assert installed_location(REPO / "sessions" / "golden-2026-08") == "bundled"


def test_labels_rescores_and_tags_of_a_checkouts_example_corpus_go_to_the_per_user_folder(tmp_path: Path) -> None:
    sessions = checkout(tmp_path / "checkout")
    session = next(p.name for p in sessions.iterdir())
    assert installed_location(sessions) == "bundled"
    assert fallback_root(sessions).name == "reviewer-examples"
    labels = LabelStore(sessions, "alice")
    assert not labels.folder(session).is_relative_to(sessions)
    assert labels.redirected == fallback_root(sessions)
    base, folder, _ = record_dir(sessions, session)
    assert base == fallback_root(sessions) and not folder.is_relative_to(sessions)
    assert vocabulary_folder(sessions) == fallback_root(sessions)


def test_a_folder_beside_another_projects_pyproject_is_written_into(tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "pyproject.toml").write_text('[project]\nname = "other"\n[tool.setuptools.package-dir]\n'
                                          '"reviewer.examples" = "sessions"\n')
    (other / "sessions" / "s1").mkdir(parents=True)
    renamed = tmp_path / "renamed"
    sessions = checkout(renamed)
    moved = renamed / "runs-here"
    sessions.rename(moved)  # the project ships "sessions", not this folder
    for folder in (other / "sessions", moved):
        assert installed_location(folder) == ""
        assert LabelStore(folder, "alice").folder("s1") == folder / "s1" / "labels" / "alice"
