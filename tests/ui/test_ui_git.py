"""Git and several reviewers in the app, on real git repositories made in tmp_path.

The trap repository's ``.git/config`` names a command as ``core.fsmonitor`` and its hooks write
canary files: plain git fires them (checked first, so their silence later means something);
opening the app, labelling, committing and reading history never do.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Input, RadioSet, Static
from uihelp import make_app, press, settle, sync, until
from uikit import basic_folder

from reviewer.model.label import Verdict
from reviewer.store.labels import Labeller, LabelStore, parse_labels
from reviewer.store.labels.agreement import disagreements
from reviewer.store.sessions.store import SessionStore
from reviewer.store.settings.config import Settings
from reviewer.ui.dialogs.adjudicate import AdjudicateDialog
from reviewer.ui.screens.history import HistoryScreen
from reviewer.ui.widgets.text_view import TextView

REPO_ROOT = Path(__file__).resolve().parents[2]
F1 = "s1/roman-go--model-a#heldout:TestToRoman"
F2 = "s1/roman-go--model-a#heldout:TestRoundTrip"
F3 = "s2/connected--model-a#oracle:connected"
F4 = "s2/connected--model-a#oracle:path"
F5 = "s2/connected--model-c#oracle:connected"
HOOKS = ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-index-change")
SPEC, CAP = Verdict.SPECIFICATION, Verdict.CAPABILITY


def git(repo: Path, *args: str) -> str:
    """Plain git (the user's own, no safety settings) in ``repo``; its stdout."""
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=False,
                          env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def sessions_repo(tmp_path: Path) -> Path:
    """A repository with the basic folder at ``repo/sessions``, committed; the sessions folder."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Test Person")
    git(repo, "config", "user.email", "test@example.invalid")
    root = basic_folder(repo / "sessions")
    git(repo, "add", "-A")
    git(repo, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--no-verify", "-m", "add sessions")
    return root


def executable(path: Path, text: str) -> None:
    """Write a script and make it executable."""
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def arm(repo: Path, canaries: Path) -> None:
    """core.fsmonitor and every commit hook write a canary file."""
    canaries.mkdir()
    trap = repo.parent / "trap.sh"
    executable(trap, f'#!/bin/sh\ntouch "{canaries}/fsmonitor"\nexit 0\n')
    git(repo, "config", "core.fsmonitor", str(trap))
    for hook in HOOKS:
        executable(repo / ".git" / "hooks" / hook, f'#!/bin/sh\ntouch "{canaries}/hook-{hook}"\nexit 0\n')


def label_as(root: Path, reviewer: str, verdicts: dict[str, tuple[Verdict, str]]) -> None:
    """Label failures as another reviewer would (through the store, as the app does)."""
    store = SessionStore(root)
    store.scan()
    labeller = Labeller(store, LabelStore(root, reviewer))
    for fid, (verdict, note) in verdicts.items():
        labeller.decide(fid, verdict, note=note or None)


def status(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.review_screen.query_one("#status", Static).content)


def checks(app) -> list[str]:  # type: ignore[no-untyped-def]
    return app.review_screen.query_one("#checks", TextView).plain_lines()


def messages(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(n.message) for n in app.notes]


async def settle_git(app, pilot) -> None:  # type: ignore[no-untyped-def]
    """Settle, then wait out the repository line's quiet spell and settle again."""
    await settle(app, pilot)
    await until(app, pilot, lambda: app.quiet_timer is None, what="the quiet spell after a label change")


@sync
async def test_commit_from_the_app_runs_no_repository_code_and_commits_only_my_labels(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    repo = root.parent
    canaries = tmp_path / "canaries"
    arm(repo, canaries)
    git(repo, "status", "--short")  # plain git runs the repository's fsmonitor: the trap is live
    assert (canaries / "fsmonitor").exists()
    for fired in canaries.iterdir():  # plain git status also ran post-index-change
        fired.unlink()
    label_as(root, "bob", {F3: (CAP, "")})  # another reviewer's labels, never committed
    before = git(repo, "rev-parse", "HEAD").strip()
    run_commit = git(repo, "log", "-1", "--format=%h", "--", "sessions/s1/runs/roman-go--model-a").strip()
    app = make_app(root, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle_git(app, pilot)
        assert "\u2387 repo" in status(app) and "main" in status(app)
        brief = app.review_screen.query_one("#brief")
        assert run_commit in str(brief.border_subtitle) and "Test Person" in str(brief.border_subtitle)
        assert "changed since" not in str(brief.border_subtitle)
        await press(app, pilot, "s")
        await settle_git(app, pilot)
        assert "\u25cf uncommitted" in status(app)
        await press(app, pilot, "ctrl+g")
        await settle_git(app, pilot)
        assert any("labels: 1 failure" in m and "by alice" in m for m in messages(app))
        await press(app, pilot, "ctrl+g")
        await settle(app, pilot)
        assert "Nothing to commit: the labels are already committed" in messages(app)
    assert sorted(p.name for p in canaries.iterdir()) == []
    log = git(repo, "log", "--format=%H", f"{before}..HEAD").split()
    assert len(log) == 1
    assert git(repo, "show", "--format=", "--name-only", log[0]).split() == ["sessions/s1/labels/alice/roman-go--model-a.toml"]
    assert "?? sessions/s2/labels/" in git(repo, "status", "--porcelain", "--untracked-files=normal")
    assert "labels/bob" not in git(repo, "ls-files")


@sync
async def test_outside_git_the_app_works_with_no_git_ui(basic: Path) -> None:
    app = make_app(basic, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle_git(app, pilot)
        assert "\u2387" not in status(app) and "git" not in status(app)
        assert not app.review_screen.query_one("#brief").border_subtitle
        await press(app, pilot, "s", "ctrl+g", "k", "H")
        assert app.screen is app.review_screen
        assert (basic / "s1" / "labels" / "alice" / "roman-go--model-a.toml").exists()
        assert messages(app)[-2:] == ["Commit: this sessions folder is not in a git repository.",
                                      "History: this sessions folder is not in a git repository."]
        assert not any(n.severity == "error" for n in app.notes)


@pytest.mark.slow  # its flow is tested on the session in tests/review; this is the same on the screen
@sync
async def test_disagreements_mode_walks_exactly_the_failures_reviewers_differ_on(basic: Path) -> None:
    label_as(basic, "bob", {F1: (SPEC, ""), F2: (CAP, ""), F3: (CAP, "prints true [b]not[/b] yes"), F4: (CAP, "")})
    app = make_app(basic, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "s", "s", "s", "c")  # F1 agrees, F2 and F3 differ, F4 agrees
        expected = [d.failure_id for d in disagreements(basic, ["s1", "s2"])]
        assert expected == [F2, F3]
        await press(app, pilot, "D")
        walked = [app.session.selection.failure_id]
        assert "disagreements 1 of 2" in status(app)
        for _ in range(3):
            await press(app, pilot, "j")
            if app.session.selection.failure_id != walked[-1]:
                walked.append(app.session.selection.failure_id)
        assert walked == expected
        assert "disagreements 2 of 2" in status(app)
        lines = checks(app)
        assert any("bob: \u25b2 capability \u2014 prints true [b]not[/b] yes" in ln for ln in lines)
        assert any("alice (you): \u25c6 specification" in ln for ln in lines)
        await press(app, pilot, "k")
        assert app.session.selection.failure_id == F2
        await press(app, pilot, "D", "j")
        assert app.session.selection.failure_id == F3  # every failure again: F2's next one
        await press(app, pilot, "j")
        assert app.session.selection.failure_id == F4
        assert "disagreements" not in status(app)


@pytest.mark.slow  # its flow is tested on the session in tests/review; this is the same on the screen
@sync
async def test_blind_mode_hides_the_other_verdict_until_labelled_and_r_reveals(basic: Path) -> None:
    label_as(basic, "bob", {F1: (CAP, "bob's [@click=app.quit]note[/]"), F2: (SPEC, "")})
    app = make_app(basic, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert app.session.selection.failure_id == F1
        assert not any("bob" in ln for ln in checks(app))
        assert any("others: their verdicts hidden until you label this" in ln for ln in checks(app))
        await press(app, pilot, "r")
        assert any("bob: \u25b2 capability \u2014 bob's [@click=app.quit]note[/]" in ln for ln in checks(app))
        await press(app, pilot, "j")
        assert app.session.selection.failure_id == F2
        assert not any("bob" in ln for ln in checks(app))
        await press(app, pilot, "c", "k")  # label F2 (moves on), come back
        assert app.session.selection.failure_id == F2
        assert any("bob: \u25c6 specification" in ln for ln in checks(app))
    seeing = make_app(basic, reviewer="carol", settings=Settings(blind=False))
    async with seeing.run_test(size=(200, 50)) as pilot:
        await settle(seeing, pilot)
        assert seeing.session.selection.failure_id == F1
        assert any("bob: \u25b2 capability" in ln for ln in checks(seeing))


@sync
async def test_adjudication_is_saved_committed_and_exported_as_final(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    repo = root.parent
    label_as(root, "bob", {F3: (CAP, "")})
    label_as(root, "carol", {F3: (SPEC, "")})
    before = git(repo, "rev-parse", "HEAD").strip()
    app = make_app(root, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "D")
        assert app.session.selection.failure_id == F3
        await press(app, pilot, "A")
        assert isinstance(app.screen, AdjudicateDialog)
        assert isinstance(app.screen.focused, RadioSet)
        await press(app, pilot, "enter")  # the first choice: specification
        assert isinstance(app.screen.focused, Input)
        await pilot.press(*"brief is silent")
        await press(app, pilot, "enter")
        assert app.screen is app.review_screen
        # the adjudicator is a field of its own now (the app's final line is to show it: UI work)
        assert any("final: \u25c6 specification (brief is silent)" in ln for ln in checks(app))
        assert "(1 adjudicated)" in status(app)
        await press(app, pilot, "ctrl+g")
        await settle(app, pilot)
    parsed = parse_labels((root / "s2" / "labels" / "_adjudicated" / "connected--model-a.toml").read_bytes(), "s2", "final")
    [final] = [lab for lab in parsed.labels if lab.check == "oracle:connected"]
    assert (final.verdict, final.adjudicator, final.note) == (SPEC, "alice", "brief is silent")
    (commit,) = git(repo, "log", "--format=%H", f"{before}..HEAD").split()
    assert git(repo, "show", "--format=", "--name-only", commit).split() == [
        "sessions/s2/labels/_adjudicated/connected--model-a.toml"]
    done = subprocess.run([sys.executable, "-m", "reviewer.cli", "export", str(root), "--final", "--format", "jsonl"],
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert done.returncode == 0, done.stderr
    line = next(ln for ln in done.stdout.splitlines() if "connected--model-a" in ln and "oracle:connected" in ln)
    assert '"specification"' in line and "brief is silent" in line and '"adjudicator": "alice"' in line


@sync
async def test_history_lists_who_set_which_verdict_in_which_commit(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    repo = root.parent
    app = make_app(root, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle_git(app, pilot)
        await press(app, pilot, "s", "ctrl+g")
        await settle(app, pilot)
        first = git(repo, "rev-parse", "--short=7", "HEAD").strip()
        await press(app, pilot, "k", "c", "ctrl+g")
        await settle(app, pilot)
        second = git(repo, "rev-parse", "--short=7", "HEAD").strip()
        await press(app, pilot, "k")
        assert app.session.selection.failure_id == F1
        await press(app, pilot, "H")
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        await settle(app, pilot)
        assert screen.entries is not None and [e.short for e in screen.entries] == [first, second]
        lines = screen.query_one(TextView).plain_lines()
        assert lines[1].startswith(second) and "Test Person" in lines[1] and "\u25b2 capability" in lines[1]
        assert lines[2].startswith(first) and "\u25c6 specification" in lines[2] and "alice" in lines[2]
        await press(app, pilot, "escape")
        assert app.screen is app.review_screen


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give the repository to another user")
@sync
async def test_dubious_ownership_shows_the_command_and_changes_no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = sessions_repo(tmp_path)
    repo = root.parent
    global_config = tmp_path / "gitconfig"
    global_config.write_text("[user]\n\tname = Someone\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(global_config))
    for dirpath, dirnames, filenames in os.walk(repo):
        for name in dirnames + filenames:
            os.chown(os.path.join(dirpath, name), 12345, 12345, follow_symlinks=False)
    os.chown(repo, 12345, 12345)
    command = f"git config --global --add safe.directory {repo}"
    app = make_app(root, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert sum(command in m for m in messages(app)) == 1
        assert "git off: dubious ownership" in status(app)
        await press(app, pilot, "s", "ctrl+g")
        assert command in messages(app)[-1]
        assert (root / "s1" / "labels" / "alice" / "roman-go--model-a.toml").exists()
    assert global_config.read_text() == "[user]\n\tname = Someone\n"
    shutil.rmtree(repo)
