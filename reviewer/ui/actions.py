"""The actions behind the navigation, pane and app keys of the binding table."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, cast

from textual import on
from textual.app import App

from reviewer.model.sanitize import clean
from reviewer.ui.render import one_line
from reviewer.ui.screens.errors import ErrorsScreen
from reviewer.ui.screens.help import HelpScreen
from reviewer.ui.state import (
    Unknown,
    step_attempt,
    step_failure,
    step_file,
    step_run,
    step_turn,
    turn_for_attempt,
    with_attempt,
)
from reviewer.ui.widgets.chrome import FindBar, FindInput, NavigatorPanel
from reviewer.ui.widgets.code import CodePane
from reviewer.ui.widgets.grader import GraderPane
from reviewer.ui.widgets.text_view import TextView

if TYPE_CHECKING:
    from reviewer.ui.app import ReviewApp


class NavigationActions(App[int]):
    """Key actions: failures, runs, turns, attempts, files, panes, find, copy, help."""

    @property
    def me(self) -> "ReviewApp":
        """This app, typed."""
        return cast("ReviewApp", self)

    def on_review_screen(self) -> bool:
        """True when no modal screen is over the review screen."""
        return self.screen is self.me.review_screen

    # ---- failures and runs ---------------------------------------------------------------

    def step_failures(self, step: int) -> None:
        """Go to the next (+1) or previous (-1) failure, counting runs in a worker if needed."""
        app = self.me
        order = app.navigator.order
        result = step_failure(order, app.failure_ids.get, app.selection, step)
        if isinstance(result, Unknown):
            app.seek(app.selection, step, list(order))
        elif result is None:
            self.bell()
            self.notify("No more failures in this direction.", markup=False)
        else:
            app.go_to(result)

    def action_next_failure(self) -> None:
        """``j``."""
        self.step_failures(1)

    def action_prev_failure(self) -> None:
        """``k``."""
        self.step_failures(-1)

    def step_runs(self, step: int) -> None:
        """Go to the next (+1) or previous (-1) run in the list."""
        app = self.me
        key = step_run(app.navigator.order, app.selection.run_key, step)
        if key is None:
            self.bell()
            return
        app.open_run(key)

    def action_next_run(self) -> None:
        """``J``."""
        self.step_runs(1)

    def action_prev_run(self) -> None:
        """``K``."""
        self.step_runs(-1)

    # ---- transcript, attempts, files -----------------------------------------------------

    def step_turns(self, step: int) -> None:
        """Step the transcript; its turn's attempt becomes the Code pane's."""
        app = self.me
        detail = app.detail
        if detail is None or detail.run.key != app.selection.run_key:
            self.notify("The transcript is still loading.", markup=False)
            return
        if not detail.turns:
            self.notify("This run has no transcript.", markup=False)
            return
        app.select(step_turn(app.selection, detail.run, detail.turns, step))

    def action_transcript_forward(self) -> None:
        """``l``."""
        self.step_turns(1)

    def action_transcript_back(self) -> None:
        """``h``."""
        self.step_turns(-1)

    def select_turn(self, index: int) -> None:
        """Make a turn current (a click in the transcript)."""
        app = self.me
        detail = app.detail
        if detail is None or detail.run.key != app.selection.run_key or not 0 <= index < len(detail.turns):
            return
        moved = replace(app.selection, turn=index)
        produced = detail.turns[index].attempt
        app.select(with_attempt(moved, detail.run, produced) if produced is not None else moved)

    def step_attempts(self, step: int) -> None:
        """Show the previous or next attempt (the transcript follows to the turn that made it)."""
        app = self.me
        run = app.runs_by_key.get(app.selection.run_key)
        if run is None:
            return
        moved = step_attempt(app.selection, run, step)
        if moved == app.selection:
            self.bell()
            return
        detail = app.detail
        if detail is not None and detail.run.key == run.key:
            turn = turn_for_attempt(detail.turns, moved.attempt)
            if turn is not None:
                moved = replace(moved, turn=turn)
        app.select(moved)

    def action_next_attempt(self) -> None:
        """``]``."""
        self.step_attempts(1)

    def action_prev_attempt(self) -> None:
        """``[``."""
        self.step_attempts(-1)

    def action_next_file(self) -> None:
        """``f``."""
        app = self.me
        run = app.runs_by_key.get(app.selection.run_key)
        if run is not None:
            app.select(step_file(app.selection, run))

    def pick_file(self, path: str) -> None:
        """Show a file of the current attempt (a click in the file bar)."""
        app = self.me
        app.select(replace(app.selection, file=path))

    def action_toggle_diff(self) -> None:
        """``d``."""
        app = self.me
        if app.selection.file:
            app.select(replace(app.selection, diff=not app.selection.diff))

    # ---- panes ---------------------------------------------------------------------------

    def action_focus_next_pane(self) -> None:
        """``tab``."""
        if self.on_review_screen():
            self.me.review_screen.focus_step(1)
        else:
            self.screen.focus_next()

    def action_focus_prev_pane(self) -> None:
        """``shift+tab``."""
        if self.on_review_screen():
            self.me.review_screen.focus_step(-1)
        else:
            self.screen.focus_previous()

    def action_maximise(self) -> None:
        """``m``."""
        self.me.review_screen.toggle_maximise()

    def action_toggle_navigator(self) -> None:
        """``ctrl+b``."""
        if self.on_review_screen():
            self.me.review_screen.toggle_navigator()

    def action_search_runs(self) -> None:
        """``/``."""
        panel = self.me.review_screen.query_one(NavigatorPanel)
        if not panel.display:
            panel.display = True
        panel.open_search()

    def action_cycle_filter(self) -> None:
        """``F``."""
        panel = self.me.review_screen.query_one(NavigatorPanel)
        panel.set_filter(panel.navigator.filter.next())
        self.notify(f"Showing {panel.navigator.filter.value} runs", markup=False, timeout=2)

    def find_target(self) -> tuple[TextView | None, str]:
        """The text view ctrl+f searches: the focused one, else the focused pane's main view."""
        screen = self.me.review_screen
        focused = screen.focused
        if isinstance(focused, TextView):
            pane = screen.pane_of(focused)
            return focused, pane.TITLE if pane is not None else ""
        pane = screen.pane_of(focused) or screen.pane(screen.active_pane)
        views = list(pane.query(TextView))
        if pane.id == "grader":
            views = list(pane.query("#output").results(TextView))
        return (views[0] if views else None), pane.TITLE

    def action_find_in_pane(self) -> None:
        """``ctrl+f``: open the find bar on the focused pane."""
        if not self.on_review_screen():
            return
        view, title = self.find_target()
        if view is None:
            self.notify("Find works in the Brief, Code, Grader and Transcript panes.", markup=False)
            return
        self.find_view = view
        bar = self.me.review_screen.query_one(FindBar)
        bar.set_target(title)
        bar.display = True
        bar.query_one(FindInput).focus()

    @on(FindInput.Changed, "#find-input")
    def find_changed(self, event: FindInput.Changed) -> None:
        """Find as the user types."""
        view = getattr(self, "find_view", None)
        if view is None:
            return
        total = view.find(event.value) if event.value else 0
        if not event.value:
            view.clear_find()
        self.me.review_screen.query_one(FindBar).set_count(view.current_match + 1, total, event.value)

    @on(FindInput.Submitted, "#find-input")
    def find_submitted(self) -> None:
        """Enter: next match."""
        self.find_step(1)

    @on(FindBar.Step)
    def find_step_message(self, message: FindBar.Step) -> None:
        """Next or previous match from the bar."""
        self.find_step(message.step)

    def find_step(self, step: int) -> None:
        """Jump to another match and update the counter."""
        view = getattr(self, "find_view", None)
        if view is None:
            return
        number = view.find_step(step)
        self.me.review_screen.query_one(FindBar).set_count(number, len(view.matches), view.find_query)

    @on(FindBar.Close)
    def find_closed(self) -> None:
        """Escape: hide the bar, keep the highlights, focus the searched view."""
        bar = self.me.review_screen.query_one(FindBar)
        bar.display = False
        view = getattr(self, "find_view", None)
        if view is not None:
            view.focus()

    def action_show_more(self) -> None:
        """``e``: show more of lines cut at the length limit."""
        screen = self.me.review_screen
        pane = screen.focused_pane()
        if isinstance(pane, (CodePane, GraderPane)):
            pane.show_more()
            self.notify("Showing ten times more of each long line.", markup=False, timeout=2)
        else:
            self.notify("Focus the Code or Grader pane to show more of long lines.", markup=False)

    # ---- app -----------------------------------------------------------------------------

    def action_copy_failure(self) -> None:
        """``y``: copy the current failure's id and message."""
        failure = self.me.current_failure()
        if failure is None:
            self.notify("No failure selected.", markup=False)
            return
        self.copy_to_clipboard(f"{failure.id}\n{clean(failure.check.message).text}")
        self.notify(f"Copied {one_line(failure.id, 160)}", markup=False)

    def action_help(self) -> None:
        """``?``."""
        if self.on_review_screen():
            self.push_screen(HelpScreen())

    def action_show_errors(self) -> None:
        """``E``: list what did not load."""
        if self.on_review_screen():
            self.push_screen(ErrorsScreen(self.me.load_errors))
