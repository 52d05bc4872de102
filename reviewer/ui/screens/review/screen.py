"""The review screen: run list, the panes (a 2x2 grid when wide, tabs when narrow), status, footer.

It draws what it is handed (:meth:`ReviewScreen.show`: one rendered view into every pane, in the
app's ``batch_update``) and holds the keys that act on what it shows. A key calls the session and
posts the :class:`SessionAnswered` outcome; the app does what it asks for. The screen never imports the app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Mapping

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget

from reviewer.model.label import Verdict
from reviewer.review.outcome import Outcome, Work, asking_for, saying
from reviewer.review.session import ReviewSession
from reviewer.review.view import FailureView
from reviewer.ui.outcomes import SessionAnswered
from reviewer.ui.render.panes import Rendered
from reviewer.ui.screens.review.dialogs import STAYED, ReviewDialogs
from reviewer.ui.screens.review.rescore import RescoreFlow, RescoreMessage
from reviewer.ui.widgets.chrome import FindBar, NavigatorPanel, StatusBar
from reviewer.ui.widgets.code import FileBar
from reviewer.ui.widgets.grader import GraderPane
from reviewer.ui.widgets.keybar import KeyBar
from reviewer.ui.widgets.navigator import RunNavigator
from reviewer.ui.widgets.pane import Pane
from reviewer.ui.widgets.rescore_strip import RescoreStrip
from reviewer.ui.widgets.transcript import TranscriptPane
from reviewer.ui.widgets.warning_bar import BarWarning, WarningBar
from reviewer.ui.widgets.workspace import Workspace, pane_of

if TYPE_CHECKING:
    from reviewer.analysis.evidence.engine import Evidence

WIDE = 160  # columns from which all four panes are shown at once
SMALL = 100  # columns below which the run list narrows
MOVED = asking_for(Work.SELECTION)


class ReviewScreen(Screen[None]):
    """The one screen the reviewer works in."""

    AUTO_FOCUS = None

    def __init__(self, session: ReviewSession, ready: Callable[[], None], painted: Callable[[], None]) -> None:
        super().__init__(id="review")
        self.session = session
        self.ready = ready  # the app's start, called before the first paint
        self.painted = painted  # what waits for a view's frame: again when back over a closed dialog
        folder = session.folder
        self.run_list = RunNavigator(folder.listing, folder.failure_ids, session.labelled, id="runs")
        # held: a query walks every widget of the screen, and finds none once the app has closed
        self.workspace, self.status_bar, self.nav_panel = Workspace(), StatusBar(), NavigatorPanel(self.run_list)
        self.find_bar, self.rescore_strip, self.main = FindBar(), RescoreStrip(), Horizontal(id="main")
        self.symbols: Mapping[str, str] = {}  # the theme's verdict symbols (the app keeps them current)
        self.rescores = RescoreFlow(self, session, self.act, self.workspace, self.rescore_strip)
        self.dialogs = ReviewDialogs(self, session, self.act, self.rescores, lambda: self.symbols)
        self.resumed = False  # on top before (the first time, see on_screen_resume)

    def compose(self) -> ComposeResult:
        """Run list beside the panes; find bar, status line and footer below."""
        with self.main:
            yield self.nav_panel
            yield self.workspace
        yield self.find_bar
        yield self.rescore_strip
        yield self.status_bar
        yield KeyBar()

    def fit(self, width: int) -> None:
        """Below 100 columns the run list narrows, below 160 the panes are tabs; set before the first
        paint too (Textual sets breakpoints after it: a wide screen's panes were first in one column)."""
        for name, wanted in (("-wide", width >= WIDE), ("-narrow", width < WIDE), ("-small", width < SMALL)):
            self.set_class(wanted, name)
        self.workspace.starts_narrow = width < WIDE

    def on_resize(self) -> None:
        """The new size's classes; the tabs the first time the screen is narrow."""
        self.fit(self.size.width)
        if self.size.width < WIDE:
            self.workspace.narrowed()

    def on_mount(self) -> None:
        """The run list has focus."""
        self.call_after_refresh(self.run_list.focus)
        self.ready()  # called, not posted: a message would let the screen paint empty first

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Back on top: what waited for a frame drawn under a dialog that closed first runs now. The
        first time, the widgets were styled as they were mounted: no second styling (this runs first)."""
        self.resumed, event.refresh_styles = True, event.refresh_styles and self.resumed
        self.app.call_after_refresh(self.painted)

    @property
    def caps(self) -> tuple[int, int]:
        """The per-line caps of the Code and Grader panes (``e`` raises them)."""
        return self.workspace.caps

    def act(self, outcome: Outcome) -> None:
        """Hand an outcome to the app."""
        self.post_message(SessionAnswered(outcome))

    # ---- drawing -----------------------------------------------------------------------------

    def show(self, rendered: Rendered, view: FailureView, symbols: Mapping[str, str]) -> None:
        """Every pane from one rendered view (``view``: as the session took it; the cursor: :meth:`point`)."""
        self.workspace.show(Rendered(view, rendered.brief, rendered.code, rendered.output, rendered.transcript), symbols)
        self.rescores.draw()

    def point(self, run_key: str, failure_id: str, evidence: Evidence | None) -> None:
        """The run list's cursor and the evidence strip on a selection."""
        self.run_list.show_run(run_key)
        self.workspace.point_evidence(failure_id, evidence)

    def relabelled(self, view: FailureView | None, symbols: Mapping[str, str]) -> None:
        """Labels changed: the check list (from the view as it is now) and the run list's counts."""
        self.workspace.relabelled(view, symbols)
        self.run_list.invalidate()

    def counts_changed(self) -> None:
        """Failure counts arrived: repaint the run list and its header."""
        self.run_list.invalidate()
        self.nav_panel.draw_header()

    def list_rebuilt(self) -> None:
        """The run list's rows changed."""
        self.run_list.rebuilt()
        self.nav_panel.draw_header()

    def status(self, content: Content, errors: int) -> None:
        """Redraw the status line (nothing while the app closes: a late result has nothing to draw on)."""
        bar = self.status_bar
        if bar.is_mounted and (errors, content.plain, content.spans) != (bar.errors, *bar.drawn):
            bar.errors, bar.drawn = errors, (content.plain, content.spans)
            bar.update(content, layout=False)  # only when it changed: a key's one paint is its view

    def warn(self, warnings: list[BarWarning], dismiss_keys: str) -> None:
        """Show the warning bar at the top."""
        self.mount(WarningBar(warnings, dismiss_keys), before=self.main)

    # ---- keys that act on the session ----------------------------------------------------------

    def action_next_failure(self) -> None:
        """``j``."""
        self.act(Outcome(move=self.session.step(1)))

    def action_prev_failure(self) -> None:
        """``k``."""
        self.act(Outcome(move=self.session.step(-1)))

    def action_next_run(self) -> None:
        """``J``."""
        self.act(Outcome(move=self.session.step_run(1)))

    def action_prev_run(self) -> None:
        """``K``."""
        self.act(Outcome(move=self.session.step_run(-1)))

    def action_transcript_forward(self) -> None:
        """``l``."""
        self.act(MOVED if self.session.step_turn(1) else STAYED)

    def action_transcript_back(self) -> None:
        """``h``."""
        self.act(MOVED if self.session.step_turn(-1) else STAYED)

    def action_next_attempt(self) -> None:
        """``]``."""
        self.act(MOVED if self.session.step_attempt(1) else STAYED)

    def action_prev_attempt(self) -> None:
        """``[``."""
        self.act(MOVED if self.session.step_attempt(-1) else STAYED)

    def action_next_file(self) -> None:
        """``f``."""
        self.act(MOVED if self.session.next_file() else STAYED)

    def action_toggle_diff(self) -> None:
        """``d``."""
        self.act(MOVED if self.session.toggle_diff() else STAYED)

    def action_cycle_filter(self) -> None:
        """``F``: failing, unlabelled, deferred, all runs."""
        listing = self.session.folder.listing
        listing.filter = listing.filter.next()
        self.act(saying(f"Showing {listing.filter.value} runs", timeout=2).then(asking_for(Work.LIST)))

    def action_label_specification(self) -> None:
        """``s``: the checker demanded something the brief never stated."""
        self.act(self.rescores.label(Verdict.SPECIFICATION, "Specification"))

    def action_label_capability(self) -> None:
        """``c``: the model really got it wrong."""
        self.act(self.rescores.label(Verdict.CAPABILITY, "Capability"))

    def action_defer(self) -> None:
        """``space``: unsure; skip it for now."""
        self.act(self.session.label(Verdict.DEFERRED, "Defer"))

    def action_clear_label(self) -> None:
        """``x``."""
        self.act(self.session.clear())

    def action_undo(self) -> None:
        """``u`` / ``ctrl+z``."""
        self.act(self.session.undo())

    def action_reveal_others(self) -> None:
        """``r``: the other reviewers' verdicts on this failure."""
        self.act(self.session.team.reveal(self.session.selection.failure_id))

    def action_disagreements(self) -> None:
        """``D``: step only through failures where reviewers disagree (or back to every failure)."""
        self.act(self.session.team.toggle_disagreements())

    def action_judges_walk(self) -> None:
        """``P``: the next walk the judges' predictions steer (doubts first, disagreements with me, ...)."""
        self.act(self.session.judges.cycle(self.session.listed_runs(), self.session.selection))

    def action_note(self) -> None:
        """``n``: write the note kept with this failure."""
        self.dialogs.note()

    def action_tags(self) -> None:
        """``t``: tag the failure with defect classes from the folder's vocabulary."""
        self.dialogs.tags()

    def action_adjudicate(self) -> None:
        """``A``: record the final verdict of the current failure."""
        self.dialogs.adjudicate()

    def action_rescore(self) -> None:
        """``R``: re-score the failure with the proposed repair (asks first), or cancel the running one."""
        self.rescores.key()

    def action_cancel_rescore(self) -> None:
        """escape: cancel the running re-score."""
        self.rescores.cancel()

    @on(RescoreMessage)
    def rescore_reported(self, message: RescoreMessage) -> None:
        """A re-score worker reported."""
        self.rescores.take(message)

    def action_show_errors(self) -> None:
        """``E``: list what did not load."""
        self.dialogs.show_errors()

    def on_status_bar_errors_clicked(self) -> None:
        """The load-error count was clicked."""
        self.dialogs.show_errors()

    def action_help(self) -> None:
        """``?``."""
        self.dialogs.help()

    def action_clusters(self) -> None:
        """``C``: the clusters screen."""
        self.dialogs.clusters()

    def action_stats(self) -> None:
        """``S``: the statistics screen."""
        self.dialogs.stats()

    def action_across_models(self) -> None:
        """``a``: this check across every model's run of the task."""
        self.dialogs.across_models()

    def action_task_matrix(self) -> None:
        """``M``: the task x model matrix."""
        self.dialogs.task_matrix()

    def action_commit_labels(self) -> None:
        """``ctrl+g``: commit this reviewer's label files, and nothing else."""
        self.act(self.session.commit())

    def action_label_history(self) -> None:
        """``H``: the current failure's label history from git."""
        self.dialogs.label_history()

    def action_copy_failure(self) -> None:
        """``y``: copy the current failure's id and message."""
        self.dialogs.copy_failure()

    # ---- clicks ------------------------------------------------------------------------------------

    def on_navigator_panel_searched(self, message: NavigatorPanel.Searched) -> None:
        """The run search changed; enter opens the first match's failure."""
        self.act(self.session.search(message.text, message.submitted))

    def on_run_navigator_group_toggled(self, message: RunNavigator.GroupToggled) -> None:
        """A group of the run list was folded or unfolded."""
        self.session.folder.listing.toggle(message.key)
        self.act(asking_for(Work.LIST))

    def on_run_navigator_run_chosen(self, message: RunNavigator.RunChosen) -> None:
        """A run was picked in the list."""
        if message.run_key != self.session.selection.run_key:
            self.act(Outcome(move=self.session.open_run(message.run_key)))

    def on_file_bar_picked(self, message: FileBar.Picked) -> None:
        """A file name was clicked."""
        self.act(MOVED if self.session.pick_file(message.path) else STAYED)

    def on_grader_pane_check_picked(self, message: GraderPane.CheckPicked) -> None:
        """A check was clicked: a failing one becomes current, another is found in the output."""
        move = self.session.pick_check(message.grader, message.key, message.failing)
        self.act(MOVED if move is None else Outcome(move=move))

    def on_transcript_pane_turn_picked(self, message: TranscriptPane.TurnPicked) -> None:
        """A transcript line was clicked."""
        self.act(MOVED if self.session.pick_turn(message.turn) else STAYED)

    # ---- pane keys ---------------------------------------------------------------------------------

    def focused_pane(self) -> Pane | None:
        """The pane holding focus."""
        return pane_of(self.focused)

    def focus_step(self, step: int) -> None:
        """Move focus to the next (+1) or previous (-1) stop: the run list, then each pane's views."""
        nav = [self.run_list] if self.nav_panel.display else []
        stops: list[Widget] = [*nav, *self.workspace.stops()]
        index = next((i for i, stop in enumerate(stops) if self.focused is not None and
                      (self.focused is stop or stop in self.focused.ancestors)), -1)
        target = stops[(index + step) % len(stops)] if index >= 0 or step > 0 else stops[-1]
        if self.maximized is not None:
            self.minimize()
        self.focus_widget(target)

    def focus_widget(self, target: Widget) -> None:
        """Focus a widget, showing its pane first on narrow screens (focus moves before the old pane hides)."""
        self.set_focus(target, scroll_visible=False)
        if (pane := pane_of(target)) is not None:
            self.workspace.activate(pane.id or "code")

    def action_focus_next_pane(self) -> None:
        """``tab``."""
        self.focus_step(1)

    def action_focus_prev_pane(self) -> None:
        """``shift+tab``."""
        self.focus_step(-1)

    def action_show_pane(self, pane_id: str) -> None:
        """``1``-``4``: show and focus a pane (on a narrow screen, its tab)."""
        if self.maximized is not None:
            self.minimize()
        self.focus_widget(self.workspace.pane(pane_id).focus_target())

    def action_maximise(self) -> None:
        """``m``: maximise the focused pane (or the run list), or restore."""
        if self.maximized is not None:
            self.minimize()
            return
        pane: Widget | None = self.focused_pane()
        if pane is None and self.focused is not None:
            pane = self.nav_panel
        if pane is not None:
            self.maximize(pane, container=False)

    def action_toggle_navigator(self) -> None:
        """``ctrl+b``: show or hide the run list."""
        nav = self.nav_panel
        nav.display = not nav.display
        if not nav.display and self.focused_pane() is None:
            self.focus_widget(self.workspace.pane(self.workspace.active_pane).focus_target())

    def action_toggle_evidence(self) -> None:
        """``v``: hide or show the Evidence strip."""
        self.workspace.evidence.display = not self.workspace.evidence.display

    async def action_search_runs(self) -> None:
        """``/`` (a maximised pane is restored: the search box is in the run list)."""
        panel = self.nav_panel
        if self.maximized not in (None, panel):
            self.minimize()
        panel.display = True
        await panel.open_search()

    def action_show_more(self) -> None:
        """``e``: show ten times more of lines cut at the length limit."""
        if self.workspace.show_more(self.focused_pane()):
            self.act(saying("Showing ten times more of each long line.", timeout=2).then(MOVED))
        else:
            self.act(saying("Focus the Code or Grader pane to show more of long lines."))

    async def action_find_in_pane(self) -> None:
        """``ctrl+f``: find in the focused text view, else the active pane's main view."""
        found = self.workspace.find_target(self.focused)
        if found is None:
            self.act(saying("Find works in the Brief, Code, Grader and Transcript panes."))
        else:
            await self.find_bar.open(*found)
