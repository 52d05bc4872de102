"""The review app: a thin shell around a :class:`~reviewer.review.session.ReviewSession`.

Keys call the session; the session answers with an outcome, which :meth:`ReviewApp.report`
carries out: what to say, what to start or redraw, and where to go. A move goes one way
(:meth:`ReviewApp.follow`): the session's request, carried out in a worker (in the app's thread
while the first screen is built, so that it is one paint), taken back by the session, drawn in
one paint. Workers (:mod:`reviewer.ui.workers`) post typed messages
(:mod:`reviewer.ui.messages`); handlers hand what was found to the session and draw.
"""

from __future__ import annotations

import asyncio
import time
from functools import partial
from pathlib import Path
from typing import Any, Callable, Mapping

from textual import on
from textual.app import App
from textual.timer import Timer
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from reviewer.model.sanitize import one_line
from reviewer.review.moving.moves import MoveRequest
from reviewer.review.naming import name_prompt
from reviewer.review.outcome import Outcome, Work, asking_for
from reviewer.review.runlist.rows import Rows
from reviewer.review.selection import Move
from reviewer.review.session import ReviewSession
from reviewer.store.settings.config import Settings
from reviewer.ui import messages, theming, workers
from reviewer.ui.bindings import BINDINGS, BY_ID, apply_keymap, key_label
from reviewer.ui.commands import BindingCommands
from reviewer.ui.outcomes import SessionAnswered, show_toast
from reviewer.ui.render.badges import parts_content
from reviewer.ui.render.panes import REMEMBERED
from reviewer.ui.screens.review import ReviewScreen
from reviewer.ui.startup import first_screen
from reviewer.ui.startup.early_scan import EarlyScan
from reviewer.ui.startup.first_screen import Deadline, FirstScan
from reviewer.ui.theming import DISMISS_ID, ThemeCommands, Themes, startup_warning
from reviewer.ui.widgets.warning_bar import WarningBar
from reviewer.ui.worker_threads import DaemonThreadPool

SAVE_RETRY_SECONDS = 5.0  # unsaved decisions retried, labels files looked at for outside changes
POLL_SECONDS = 2.0  # how often the folder is looked at again
INDEX_SAVE_SECONDS = 15.0
QUIET_SECONDS = 0.3  # quiet after a label change before everyone's labels are read again
FIRST_SCREEN_SECONDS = 1.0  # background work waits for the first failure on screen, or this long
MOVE_WAIT_SECONDS = 0.1  # a move's cursor waits this long for its view, then is drawn alone
AFTER_FIRST_SCREEN = frozenset({Work.COUNT, Work.REVIEWERS, Work.PROVENANCE})
"""Reading the whole folder's failures, everyone's labels and each run's commit wait for the first
screen (beside it, they slowed it)."""


class ReviewApp(App[int]):
    """Step through failing checks of recorded runs and label them."""

    TITLE = "reviewer"
    CSS_PATH = "app.tcss"
    BINDINGS = BINDINGS
    COMMANDS = App.COMMANDS | {BindingCommands, ThemeCommands}

    def __init__(self, session: ReviewSession, settings: Settings | None = None,
                 keymap: Mapping[str, str] | None = None, warnings: list[str] | None = None,
                 themes: Themes | None = None, early_scan: EarlyScan | None = None) -> None:
        super().__init__()
        self.session = session
        self.settings = settings or Settings()
        self.initial_keymap = dict(keymap or {})
        self.themes = themes or Themes()
        self.themes.start(self, self.settings.theme)
        self.pool = DaemonThreadPool()  # the workers' threads (the loop's default executor once up)
        self.startup_warnings = [*self.themes.warnings, *(startup_warning(x) for x in warnings or [])]
        self.review_screen = ReviewScreen(session, self.screen_ready, lambda: self.painted(session.selection.failure_id))
        self.review_screen.symbols = self.symbols
        self.first_scan = FirstScan(early_scan)
        self.building_first_screen = False
        """The first screen is being built in the app's thread: a move is carried out at once."""
        self.after_first_screen: set[Work] | None = set()
        """Work that waits for the first screen (None once it is shown)."""
        self.cursor_waits: MoveRequest | None = None
        """The move whose run-list cursor, status line and evidence strip wait to be drawn with its view."""
        self.last_index_save = 0.0
        self.quiet_timer: Timer | None = None

    def get_default_screen(self) -> ReviewScreen:
        """The review screen, laid out for the terminal's size."""
        self.review_screen.fit(self.size.width)
        return self.review_screen

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Fallbacks for the variables the reviewer's CSS uses beyond Textual's own."""
        return {**super().get_theme_variable_defaults(), **theming.theme_variable_defaults()}

    def get_css_variables(self) -> dict[str, str]:
        """Textual's variables, with ``$code-background`` falling back to ``$surface``; none in Textual's
        constructor (``Themes.start`` sets the start theme's: the default theme's first cost 4 ms)."""
        if "themes" not in vars(self):
            return {}
        return theming.with_code_background(super().get_css_variables(), self.current_theme.variables)

    @property
    def highlight(self) -> Any:
        """The current theme's code colours."""
        return self.themes.highlight(self.theme)

    @property
    def symbols(self) -> dict[str, str]:
        """The current theme's verdict symbols."""
        return self.themes.symbols(self.theme)

    # ---- workers and outcomes ------------------------------------------------------------------

    def start(self, name: str, work: Callable[..., object], *args: object) -> None:
        """Run a worker of :mod:`reviewer.ui.workers` in a thread; it posts its result to the app. A
        newer worker of the same name cancels the older one."""
        self.run_worker(partial(work, *args, self.post_message), name=name, group=name, thread=True, exclusive=True,
                        exit_on_error=False, description=name)

    @on(Worker.StateChanged)
    def worker_failed(self, event: Worker.StateChanged) -> None:
        """The one place a worker's crash is reported; the app goes on."""
        if event.state is WorkerState.ERROR and (error := event.worker.error) is not None:
            self.notify(one_line(f"{type(error).__name__}: {error}", 300), title=f"{event.worker.name} failed",
                        severity="error", timeout=15, markup=False)

    def report(self, outcome: Outcome) -> None:
        """Carry out what the session answered: say its notices, start and redraw what it asks for,
        follow its move."""
        for notice in outcome.notices:
            show_toast(self, notice)
        work = set(outcome.work)
        if outcome.labels_changed:
            work.add(Work.RELABEL)
            if self.quiet_timer is not None:
                self.quiet_timer.stop()
            self.quiet_timer = self.set_timer(QUIET_SECONDS, self.quiet_over)
        for item in sorted(work, key=list(Work).index):
            self.do(item)
        self.refresh_status()
        if outcome.move is not None:
            self.follow(outcome.move)

    def quiet_over(self) -> None:
        """No label changed for a while: read everyone's labels and the repository line again."""
        self.quiet_timer = None
        self.report(asking_for(Work.REVIEWERS, Work.REPOSITORY))

    def do(self, item: Work) -> None:
        """One piece of work an outcome asked for."""
        session, root, screen = self.session, Path(self.session.store.root), self.review_screen
        if item in AFTER_FIRST_SCREEN and self.after_first_screen is not None:
            self.after_first_screen.add(item)
        elif item is Work.SELECTION:
            self.carry_out(session.reread())
        elif item is Work.RELABEL:
            session.totals.changed()
            screen.relabelled(session.relabel(), self.symbols)
        elif item is Work.LIST:
            self.rebuild_list()
        elif item is Work.COUNTS:
            session.totals.changed()
            screen.counts_changed()
        elif item is Work.VIEW:
            REMEMBERED.clear()
            self.carry_out(session.reread())
        elif item is Work.COUNT:
            self.start("count", workers.count, session, [r.key for r in session.folder.uncounted()])
        elif item is Work.SAVE_INDEX:
            self.start("index", workers.save_index, session.store)
        elif item is Work.REVIEWERS:
            self.start("reviewers", workers.reviewers, root, sorted({run.session for run in session.folder.runs}))
        elif item is Work.REPOSITORY and (session.git.on or not session.git.checked):
            self.start("git-info", workers.repository, root)
        elif item is Work.PROVENANCE:
            self.start("git-provenance", workers.run_commits, root)
        elif item is Work.COMMIT:
            self.start("git-commit", workers.commit, root, session.reviewer, sorted(session.git.adjudicated))

    # ---- one path for a move -------------------------------------------------------------------

    def follow(self, move: Move) -> None:
        """Go where a move leads: the session answers it with a request (or says why it went
        nowhere), which is carried out."""
        request = self.session.request(move)
        if isinstance(request, Outcome):
            self.report(request)
        else:
            self.carry_out(request)

    def carry_out(self, request: MoveRequest) -> None:
        """Carry out a move's request, the one way every move goes: in a worker, or in the app's
        thread while the first screen is built (for up to ``first_screen.SEEK_SECONDS``; longer, or when it
        fails, the worker carries it out and reports what went wrong). The cursor, status line and
        evidence strip wait for its view, :data:`MOVE_WAIT_SECONDS` at most."""
        self.cursor_waits = request
        self.set_timer(MOVE_WAIT_SECONDS, partial(self.point_if_waiting, request))
        caps = self.review_screen.caps
        if self.building_first_screen:
            try:  # plain: no theme, so neither the Markdown parser nor Pygments' lexers load before the frame
                moved = workers.carried_out(self.session, request, None, caps, Deadline(first_screen.SEEK_SECONDS))
            except Exception:  # noqa: BLE001 - the worker carries it out again and reports what went wrong
                moved = None
            if moved is not None:
                self.on_moved(moved)
                if moved.rendered is not None:  # the theme (and Pygments) after the paint: its colours, the Markdown
                    view = moved.rendered.view
                    self.call_after_refresh(lambda: self.start("colour", workers.colour, view, self.highlight, caps))
                return
        self.start("move", workers.move, self.session, request, self.highlight, caps)

    def on_moved(self, message: messages.Moved) -> None:
        """A move was carried out: the session takes it (unless a newer move was asked for); its view
        goes into every pane in one paint, with the cursor, status line and evidence strip."""
        shown, outcome = self.session.arrive(message.arrival)
        if shown is not None and message.rendered is not None:
            with self.batch_update():
                self.point()
                self.review_screen.show(message.rendered, shown, self.symbols)
            self.review_screen.call_after_refresh(self.painted, shown.selection.failure_id)
        elif self.cursor_waits is message.arrival.request:
            self.point()
        self.report(outcome)

    def point_if_waiting(self, request: MoveRequest) -> None:
        """A move's view is slow to read: its cursor, status line and evidence strip are drawn alone."""
        if self.cursor_waits is request:
            self.point()

    def point(self) -> None:
        """Draw the run list's cursor, the status line and the evidence strip at the selection."""
        session, self.cursor_waits = self.session, None
        fid = session.selection.failure_id
        self.review_screen.point(session.selection.run_key, fid, session.cached_evidence(fid) if fid else None)
        self.refresh_status()

    def painted(self, failure_id: str) -> None:
        """A view's frame is composed (or the review screen is back on top): its evidence, staleness,
        re-score record and a read-ahead of the next failure start now (beside the paint they
        stretched it), unless the reviewer moved on."""
        self.first_screen_shown()
        session, screen = self.session, self.review_screen
        if session.shown is None or session.selection.failure_id != failure_id:
            return
        if failure_id:
            if screen.workspace.evidence_needed(failure_id, session.cached_evidence(failure_id)):
                self.start("evidence", workers.evidence, session, failure_id)
            self.start("stale", workers.stale_one, session, failure_id)
            screen.rescores.read_record(failure_id)
        if (ahead := session.read_ahead()) is not None:
            self.start("prefetch", workers.read_ahead, session, ahead, self.highlight, screen.caps)

    def on_coloured(self, message: messages.Coloured) -> None:
        """The shown view's colours (and a plain first screen's Markdown) arrived."""
        shown = self.session.shown
        if shown is not None and message.rendered.view.selection.same_place(shown.selection):
            self.review_screen.workspace.coloured(message.rendered, shown)
        self.call_after_refresh(self.first_scan.read_rest)

    def refresh_status(self) -> None:
        """Redraw the status line (a big list's totals are recounted in a worker)."""
        parts, recount = self.session.status()
        if recount:
            self.start("tally", workers.recount, self.session, self.session.folder.listing.order)
        if self.review_screen.is_mounted and self.cursor_waits is None:  # a move draws it with its view
            self.review_screen.status(parts_content(parts), len(self.session.folder.load_errors))

    # ---- the folder and the run list -----------------------------------------------------------

    def screen_ready(self) -> None:
        """The review screen is mounted, not yet painted: keymap, warnings, then the first screen,
        built here in one go when the folder's scan is ready (else the scan worker reads it)."""
        asyncio.get_running_loop().set_default_executor(self.pool)  # q never waits for a reader
        if self.initial_keymap and (unknown := apply_keymap(self, self.initial_keymap)):
            self.notify("unknown key ids: " + ", ".join(unknown), severity="warning", markup=False)
        if self.startup_warnings:
            self.review_screen.warn(self.startup_warnings, key_label(self, BY_ID[DISMISS_ID].binding))
            self.refresh_bindings()
        self.refresh_status()
        scan, head = self.first_scan.take(self.session)  # the launcher's scan, or the first runs while it is read
        if scan is not None:
            self.building_first_screen = True
            try:
                self.on_scanned(messages.Scanned(scan), head)
            finally:
                self.building_first_screen = False
        if head:  # the rest is read once the first runs' colours are painted, or a little later
            self.set_timer(first_screen.REST_SECONDS, self.first_scan.read_rest)
        if scan is None or head:
            self.start("scan", workers.scan, self.session, self.first_scan.scan_future)
        self.call_after_refresh(self.do, Work.REPOSITORY)  # git's line after the first paint (a worker beside it slows it)
        self.set_interval(SAVE_RETRY_SECONDS, self.watch_labels)
        self.set_interval(POLL_SECONDS, self.poll_folder)

    def on_unmount(self) -> None:
        """The app has ended: its worker threads end too (a kept thread would keep the app)."""
        self.pool.shutdown(wait=False)

    def on_scanned(self, message: messages.Scanned, head: bool = False) -> None:
        """Show the runs and open the review (``head``: the folder's first runs only, the rest to follow)."""
        self.report(self.session.take_scan(message.scan, head))
        if not self.session.folder.runs:
            self.review_screen.workspace.nothing("no runs in this folder")
        if (ask := name_prompt(self.session.identity, message.scan.question, served=self.is_web)) is not None:
            self.review_screen.dialogs.ask_name(ask)
        self.last_index_save = time.monotonic()
        self.set_timer(FIRST_SCREEN_SECONDS, self.first_screen_shown)

    def first_screen_shown(self) -> None:
        """The first failure is on screen (or the whole scan is a second old): start what waited for it."""
        waiting = self.after_first_screen
        if waiting is None or not self.session.folder.scanned:
            return
        self.after_first_screen = None
        self.start("stale-all", workers.stale_all, self.session)
        self.report(asking_for(Work.COUNT, Work.REVIEWERS, *([Work.PROVENANCE] if self.session.git.on else []), *waiting))

    def rebuild_list(self) -> None:
        """The list's filter, search, folding or runs changed: rebuild its rows (big lists in a worker,
        but the first screen's at once)."""
        folder = self.session.folder
        request = folder.listing.request(folder.failure_ids, self.session.labelled, self.session.decisions.deferred)
        if folder.listing.big and not (self.building_first_screen and len(folder.runs) <= first_screen.FIRST_ROWS):
            self.start("list", workers.build_list, request)
        else:
            self.take_list(request.generation, *request.build())

    def take_list(self, generation: int, rows: Rows, order: list[str]) -> None:
        """Draw the new rows, then what waited for them (the opening, a search's first match)."""
        outcome = self.session.take_list(generation, rows, order)
        if outcome is not None:
            self.review_screen.list_rebuilt()
            self.report(outcome)

    def on_list_built(self, message: messages.ListBuilt) -> None:
        """A big list's rows."""
        self.take_list(message.generation, message.rows, message.order)

    # ---- what workers found --------------------------------------------------------------------

    @on(messages.Found)
    def found(self, message: messages.Found) -> None:
        """A worker found something the session takes: say, start and redraw what it asks for."""
        self.report(message.take(self.session))

    def on_evidence_ready(self, message: messages.EvidenceReady) -> None:
        """A failure's evidence, shown if it is still current."""
        if message.failure_id == self.session.selection.failure_id and (self.cursor_waits is None or message.error):
            self.review_screen.workspace.show_evidence(message.failure_id, message.evidence, message.error)

    def watch_labels(self) -> None:
        """Retry unsaved decisions; take in outside changes to this reviewer's labels files."""
        self.report(self.session.decisions.retry().then(self.session.decisions.resync()))

    def poll_folder(self) -> None:
        """Look at the folder again (by stat: cheap thanks to the index cache)."""
        if self.session.folder.scanned and not any(x.group == "live" and not x.is_finished for x in self.workers):
            save = time.monotonic() - self.last_index_save > INDEX_SAVE_SECONDS
            self.last_index_save = time.monotonic() if save else self.last_index_save
            self.start("live", workers.refresh, self.session.store, save)

    def watch_theme(self, old: str, new: str) -> None:
        """A new theme: render the view again (code colours, verdict symbols); save the choice."""
        if (screen := getattr(self, "review_screen", None)) is None:
            return  # the start: the screen is made with the theme chosen
        screen.symbols = self.symbols
        if old != new and screen.is_mounted:
            self.carry_out(self.session.reread())
            self.review_screen.relabelled(self.session.shown, self.symbols)
            if new != self.themes.saved:
                self.themes.saved = new
                self.start("settings", workers.theme_saved, new, self.themes.lock)

    # ---- what keys asked for, and the app's own keys -----------------------------------------

    @on(SessionAnswered)
    def session_answered(self, message: SessionAnswered) -> None:
        """A key or a dialog acted on the session: carry its answer out."""
        self.report(message.outcome)

    @on(WarningBar.Dismissed)
    def action_dismiss_warning(self) -> None:
        """``ctrl+w`` (or a click on the bar): hide the warning bar."""
        for bar in self.review_screen.query(WarningBar):
            bar.remove()
        self.call_after_refresh(self.refresh_bindings)

    @property
    def escape_to_minimize(self) -> bool:
        """Escape restores a maximised pane, except in a text box (find, run search): it closes the box."""
        return not isinstance(self.focused, Input) and super().escape_to_minimize

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The dismiss key only acts (and shows in the footer) while the warning bar is up."""
        if action == "dismiss_warning":
            return bool(self.review_screen.is_mounted and self.review_screen.query(WarningBar))
        return super().check_action(action, parameters)
