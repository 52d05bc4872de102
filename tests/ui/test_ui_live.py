"""Live folders: runs written while the app is open appear, and the reviewer's place stays."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomli_w
from uihelp import make_app, press, settle, sync, until


def write_run(root: Path, session: str, run_id: str, task: str, checks: list[dict[str, str]]) -> None:
    """A run with recorded checks, written as a harness would (manifest last)."""
    rdir = root / session / "runs" / run_id
    (rdir / "attempts" / "1").mkdir(parents=True, exist_ok=True)
    (rdir / "attempts" / "1" / "main.go").write_text("package main\n")
    (rdir / "brief.md").write_text("# A new task\n")
    doc = {"format": 1, "run": {"task": task, "model": "model-z", "outcome": "fail", "brief": "brief.md"},
           "attempt": [{"files": ["main.go"]}],
           "grader": [{"name": "heldout", "exit_status": 1, "check": checks}]}
    (rdir / "run.toml").write_bytes(tomli_w.dumps(doc).encode())


@sync
async def test_a_run_written_while_open_appears_and_the_place_stays(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await press(app, pilot, "j")
        before = app.session.selection
        nav = app.review_screen.run_list
        assert before.failure_id
        write_run(basic, "s1", "aardvark--model-z", "aardvark", [{"key": "TestNew", "status": "fail", "message": "new"}])
        took = await until(app, pilot, lambda: "s1/aardvark--model-z" in nav.order, timeout=10)
        assert took < 8
        assert app.session.selection == before
        assert nav.rows[nav.cursor].key == before.run_key and nav.current == before.run_key
        await until(app, pilot, lambda: app.session.folder.failure_ids.get("s1/aardvark--model-z") is not None, timeout=10)
        assert app.session.folder.failure_ids["s1/aardvark--model-z"] == ("s1/aardvark--model-z#heldout:TestNew",)
        assert app.is_running


@sync
async def test_runs_added_above_keep_the_current_run_on_its_screen_line(basic: Path) -> None:
    for i in range(30):
        write_run(basic, "s2", f"zebra-{i:02d}--model-z", f"zebra-{i:02d}", [{"key": "TestZ", "status": "fail"}])
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        nav = app.review_screen.run_list
        app.follow(app.session.open_run("s2/zebra-29--model-z"))
        await settle(app, pilot)
        before = app.session.selection
        top = int(nav.scroll_offset.y)
        line = nav.cursor - top
        assert top > 0 and before.failure_id
        for i in range(3):
            write_run(basic, "s1", f"aardvark-{i}--model-z", f"aardvark-{i}", [{"key": "TestNew", "status": "fail"}])
        await until(app, pilot, lambda: "s1/aardvark-2--model-z" in nav.order, timeout=10)
        assert app.session.selection == before and nav.rows[nav.cursor].key == before.run_key
        assert nav.cursor - int(nav.scroll_offset.y) == line and int(nav.scroll_offset.y) > top


@pytest.mark.slow  # its flow is tested on the session in tests/review; this is the same on the screen
@sync
async def test_a_changed_current_run_reloads_and_keeps_its_failure(basic: Path) -> None:
    app = make_app(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        run_key = "s2/connected--model-a"
        app.follow(app.session.open_run(run_key))
        await settle(app, pilot)
        await press(app, pilot, "j")
        before = app.session.selection
        assert before.failure_id == f"{run_key}#oracle:path"
        manifest = basic / "s2" / "runs" / "connected--model-a" / "run.toml"
        manifest.write_text(manifest.read_text().replace('key = "connected"', 'key = "connected2"'))
        await until(app, pilot, lambda: app.session.shown is not None and any(
            f.check.key == "connected2" for f in app.session.shown.failures), timeout=10)
        assert app.session.selection == before
        assert app.session.folder.failure_ids[run_key] == (f"{run_key}#oracle:connected2", f"{run_key}#oracle:path")
        manifest.write_text(manifest.read_text().replace('key = "path"', 'key = "path2"'))
        await until(app, pilot, lambda: app.session.selection.failure_id != before.failure_id, timeout=10)
        assert app.session.selection.run_key == run_key and app.session.selection.failure_id == f"{run_key}#oracle:connected2"
