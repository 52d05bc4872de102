"""Which repositories reviewer commits to: its own, a linked worktree, a submodule; never one a ``.git`` points at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gitkit import commit_all, git, init_repo, sessions_repo
from sessionkit import small_folder

from reviewer.model.label import Verdict
from reviewer.store.git import KEPT, GitReadOnly, commit_reviewer, open_repo, repo_info, safe_git_env
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.sessions.store import SessionStore

F1 = "s1/r1#heldout:TestToRoman"


def label(root: Path) -> None:
    store = SessionStore(root)
    store.scan()
    Labeller(store, LabelStore(root, "alice")).decide(F1, Verdict.SPECIFICATION)


def test_a_linked_worktree_is_trusted_and_committed_to(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    wt = tmp_path / "wt"
    git(root.parent, "worktree", "add", "-q", "-b", "review", str(wt))
    info = repo_info(wt / "sessions")
    assert info is not None and not info.read_only and info.warning == "" and info.branch == "review"
    label(wt / "sessions")
    result = commit_reviewer(wt / "sessions", "alice")
    assert result.committed
    assert git(root.parent, "log", "-1", "--format=%s", "review").strip() == result.message


def test_a_submodule_is_trusted(tmp_path: Path) -> None:
    inner = init_repo(tmp_path / "inner")
    small_folder(inner / "sessions")
    commit_all(inner)
    outer = init_repo(tmp_path / "outer")
    git(outer, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub")
    sub = outer / "sub"
    assert (sub / ".git").is_file()
    git(sub, "config", "user.name", "Test Person")
    git(sub, "config", "user.email", "test@example.invalid")
    info = repo_info(sub / "sessions")
    assert info is not None and info.warning == ""
    label(sub / "sessions")
    assert commit_reviewer(sub / "sessions", "alice").committed


def test_a_git_file_pointing_at_another_repository_is_read_only(tmp_path: Path) -> None:
    victim = init_repo(tmp_path / "victim")
    (victim / "x.txt").write_text("x\n")
    commit_all(victim)
    root = small_folder(tmp_path / "received")
    (root / ".git").write_text("gitdir: ../victim/.git\n")
    info = repo_info(root)
    assert info is not None and info.read_only
    assert "is a file pointing at" in info.warning and str(victim / ".git") in info.warning
    label(root)
    with pytest.raises(GitReadOnly, match="never commits"):
        commit_reviewer(root, "alice")


def test_a_git_symlink_is_read_only(tmp_path: Path) -> None:
    victim = init_repo(tmp_path / "victim")
    root = small_folder(tmp_path / "received")
    os.symlink(victim / ".git", root / ".git")
    with open_repo(root) as g:
        assert g is not None and "symbolic link" in g.warning
        with pytest.raises(GitReadOnly):
            g.require_writable()


def test_a_promisor_pack_alone_makes_a_partial_clone(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    (root.parent / ".git" / "objects" / "pack" / "pack-0000.promisor").write_text("")
    info = repo_info(root)
    assert info is not None and "partial clone (objects/pack/pack-0000.promisor)" in info.warning


def test_the_callers_git_variables_never_reach_git() -> None:
    base = {"PATH": "/usr/bin", "HOME": "/home/x", "GIT_DIR": "/elsewhere", "GIT_INDEX_FILE": "/i",
            "GIT_CONFIG_PARAMETERS": "'core.fsmonitor'='x'", "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "a.b",
            "GIT_CONFIG_VALUE_0": "c", "GIT_AUTHOR_NAME": "Ann", "GIT_CONFIG_GLOBAL": "/g", "SSH_ASKPASS": "/a",
            "GIT_SOMETHING_NEW": "1"}
    env = safe_git_env(base)
    assert env["PATH"] == "/usr/bin" and env["HOME"] == "/home/x"
    for name in ("GIT_DIR", "GIT_INDEX_FILE", "GIT_CONFIG_PARAMETERS", "SSH_ASKPASS", "GIT_SOMETHING_NEW"):
        assert name not in env
    assert env["GIT_AUTHOR_NAME"] == "Ann" and env["GIT_CONFIG_GLOBAL"] == "/g"  # the user's own: kept
    assert env["GIT_CONFIG_KEY_0"] != "a.b" and env["GIT_ALLOW_PROTOCOL"] == "" and env["GIT_NO_LAZY_FETCH"] == "1"
    assert all(k in KEPT or k.startswith("GIT_CONFIG_") or k in (
        "GIT_ALLOW_PROTOCOL", "GIT_PROTOCOL_FROM_USER", "GIT_NO_LAZY_FETCH", "GIT_ASKPASS", "GIT_TERMINAL_PROMPT",
        "GIT_OPTIONAL_LOCKS", "GIT_EDITOR", "GIT_PAGER") for k in env if k.startswith("GIT_"))


def test_the_start_up_scrub_leaves_only_the_users_own_and_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    from reviewer.store.git import scrub_environment

    for name, value in (("GIT_DIR", "/elsewhere"), ("GIT_WORK_TREE", "/w"), ("GIT_CONFIG_COUNT", "1"),
                        ("GIT_CONFIG_KEY_0", "core.fsmonitor"), ("GIT_CONFIG_VALUE_0", "/x"),
                        ("GIT_PYTHON_GIT_EXECUTABLE", "/x"), ("EDITOR", "/x"), ("GIT_AUTHOR_NAME", "Ann"),
                        ("LC_ALL", "de_DE.UTF-8")):
        monkeypatch.setenv(name, value)
    scrub_environment()
    first = dict(os.environ)
    scrub_environment()
    assert dict(os.environ) == first  # a second call changes nothing
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_PYTHON_GIT_EXECUTABLE", "EDITOR"):
        assert name not in os.environ
    assert os.environ["GIT_AUTHOR_NAME"] == "Ann" and os.environ["LC_ALL"] == "de_DE.UTF-8"
    assert os.environ["GIT_CONFIG_KEY_0"] == "core.fsmonitor" and os.environ["GIT_CONFIG_VALUE_0"] == "false"
    keys = {os.environ[f"GIT_CONFIG_KEY_{i}"]: os.environ[f"GIT_CONFIG_VALUE_{i}"]
            for i in range(int(os.environ["GIT_CONFIG_COUNT"]))}
    assert keys["core.hooksPath"] == "/dev/null" and keys["protocol.allow"] == "never"
    assert os.environ["GIT_ALLOW_PROTOCOL"] == "" and os.environ["GIT_NO_LAZY_FETCH"] == "1"
    assert os.environ["GIT_TERMINAL_PROMPT"] == "0"


def test_gitpython_is_not_used_while_a_locating_variable_is_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """GitPython honours GIT_WORK_TREE in-process (shown live first); reviewer refuses to read or commit then."""
    from git import Repo

    from reviewer.store.git import GitError, label_history

    root = sessions_repo(tmp_path)
    victim = init_repo(tmp_path / "victim")
    label(root)
    monkeypatch.setenv("GIT_WORK_TREE", str(victim))
    with Repo(root.parent / ".git") as plain:
        assert plain.working_tree_dir == str(victim)
    before = git(root.parent, "rev-parse", "HEAD")
    with pytest.raises(GitError, match="GIT_WORK_TREE"):
        label_history(root, "s1", "r1", "heldout:TestToRoman")
    with pytest.raises(GitError, match="GIT_WORK_TREE"):
        commit_reviewer(root, "alice")
    assert git(root.parent, "rev-parse", "HEAD") == before
