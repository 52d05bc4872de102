"""A reviewer's two labels on one failure are both kept until the reviewer decides; a damaged file or
table is named, the rest read, and never written over. Every reader says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from labelkit import all_entries, run_file, table, verdicts, write_old_file

from reviewer.cli import main
from reviewer.model.label import Verdict
from reviewer.review.decisions import Decisions
from reviewer.store.labels import Labeller, LabelStore, SaveFailed, clear_cache
from reviewer.store.sessions.store import SessionStore

F2 = "s2/r3#heldout:test_connected"
F3 = "s2/r3#heldout:test_trail"
K2 = ("r3", "heldout:test_connected")
NEWER = table("r3", "heldout:test_connected", "specification", "2026-11-29T12:00:00Z", note="newer")
OLDER = table("r3", "heldout:test_connected", "capability", "2026-11-01T12:00:00Z", note="older")


def labeller(folder: Path, who: str = "alice") -> Labeller:
    store = SessionStore(folder)
    store.scan()
    return Labeller(store, LabelStore(folder, who), clock=lambda: "2026-12-01T00:00:00Z")


def duplicated(folder: Path) -> None:
    """alice's run file with two tables for F2, the newer first (the older would win by file order)."""
    path = run_file(folder, "s2", "r3")
    path.parent.mkdir(parents=True)
    head = 'format = 2\nreviewer = "alice"\nrun = "r3"\nsession = "s2"\n'
    body = "".join(f'\n[[label]]\ncheck = "{t["check"]}"\nevidence = ""\nlabelled_at = "{t["labelled_at"]}"\n'
                   f'note = "{t["note"]}"\nrun = "r3"\ntags = []\nverdict = "{t["verdict"]}"\n' for t in (NEWER, OLDER))
    path.write_text(head + body)


def test_the_newer_of_two_labels_is_in_force_and_both_are_reported(folder: Path) -> None:
    duplicated(folder)
    a = labeller(folder)
    assert a.labels.get("s2", *K2).verdict is Verdict.SPECIFICATION  # type: ignore[union-attr]
    [problem] = a.labels.load(["s2"])
    assert problem.path == str(run_file(folder, "s2", "r3"))
    assert problem.reason.startswith("alice has 2 labels on s2/r3#heldout:test_connected: specification "
                                     "(2026-11-29T12:00:00Z, in force), capability (2026-11-01T12:00:00Z)")


def test_a_decision_on_another_failure_keeps_both_and_annotating_keeps_the_other(folder: Path) -> None:
    duplicated(folder)
    a = labeller(folder)
    a.decide(F3, Verdict.CAPABILITY)  # the same file is rewritten
    assert [lab.verdict.value for lab in all_entries(folder, "s2")[K2]] == ["specification", "capability"]
    a.annotate(F2, note="a note changes the label in force only")
    entries = all_entries(folder, "s2")[K2]
    assert [(lab.verdict.value, lab.note) for lab in entries] == [
        ("specification", "a note changes the label in force only"), ("capability", "older")]


def test_deciding_the_failure_replaces_both_and_undo_brings_both_back(folder: Path) -> None:
    duplicated(folder)
    a = labeller(folder)
    seen = Decisions(a)
    out = seen.decide(F2, Verdict.CAPABILITY, "Capability")
    assert any(n.title == "Duplicate resolved" and "had 2 labels" in n.message for n in out.notices)
    assert [lab.verdict.value for lab in all_entries(folder, "s2")[K2]] == ["capability"]
    assert a.labels.load(["s2"]) == []
    a.undo()
    assert [(lab.verdict.value, lab.note) for lab in all_entries(folder, "s2")[K2]] == [
        ("specification", "newer"), ("capability", "older")]


def test_a_format_1_duplicate_is_moved_with_both_labels(folder: Path) -> None:
    write_old_file(folder, "s2", "alice", [])
    old = folder / "s2" / "labels" / "alice.toml"
    old.write_text(old.read_text().replace("label = []\n", "") + "".join(
        f'\n[[label]]\ncheck = "{t["check"]}"\nevidence = ""\nlabelled_at = "{t["labelled_at"]}"\nnote = "{t["note"]}"\n'
        f'run = "r3"\ntags = []\nverdict = "{t["verdict"]}"\n' for t in (NEWER, OLDER)))
    assert verdicts(folder, "s2") == {F2: "specification"}
    labeller(folder).decide(F3, Verdict.DEFERRED)
    assert not old.exists()
    assert [lab.verdict.value for lab in all_entries(folder, "s2")[K2]] == ["specification", "capability"]


def test_every_command_names_the_duplicate_and_exits_1(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    duplicated(folder)
    labeller(folder, "bob").decide(F2, Verdict.CAPABILITY)
    for argv in (["check"], ["failures", "--reviewer", "alice"], ["stats", "--reviewer", "alice"],
                 ["export", "--reviewer", "alice"], ["agreement"], ["show", "--failure", F2, "--reviewer", "alice"]):
        clear_cache()
        assert main([argv[0], str(folder), *argv[1:]]) == 1, argv
        said = capsys.readouterr()
        assert "has 2 labels on s2/r3#heldout:test_connected" in said.out + said.err, argv
    assert main(["export", str(folder), "--reviewer", "alice", "--format", "jsonl"]) == 1
    [row] = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert row["verdict"] == "specification"


def test_blind_commands_name_another_reviewers_duplicate_without_its_verdicts(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    duplicated(folder)
    (folder / "s2" / "labels" / "alice").rename(folder / "s2" / "labels" / "bob")
    path = folder / "s2" / "labels" / "bob" / "r3.toml"
    path.write_text(path.read_text().replace('reviewer = "alice"', 'reviewer = "bob"'))
    assert main(["show", str(folder), "--failure", F3, "--reviewer", "alice"]) == 1
    err = capsys.readouterr().err
    assert "bob has 2 labels on s2/r3#heldout:test_connected: (2026-11-29T12:00:00Z, in force)" in err
    assert "specification" not in err and "capability" not in err


@pytest.mark.parametrize("damage", ["table", "file", "conflict"])
def test_a_damaged_run_file_is_named_its_readable_tables_used_and_never_written_over(
        folder: Path, damage: str, capsys: pytest.CaptureFixture[str]) -> None:
    a = labeller(folder)
    a.decide(F2, Verdict.SPECIFICATION)
    a.decide(F3, Verdict.CAPABILITY)
    path = run_file(folder, "s2", "r3")
    text = path.read_text()
    broken = {"table": text.replace('verdict = "capability"', 'verdict = "capabilty"'),
              "file": text.replace("[[label]]", "[[label]", 1),
              "conflict": "<<<<<<< HEAD\n" + text + "=======\n>>>>>>> theirs\n"}[damage]
    path.write_text(broken)
    clear_cache()
    b = labeller(folder)
    [problem] = b.labels.load(["s2"])
    assert problem.path == str(path)
    reason = {"table": "[[label]] 2 (run r3, check heldout:test_trail) has no verdict this program knows ('capabilty')",
              "file": "is not valid TOML", "conflict": "holds git conflict markers"}[damage]
    assert reason in problem.reason
    assert (b.labels.get("s2", *K2) is not None) == (damage == "table")  # a damaged table hides only itself
    with pytest.raises(SaveFailed, match="r3.toml in s2"):
        b.decide(F2, Verdict.DEFERRED)
    assert path.read_text() == broken
    assert main(["failures", str(folder), "--reviewer", "alice", "--unlabelled"]) == 1
    assert reason[:30] in capsys.readouterr().err
