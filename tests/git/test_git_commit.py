"""``reviewer commit``: only this reviewer's label files, a summary message, honest when idle."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitkit import changed_files, cli, commit_all, git, init_repo, sessions_repo
from labelkit import table, verdicts, write_old_file
from sessionkit import small_folder

from reviewer.model.label import Verdict
from reviewer.store.fs.paths import fallback_root
from reviewer.store.git import GitError, commit_labels
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.labels.adjudication import adjudicate
from reviewer.store.sessions.store import SessionStore

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
    assert "1 label file of alice is kept in" in done.stderr and "not in git" in done.stderr


def index_and_head(repo: Path) -> tuple[bytes, str]:
    return (repo / ".git" / "index").read_bytes(), head(repo)


def test_a_branch_without_commits_gets_its_first_commit(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    root = small_folder(repo / "sessions")
    labeller(root, "alice").decide(F1, Verdict.SPECIFICATION)
    result = commit_labels(root, "alice", [root / "s1" / "labels" / "alice" / "r1.toml"])
    assert result.committed and git(repo, "rev-list", "--count", "main").strip() == "1"
    assert changed_files(repo, "HEAD") == ["sessions/s1/labels/alice/r1.toml"]
    assert git(repo, "reflog", "-1", "--format=%gs", "main").strip() == f"commit (initial): {result.message}"
    assert git(repo, "status", "--porcelain", "--", "sessions/s1/labels").strip() == ""
    assert git(repo, "fsck", "--strict").strip() == ""


def test_hooks_of_the_repositorys_hooks_path_never_run(tmp_path: Path) -> None:
    """GitPython takes core.hooksPath from the repository's config (not the environment): its
    index.commit runs them unless told not to (shown live first); reviewer's commit runs none."""
    from git import Repo

    root = sessions_repo(tmp_path)
    repo = root.parent
    hooks, ran = tmp_path / "hooks", tmp_path / "ran"
    hooks.mkdir()
    ran.mkdir()
    for hook in ("pre-commit", "commit-msg", "post-commit", "post-index-change", "reference-transaction"):
        (hooks / hook).write_text(f'#!/bin/sh\ntouch "{ran}/{hook}"\nexit 0\n')
        (hooks / hook).chmod(0o755)
    git(repo, "config", "core.hooksPath", str(hooks))
    with Repo(repo) as plain:  # plain GitPython: the hooks are live
        plain.index.commit("plain GitPython")
    assert {"pre-commit", "commit-msg", "post-commit"} <= {p.name for p in ran.iterdir()}
    for p in ran.iterdir():
        p.unlink()
    labeller(root, "alice").decide(F1, Verdict.SPECIFICATION)
    labeller(root, "bob").decide(F1, Verdict.CAPABILITY)
    assert commit_labels(root, "alice", [root / "s1" / "labels" / "alice" / "r1.toml"]).committed
    assert cli("commit", str(root), "--reviewer", "bob").returncode == 0
    assert list(ran.iterdir()) == []
    assert changed_files(repo, "HEAD~1") == ["sessions/s1/labels/alice/r1.toml"]
    assert changed_files(repo, "HEAD") == ["sessions/s1/labels/bob/r1.toml"]


@pytest.mark.parametrize("blocker", ["merge", "index version 4", "index.lock"])
def test_a_commit_git_would_not_make_is_refused_and_writes_nothing(tmp_path: Path, blocker: str) -> None:
    root = sessions_repo(tmp_path)
    repo = root.parent
    if blocker == "merge":
        git(repo, "checkout", "-q", "-b", "side")
        (repo / "side.txt").write_text("side\n")
        commit_all(repo, "side")
        git(repo, "checkout", "-q", "main")
        (repo / "main.txt").write_text("main\n")
        commit_all(repo, "main")
        git(repo, "merge", "-q", "--no-commit", "--no-ff", "side")
        expected = "merge is in progress"
    elif blocker == "index version 4":
        git(repo, "update-index", "--index-version", "4")
        expected = "git add, then git commit"
    else:
        (repo / ".git" / "index.lock").write_bytes(b"")
        expected = "another git command"
    labeller(root, "alice").decide(F1, Verdict.SPECIFICATION)
    before = index_and_head(repo)
    with pytest.raises(GitError, match=expected):
        commit_labels(root, "alice", [root / "s1" / "labels" / "alice" / "r1.toml"])
    assert index_and_head(repo) == before


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
