"""The Grader pane: the checks with their status, the raw output with its colours, and beneath
them, when the failure was re-scored, the re-scored checks and output (marked "re-scored with …")."""

from __future__ import annotations

from typing import Hashable, Mapping

from textual.app import ComposeResult
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from reviewer.model import GraderRecord
from reviewer.model.sanitize import one_line
from reviewer.review.rescoring import Observed, Shown
from reviewer.review.view import FailureView
from reviewer.ui.bindings import GRADER_BINDINGS, GRADER_RAW, key_label
from reviewer.ui.render.checks import check_list, locate
from reviewer.ui.render.lines import plain_texts
from reviewer.ui.render.observed import observed_lines, observed_title
from reviewer.ui.render.panes import Part
from reviewer.ui.render.rescored import rescored_lines, title
from reviewer.ui.widgets.pane import Pane
from reviewer.ui.widgets.text_view import TextView


def grader_header(grader: GraderRecord | None, shown: str = "", key: str = "o") -> Content:
    """Grader name, exit status, the attempt it graded, which output is shown, the command.

    ``shown``: "decoded" or "raw" when the output has both forms (``go test -json``), with the
    ``key`` that switches between them; "" when it has one.
    """
    if grader is None:
        return Content.styled("no grader recorded", "$text-muted")
    exit_text = "exit ?" if grader.exit_status is None else f"exit {grader.exit_status}"
    exit_style = "$text-success" if grader.exit_status == 0 else "bold $text-error"
    form: list[tuple[str, str] | str] = []
    if shown:
        other = "raw lines" if shown == "decoded" else "decoded"
        form = ["  ", (f"{shown} output", "bold $text-secondary"), (f" ({key}: {other})", "$text-muted")]
    return Content.assemble((one_line(grader.name, 40), "bold"), "  ", (exit_text, exit_style), f"  attempt {grader.attempt}",
                            *form, "  ", (one_line(grader.command, 120), "$text-accent"))


class GraderPane(Pane):
    """A grader's verdicts on the current attempt."""

    TITLE = "Grader"
    BINDINGS = GRADER_BINDINGS
    DEFAULT_CSS = """
    GraderPane #rescored-title { height: 1; background: $boost; }
    GraderPane #rescored { height: 1fr; }
    GraderPane #observed-title { height: 1; background: $boost; }
    GraderPane #observed { height: 1fr; }
    """

    class CheckPicked(Message):
        """A check of the list was clicked."""

        def __init__(self, grader: str, key: str, failing: bool) -> None:
            super().__init__()
            self.grader = grader
            self.key = key
            self.failing = failing

    def __init__(self, id: str = "grader") -> None:
        super().__init__(id=id)
        self.rows: list[tuple[str, str]] = []
        self.failing: set[tuple[str, str]] = set()
        self.shown: Hashable = None
        """The key of the output on screen."""
        self.output_plain: list[str] = []
        self.rescored: Shown | None = None
        """The re-score shown beneath the output (None: the section is hidden)."""
        self.raw = False
        """Show the output as recorded even when it has a decoded form (``o``; kept from failure to failure)."""
        self.last: tuple[FailureView, Part, Mapping[str, str]] | None = None
        """What :meth:`show` was last handed (``o`` shows it again in the other form)."""
        self.checks_view = TextView(wrap=True, id="checks", classes="checks")
        """The check list."""
        self.output_view = TextView(id="output")
        """The raw output."""
        self.rescored_title = Static(Content(""), id="rescored-title", markup=False)
        self.rescored_view = TextView(id="rescored")
        """The re-scored checks and output."""
        self.rescored_title.display = self.rescored_view.display = False  # no re-score to show yet
        self.observed: Observed | None = None
        """The observation shown beneath the output (None: the section is hidden)."""
        self.observed_title = Static(Content(""), id="observed-title", markup=False)
        self.observed_view = TextView(id="observed")
        """The program's runs as the grader made them."""
        self.observed_title.display = self.observed_view.display = False

    def compose_body(self) -> ComposeResult:
        """Check list above, raw output below, then the re-score and observation sections (hidden until there is one)."""
        yield self.checks_view
        yield self.output_view
        yield self.rescored_title
        yield self.rescored_view
        yield self.observed_title
        yield self.observed_view

    def show_rescored(self, shown: Shown | None) -> None:
        """Show a re-score of the current failure beneath the recorded output, or hide the section."""
        if shown == self.rescored:
            return
        self.rescored = shown
        head = self.rescored_title
        head.display = self.rescored_view.display = shown is not None
        if shown is None:
            return
        head.update(title(shown))
        lines, width = rescored_lines(shown)
        self.rescored_view.set_lines(lines, width)

    def show_observed(self, observed: Observed | None) -> None:
        """Show the latest observation of the program beneath the output, or hide the section."""
        if observed == self.observed:
            return
        self.observed = observed
        self.observed_title.display = self.observed_view.display = observed is not None
        if observed is None:
            return
        self.observed_title.update(observed_title(observed))
        lines, width = observed_lines(observed)
        self.observed_view.set_lines(lines, width)

    def focus_target(self) -> Widget:
        """Focus the check list."""
        return self.checks_view

    def show(self, view: FailureView, output: Part, symbols: Mapping[str, str]) -> None:
        """Header, check list, output (decoded or as recorded), and the current check found in the output."""
        self.last = (view, output, symbols)
        shown = ""
        if output.raw is not None:
            shown = "raw" if self.raw else "decoded"
            output = output.raw if self.raw else output
        self.set_header(grader_header(view.grader, shown, key_label(self.app, GRADER_RAW)))
        self.show_checks(view, symbols)
        if output.key != self.shown:
            if output.notice:
                self.output_view.show_notice(output.notice)
                self.output_plain = []
            else:
                self.output_view.set_lines(output.prepared.lines, output.prepared.width)
                self.output_plain = list(plain_texts(output.prepared.lines))
            self.shown = output.key
            self.set_banner(output.banner)
        self.find_check(view)

    def show_checks(self, view: FailureView, symbols: Mapping[str, str]) -> None:
        """The check list with the current failure marked (labels may have changed: cheap to redraw)."""
        checks = self.checks_view
        listed = check_list(view, symbols)
        self.rows = listed.rows
        self.failing = {(gc.grader, c.key) for gc in view.graders for c in gc.checks if c.failing}
        checks.set_lines(listed.lines, keep_scroll=True)
        checks.set_marked(listed.marked, scroll=False)
        if listed.marked is not None:  # the current check with everything beneath it (r's verdicts) in sight
            checks.scroll_to_span(listed.marked, listed.last or listed.marked)

    def find_check(self, view: FailureView) -> None:
        """Mark and scroll to the output line of the current (or picked) check."""
        check = view.focused_check()
        where = locate(self.output_plain, check) if check is not None and self.output_plain else None
        if where is None:
            self.output_view.set_marked(None, scroll=False)
            return
        line, _ = where
        self.output_view.set_marked(line, scroll=False)
        self.output_view.scroll_to_line(line)  # at column 0: the start of `--- FAIL:` stays in sight

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``o`` only where the output has a decoded form (hidden from the footer elsewhere)."""
        if action == "toggle_raw_output":
            return self.last is not None and self.last[1].raw is not None
        return True

    def action_toggle_raw_output(self) -> None:
        """Switch the output between its decoded form and the lines as recorded."""
        self.raw = not self.raw
        if self.last is not None:
            self.show(*self.last)
        self.screen.refresh_bindings()

    def on_text_view_line_clicked(self, message: TextView.LineClicked) -> None:
        """Click a check: a failing one becomes the current failure; any other is found in the output."""
        if message.view is not self.checks_view or not 0 <= message.line < len(self.rows):
            return
        grader, key = self.rows[message.line]
        if key:
            message.stop()
            self.post_message(self.CheckPicked(grader, key, (grader, key) in self.failing))
