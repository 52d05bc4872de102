"""``a``: the current check across models, every run of the task side by side.

One row per run of the same task with a grader of that name: the model, its result on this check
(pass / fail / error / absent), what it printed where the check looked (or the nearest notation),
its message in one line, this reviewer's label, and the other reviewers' verdicts as blind mode
lets them through. Enter opens that run at this check. The comparison reads every run of the
task, so it is computed in a worker; every recorded string enters the table as ``Text``.
"""

from __future__ import annotations

from typing import Mapping

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static
from textual.worker import get_current_worker

from reviewer.model.sanitize import one_line
from reviewer.review.across_view import (
    RESULT_MARKS,
    AcrossFound,
    AcrossLine,
    across_heading,
    across_lines,
    mark_of,
    open_check,
    read_across,
)
from reviewer.review.session import ReviewSession
from reviewer.ui.bindings import ACROSS_BINDINGS
from reviewer.ui.outcomes import SessionAnswered

COLUMNS = ("", "model", "result", "you", "others", "looked at / nearest notation", "message")
KEYS_LINE = "[b]enter[/b] open that run at this check  [b]j[/b] / [b]k[/b] move  [b]escape[/b] close"
TONES = {"pass": "text-success", "fail": "text-error", "error": "text-error", "absent": "text-muted", "skip": "text-muted"}


def others_text(line: AcrossLine, symbols: Mapping[str, str] | None = None) -> str:
    """``bob ◆, carol ▲``: the verdicts blind mode lets through; "" for none. Hidden ones leave no
    trace, not even a count (the blind census compares the screen with a folder without them)."""
    return ", ".join(f"{who} {mark_of(verdict, symbols)}" for who, verdict in line.others)


def row_cells(line: AcrossLine, colours: Mapping[str, str], symbols: Mapping[str, str] | None = None) -> tuple[Text, ...]:
    """One run's row."""
    tone = colours.get(TONES.get(line.result, ""), "")
    mine = f"{mark_of(line.mine, symbols)} {line.mine}" if line.mine else ""
    return (
        Text("\u25b6" if line.current else ""),
        Text(line.model, style="bold" if line.current else ""),
        Text(f"{RESULT_MARKS.get(line.result, '?')} {line.result}", style=tone),
        Text(mine),
        Text(others_text(line, symbols)),
        Text(line.looked_at or "-"),
        Text(line.message),
    )


class AcrossScreen(ModalScreen[None]):
    """The check of one failure across every model's run of its task."""

    BINDINGS = ACROSS_BINDINGS

    class Found(Message):
        """The comparison, computed in the worker (``error`` when it could not be)."""

        def __init__(self, found: AcrossFound | None, error: str = "") -> None:
            super().__init__()
            self.found = found
            self.error = error

    def __init__(self, session: ReviewSession, failure_id: str, symbols: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.session = session
        self.failure_id = failure_id
        self.symbols = symbols or {}
        self.lines: tuple[AcrossLine, ...] = ()
        """The rows shown, in table order."""

    @property
    def table(self) -> DataTable[Text]:
        """The runs."""
        return self.query_one("#across-table", DataTable)

    def compose(self) -> ComposeResult:
        """A heading, the table and the keys."""
        with Vertical(id="across-box", classes="table-box") as box:
            box.border_title = Content("Across models")
            box.border_subtitle = Content(one_line(self.failure_id, 120))
            yield Static(Content("comparing every run of this task\u2026"), id="across-note", classes="table-note", markup=False)
            yield DataTable[Text](id="across-table", classes="table-grid", cursor_type="row", zebra_stripes=True)
            yield Static(Content.from_markup(KEYS_LINE), classes="dialog-keys")

    def on_mount(self) -> None:
        """Columns, then compare."""
        self.table.add_columns(*(Text(c) for c in COLUMNS))
        self.table.focus()
        self.compare()

    @work(thread=True, exclusive=True, group="across")
    def compare(self) -> None:
        """Read the check in every run of the task (worker thread)."""
        worker = get_current_worker()
        try:
            found: AcrossFound | None = read_across(self.session, self.failure_id, lambda: worker.is_cancelled)
        except Exception as exc:  # noqa: BLE001 - shown on the screen, never a crash
            found, error = None, f"{type(exc).__name__}: {exc}"
        else:
            error = ""
        if not worker.is_cancelled:
            self.post_message(self.Found(found, error))

    def on_across_screen_found(self, message: Found) -> None:
        """Fill the table, the cursor on the current run."""
        note = self.query_one("#across-note", Static)
        if message.found is None:
            note.update(Content.styled(f"the comparison could not be made: {one_line(message.error, 300)}", "$text-error"))
            return
        self.lines = across_lines(self.session, message.found)
        colours = self.app.get_css_variables()
        table = self.table
        table.clear()
        for i, line in enumerate(self.lines):
            table.add_row(*row_cells(line, colours, self.symbols), key=f"{i}")
        heading = across_heading(message.found)
        towards = message.found.across.towards
        note.update(Content.styled(heading, "bold $text-accent" if towards else "$text-muted"))

    def current(self) -> AcrossLine | None:
        """The row under the cursor."""
        index = self.table.cursor_row
        return self.lines[index] if self.lines and 0 <= index < len(self.lines) else None

    @on(DataTable.RowSelected, "#across-table")
    def row_selected(self) -> None:
        """Enter (or a click on the cursor row): open that run."""
        self.action_open()

    def action_open(self) -> None:
        """Open the run under the cursor at this check, and close."""
        line = self.current()
        if line is None:
            self.app.bell()
            return
        self.dismiss()
        found_check = self.failure_id.partition("#")[2]
        self.app.post_message(SessionAnswered(open_check(self.session, line.run, found_check, bool(line.failure_id))))

    def action_cursor(self, step: int) -> None:
        """``j``/``k`` move the cursor."""
        table = self.table
        if table.row_count:
            table.move_cursor(row=max(0, min(table.row_count - 1, table.cursor_row + step)))
