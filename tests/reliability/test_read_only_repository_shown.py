"""Issue 15, finding 4, on screen: a sessions folder whose repository reviewer refuses to commit
to (a ``.git`` file pointing at another repository, a partial clone) says so on the status line
and in a warning the first time, and ``ctrl+g`` says why instead of starting a commit. Real git
repositories, the real app (Pilot)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "ui"))
sys.path.insert(0, str(HERE.parent / "git"))

from gitkit import commit_all, git, init_repo, sessions_repo  # noqa: E402
from sessionkit import small_folder  # noqa: E402
from textual.widgets import Static  # noqa: E402
from uihelp import make_app, press, settle, sync  # noqa: E402


def status(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.review_screen.query_one("#status", Static).content)


async def shown(root: Path) -> tuple[str, list[tuple[str, str, str]]]:
    """(the status line once the repository was read, every notification after ``s`` and ``ctrl+g``)."""
    app = make_app(root, reviewer="alice")
    async with app.run_test(size=(200, 50)) as pilot:
        for _ in range(20):
            await settle(app, pilot)
            if "read-only" in status(app):
                break
        line = status(app)
        await press(app, pilot, "s", "ctrl+g")
        await settle(app, pilot)
        for _ in range(20):
            if any(n.title in ("Committed", "Commit", "Git: read-only") and "Commit" in n.message + n.title
                   for n in app.notes):
                break
            await settle(app, pilot)
        notes = [(n.title, n.severity, n.message) for n in app.notes]
    return line, notes


@sync
async def test_a_git_file_pointing_elsewhere_is_shown_read_only(tmp_path: Path) -> None:
    victim = init_repo(tmp_path / "victim")
    (victim / "x.txt").write_text("x\n")
    head = commit_all(victim)
    root = small_folder(tmp_path / "received")
    (root / ".git").write_text("gitdir: ../victim/.git\n")
    line, notes = await shown(root)
    assert "\u26a0 read-only: no commits" in line, line
    warned = [n for n in notes if n[0] == "Git: read-only"]
    assert len(warned) == 2 and all(sev == "warning" for _, sev, _ in warned), notes  # once on opening, once for ctrl+g
    assert "is a file pointing at" in warned[0][2] and warned[1][2].startswith("Commit: ")
    assert (root / "s1" / "labels" / "alice" / "r1.toml").is_file()  # the label was saved all the same
    assert git(victim, "rev-parse", "HEAD").strip() == head  # and nothing was committed into the other repository


@sync
async def test_a_partial_clone_is_shown_read_only(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    (root.parent / ".git" / "objects" / "pack" / "pack-0000.promisor").write_text("")
    head = git(root.parent, "rev-parse", "HEAD").strip()
    line, notes = await shown(root)
    assert "read-only: no commits" in line, line
    assert any(t == "Git: read-only" and "partial clone" in m for t, _, m in notes), notes
    assert git(root.parent, "rev-parse", "HEAD").strip() == head


@sync
async def test_a_trusted_repository_shows_no_warning(tmp_path: Path) -> None:
    root = sessions_repo(tmp_path)
    line, notes = await shown(root)
    assert "read-only" not in line and "\u2387 repo" in line, line
    assert not [n for n in notes if n[0] == "Git: read-only"]
    assert any(t == "Committed" for t, _, _ in notes), notes
