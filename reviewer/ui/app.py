"""The review app: holds the selection, loads everything in workers, routes keys.

One reactive, :attr:`ReviewApp.selection`, says what is on screen; the panes watch it (and
:attr:`ReviewApp.detail`, the light parts of the current run). Every store call runs in a
thread worker; results come back through ``call_from_thread`` or messages, and a newer
request makes an older one stale.
"""

from __future__ import annotations

import gc
from dataclasses import replace
from typing import Mapping

from textual import on
from textual.app import App
from textual.content import Content
from textual.css.query import NoMatches
from textual.reactive import reactive

from reviewer.model import Failure, LoadError, Run
from reviewer.store.config import Settings
from reviewer.store.identity import resolve_reviewer
from reviewer.store.labeller import Labeller
from reviewer.store.labels import LabelStore
from reviewer.store.progress import Progress
from reviewer.store.sessions import SessionStore
from reviewer.store.tags import load_vocabulary
from reviewer.ui.actions import NavigationActions
from reviewer.ui.analysis import AnalysisActions
from reviewer.ui.bindings import BINDINGS, apply_keymap
from reviewer.ui.commands import BindingCommands
from reviewer.ui.gitview import GitView
from reviewer.ui.labelling import LabellingActions
from reviewer.ui.live import LiveFolder
from reviewer.ui.loading import LoadingWorkers
from reviewer.ui.paint import START_HOLD_SECONDS, PaintHold
from reviewer.ui.reviewers import ReviewersActions
from reviewer.ui.screens.review import ReviewScreen
from reviewer.ui.state import RunDetail, Selection, Tally, Target, select_failure, tally, turn_for_attempt
from reviewer.ui.theming import ThemeCommands, ThemingMixin
from reviewer.ui.widgets.chrome import StatusBar
from reviewer.ui.widgets.navigator import SYNC_ROWS, RunNavigator



GC_YOUNG = 20_000
"""Allocations between young collections (Python's default is 700)."""


class ReviewApp(PaintHold, LiveFolder, ThemingMixin, GitView, ReviewersActions, AnalysisActions, LoadingWorkers, NavigationActions, LabellingActions, App[int]):
    """Step through failing checks of recorded runs and label them.

    Args:
        store: the sessions folder (scanned in a worker at start).
        start_failure: a failure id to open at; unknown ids are reported and ignored.
        reviewer: who is labelling (used by labelling, 3/9).
        labels: how far runs are labelled and each failure's verdict (default: nothing yet).
        keymap: binding id -> keys, applied over the defaults.
    """

    TITLE = "reviewer"
    CSS_PATH = "app.tcss"
    BINDINGS = BINDINGS
    COMMANDS = App.COMMANDS | {BindingCommands, ThemeCommands}

    selection: reactive[Selection] = reactive(Selection, init=False)
    """What is on screen: run, failure, attempt, file, turn, diff."""
    detail: reactive[RunDetail | None] = reactive(None, init=False, always_update=True)
    """The current run's checks, failures and transcript once loaded (None before)."""

    def __init__(
        self,
        store: SessionStore,
        start_failure: str | None = None,
        reviewer: str | None = None,
        keymap: Mapping[str, str] | None = None,
        labeller: Labeller | None = None,
        settings: Settings | None = None,
        warnings: list[str] | None = None,
    ) -> None:
        # What is loaded by now (modules, Textual) lives as long as the process: out of the
        # collector's full passes, which otherwise walk it again at every start (20 ms).
        gc.freeze()
        # Fewer, not longer, collections: a screen paint makes thousands of short-lived objects,
        # and at the default thresholds a full pass (15 ms) landed on every few key presses.
        gc.set_threshold(GC_YOUNG, 20, 100)
        super().__init__()
        self.store = store
        self.start_failure = start_failure or ""
        self.settings = settings or Settings()
        self.setup_theming(self.settings)
        self.reviewer = reviewer or self.settings.reviewer or resolve_reviewer(None)
        self.labeller = labeller or Labeller(store, LabelStore(store.root, self.reviewer))
        self.labels = Progress(self.labeller)
        self.vocabulary, vocabulary_warning = load_vocabulary(store.root)
        self.startup_warnings = [*(warnings or []), *([vocabulary_warning] if vocabulary_warning else [])]
        self.runs: list[Run] = []
        self.runs_by_key: dict[str, Run] = {}
        self.load_errors: list[LoadError] = []
        self.failure_ids: dict[str, tuple[str, ...]] = {}
        """Failure ids per run key, for the runs counted so far."""
        self.count_errors: dict[str, str] = {}
        self.counting_done = False
        self.scanned = False
        self.want_first = ""
        self.initial_keymap = dict(keymap or {})
        self._review_screen: ReviewScreen | None = None
        self._tally: Tally | None = None
        self._last_tally = Tally({}, 0, 0, 0, 0)

    def get_default_screen(self) -> ReviewScreen:
        """The review screen."""
        return self.review_screen

    @property
    def review_screen(self) -> ReviewScreen:
        """The review screen (also while a modal is shown)."""
        if self._review_screen is None:
            self._review_screen = ReviewScreen()
        return self._review_screen

    @property
    def navigator(self) -> RunNavigator:
        """The run list."""
        return self.review_screen.query_one(RunNavigator)

    def screen_ready(self) -> None:
        """The review screen is composed: wire the run list to counts and labels; scan the folder."""
        if self.initial_keymap:
            unknown = apply_keymap(self, self.initial_keymap)
            if unknown:
                self.notify("unknown key ids: " + ", ".join(unknown), severity="warning", markup=False)
        nav = self.navigator
        nav.failures = self.failure_ids
        nav.labelled = self.labels.labelled
        nav.deferred = self.labels.deferred
        self.start_theming(self.startup_warnings)
        self.refresh_status()
        self.hold_paint(START_HOLD_SECONDS)
        self.scan_folder()

    # ---- selection -----------------------------------------------------------------------

    def select(self, selection: Selection) -> None:
        """Set the selection, choosing the turn that produced the attempt when none is chosen."""
        detail = self.detail
        if selection.turn is None and detail is not None and detail.run.key == selection.run_key:
            selection = replace(selection, turn=turn_for_attempt(detail.turns, selection.attempt))
        self.selection = selection

    def watch_selection(self, old: Selection, new: Selection) -> None:
        """A new run loads its details; the list and status follow."""
        if new.run_key != old.run_key and new.run_key:
            self.hold_paint()
            self.load_detail(new.run_key)
        elif new.failure_id != old.failure_id and new.run_key:
            self.prefetch_next()  # same run: nothing to load, so read ahead now
        if new.failure_id and new.failure_id != old.failure_id:
            self.prefetch_evidence(new.run_key, new.failure_id)
        self.navigator.show_run(new.run_key)
        self.refresh_status()

    def go_to(self, target: Target) -> None:
        """Select a failure (or a run, failure "")."""
        run = self.runs_by_key.get(target.run_key)
        if run is None:
            return
        keep = self.selection.file if self.selection.run_key == target.run_key else ""
        self.select(select_failure(run, target.failure_id, keep))

    def open_run(self, run_key: str) -> None:
        """Select a run at its first failure (once its failures are known)."""
        run = self.runs_by_key.get(run_key)
        if run is None:
            return
        ids = self.failure_ids.get(run_key)
        self.want_first = run_key if ids is None else ""
        self.go_to(Target(run_key, ids[0] if ids else ""))

    def current_failure(self) -> Failure | None:
        """The current failure with its check, when the run's details are loaded."""
        detail = self.detail
        if detail is None or detail.run.key != self.selection.run_key:
            return None
        return next((f for f in detail.failures if f.id == self.selection.failure_id), None)

    def labels_changed(self) -> None:
        """Repaint everything that shows labels (call after a label is written)."""
        self.totals_changed()
        self.navigator.counts_changed()
        self.detail = self.detail
        self.refresh_status()
        self.reviewers_labels_changed()
        self.git_labels_changed()

    # ---- status --------------------------------------------------------------------------

    def totals_changed(self) -> None:
        """Counts, list or labels changed: recount before the status line is drawn again."""
        if self._tally is not None:
            self._last_tally = self._tally
        self._tally = None

    def refresh_status(self) -> None:
        """``failure 3 of 41 · 0/41 labelled · 2 not loaded``."""
        try:
            bar = self.review_screen.query_one(StatusBar)
        except NoMatches:  # the app is closing (a late worker result): nothing to draw on
            return
        bar.errors = len(self.load_errors)
        parts: list[Content | tuple[str, str] | str] = []
        if not self.scanned:
            parts.append(("scanning the folder\u2026", "$text-muted"))
        else:
            if self._tally is None:
                order = self.navigator.order
                if len(order) <= SYNC_ROWS:
                    self._tally = tally(order, self.failure_ids, self.labels.labelled)
                else:
                    self.tally_in_worker(order)
            counts = self._tally or self._last_tally
            position = counts.position(self.selection, self.failure_ids)
            more = "" if counts.complete else "+"
            where = f"failure {position} of {counts.total}{more}" if position else f"{counts.total}{more} failures"
            parts += [(where, "bold"), "  \u00b7  ", f"{counts.labelled}/{counts.total}{more} labelled"]
            if not counts.complete:
                parts += ["  \u00b7  ", (f"counting {counts.counted:,}/{counts.runs:,} runs\u2026", "$text-muted")]
            if self.count_errors:
                parts += ["  \u00b7  ", (f"{len(self.count_errors)} runs could not be parsed", "$text-error")]
        parts += self.filter_status()
        parts += self.reviewers_status_parts()
        pending = self.labeller.labels.pending_count()
        if pending:
            parts += ["  \u00b7  ", (f"\u26a0 {pending} decision(s) not saved yet", "bold $text-error")]
        if self.load_errors:
            parts += ["  \u00b7  ", (f"\u26a0 {len(self.load_errors)} not loaded (E)", "bold $text-warning")]
        parts += self.git_status_parts()
        bar.update(Content.assemble(*parts), layout=False)

    @on(StatusBar.ErrorsClicked)
    def errors_clicked(self) -> None:
        """The load-error count was clicked."""
        self.action_show_errors()

    @on(RunNavigator.RunChosen)
    def run_chosen(self, message: RunNavigator.RunChosen) -> None:
        """A run was picked in the list."""
        if message.run_key != self.selection.run_key:
            self.open_run(message.run_key)

    @on(RunNavigator.Rebuilt)
    def list_rebuilt(self) -> None:
        """Filter or search changed the list: the position counts change."""
        self.totals_changed()
        self.refresh_status()

    def select_failure(self, failure_id: str) -> None:
        """Make a failure of the current run current (a click in the check list)."""
        self.go_to(Target(self.selection.run_key, failure_id))
