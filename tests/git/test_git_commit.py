"""``reviewer commit``: only this reviewer's label files, a summary message, honest when idle."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitkit import changed_files, cli, commit_all, git, sessions_repo
from labelkit import table, verdicts, write_old_file

from reviewer.model.label import Verdict
from reviewer.store.gitcommit import commit_labels
from reviewer.store.gitrepo import GitError
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.labels.adjudication import adjudicate
from reviewer.store.paths import fallback_root
from reviewer.store.sessions import SessionStore

F1 = "s1/r1#heldout:TestToRoman"
F2 = "s2/r3#heldout:test_connected"
F3 = "s2/r3#heldout:test_trail"


def labeller(root: Path, who: str) -> Labeller:
    store = SessionStore(root)
    store.scan()
    return Labeller(store, LabelStore(root, who))


def head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD").strip()


def test_nothing_to_commit_says_so_and_exits_0(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    before = head(root.parent)
    done = cli("commit", str(root), "--reviewer", "alice")
    assert (done.returncode, done.stdout.strip()) == (0, f"nothing to commit: alice has no label files in {root}")
    labeller(root, "alice").decide(F1, Verdict.SPECIFICATION)
    assert cli("commit", str(root), "--reviewer", "alice").returncode == 0
    again = cli("commit", str(root), "--reviewer", "alice")
    assert (again.returncode, again.stdout.strip()) == (0, "nothing to commit: the labels are already committed")
    assert git(root.parent, "rev-list", "--count", f"{before}..HEAD").strip() == "1"


def test_commits_only_this_reviewers_files_with_a_summary(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    repo = root.parent
    alice = labeller(root, "Alice Doe")
    alice.decide(F1, Verdict.SPECIFICATION)
    alice.decide(F2, Verdict.SPECIFICATION)
    alice.decide(F3, Verdict.DEFERRED)
    labeller(root, "bob").decide(F2, Verdict.CAPABILITY)
    (root / "s1" / "runs" / "r1" / "brief.md").write_text("edited, staged, not to be committed\n")
    git(repo, "add", "sessions/s1/runs/r1/brief.md")
    (root / "s2" / "runs" / "r3" / "brief.md").write_text("edited, not staged\n")

    done = cli("commit", str(root), "--reviewer", "Alice Doe")
    assert done.returncode == 0, done.stderr
    message = "labels: 3 failures (2 specification, 0 capability, 1 deferred) by Alice Doe"
    assert message in done.stdout
    assert git(repo, "log", "-1", "--format=%s").strip() == message
    stem = LabelStore(root, "Alice Doe").stem
    assert sorted(changed_files(repo, "HEAD")) == [f"sessions/s1/labels/{stem}/r1.toml", f"sessions/s2/labels/{stem}/r3.toml"]
    status = git(repo, "status", "--porcelain").splitlines()
    assert "M  sessions/s1/runs/r1/brief.md" in status
    assert " M sessions/s2/runs/r3/brief.md" in status
    assert "?? sessions/s2/labels/bob/" in status


def test_adjudications_are_committed_only_when_asked(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    labeller(root, "alice").decide(F2, Verdict.SPECIFICATION)
    adjudicate(root, "s2", "r3", "heldout:test_connected", Verdict.CAPABILITY, adjudicator="carol")
    assert cli("commit", str(root), "--reviewer", "alice").returncode == 0
    assert "?? sessions/s2/labels/_adjudicated/" in git(root.parent, "status", "--porcelain").splitlines()
    done = cli("commit", str(root), "--reviewer", "carol", "--adjudicated")
    assert done.returncode == 0 and "labels: 0 failures (0 specification, 0 capability) by carol; 1 adjudicated" in done.stdout
    assert changed_files(root.parent, "HEAD") == ["sessions/s2/labels/_adjudicated/r3.toml"]


def test_a_damaged_label_file_is_never_committed(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    labeller(root, "alice").decide(F1, Verdict.SPECIFICATION)
    commit_all(root.parent, "labels")
    path = root / "s1" / "labels" / "alice" / "r1.toml"
    path.write_text("<<<<<<< HEAD\n" + path.read_text() + "=======\n>>>>>>> theirs\n")
    before = head(root.parent)
    done = cli("commit", str(root), "--reviewer", "alice")
    assert done.returncode == 1 and "conflict markers" in done.stderr and "not committed" in done.stderr
    assert head(root.parent) == before


def test_paths_outside_the_folder_are_refused(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    outside = root.parent / "elsewhere.toml"
    outside.write_text("format = 1\n")
    with pytest.raises(GitError, match="not a label file inside"):
        commit_labels(root, "alice", [outside])


def test_labels_kept_per_user_are_reported_as_outside_git(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    kept = fallback_root(root) / "s1" / "labels" / "alice" / "r1.toml"
    kept.parent.mkdir(parents=True)
    kept.write_text('format = 2\nreviewer = "alice"\nrun = "r1"\nsession = "s1"\n')
    done = cli("commit", str(root), "--reviewer", "alice")
    assert done.returncode == 1
    assert "are kept in" in done.stderr and "not in git" in done.stderr


def test_a_committed_format_1_file_is_moved_and_the_move_committed(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    repo = root.parent
    old = write_old_file(root, "s2", "alice", [table("r3", "heldout:test_connected", "specification"),
                                               table("gone", "heldout:T1", "deferred")],
                         journal=[table("r3", "heldout:test_trail", "capability")])
    write_old_file(root, "s2", "bob", [table("r3", "heldout:test_connected", "capability")])
    commit_all(repo, "labels of an earlier version, journal included")
    before = verdicts(root, "s2")
    done = cli("commit", str(root), "--reviewer", "alice")
    assert done.returncode == 0, done.stderr
    assert "labels: 3 failures (1 specification, 1 capability, 1 deferred) by alice" in done.stdout
    assert sorted(git(repo, "show", "--format=", "--name-only", "--no-renames", "HEAD").split()) == [
        "sessions/s2/labels/alice.journal", "sessions/s2/labels/alice.toml",
        "sessions/s2/labels/alice/gone.toml", "sessions/s2/labels/alice/r3.toml"]
    assert not old.exists() and verdicts(root, "s2") == before
    assert git(repo, "status", "--porcelain") == ""  # bob's format-1 file is his: left as it was
    assert git(repo, "ls-files", "sessions/s2/labels").split() == [
        "sessions/s2/labels/alice/gone.toml", "sessions/s2/labels/alice/r3.toml", "sessions/s2/labels/bob.toml"]
