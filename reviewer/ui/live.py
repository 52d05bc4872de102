"""Live folders: runs a harness adds or rewrites while the app is open appear within seconds.

Also the order of the first seconds: the background count of every run's failures, the check
of every label's evidence, the read of the other reviewers' labels and of the runs' git history
start once the first failure is on screen (or a second after the scan), so that they do not
compete with the first screen.

A worker looks at the folder every :data:`POLL_SECONDS` (``SessionStore.refresh``: listing and
``lstat`` only, thanks to the index cache) and hands what changed to the screen. The reviewer's
place never moves: the selection stays, the run list keeps the current run highlighted on the
same screen line, and the current failure stays selected while it still exists. It also writes
the index cache when something new was learnt.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Callable, cast

from textual import on, work
from textual.app import App
from textual.timer import Timer

from reviewer.model import LoadError, Run
from reviewer.store.sessions import Changes
from reviewer.ui.state import RunDetail, select_failure
from reviewer.ui.widgets.brief import BriefPane
from reviewer.ui.widgets.chrome import NavigatorPanel
from reviewer.ui.widgets.code import CodePane
from reviewer.ui.widgets.grader import GraderPane
from reviewer.ui.widgets.navigator import RunNavigator
from reviewer.ui.widgets.pane import Pane
from reviewer.ui.widgets.transcript import TranscriptPane

if TYPE_CHECKING:
    from reviewer.ui.app import ReviewApp

POLL_SECONDS = 2.0
"""How often the folder is looked at again."""
SAVE_SECONDS = 15.0
"""The index cache is written at most this often while the app runs."""
LOAD_FACTOR = 9.0
"""A look that took t seconds is not repeated for LOAD_FACTOR * t (at most a tenth of the time)."""
COUNT_DELAY = 1.0
"""The background count waits for the first failure on screen, or this long (seconds)."""
FIRST_CHECK_SECONDS = 0.005
"""How often the start looks whether the first failure is on screen."""


class LiveFolder(App[int]):
    """Polls the sessions folder and merges new and changed runs into the open app."""

    _live_timer: Timer | None = None
    _live_busy = False
    _live_saved = 0.0
    _live_next = 0.0
    _keep_line: int | None = None
    _recheck_run = ""
    _first_shown = False
    _pending_count: list[Run] | None = None
    _pending_labels = False
    _first_watch: Timer | None = None
    _first_deadline = 0.0
    _after_first: list[Callable[[], object]] | None = None

    @property
    def live_app(self) -> "ReviewApp":
        """This app, typed."""
        return cast("ReviewApp", self)

    def folder_scanned(self, runs: list[Run], errors: list[LoadError]) -> None:
        """The first scan is shown: start watching the folder (a store that can refresh)."""
        super().folder_scanned(runs, errors)  # type: ignore[misc]
        self._live_saved = time.monotonic()
        self._first_deadline = time.monotonic() + COUNT_DELAY
        if not self._first_shown and self._first_watch is None:
            self._first_watch = self.set_interval(FIRST_CHECK_SECONDS, self.watch_first_screen)
        if self._live_timer is None and hasattr(self.live_app.store, "refresh"):
            self._live_timer = self.set_interval(POLL_SECONDS, self.poll_folder, name="live-folder")

    def count_failures(self, runs: list[Run]) -> None:
        """Count in the background, but only once the first failure is on screen."""
        if self._first_shown:
            super().count_failures(runs)  # type: ignore[misc]
        else:
            self._pending_count = runs

    def check_labels(self) -> None:
        """Check labels for staleness (reads runs' files) once the first failure is on screen."""
        if threading.get_ident() != getattr(self, "_thread_id", threading.get_ident()):
            self.call_from_thread(self.check_labels)
        elif self._first_shown:
            super().check_labels()  # type: ignore[misc]
        else:
            self._pending_labels = True

    def after_first_screen(self, start: Callable[[], object]) -> None:
        """Call ``start`` (background work the first screen does not need) once it is up; asked
        again before then, it is still called once."""
        if self._first_shown:
            start()
        else:
            if self._after_first is None:
                self._after_first = []
            if start not in self._after_first:
                self._after_first.append(start)

    def watch_first_screen(self) -> None:
        """Start the background work once every pane shows the first failure (or time is up)."""
        app = self.live_app
        shown = bool(app.selection.run_key) and app.panes_settled()
        if shown or time.monotonic() >= self._first_deadline:
            if self._first_watch is not None:
                self._first_watch.stop()
                self._first_watch = None
            self.start_count()

    def start_count(self) -> None:
        """The first screen is up (or took long): start what waited for it."""
        if self._first_shown:
            return
        self._first_shown = True
        runs, self._pending_count = self._pending_count, None
        if runs is not None:
            self.count_failures(runs)
        if self._pending_labels:
            self._pending_labels = False
            self.check_labels()
        waiting, self._after_first = self._after_first or [], None
        for start in waiting:
            start()

    def counts_arrived(self, batch: dict[str, tuple[str, ...]], done: bool) -> None:
        """Counting finished: what it learnt goes into the index cache (in a worker)."""
        super().counts_arrived(batch, done)  # type: ignore[misc]
        if done and hasattr(self.live_app.store, "save_index"):
            self.save_index()

    @work(thread=True, exclusive=True, group="index")
    def save_index(self) -> None:
        """Write the index cache (worker thread)."""
        self._live_saved = time.monotonic()
        self.live_app.store.save_index()

    def poll_folder(self) -> None:
        """Look at the folder again unless the last look is still going or was recent for its cost."""
        if not self._live_busy and self.live_app.scanned and time.monotonic() >= self._live_next:
            self._live_busy = True
            self.refresh_in_worker()

    @work(thread=True, group="live")
    def refresh_in_worker(self) -> None:
        """Rescan by stat (worker thread); report changes; write the index now and then."""
        store = self.live_app.store
        started = time.monotonic()
        try:
            changes = store.refresh()
            self._live_next = time.monotonic() + LOAD_FACTOR * (time.monotonic() - started)
            if changes:
                self.call_from_thread(self.folder_changed, changes, list(store.runs), list(store.errors))
            if time.monotonic() - self._live_saved > SAVE_SECONDS:
                self._live_saved = time.monotonic()
                store.save_index()
        finally:
            self._live_busy = False

    def folder_changed(self, changes: Changes, runs: list[Run], errors: list[LoadError]) -> None:
        """Merge what changed on disk without moving the reviewer's place."""
        app = self.live_app
        app.runs = runs
        app.runs_by_key = {r.key: r for r in runs}
        app.load_errors = errors
        for key in [r.key for r in changes.changed] + changes.removed:
            app.failure_ids.pop(key, None)
            app.count_errors.pop(key, None)
        nav = app.navigator
        top = int(nav.scroll_offset.y)
        height = max(1, nav.scrollable_content_region.height)
        self._keep_line = nav.cursor - top if top <= nav.cursor < top + height else None
        nav.set_runs(runs)
        app.review_screen.query_one(NavigatorPanel).draw_header()
        app.totals_changed()
        app.refresh_status()
        app.count_failures(runs)
        current = app.selection.run_key
        if current in changes.removed:
            self.notify("The run on screen was removed from the folder.", severity="warning", markup=False)
        elif current and current in {r.key for r in changes.changed}:
            self._recheck_run = current
            self.reload_panes()
            app.load_detail(current)

    def reload_panes(self) -> None:
        """Make every pane read the current run again (its files changed on disk)."""
        screen = self.live_app.review_screen
        for code in screen.query(CodePane):
            code.token = None
        for grader in screen.query(GraderPane):
            grader.token = None
        for brief in screen.query(BriefPane):
            brief.run_key = ""
        for transcript in screen.query(TranscriptPane):
            transcript.wanted = ""

    def detail_loaded(self, detail: RunDetail) -> None:
        """A changed current run loaded again: keep its failure, or take its first one."""
        super().detail_loaded(detail)  # type: ignore[misc]
        app = self.live_app
        if detail.run.key != self._recheck_run or detail.run.key != app.selection.run_key:
            return
        self._recheck_run = ""
        ids = [f.id for f in detail.failures]
        selection = app.selection
        if selection.failure_id and selection.failure_id not in ids:
            app.select(select_failure(detail.run, ids[0] if ids else ""))
            return
        for pane in app.review_screen.query(Pane):
            pane.detail_changed(detail)
            pane.selection_changed(replace(selection))

    @on(RunNavigator.Rebuilt)
    def keep_list_place(self) -> None:
        """After a live rebuild, keep the current run on the same screen line."""
        line, self._keep_line = self._keep_line, None
        if line is None:
            return
        nav = self.live_app.navigator
        nav.scroll_to(y=max(0, nav.cursor - line), animate=False, immediate=True, force=True)
