"""The review app: a thin shell around a :class:`~reviewer.review.session.ReviewSession`.

Keys call the session; workers (:mod:`reviewer.ui.workers`) post typed messages
(:mod:`reviewer.ui.messages`); handlers hand what was found to the session and draw. The review
screen shows the current failure (one view per paint); the app keeps the folder, labels, the
other reviewers, git, themes and keys."""

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
from reviewer.review.naming import name_prompt
from reviewer.review.outcome import Notice, Outcome, Work, doing
from reviewer.review.selection import End, Move, NeedsCounting, Selection, Target
from reviewer.review.session import ReviewSession
from reviewer.store.settings.config import Settings
from reviewer.ui import messages as m
from reviewer.ui import theming
from reviewer.ui import workers as w
from reviewer.ui.acted import Acted, tell
from reviewer.ui.bindings import BINDINGS, BY_ID, apply_keymap, key_label
from reviewer.ui.commands import BindingCommands
from reviewer.ui.daemon import DaemonExecutor
from reviewer.ui.first_screen import REST_SECONDS, BegunScan, FirstScreen
from reviewer.ui.render.badges import parts_content
from reviewer.ui.render.panes import REMEMBERED
from reviewer.ui.screens.review import ReviewScreen
from reviewer.ui.theming import DISMISS_ID, ThemeCommands, Themes, startup_warning
from reviewer.ui.widgets.warning_bar import WarningBar

SAVE_RETRY_SECONDS = 5.0  # unsaved decisions retried, labels files looked at for outside changes
POLL_SECONDS = 2.0  # how often the folder is looked at again
INDEX_SAVE_SECONDS = 15.0
QUIET_SECONDS = 0.3  # quiet after a label change before everyone's labels are read again
FIRST_SCREEN_SECONDS = 1.0  # background work waits for the first failure on screen, or this long
MOVE_WAIT_SECONDS = 0.1  # a move's cursor waits this long for its view, then is drawn alone


class ReviewApp(App[int]):
    """Step through failing checks of recorded runs and label them."""

    TITLE = "reviewer"
    CSS_PATH = "app.tcss"
    BINDINGS = BINDINGS
    COMMANDS = App.COMMANDS | {BindingCommands, ThemeCommands}

    def __init__(self, session: ReviewSession, settings: Settings | None = None,
                 keymap: Mapping[str, str] | None = None, warnings: list[str] | None = None,
                 themes: Themes | None = None, early_scan: BegunScan | None = None) -> None:
        super().__init__()
        self.early_scan = early_scan  # the first scan, when the launcher began it (the scan worker takes it)
        self.session = session
        self.settings = settings or Settings()
        self.initial_keymap = dict(keymap or {})
        self.themes = themes or Themes()
        self.themes.start(self, self.settings.theme)
        self.pool = DaemonExecutor()  # the workers' threads (the loop's default executor once up)
        self.startup_warnings = [*self.themes.warnings, *(startup_warning(x) for x in warnings or [])]
        self.review_screen = ReviewScreen(session, self.screen_ready, self.painted)
        self.review_screen.symbols = self.symbols
        self.first_shown = self.opening_wanted = False
        self.last_index_save = 0.0
        self.quiet_timer: Timer | None = None
        self.moving: Selection | None = None  # a move waiting for its view: its cursor etc. wait too
        self.painting: str | None = None  # the failure whose view waits for its frame (:meth:`painted`)
        self.first = FirstScreen()

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

    # ---- workers, outcomes, moves -------------------------------------------------------------

    def start(self, name: str, work: Callable[..., object], *args: object) -> None:
        """Run a worker of :mod:`reviewer.ui.workers` in a thread; it posts its result to the app."""
        self.run_worker(partial(work, *args, self.post_message), name=name, group=name, thread=True, exclusive=True,
                        exit_on_error=False, description=name)

    @on(Worker.StateChanged)
    def worker_failed(self, event: Worker.StateChanged) -> None:
        """The one place a worker's crash is reported; the app goes on."""
        if event.state is WorkerState.ERROR and (error := event.worker.error) is not None:
            self.notify(one_line(f"{type(error).__name__}: {error}", 300), title=f"{event.worker.name} failed",
                        severity="error", timeout=15, markup=False)

    def report(self, outcome: Outcome, kind: str = "step", step: int = 1) -> None:
        """Say what an action said, start and redraw what it asks for, follow its move."""
        for notice in outcome.notices:
            tell(self, notice)
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
            self.follow(outcome.move, kind, step)

    def quiet_over(self) -> None:
        """No label changed for a while: read everyone's labels and the repository line again."""
        self.quiet_timer = None
        self.report(doing(Work.REVIEWERS, Work.REPOSITORY))

    def do(self, item: Work) -> None:
        """One piece of work an outcome asked for."""
        session, root, screen = self.session, Path(self.session.store.root), self.review_screen
        if item is Work.SELECTION:
            self.read_view()
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
            self.read_view()
        elif item is Work.COUNT and self.first_shown:
            self.start("count", w.count, session, [r.key for r in session.folder.uncounted()])
        elif item is Work.SAVE_INDEX:
            self.start("index", w.save_index, session.store)
        elif item is Work.REVIEWERS and self.first_shown:
            self.start("reviewers", w.reviewers, root, sorted({run.session for run in session.folder.runs}))
        elif item is Work.REPOSITORY and (session.git.on or not session.git.checked):
            self.start("git-info", w.repository, root)
        elif item is Work.PROVENANCE and self.first_shown:
            self.start("git-provenance", w.run_commits, root)
        elif item is Work.COMMIT:
            self.start("git-commit", w.commit, root, session.reviewer, sorted(session.git.adjudicated))

    def follow(self, move: Move, kind: str = "step", step: int = 1) -> None:
        """Go where a move lands; count runs first when it needs them; say why when it cannot."""
        session = self.session
        if isinstance(move, Target):
            session.go_to(move)
            self.read_view()
        elif isinstance(move, NeedsCounting):
            order = [move.run_key] if kind == "open" else list(session.folder.listing.order)
            seeked = self.first.seek(session, kind, session.selection, order, step)  # the first screen's, here
            if seeked is not None:
                return self.on_seeked(seeked)
            self.start("seek", w.seek, session, kind, session.selection, order, step)
        elif move.message:
            tell(self, Notice(move.message, bell=kind == "step"))

    def read_view(self) -> None:
        """The selection changed: its view (the cursor, status line and evidence strip wait for it)."""
        session, screen = self.session, self.review_screen
        selection = session.selection
        ready = self.first.view(session, selection, screen.caps)
        if ready is None:
            self.start("view", w.view, session, selection, self.highlight, screen.caps)
        if session.folder.listing.unfold_for(selection.run_key, session.current_run()):
            self.rebuild_list()  # the run was in a folded group
        self.moving = selection
        self.set_timer(MOVE_WAIT_SECONDS, partial(self.show_move, selection))
        if ready is not None:
            self.on_view_ready(ready)
            if ready.rendered.plain or not ready.rendered.code.coloured:  # the theme (and Pygments) after the paint
                self.call_after_refresh(lambda: self.start("colour", w.colour, ready.view, self.highlight, screen.caps))

    def show_move(self, waited: Selection | None = None) -> None:
        """Draw the cursor, status line and evidence strip (``waited``: if that move still waits)."""
        if waited is not None and waited is not self.moving:
            return
        session, self.moving = self.session, None
        fid = session.selection.failure_id
        self.review_screen.point(session.selection.run_key, fid, session.cached_evidence(fid) if fid else None)
        self.refresh_status()

    def refresh_status(self) -> None:
        """Redraw the status line (a big list's totals are recounted in a worker)."""
        parts, recount = self.session.status()
        if recount:
            self.start("tally", w.recount, self.session, self.session.folder.listing.order)
        if self.review_screen.is_mounted and self.moving is None:  # a move draws it with its view
            self.review_screen.status(parts_content(parts), len(self.session.folder.load_errors))

    def rebuild_list(self) -> None:
        """The list's filter, search, folding or runs changed: rebuild its rows (big lists in a worker)."""
        folder = self.session.folder
        request = folder.listing.request(folder.failure_ids, self.session.labelled, self.session.decisions.deferred)
        if folder.listing.big and not self.first.builds(len(folder.runs)):
            self.start("list", w.build_list, request)
        elif folder.listing.take(request.generation, *request.build()):
            self.list_rebuilt()

    def list_rebuilt(self) -> None:
        """Draw the new rows; the first time, open the review (it walks the list)."""
        self.session.totals.changed()
        self.review_screen.list_rebuilt()
        if self.opening_wanted:
            self.opening_wanted = False
            self.opening()

    def screen_ready(self) -> None:
        """The review screen is mounted, not yet painted: keymap, warnings, then the scan."""
        asyncio.get_running_loop().set_default_executor(self.pool)  # q never waits for a reader
        if self.initial_keymap and (unknown := apply_keymap(self, self.initial_keymap)):
            self.notify("unknown key ids: " + ", ".join(unknown), severity="warning", markup=False)
        if self.startup_warnings:
            self.review_screen.warn(self.startup_warnings, key_label(self, BY_ID[DISMISS_ID].binding))
            self.refresh_bindings()
        self.refresh_status()
        early, self.early_scan = self.early_scan, None
        scan, head = self.first.take(self.session, early)  # the scan, or the first runs while it is read
        if scan is not None:
            self.first.opening = True  # the first screen in one paint: the scan, seek and view taken here
            self.on_scanned(m.Scanned(scan), head)
            self.first.opening = False
        if head:  # the rest is read once the first runs' colours are painted, or a little later
            self.set_timer(REST_SECONDS, self.first.read_rest)
        if scan is None or head:
            self.start("scan", w.scan, self.session, early.future if early else None)
        self.call_after_refresh(self.do, Work.REPOSITORY)  # git's line after the first paint (a worker beside it slows it)
        self.set_interval(SAVE_RETRY_SECONDS, self.watch_labels)
        self.set_interval(POLL_SECONDS, self.poll_folder)

    def on_unmount(self) -> None:
        """The app has ended: its worker threads end too (a kept thread would keep the app)."""
        self.pool.shutdown(wait=False)

    def on_scanned(self, message: m.Scanned, head: bool = False) -> None:
        """Show the runs and open at the first (or the asked-for) failure; ``head``: the first runs only
        (the whole list after them opens again only if they held no failure)."""
        folder = self.session.folder
        self.opening_wanted = not (folder.partial and self.session.selection.failure_id)
        self.report(folder.take_head(message.scan) if head else folder.take_scan(message.scan))  # the list, then the opening
        if not self.session.folder.runs:
            self.review_screen.workspace.nothing("no runs in this folder")
        if (ask := name_prompt(self.session.identity, message.scan.question, served=self.is_web)) is not None:
            self.review_screen.dialogs.ask_name(ask)
        self.last_index_save = time.monotonic()
        self.set_timer(FIRST_SCREEN_SECONDS, self.first_screen)

    def opening(self) -> None:
        """Open at the asked-for failure (its run counted first), else the first unlabelled one."""
        out = self.session.start()
        counting_asked = isinstance(out.move, NeedsCounting) and bool(self.session.start_failure)
        self.report(out, "open" if counting_asked else "unlabelled")

    def first_screen(self) -> None:
        """The first failure is on screen (or took long): start what waited for it."""
        if not self.first_shown and self.session.folder.scanned:
            self.first_shown = True
            self.start("stale-all", w.stale_all, self.session)
            self.report(doing(Work.COUNT, Work.REVIEWERS, *([Work.PROVENANCE] if self.session.git.on else [])))

    # ---- what workers found --------------------------------------------------------------------

    @on(m.Found)
    def found(self, message: m.Found) -> None:
        """A worker found something the session takes: say, start and redraw what it asks for."""
        self.report(message.take(self.session))

    def on_seeked(self, message: m.Seeked) -> None:
        """Go where a seek landed, unless the reviewer moved on meanwhile."""
        self.report(self.session.folder.counted(message.found, {}, False))
        if message.asked != self.session.selection:
            return
        if message.kind == "open" and self.session.start_failure:
            self.opening()
        elif isinstance(message.move, End) and not message.asked.run_key:
            self.report(self.session.nothing_to_open(message.kind))
        else:
            self.follow(message.move, message.kind)

    def on_view_ready(self, message: m.ViewReady) -> None:
        """Take a view if it is still wanted; every pane draws it in one paint (status line and strip first)."""
        view = self.session.take_view(message.view)
        if view is None:
            return
        gone = self.session.vanished(view)
        if gone is not None:
            self.follow(gone)
            return
        with self.batch_update():
            self.show_move()
            self.review_screen.show(message.rendered, view, self.symbols)
        self.painting = view.selection.failure_id
        self.call_after_refresh(self.painted)  # lost if a dialog on top closes first: the screen calls it then

    def painted(self) -> None:
        """A view's frame is composed: its evidence, staleness, re-score record and the next view (beside
        the paint they stretched it) start, unless the reviewer moved on."""
        self.first_screen()
        session, screen, fid, self.painting = self.session, self.review_screen, self.painting, None
        if fid is None or session.selection.failure_id != fid:
            return
        if fid:
            if screen.workspace.evidence_needed(fid, session.cached_evidence(fid)):
                self.start("evidence", w.evidence, session, fid)
            self.start("stale", w.stale_one, session, fid)
            screen.rescores.read_record(fid)
        if (target := session.prefetch_target()) is not None:
            self.start("prefetch", w.view, session, target, self.highlight, screen.caps, True)

    def on_coloured(self, message: m.Coloured) -> None:
        """The shown view's colours (and a plain first screen's Markdown) arrived."""
        shown = self.session.shown
        if shown is not None and message.rendered.view.selection.same_place(shown.selection):
            self.review_screen.workspace.coloured(message.rendered, shown)
        self.call_after_refresh(self.first.read_rest)

    def on_evidence_ready(self, message: m.EvidenceReady) -> None:
        """A failure's evidence, shown if it is still current."""
        if message.failure_id == self.session.selection.failure_id and (self.moving is None or message.error):
            self.review_screen.workspace.show_evidence(message.failure_id, message.evidence, message.error)

    def on_list_built(self, message: m.ListBuilt) -> None:
        """A big list's rows."""
        if self.session.folder.listing.take(message.generation, message.rows, message.order):
            self.list_rebuilt()
            self.refresh_status()

    def watch_labels(self) -> None:
        """Retry unsaved decisions; take in outside changes to this reviewer's labels files."""
        self.report(self.session.decisions.retry().then(self.session.decisions.resync()))

    def poll_folder(self) -> None:
        """Look at the folder again (by stat: cheap thanks to the index cache)."""
        if self.session.folder.scanned and not any(x.group == "live" and not x.is_finished for x in self.workers):
            save = time.monotonic() - self.last_index_save > INDEX_SAVE_SECONDS
            self.last_index_save = time.monotonic() if save else self.last_index_save
            self.start("live", w.refresh, self.session.store, save)

    def watch_theme(self, old: str, new: str) -> None:
        """A new theme: render the view again (code colours, verdict symbols); save the choice."""
        if (screen := getattr(self, "review_screen", None)) is None:
            return  # the start: the screen is made with the theme chosen
        screen.symbols = self.symbols
        if old != new and screen.is_mounted:
            self.read_view()
            self.review_screen.relabelled(self.session.shown, self.symbols)
            if new != self.themes.saved:
                self.themes.saved = new
                self.start("settings", w.theme_saved, new, self.themes.lock)

    # ---- what keys asked for, and the app's own keys -----------------------------------------

    @on(Acted)
    def acted(self, message: Acted) -> None:
        """A key on the review screen acted on the session."""
        self.report(message.outcome, message.kind, message.step)

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
