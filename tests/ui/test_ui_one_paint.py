"""A move is drawn with its view: the run list's cursor never runs ahead of the panes, unless the
view is slow to read (then the cursor moves alone after ``MOVE_WAIT_SECONDS``)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from uihelp import recording, settle, sync, until

import reviewer.ui.app as app_module
from reviewer.model.run import Run
from reviewer.store.fs.untrusted import TextBlob
from reviewer.store.sessions.store import SessionStore
from reviewer.ui.launch import build_app


class SlowBriefStore(SessionStore):
    """The real store, except that reading one run's brief waits until the test opens the gate
    (a cold read off a slow disk)."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.slow_run = ""
        self.gate = threading.Event()

    def brief(self, run: Run) -> TextBlob:
        if run.key == self.slow_run:
            self.gate.wait(60)
        return super().brief(run)


@sync
async def test_the_cursor_moves_with_the_view_and_alone_only_when_the_view_is_slow(
        basic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = SlowBriefStore(basic)
    app = recording(build_app(store))
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        session, runs = app.session, app.review_screen.run_list
        order = list(session.folder.listing.order)
        here = order.index(session.selection.run_key)
        assert len(order) >= here + 3, order
        near, far = order[here + 1], order[here + 2]
        store.slow_run = far  # read ahead or not, this run's view waits for the gate

        monkeypatch.setattr(app_module, "MOVE_WAIT_SECONDS", 60.0)  # the cursor can only move with the view
        moves: list[tuple[str, str]] = []  # (where the cursor goes, the run the panes show) at each move
        show_run = runs.show_run

        def watched(run_key: str) -> None:
            moves.append((run_key, session.shown.selection.run_key if session.shown else ""))
            show_run(run_key)

        monkeypatch.setattr(runs, "show_run", watched)
        await pilot.press("J")
        await until(app, pilot, lambda: runs.current == near, what="the cursor on the next run", settled=False)
        assert moves and all(shown == near for cursor, shown in moves if cursor == near), moves  # never ahead

        monkeypatch.setattr(app_module, "MOVE_WAIT_SECONDS", 0.1)
        await pilot.press("J")
        await until(app, pilot, lambda: runs.current == far, what="the cursor alone on the slow run", settled=False)
        assert session.shown is not None and session.shown.selection.run_key == near  # the panes wait for the read
        assert session.selection.run_key == far

        store.gate.set()
        await until(app, pilot, lambda: session.shown is not None and session.shown.selection.run_key == far,
                    what="the slow run's view")
        assert runs.current == far


class StartsRecorded(app_module.ReviewApp):
    """The app, recording each worker it starts and each view it applies, in order."""

    CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))
    events: list[str]

    def start(self, name: str, work: object, *args: object) -> None:  # type: ignore[override]
        self.events.append(name)
        super().start(name, work, *args)  # type: ignore[arg-type]

    def on_moved(self, message: object) -> None:  # type: ignore[override]
        super().on_moved(message)  # type: ignore[arg-type]
        self.events.append("applied")


@sync
async def test_a_key_starts_only_its_view_before_the_frame_and_the_rest_after(basic: Path) -> None:
    app = recording(build_app(SessionStore(basic), app_class=StartsRecorded))
    app.events = []
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        # the labels read at the start begin a quiet spell, after which everyone's labels are read again
        await until(app, pilot, lambda: app.quiet_timer is None, what="the quiet spell after the start")
        read_ahead = 0
        for key in ("j", "j", "k"):
            app.events.clear()
            await pilot.press(key)
            await settle(app, pilot)
            events = app.events
            assert "applied" in events, events
            before = events[:events.index("applied")]
            # the key's move reads the view (or takes the one read ahead); nothing else shares the paint
            assert set(before) <= {"move"}, events
            after = events[events.index("applied") + 1:]
            assert "stale" in after, events
            read_ahead += "prefetch" in after  # none when the next view is read ahead already
        assert read_ahead, "no read-ahead started after a frame"
