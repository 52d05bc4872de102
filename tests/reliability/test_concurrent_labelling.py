"""Two processes, two reviewers, and git changing the labels files while the app is open.

What happens to an outside change (README, Guarantees): each save re-reads the run's file and
merges. Labels added or changed outside (a ``git pull``, another instance) are kept. A decision
made in this session that the outside change removed, or replaced by an older label (``git
checkout`` of an older file, ``git stash``), is written back (at the next save, or within 5 s by
the app's watch) and the app says so. A file left with conflict markers is never written over.
The two-process case runs with each reviewer's format-1 file there too, moved by the first
decision while the other process labels.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from labelkit import verdicts as on_disk
from scriptload import load_script

from reviewer.model.label import Verdict
from reviewer.store.labels import Labeller, LabelStore, clear_cache, utc_now
from reviewer.store.sessions.store import SessionStore

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS / "ui"), str(TESTS / "git")]
from gitkit import commit_all, git, init_repo  # noqa: E402
from uihelp import make_app, press, settle, sync  # noqa: E402
from uikit import basic_folder  # noqa: E402

from reviewer.review.selection import Target  # noqa: E402

RUN = "s1/roman-go--model-a"
F1, F2 = f"{RUN}#heldout:TestToRoman", f"{RUN}#heldout:TestRoundTrip"
LABELS = "sessions/s1/labels/alice/roman-go--model-a.toml"


def verdicts(root: Path, reviewer: str = "alice") -> dict[str, str]:
    """failure id -> verdict of a reviewer's labels of session s1 on disk, read afresh."""
    clear_cache()
    return on_disk(root, "s1", reviewer)


def sessions_repo(repo: Path) -> Path:
    """The UI tests' basic folder in a new git repository, committed."""
    init_repo(repo)
    root = basic_folder(repo / "sessions")
    commit_all(repo, "sessions")
    return root


def clone(origin: Path, where: Path) -> Path:
    """A clone with its own identity."""
    git(origin.parent, "clone", "-q", str(origin), str(where))
    git(where, "config", "user.name", "Alice")
    git(where, "config", "user.email", "alice@example.invalid")
    return where


def headless(root: Path, reviewer: str, fid: str, verdict: Verdict, clock: str | None = None) -> None:
    """Label one failure the way ``reviewer label`` does."""
    store = SessionStore(root)
    store.scan()
    labeller = Labeller(store, LabelStore(root, reviewer), clock=(lambda: clock) if clock else utc_now)
    labeller.decide(fid, verdict)


async def label(app, pilot, fid: str, key: str) -> None:  # type: ignore[no-untyped-def]
    """Go to a failure and press a labelling key."""
    app.follow(Target(fid.split("#")[0], fid))
    await settle(app, pilot, 3)
    assert app.session.selection.failure_id == fid
    await press(app, pilot, key)


def titles(app) -> list[str]:  # type: ignore[no-untyped-def]
    """The titles of the app's notifications."""
    return [str(n.title) for n in app.notes]


@pytest.mark.parametrize("old_file", [False, True], ids=["run-files", "old-file-moved-meanwhile"])
def test_two_processes_interleaved_lose_no_label(old_file: bool) -> None:
    script = load_script(Path(__file__).with_name("concurrent_labelling.py"))
    figures = script.measure(rounds=2, seed=3, old_file=old_file)
    assert figures["acknowledged"] == 80 and figures["interleavings"] > 0  # 40 failures a round
    assert figures["old_labels"] == (90 if old_file else 0)  # 30 per reviewer file: alice; then alice and bob
    assert (figures["lost"], figures["corrupt_files"]) == (0, 0)


def test_a_later_label_from_another_instance_wins_over_this_sessions_older_one(folder: Path) -> None:
    from labelkit import verdicts as folder_verdicts

    fid = "s1/r1#heldout:TestToRoman"
    first = LabelStore(folder, "alice")
    store = SessionStore(folder)
    store.scan()
    Labeller(store, first, clock=lambda: "2026-01-01T10:00:00Z").decide(fid, Verdict.SPECIFICATION)
    Labeller(store, LabelStore(folder, "alice"), clock=lambda: "2026-01-01T11:00:00Z").decide(fid, Verdict.CAPABILITY)
    assert first.resync() == (["s1"], [])
    assert first.get("s1", "r1", "heldout:TestToRoman").verdict is Verdict.CAPABILITY  # type: ignore[union-attr]
    assert first.take_restored() == []
    clear_cache()
    assert folder_verdicts(folder, "s1") == {fid: "capability"}


@sync
async def test_git_pull_while_the_app_is_open_is_merged(tmp_path: Path) -> None:
    origin = tmp_path / "origin.git"
    seed = sessions_repo(tmp_path / "seed")
    git(tmp_path, "clone", "-q", "--bare", str(seed.parent), str(origin))
    mine, other = clone(origin, tmp_path / "mine"), clone(origin, tmp_path / "laptop")
    app = make_app(mine / "sessions", reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await label(app, pilot, F1, "s")
        commit_all(mine, "alice: F1")
        git(mine, "push", "-q", "origin", "main")
        # alice's other machine and bob label too; the app's machine pulls while it is open
        git(other, "pull", "-q", "--no-rebase", "origin", "main")
        headless(other / "sessions", "alice", F2, Verdict.SPECIFICATION)
        headless(other / "sessions", "bob", F1, Verdict.CAPABILITY)
        commit_all(other, "alice: F2, bob: F1")
        git(other, "push", "-q", "origin", "main")
        git(mine, "pull", "-q", "--no-rebase", "origin", "main")
        app.watch_labels()
        await settle(app, pilot)
        assert app.session.decisions.verdict(F2) == "specification"  # the pulled label is shown
        await label(app, pilot, F1, "c")
        assert verdicts(mine / "sessions") == {F1: "capability", F2: "specification"}
        assert "Labels written back" not in titles(app)
    bob = "sessions/s1/labels/bob/roman-go--model-a.toml"
    assert (mine / bob).read_bytes() == (other / bob).read_bytes()


@sync
async def test_git_checkout_of_an_older_labels_file_gets_this_sessions_decisions_back(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path / "repo")
    repo = root.parent
    headless(root, "alice", F1, Verdict.CAPABILITY, clock="2020-01-01T00:00:00Z")
    commit_all(repo, "an older labels file")
    app = make_app(root, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await label(app, pilot, F1, "s")
        await label(app, pilot, F2, "c")
        git(repo, "checkout", "--", LABELS)
        assert verdicts(root) == {F1: "capability"}
        app.watch_labels()  # the app's 5 s watch
        await settle(app, pilot)
        assert verdicts(root) == {F1: "specification", F2: "capability"}
        written_back = [n for n in app.notes if n.title == "Labels written back"]
        assert len(written_back) == 1 and F1 in str(written_back[0].message) and F2 in str(written_back[0].message)
        git(repo, "checkout", "--", LABELS)
        await label(app, pilot, F2, "space")  # the next save writes them back too
        assert verdicts(root) == {F1: "specification", F2: "deferred"}
        assert len([n for n in app.notes if n.title == "Labels written back"]) == 2


@sync
async def test_a_labels_file_with_conflict_markers_is_never_written_over(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path / "repo")
    repo = root.parent
    git(repo, "checkout", "-q", "-b", "laptop")
    headless(root, "alice", F2, Verdict.CAPABILITY)
    commit_all(repo, "alice on the laptop")
    git(repo, "checkout", "-q", "main")
    app = make_app(root, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await label(app, pilot, F1, "s")
        commit_all(repo, "alice on this machine")
        git(repo, "merge", "-q", "laptop", check=False)  # both added alice.toml: a conflict
        conflicted = (repo / LABELS).read_bytes()
        assert b"<<<<<<<" in conflicted
        app.watch_labels()
        await settle(app, pilot)
        assert "Labels file changed outside the app" in titles(app)
        await label(app, pilot, F2, "s")
        assert "not saved yet" in str(app.review_screen.query_one("#status").content)
        assert (repo / LABELS).read_bytes() == conflicted
        git(repo, "checkout", "--theirs", "--", LABELS)  # resolved by taking the laptop's file
        app.watch_labels()
        await settle(app, pilot)
        assert verdicts(root) == {F1: "specification", F2: "specification"}
