"""The Grader pane: the checks with their status, and the raw output with its colours."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from textual import work
from textual.app import ComposeResult
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from reviewer.model import Check, CheckStatus, GraderRecord, Run, check_id
from reviewer.model.sanitize import clean
from reviewer.ui.render import LINE_CAP, Prepared, ansi_lines, one_line, plain_texts
from reviewer.ui.state import RunDetail, Selection, grader_of
from reviewer.ui.theming import verdict_symbols
from reviewer.ui.widgets.pane import CONTROLS_BANNER, HIDDEN_BANNER, Pane, blob_notes
from reviewer.ui.widgets.text_view import TextView

STATUS_SYMBOLS = {
    CheckStatus.PASS: ("\u2713", "$text-success"),
    CheckStatus.FAIL: ("\u2717", "$text-error"),
    CheckStatus.ERROR: ("!", "$text-warning"),
    CheckStatus.SKIP: ("\u2013", "$text-muted"),
}
MESSAGE_LINES = 6


VERDICT_BADGES = {
    "specification": ("\u25c6 specification", "bold $verdict-specification"),
    "capability": ("\u25b2 capability", "bold $verdict-capability"),
    "deferred": ("\u2026 deferred", "$text-muted"),
    "stale": ("\u27f3 stale: evidence changed", "$text-error"),
}


def verdict_badge(verdict: str, symbols: Mapping[str, str] | None = None) -> tuple[str, str]:
    """A verdict as symbol and word (never colour alone); ``symbols``: the theme's, by verdict."""
    text, style = VERDICT_BADGES.get(verdict, (verdict, ""))
    if symbols and verdict in symbols:
        text = f"{symbols[verdict]} {verdict}"
    return text, style


@dataclass(frozen=True, slots=True)
class OutputToken:
    """Which output is wanted: a load for another token is stale."""

    run_key: str
    grader: str
    line_cap: int


def locate(lines: list[str], check: Check) -> tuple[int, int] | None:
    """Where the output best shows a check: (line, column).

    In order: a line holding a line of its message; a failing line naming its key; any line
    naming its key; for keys made of parts (``case:check``, ``file::test``), the first line
    naming the last part after a line naming the first.
    """
    message = [ln.strip() for ln in clean(check.message[:20_000]).text.split("\n") if len(ln.strip()) >= 8]
    key = clean(check.key).text
    for wanted in message[:5]:
        for i, line in enumerate(lines):
            if wanted in line:
                return i, line.index(wanted)
    naming = [i for i, line in enumerate(lines) if key and key in line]
    for i in naming:
        if any(word in lines[i] for word in ("FAIL", "ERROR", "fail", "error", "Error")):
            return i, lines[i].index(key)
    if naming:
        return naming[0], lines[naming[0]].index(key)
    parts = [p for p in re.split(r"[:/#\s]+", key) if len(p) >= 2]
    if len(parts) >= 2:
        start = next((i for i, line in enumerate(lines) if parts[0] in line), None)
        if start is not None:
            found = next((i for i in range(start, min(len(lines), start + 400)) if parts[-1] in lines[i]), None)
            return (found, lines[found].index(parts[-1])) if found is not None else (start, lines[start].index(parts[0]))
    return None


class GraderPane(Pane):
    """A grader's verdicts on the current attempt."""

    TITLE = "Grader"

    class Loaded(Message):
        """Raw output prepared in a worker."""

        def __init__(self, token: OutputToken, prepared: Prepared) -> None:
            super().__init__()
            self.token = token
            self.prepared = prepared

    def __init__(self, id: str = "grader") -> None:
        super().__init__(id=id)
        self.grader = ""
        self.picked: tuple[str, str, str] = ("", "", "")
        self.rows: list[tuple[str, str]] = []
        self.token: OutputToken | None = None
        self.shown: OutputToken | None = None
        """The output on screen (the token it was loaded for)."""
        self.line_cap = LINE_CAP
        self.output_plain: list[str] = []

    def compose_body(self) -> ComposeResult:
        """Check list above, raw output below."""
        yield TextView(wrap=True, id="checks", classes="checks")
        yield TextView(id="output")

    @property
    def checks_view(self) -> TextView:
        """The check list."""
        return self.query_one("#checks", TextView)

    @property
    def output_view(self) -> TextView:
        """The raw output."""
        return self.query_one("#output", TextView)

    def focus_target(self) -> Widget:
        """Focus the check list."""
        return self.checks_view

    def current_grader(self, selection: Selection, run: Run) -> GraderRecord | None:
        """The grader of the current failure, else the one picked by click, else the first."""
        wanted = grader_of(selection.failure_id) if selection.failure_id else ""
        if not wanted and self.picked[0] == run.key:
            wanted = self.picked[1]
        found = run.grader(wanted) if wanted else None
        return found or (run.graders[0] if run.graders else None)

    def selection_changed(self, selection: Selection) -> None:
        """Header, check list, output and the current failure's place in it."""
        self.refresh_all()

    def detail_changed(self, detail: RunDetail | None) -> None:
        """The checks arrived."""
        self.refresh_all()

    def settled(self, selection: Selection) -> bool:
        """The selected run's output is on screen."""
        shown = self.shown
        return (shown is not None and shown == self.token and shown.run_key == selection.run_key) or (
            selection.run_key not in self.review.runs_by_key)

    def refresh_all(self) -> None:
        """Redraw from the app's selection and detail."""
        selection = self.review.selection
        run = self.review.runs_by_key.get(selection.run_key)
        if run is None:
            return
        grader = self.current_grader(selection, run)
        self.grader = grader.name if grader is not None else ""
        self.draw_header(grader)
        self.draw_checks(selection, self.review.detail)
        token = OutputToken(run.key, self.grader, self.line_cap)
        if token != self.token:
            self.token = token
            self.output_plain = []
            if grader is None or not grader.output_ref:
                self.output_view.show_notice("no raw output recorded")
                self.shown = token
            else:
                self.output_view.show_notice("loading\u2026")
                self.load(token)
        else:
            self.focus_output()

    def draw_header(self, grader: GraderRecord | None) -> None:
        """Grader name, command and exit status."""
        if grader is None:
            self.set_header(Content.styled("no grader recorded", "$text-muted"))
            return
        exit_text = "exit ?" if grader.exit_status is None else f"exit {grader.exit_status}"
        exit_style = "$text-success" if grader.exit_status == 0 else "bold $text-error"
        self.set_header(Content.assemble(
            (one_line(grader.name, 40), "bold"), "  ", (one_line(grader.command, 120), "$text-accent"),
            "  ", (exit_text, exit_style), f"  attempt {grader.attempt}",
        ))

    def draw_checks(self, selection: Selection, detail: RunDetail | None) -> None:
        """The check list, the current failure marked with its message beneath."""
        lines: list[Content] = []
        self.rows = []
        marked: int | None = None
        if detail is None or detail.run.key != selection.run_key:
            self.checks_view.show_notice("loading checks\u2026")
            return
        labels = self.review.labels
        for gv in detail.graders:
            if len(detail.graders) > 1:
                lines.append(Content.styled(f"\u25be {one_line(gv.name, 60)}", "bold $text-secondary"))
                self.rows.append((gv.name, ""))
            if gv.error:
                lines.append(Content.styled(f"  \u26a0 {one_line(gv.error, 200)}", "$text-error"))
                self.rows.append((gv.name, ""))
            for check in gv.checks:
                fid = detail.run.failure_id(check_id(gv.name, check.key))
                current = fid == selection.failure_id
                symbol, style = STATUS_SYMBOLS[check.status]
                parts: list[Content | tuple[str, str] | str] = [(symbol, style), " ", one_line(check.name, 160)]
                verdict = labels.verdict(fid) if check.failing else ""
                if verdict:
                    parts += ["  ", verdict_badge(verdict, verdict_symbols(self.app))]
                if current:
                    parts += ["  ", ("\u25c0", "bold $text-primary")]
                    marked = len(lines)
                lines.append(Content.assemble(*parts))
                self.rows.append((gv.name, check.key))
                if current:
                    for text in message_lines(check):
                        lines.append(Content.styled(f"    {text}", "$text-muted"))
                        self.rows.append((gv.name, check.key))
                    for extra in self.review.reviewer_lines(fid):
                        lines.append(extra)
                        self.rows.append((gv.name, check.key))
        if not lines:
            lines = [Content.styled("no checks recorded", "$text-muted")]
        self.checks_view.set_lines(lines, keep_scroll=True)
        self.checks_view.set_marked(marked)

    @work(thread=True, exclusive=True, group="grader-output")
    def load(self, token: OutputToken) -> None:
        """Read and colour the raw output (worker thread)."""
        run = self.review.runs_by_key.get(token.run_key)
        grader = run.grader(token.grader) if run is not None else None
        if grader is None:
            return
        blob = self.review.store.text(grader.output_ref)
        if blob.error:
            message = Content.styled(f"cannot show the output: {one_line(blob.error)}", "$text-error")
            self.post_message(self.Loaded(token, Prepared([message])))
            return
        self.post_message(self.Loaded(token, ansi_lines(blob.text, token.line_cap, blob_notes(blob, "output"))))

    def on_grader_pane_loaded(self, message: Loaded) -> None:
        """Show the output if it is still wanted, then bring the failure into view."""
        if message.token != self.token:
            return
        prepared = message.prepared
        self.output_view.set_lines(prepared.lines, prepared.width)
        self.output_plain = list(plain_texts(prepared.lines))
        self.shown = message.token
        banner = list(prepared.notes)
        if prepared.hidden:
            banner.append(HIDDEN_BANNER.replace("file", "output"))
        if prepared.controls:
            banner.append(CONTROLS_BANNER)
        if prepared.cut_chars:
            banner.append(f"\u26a0 long lines cut: {prepared.cut_chars:,} characters not shown (e: show more)")
        self.set_banner(banner)
        self.focus_output()

    def focus_output(self) -> None:
        """Mark and scroll to the output line of the current (or clicked) check."""
        check = self.focused_check()
        if check is None or not self.output_plain:
            self.output_view.set_marked(None, scroll=False)
            return
        self.mark_output(check)

    def mark_output(self, check: Check) -> None:
        """Mark the output line showing a check and scroll to the place that shows it."""
        where = locate(self.output_plain, check)
        if where is None:
            self.output_view.set_marked(None, scroll=False)
            return
        line, column = where
        self.output_view.set_marked(line, scroll=False)
        self.output_view.scroll_to_line(line, column)

    def focused_check(self) -> Check | None:
        """The current failure's check, else the clicked one."""
        detail = self.review.detail
        selection = self.review.selection
        if detail is None or detail.run.key != selection.run_key:
            return None
        for gv in detail.graders:
            for check in gv.checks:
                if selection.failure_id:
                    if detail.run.failure_id(check_id(gv.name, check.key)) == selection.failure_id:
                        return check
                elif self.picked == (detail.run.key, gv.name, check.key):
                    return check
        return None

    def show_more(self) -> None:
        """Raise the per-line cap tenfold and reload the output."""
        self.line_cap *= 10
        self.token = None
        self.refresh_all()

    def on_text_view_line_clicked(self, message: TextView.LineClicked) -> None:
        """Click a check: a failing one becomes the current failure; any one is found in the output."""
        if message.view is not self.checks_view or not 0 <= message.line < len(self.rows):
            return
        grader, key = self.rows[message.line]
        detail = self.review.detail
        if detail is None or not key:
            return
        check = next((c for gv in detail.graders if gv.name == grader for c in gv.checks if c.key == key), None)
        if check is None:
            return
        if check.failing:
            self.review.select_failure(detail.run.failure_id(check_id(grader, key)))
            return
        self.picked = (detail.run.key, grader, key)
        if grader != self.grader:
            self.refresh_all()
        if self.output_plain:
            self.mark_output(check)


def message_lines(check: Check) -> list[str]:
    """The first lines of a check's message, sanitised, for under its row."""
    text = clean(check.message[:20_000]).text.rstrip("\n")
    if not text:
        return []
    lines = [line[:300] for line in text.split("\n")]
    if len(lines) > MESSAGE_LINES:
        lines = lines[:MESSAGE_LINES] + [f"\u2026 {len(lines) - MESSAGE_LINES} more lines"]
    return lines
