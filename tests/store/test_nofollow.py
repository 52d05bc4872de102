"""Folders made from the root down never go through a link."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reviewer.store.fs.nofollow import LinkOnPath, check_dir, ensure_dir


def test_creates_missing_folders(tmp_path: Path) -> None:
    made = ensure_dir(tmp_path, "s1/labels")
    assert made == tmp_path / "s1" / "labels" and made.is_dir() and not made.is_symlink()
    assert ensure_dir(tmp_path, "s1/labels") == made  # again: nothing to do


def test_a_linked_folder_on_the_way_is_refused_and_nothing_is_created_behind_it(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    root = tmp_path / "root"
    (root / "s1").mkdir(parents=True)
    os.symlink(elsewhere, root / "s1" / "labels")
    assert (root / "s1" / "labels").resolve() == elsewhere  # the link is live
    with pytest.raises(LinkOnPath, match="symbolic link"):
        ensure_dir(root, "s1/labels/deeper")
    assert list(elsewhere.iterdir()) == []
    with pytest.raises(LinkOnPath):
        check_dir(root, "s1/labels")


def test_a_link_higher_up_is_refused_too(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    root = tmp_path / "root"
    root.mkdir()
    os.symlink(elsewhere, root / "s1")
    with pytest.raises(LinkOnPath):
        ensure_dir(root, "s1/labels")
    assert list(elsewhere.iterdir()) == []


def test_a_file_on_the_way_and_dotdot_are_refused(tmp_path: Path) -> None:
    (tmp_path / "s1").write_text("not a folder")
    with pytest.raises(LinkOnPath, match="not a folder"):
        ensure_dir(tmp_path, "s1/labels")
    with pytest.raises(LinkOnPath, match="leaves"):
        ensure_dir(tmp_path, "../x")
    with pytest.raises(LinkOnPath, match="absolute"):
        ensure_dir(tmp_path, "/etc")


def test_check_dir_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        check_dir(tmp_path, "nope/labels")
    assert not (tmp_path / "nope").exists()
