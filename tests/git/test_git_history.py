"""Provenance, repository facts and label history, read from real repositories."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitkit import commit_all, git, init_repo, sessions_repo
from sessionkit import RunSpec, small_folder, write_session

from reviewer.model.label import DEFAULT_TAGS, Verdict
from reviewer.store.git import label_history, open_repo, provenance, repo_info
from reviewer.store.git.history import Target, log_labels, parse_log
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.sessions.store import SessionStore

F1 = "s1/r1#heldout:TestToRoman"
F3 = "s2/r3#heldout:test_trail"


def labeller(root: Path, who: str, when: str = "2026-11-29T12:00:00Z") -> Labeller:
    store = SessionStore(root)
    store.scan()
    return Labeller(store, LabelStore(root, who), clock=lambda: when)


def test_repo_info_branch_head_and_dirtiness(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    repo = root.parent
    info = repo_info(root)
    assert info is not None
    assert (info.toplevel, info.root, info.branch, info.detached, info.dirty) == (str(repo.resolve()), "sessions", "main", False, False)
    assert info.head == git(repo, "rev-parse", "--short=7", "HEAD").strip()
    (repo / "elsewhere.txt").write_text("outside the sessions folder\n")
    assert not repo_info(root).dirty
    labeller(root, "alice").decide(F1, Verdict.SPECIFICATION)
    assert repo_info(root).dirty
    git(repo, "checkout", "-q", "--detach")
    detached = repo_info(root)
    assert detached.detached and detached.branch == ""


def test_repo_info_before_the_first_commit(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    root = small_folder(repo)
    info = repo_info(root)
    assert info is not None and info.head == "" and info.root == "." and info.dirty
    assert all(not rc.committed and rc.changed_since for rc in provenance(root).values())
    assert label_history(root, "s1", "r1", "heldout:TestToRoman") == []


def test_provenance_names_the_last_commit_per_run_and_changes_since(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    repo = root.parent
    first = git(repo, "rev-parse", "HEAD").strip()
    (root / "s2" / "runs" / "r3" / "brief.md").write_text("# changed brief\n")
    git(repo, "-c", "user.name=Other Author", "commit", "-q", "-am", "edit r3")
    second = git(repo, "rev-parse", "HEAD").strip()
    labeller(root, "alice").decide(F1, Verdict.SPECIFICATION)
    commit_all(repo, "labels only: no run folder changes")
    (root / "s1" / "runs" / "r2" / "run.toml").write_text((root / "s1" / "runs" / "r2" / "run.toml").read_text() + "\n")
    write_session(root, "s3", [RunSpec("new")])

    prov = provenance(root)
    assert set(prov) == {"s1/r1", "s1/r2", "s2/r3", "s2/r4", "s3/new"}
    assert prov["s2/r3"].commit == second and prov["s2/r3"].author == "Other Author"
    assert prov["s2/r3"].short == second[:len(prov["s2/r3"].short)] and prov["s2/r3"].date.startswith("20")
    assert prov["s1/r1"].commit == first and not prov["s1/r1"].changed_since
    assert prov["s1/r2"].commit == first and prov["s1/r2"].changed_since
    assert not prov["s3/new"].committed and prov["s3/new"].changed_since


@pytest.mark.parametrize("context", [24, 1])
def test_label_history_shows_set_changed_and_removed(tmp_path: Path, context: int) -> None:
    """Three commits: alice sets, bob sets and alice changes, alice removes. Context 1 forces the
    fallback that reads whole file versions; both must tell the same story."""
    root = sessions_repo(tmp_path)
    repo = root.parent
    alice = labeller(root, "alice", "2026-11-29T10:00:00Z")
    alice.decide(F1, Verdict.SPECIFICATION, note="brief is silent", tags=DEFAULT_TAGS)
    alice.decide(F3, Verdict.CAPABILITY)
    c1 = commit_all(repo, "alice labels")
    labeller(root, "Bob Smith", "2026-11-29T11:00:00Z").decide(F1, Verdict.CAPABILITY)
    alice = labeller(root, "alice", "2026-11-29T11:30:00Z")
    alice.decide(F1, Verdict.CAPABILITY, note="no: the brief says 1 to 3999")
    alice.decide(F3, Verdict.SPECIFICATION)
    c2 = commit_all(repo, "bob labels, alice changes her mind")
    labeller(root, "alice").clear(F1)
    c3 = commit_all(repo, "alice removes")
    labeller(root, "alice").decide(F1, Verdict.SPECIFICATION)  # not committed: not history

    got = [(e.commit, e.reviewer, e.verdict, e.note, e.author) for e in label_history(root, "s1", "r1", "heldout:TestToRoman", context)]
    assert got == [
        (c1, "alice", Verdict.SPECIFICATION, "brief is silent", "Test Person"),
        (c2, "Bob Smith", Verdict.CAPABILITY, "", "Test Person"),
        (c2, "alice", Verdict.CAPABILITY, "no: the brief says 1 to 3999", "Test Person"),
        (c3, "alice", None, "", "Test Person"),
    ]
    with open_repo(root) as g:  # with enough context every hunk settles itself, without the fallback
        commits = parse_log(log_labels(g, "s1", context), "sessions/s1/labels", Target.of("r1", "heldout:TestToRoman"), "s1", root / "s1" / "labels", context)
    assert any(fd.unresolved for _, _, _, fds in commits for fd in fds) == (context == 1)
    other = [(e.commit, e.verdict) for e in label_history(root, "s2", "r3", "heldout:test_trail", context)]
    assert other == [(c1, Verdict.CAPABILITY), (c2, Verdict.SPECIFICATION)]
    assert label_history(root, "s2", "r3", "heldout:test_connected", context) == []


def test_label_history_of_a_sessions_folder_at_the_top_level_and_odd_names(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write_session(repo, "odd.session_v2", [RunSpec("run-1", checks=[{"key": 'Test "quoted" [x]', "status": "fail"}])])
    commit_all(repo)
    lab = labeller(repo, "Zoë")
    lab.decide('odd.session_v2/run-1#heldout:Test "quoted" [x]', Verdict.CAPABILITY)
    sha = commit_all(repo, "labels")
    [entry] = label_history(repo, "odd.session_v2", "run-1", 'heldout:Test "quoted" [x]')
    assert (entry.commit, entry.reviewer, entry.verdict) == (sha, "Zoë", Verdict.CAPABILITY)
