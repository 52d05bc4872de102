"""``reviewer label``: tags from the vocabulary only, new tags on purpose, notes kept or replaced explicitly."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from clikit import cli

from reviewer.model.label import DEFAULT_TAGS
from reviewer.store.labels.tags import BadTag, add_tag, load_vocabulary

F2 = "s2/r3#heldout:test_connected"


def saved(folder: Path, who: str = "alice") -> dict:
    """alice's only label in s2."""
    [lab] = [t for t in tomllib.loads((folder / "s2" / "labels" / who / "r3.toml").read_text())["label"] if t["run"] == "r3"
             and t["check"] == "heldout:test_connected"]
    return lab


def label(folder: Path, *extra: str):
    return cli("label", str(folder), "--failure", F2, "--reviewer", "alice", *extra)


def test_a_tag_outside_the_vocabulary_is_refused_with_a_hint(folder: Path) -> None:
    done = label(folder, "--verdict", "specification", "--tag", "vocabulary-mismach")
    assert done.returncode == 1
    assert "tag 'vocabulary-mismach' is not in the folder's vocabulary; did you mean 'vocabulary-mismatch'?" in done.stderr
    assert "--new-tag 'vocabulary-mismach'" in done.stderr and "nothing saved" in done.stderr
    assert not (folder / "s2" / "labels").exists() and not (folder / "tags.toml").exists()
    assert label(folder, "--verdict", "specification", "--tag", "separator").returncode == 0
    assert saved(folder)["tags"] == ["separator"]


def test_new_tag_adds_to_the_vocabulary_keeping_the_files_comments(folder: Path) -> None:
    (folder / "tags.toml").write_text('# our defect classes\ntags = ["separator", # split on commas\n'
                                      '        "field-order"]  # keep short\n')
    done = label(folder, "--verdict", "specification", "--tag", "separator", "--new-tag", "unit-mismatch")
    assert done.returncode == 0, done.stderr
    text = (folder / "tags.toml").read_text()
    assert "# our defect classes" in text and "# split on commas" in text and "# keep short" in text
    assert tomllib.loads(text)["tags"] == ["separator", "field-order", "unit-mismatch"]
    assert saved(folder)["tags"] == ["separator", "unit-mismatch"]
    assert label(folder, "--verdict", "specification", "--tag", "unit-mismatch").returncode == 0


def test_add_tag_without_a_file_keeps_the_defaults_and_refuses_bad_tags(folder: Path) -> None:
    assert add_tag(folder, "new-one") == (*DEFAULT_TAGS, "new-one")
    assert load_vocabulary(folder) == ((*DEFAULT_TAGS, "new-one"), "")
    assert add_tag(folder, "new-one") == (*DEFAULT_TAGS, "new-one")  # already there: unchanged
    for bad in ("", "a\nb", "x" * 61, "\x1b[31m"):
        with pytest.raises(BadTag):
            add_tag(folder, bad)
    (folder / "tags.toml").write_text("tags = [\n")  # damaged: never overwritten
    with pytest.raises(BadTag):
        add_tag(folder, "another")
    assert (folder / "tags.toml").read_text() == "tags = [\n"


def test_relabelling_keeps_the_note_and_says_so(folder: Path) -> None:
    assert label(folder, "--verdict", "specification", "--note", "wants yes", "--tag", "separator").returncode == 0
    done = label(folder, "--verdict", "capability")
    assert done.returncode == 0
    assert "kept the earlier note (written when the verdict was specification): 'wants yes'" in done.stdout
    assert "kept the earlier tags: separator" in done.stdout
    assert (saved(folder)["verdict"], saved(folder)["note"]) == ("capability", "wants yes")
    done = label(folder, "--verdict", "capability", "--keep-note")
    assert "kept the earlier note" not in done.stdout and saved(folder)["note"] == "wants yes"
    done = label(folder, "--verdict", "capability", "--note", "model bug")
    assert "kept" not in done.stdout.replace("kept the earlier tags", "") and saved(folder)["note"] == "model bug"
    assert label(folder, "--verdict", "capability", "--note", "").returncode == 0 and saved(folder)["note"] == ""
    both = label(folder, "--verdict", "capability", "--note", "x", "--keep-note")
    assert both.returncode == 2 and "not allowed with" in both.stderr
