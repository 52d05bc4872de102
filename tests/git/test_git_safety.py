"""Git safety: a repository whose own config and hooks run commands never gets them run.

The trap repository's ``.git/config`` names a command as fsmonitor, as clean and process filter, as diff
driver / textconv / external diff and as gpg program (with log.showSignature and
commit.gpgSign on), and its hooks (pre-commit, commit-msg, post-commit...) write canary files.
Plain git fires each trap (checked first, so the test proves something); reviewer never does.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from gitkit import changed_files, cli, git, sessions_repo
from sessionkit import small_folder

from reviewer.model.label import Verdict
from reviewer.store.git import GitError, GitUnsafe, commit_labels, label_history, provenance, repo_info
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.sessions.store import SessionStore

F1 = "s1/r1#heldout:TestToRoman"
F2 = "s2/r3#heldout:test_connected"
HOOKS = ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-auto-gc", "post-index-change")


def executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def arm(repo: Path, canaries: Path) -> None:
    """Set every trap in the repository's own config, attributes and hooks."""
    canaries.mkdir()
    trap = repo.parent / "trap.sh"
    executable(trap, f'#!/bin/sh\ntouch "{canaries}/$1"\nshift\nif [ $# -eq 0 ]; then cat; else cat "$@" 2>/dev/null; fi\nexit 0\n')
    gpg = repo.parent / "gpg-trap"
    executable(gpg, f'#!/bin/sh\ntouch "{canaries}/gpg"\nexit 1\n')
    # the initial commit becomes "signed", so log.showSignature has something to verify
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    body = (f"tree {tree}\nauthor Test Person <test@example.invalid> 1700000000 +0000\n"
            "committer Test Person <test@example.invalid> 1700000000 +0000\n"
            "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEEAAAA\n -----END PGP SIGNATURE-----\n\nadd sessions\n")
    import subprocess

    sha = subprocess.run(["git", "-C", str(repo), "hash-object", "-t", "commit", "-w", "--stdin"], input=body,
                         capture_output=True, text=True, check=True).stdout.strip()
    git(repo, "update-ref", "HEAD", sha)
    for key, value in (
        ("core.fsmonitor", f"{trap} fsmonitor"),
        ("filter.evil.clean", f"{trap} filter-clean"),
        ("filter.evil.smudge", f"{trap} filter-smudge"),
        ("filter.evilproc.process", f"{trap} filter-process"),
        ("diff.evil.textconv", f"{trap} textconv"),
        ("diff.evil.command", f"{trap} diff-command"),
        ("diff.external", f"{trap} diff-external"),
        ("gpg.program", str(gpg)),
        ("log.showSignature", "true"),
        ("commit.gpgSign", "true"),
        ("core.pager", f"{trap} pager"),
    ):
        git(repo, "config", key, value)
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text("*.toml filter=evil diff=evil\n*.md filter=evil diff=evil\n*.out filter=evilproc\n")
    for hook in HOOKS:
        executable(repo / ".git" / "hooks" / hook, f'#!/bin/sh\ntouch "{canaries}/hook-{hook}"\nexit 0\n')


def fired(canaries: Path) -> set[str]:
    return {p.name for p in canaries.iterdir()}


def prove_traps_are_live(repo: Path, canaries: Path) -> None:
    """Plain git runs the repository's commands: the traps work, so their silence later means something."""
    for p in [*(repo / "sessions" / "s1" / "runs" / "r1").rglob("*.md"), *(repo / "sessions" / "s1" / "runs" / "r1").rglob("*.out")]:
        os.utime(p, (1, 1))  # stat differs from the index: git re-reads the file through its filter
    git(repo, "status", "--porcelain")
    git(repo, "hook", "run", "pre-commit")
    git(repo, "hash-object", "--path=sessions/s1/labels/x.toml", "/dev/null")
    git(repo, "log", "-p", "-1", "--", "sessions/s1/session.toml")
    git(repo, "log", "-p", "-1", "--no-ext-diff", "--", "sessions/s1/session.toml")
    brief = repo / "sessions" / "s1" / "runs" / "r1" / "brief.md"
    text = brief.read_text()
    brief.write_text(text + "changed\n")
    git(repo, "diff", "--", "sessions/s1/runs/r1/brief.md")
    brief.write_text(text)
    assert {"fsmonitor", "hook-pre-commit", "filter-clean", "filter-process", "gpg", "diff-command", "textconv"} <= fired(canaries)


def test_no_repository_command_ever_runs(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    repo = root.parent
    canaries = tmp_path / "canaries"
    arm(repo, canaries)
    prove_traps_are_live(repo, canaries)
    # something else is staged, and bob labels too: neither may be committed
    (repo / "notes.txt").write_text("work in progress\n")
    git(repo, "-c", "core.fsmonitor=false", "add", "notes.txt")
    for p in canaries.iterdir():  # the setup's own plain git calls above fire some traps too
        p.unlink()
    before = git(repo, "rev-parse", "HEAD").strip()

    assert repo_info(root) is not None
    store = SessionStore(root)
    store.scan()
    alice = Labeller(store, LabelStore(root, "alice"))
    alice.decide(F1, Verdict.SPECIFICATION, note="brief never says so")
    alice.decide(F2, Verdict.CAPABILITY)
    Labeller(store, LabelStore(root, "bob")).decide(F1, Verdict.CAPABILITY)
    info = repo_info(root)
    assert info is not None and info.dirty and info.branch == "main"
    assert set(provenance(root)) == {"s1/r1", "s1/r2", "s2/r3", "s2/r4"}
    assert label_history(root, "s1", "r1", "heldout:TestToRoman") == []

    done = cli("commit", str(root), "--reviewer", "alice")
    assert done.returncode == 0, done.stderr
    assert "labels: 2 failures (1 specification, 1 capability) by alice" in done.stdout

    history = label_history(root, "s1", "r1", "heldout:TestToRoman")
    assert [(e.reviewer, e.verdict) for e in history] == [("alice", Verdict.SPECIFICATION)]
    assert provenance(root)["s1/r1"].committed
    assert fired(canaries) == set()

    assert git(repo, "rev-list", "--count", f"{before}..HEAD").strip() == "1"
    assert sorted(changed_files(repo, "HEAD")) == ["sessions/s1/labels/alice/r1.toml", "sessions/s2/labels/alice/r3.toml"]
    status = git(repo, "-c", "core.fsmonitor=false", "-c", "filter.evil.clean=", "status", "--porcelain")
    assert "?? sessions/s1/labels/bob/" in status.splitlines()
    assert "A  notes.txt" in status.splitlines()
    assert git(repo, "log", "-1", "--format=%s", "--no-show-signature").strip() == (
        "labels: 2 failures (1 specification, 1 capability) by alice")


def test_outside_git_everything_is_quietly_off(tmp_path: Path) -> None:
    root = small_folder(tmp_path / "plain" / "sessions")
    assert repo_info(root) is None
    assert provenance(root) == {}
    assert label_history(root, "s1", "r1", "heldout:TestToRoman") == []
    with pytest.raises(GitError, match="not in a git repository"):
        commit_labels(root, "alice", [])
    Labeller(SessionStore(root), LabelStore(root, "alice"))
    done = cli("commit", str(root), "--reviewer", "alice")
    assert done.returncode == 0 and "nothing to commit" in done.stdout


def test_commit_outside_git_with_labels_says_so(tmp_path: Path) -> None:
    root = small_folder(tmp_path / "plain" / "sessions")
    store = SessionStore(root)
    store.scan()
    Labeller(store, LabelStore(root, "alice")).decide(F1, Verdict.SPECIFICATION)
    done = cli("commit", str(root), "--reviewer", "alice")
    assert done.returncode == 1
    assert "not in a git repository" in done.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give the repository to another user")
def test_dubious_ownership_names_the_command_and_changes_no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = sessions_repo(tmp_path)
    repo = root.parent
    store = SessionStore(root)
    store.scan()
    Labeller(store, LabelStore(root, "alice")).decide(F1, Verdict.SPECIFICATION)
    global_config = tmp_path / "gitconfig"
    global_config.write_text("[user]\n\tname = Someone\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(global_config))
    os.chown(repo, 12345, 12345)
    for dirpath, dirnames, filenames in os.walk(repo):
        for name in dirnames + filenames:
            os.chown(os.path.join(dirpath, name), 12345, 12345, follow_symlinks=False)
    command = f"git config --global --add safe.directory {repo}"
    for call in (lambda: repo_info(root), lambda: provenance(root), lambda: label_history(root, "s1", "r1", "x:y")):
        with pytest.raises(GitUnsafe) as caught:
            call()
        assert caught.value.command == command
        assert command in str(caught.value)
    done = cli("commit", str(root), "--reviewer", "alice")
    assert done.returncode == 1
    assert command in done.stderr and "dubious ownership" in done.stderr
    assert global_config.read_text() == "[user]\n\tname = Someone\n"
    shutil.rmtree(repo)
