"""``M``: the task x model matrix, to move through the folder by task and model.

Two views, ``t`` switches: every task by every model (a cell is ``✓`` when that model's run passes
every check, ``✗n`` with n failing checks, then this reviewer's verdict marks ``2◆ 1▲``), and the
checks of one task by its runs (a cell is ``✓``, ``✗``, ``✗ ◆``...; ``·`` where the run has no such
check). The last column is the row's share: how many fail, how many this reviewer labelled which
way. Enter opens the cell: the check's failure in that run (or the run with the check picked when
it passes there); on a task's name it shows that task's checks. It opens on the checks of the
current task. Every run's grader output is read in a worker; the table scrolls both ways with
its first column fixed, so it works on an 80x24 terminal.
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
from reviewer.model.wording import count
from reviewer.review.across_view import (
    Cell,
    Grid,
    GridRow,
    check_rows,
    describe_cell,
    open_check,
    read_grid,
    run_columns,
    task_rows,
)
from reviewer.review.session import ReviewSession
from reviewer.ui.bindings import MATRIX_BINDINGS
from reviewer.ui.outcomes import SessionAnswered

KEYS_LINE = ("[b]enter[/b] open the cell (a task's name: its checks)  [b]t[/b] tasks / checks of a task"
             "  [b]h j k l[/b] move  [b]escape[/b] close")
TONES = {"pass": "text-success", "fail": "text-error", "labelled": "text-accent", "none": "text-muted"}


class MatrixScreen(ModalScreen[None]):
    """Tasks (or one task's checks) by model, pass / fail with this reviewer's verdicts."""

    BINDINGS = MATRIX_BINDINGS

    DEFAULT_CSS = """
    #matrix-cell {
        height: auto;
        color: $text-accent;
    }
    """

    class Found(Message):
        """Every task's matrix, read in the worker (``error`` when it could not be)."""

        def __init__(self, grid: Grid | None, error: str = "") -> None:
            super().__init__()
            self.grid = grid
            self.error = error

    def __init__(self, session: ReviewSession, task: str = "", symbols: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.session = session
        self.shown_task = task
        """The task whose checks are shown; "" shows every task."""
        self.symbols = symbols or {}
        self.grid: Grid | None = None
        self.rows: list[GridRow] = []
        """The rows shown, in table order."""
        self.headers: list[str] = []
        """The column headers (models, or runs) between the title and the share."""

    @property
    def table(self) -> DataTable[Text]:
        """The matrix."""
        return self.query_one("#matrix-table", DataTable)

    def compose(self) -> ComposeResult:
        """A note, the matrix and the keys."""
        with Vertical(id="matrix-box", classes="table-box") as box:
            box.border_title = Content("Task matrix")
            yield Static(Content("reading every run's checks\u2026"), id="matrix-note", classes="table-note", markup=False)
            yield DataTable[Text](id="matrix-table", classes="table-grid", cursor_type="cell", zebra_stripes=True, fixed_columns=1)
            yield Static(Content(""), id="matrix-cell", markup=False)
            yield Static(Content.from_markup(KEYS_LINE), classes="dialog-keys")

    def on_mount(self) -> None:
        """Read the matrix."""
        self.table.focus()
        self.read()

    @work(thread=True, exclusive=True, group="matrix")
    def read(self) -> None:
        """Every task's checks by run (worker thread)."""
        worker = get_current_worker()
        try:
            grid: Grid | None = read_grid(self.session.store, lambda: worker.is_cancelled)
        except Exception as exc:  # noqa: BLE001 - shown on the screen, never a crash
            grid, error = None, f"{type(exc).__name__}: {exc}"
        else:
            error = ""
        if not worker.is_cancelled:
            self.post_message(self.Found(grid, error))

    def on_matrix_screen_found(self, message: Found) -> None:
        """Keep the matrix and draw the view asked for."""
        if message.grid is None:
            self.note(Content.styled(f"the matrix could not be read: {one_line(message.error, 300)}", "$text-error"))
            return
        self.grid = message.grid
        if self.shown_task not in self.grid.matrices:
            self.shown_task = ""
        self.draw()

    def note(self, text: Content) -> None:
        """The line above the table."""
        self.query_one("#matrix-note", Static).update(text)

    def draw(self, keep: str = "") -> None:
        """Fill the table with the view in force; the cursor on the row ``keep`` (or the current task)."""
        grid = self.grid
        if grid is None:
            return
        verdict_of = self.session.decisions.verdict
        table = self.table
        table.clear(columns=True)
        if self.shown_task:
            m = grid.matrices[self.shown_task]
            headers = [h for _, h in run_columns(m)]
            self.rows = check_rows(m, verdict_of, self.symbols)
            first = "check"
            what = (f"checks of task {one_line(self.shown_task, 60)} by run \u00b7 {count(len(self.rows), 'check')}, "
                    f"{count(len(headers), 'run')}")
        else:
            headers = [one_line(model, 40) for model in grid.models]
            self.rows = task_rows(grid, verdict_of, self.symbols)
            first = "task"
            what = (f"{count(len(self.rows), 'task')} by {count(len(headers), 'model')} \u00b7 \u2713 every check passes, "
                    "\u2717n failing checks")
        self.headers = headers
        table.add_column(Text(first), key="title")
        for i, h in enumerate(headers):
            table.add_column(Text(h), key=f"c{i}")
        table.add_column(Text("share"), key="share")
        colours = self.app.get_css_variables()
        for r in self.rows:
            table.add_row(Text(r.title, style="bold"), *(self.cell_text(c, colours) for c in r.cells),
                          Text(r.share, style=colours.get("text-muted", "")), key=r.key)
        self.note(Content.assemble((what, "$text-muted"), ("  \u00b7  marks are your own verdicts", "$text-muted")))
        self.query_one("#matrix-box").border_subtitle = Content(one_line(self.shown_task, 60) if self.shown_task else "every task")
        row, column = self.home(keep)
        if self.rows:
            table.move_cursor(row=row, column=column)

    def home(self, keep: str) -> tuple[int, int]:
        """Where the cursor starts: the row ``keep``, else the check (or task) and run on screen."""
        keys = [r.key for r in self.rows]
        run = self.session.current_run()
        if not self.shown_task:
            wanted = keep or (run.task if run is not None else "")
            return (keys.index(wanted) if wanted in keys else 0), 0
        selection = self.session.selection
        check = selection.failure_id.partition("#")[2] or selection.picked
        runs = [c.run for c in self.rows[0].cells] if self.rows else []
        column = runs.index(run.key) + 1 if run is not None and run.key in runs else 1
        return (keys.index(check) if check in keys else 0), column

    @staticmethod
    def cell_text(cell: Cell, colours: Mapping[str, str]) -> Text:
        """A cell, coloured by its tone (the marks say the same without colour)."""
        return Text(cell.text, style=colours.get(TONES.get(cell.tone, ""), ""), justify="center")

    def cell(self) -> tuple[GridRow, Cell | None] | None:
        """The row under the cursor and its cell (None on the title or share column)."""
        coord = self.table.cursor_coordinate
        if not self.rows or not 0 <= coord.row < len(self.rows):
            return None
        row = self.rows[coord.row]
        index = coord.column - 1
        return row, row.cells[index] if 0 <= index < len(row.cells) else None

    @on(DataTable.CellHighlighted, "#matrix-table")
    def cell_highlighted(self) -> None:
        """Say in full what the cell under the cursor is."""
        found = self.cell()
        if found is None:
            return
        row, cell = found
        index = self.table.cursor_coordinate.column - 1
        header = self.headers[index] if 0 <= index < len(self.headers) else ""
        text = describe_cell(row, cell, header, self.session.decisions.verdict)
        self.query_one("#matrix-cell", Static).update(Content(text))

    # ---- keys --------------------------------------------------------------------------------

    @on(DataTable.CellSelected, "#matrix-table")
    def cell_selected(self) -> None:
        """Enter (or a click on the cursor cell)."""
        self.action_open()

    def action_open(self) -> None:
        """Open the cell's run at its check; on a task's name, show its checks."""
        found = self.cell()
        if found is None:
            self.app.bell()
            return
        row, cell = found
        if cell is None:
            if not self.shown_task:
                self.action_switch()
                return
            cell = next((c for c in row.cells if c.failing), None)
        if cell is None or not cell.run:
            self.app.bell()
            return
        self.dismiss()
        self.app.post_message(SessionAnswered(open_check(self.session, cell.run, cell.check, cell.failing)))

    def action_switch(self) -> None:
        """``t``: every task, or the checks of the task under the cursor."""
        if self.grid is None:
            self.app.bell()
            return
        if self.shown_task:
            was, self.shown_task = self.shown_task, ""
            self.draw(keep=was)
            return
        found = self.cell()
        if found is None:
            self.app.bell()
            return
        self.shown_task = found[0].key
        self.draw()

    def action_move(self, rows: int, columns: int) -> None:
        """``h j k l`` move the cursor."""
        table = self.table
        if table.row_count:
            coord = table.cursor_coordinate
            table.move_cursor(row=max(0, min(table.row_count - 1, coord.row + rows)),
                              column=max(0, min(len(table.columns) - 1, coord.column + columns)))

