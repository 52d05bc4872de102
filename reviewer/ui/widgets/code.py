"""The Code pane: the current attempt's files, highlighted by file name, or a diff."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events, work
from textual.app import ComposeResult
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from reviewer.model import Attempt, AttemptFile, Run
from reviewer.ui.render import LINE_CAP, Prepared, code_lines, diff_lines, language_for, one_line, plain_lines
from reviewer.ui.state import Selection
from reviewer.ui.theming import current_highlight
from reviewer.ui.widgets.pane import CONTROLS_BANNER, HIDDEN_BANNER, Pane, blob_notes
from reviewer.ui.widgets.text_view import TextView

OUTSIDE = "\u26a0 outside expected folder"
HIGHLIGHT_LINES = 10_000
"""Files this long are shown plain: colouring 20,000 lines takes a second of CPU and tens of MB."""


@dataclass(frozen=True, slots=True)
class CodeToken:
    """What the Code pane is asked to show; a load for any other token is stale."""

    run_key: str
    attempt: int
    file: str
    diff: bool
    line_cap: int


def find_file(attempt: Attempt | None, path: str) -> AttemptFile | None:
    """The attempt's file at ``path``."""
    if attempt is None:
        return None
    return next((f for f in attempt.files if f.path == path), None)


class FileBar(Static):
    """The attempt's files, one clickable name each."""

    class Picked(Message):
        """A file name was clicked."""

        def __init__(self, path: str) -> None:
            super().__init__()
            self.path = path

    def __init__(self) -> None:
        super().__init__(Content(""), classes="file-bar", markup=False)
        self.ranges: list[tuple[int, int, str]] = []

    def show(self, attempt: Attempt | None, current: str) -> None:
        """Draw the file names, the current one highlighted, outside ones marked."""
        parts: list[Content] = []
        self.ranges = []
        x = 0
        for f in attempt.files if attempt is not None else ():
            name = one_line(f.path, 60) + (" \u26a0" if f.outside_expected else "")
            style = "reverse bold" if f.path == current else ("$text-warning" if f.outside_expected else "$text-muted")
            piece = Content.styled(f" {name} ", style)
            self.ranges.append((x, x + piece.cell_length, f.path))
            parts.append(piece)
            parts.append(Content(" "))
            x += piece.cell_length + 1
        self.update(Content.assemble(*parts) if parts else Content.styled("no files in this attempt", "$text-muted"),
                    layout=False)

    def on_click(self, event: events.Click) -> None:
        """Pick the clicked file."""
        for start, end, path in self.ranges:
            if start <= event.x < end:
                self.post_message(self.Picked(path))
                return


class CodePane(Pane):
    """The code the model wrote, one attempt and file at a time."""

    TITLE = "Code"

    class Loaded(Message):
        """File lines prepared in a worker (plain first, then highlighted)."""

        def __init__(self, token: CodeToken, prepared: Prepared, final: bool, notice: bool = False,
                     style: type | None = None) -> None:
            super().__init__()
            self.token = token
            self.prepared = prepared
            self.final = final
            self.notice = notice
            self.style = style
            """The highlight theme the lines were coloured with (None: not highlighted)."""

    def __init__(self, id: str = "code") -> None:
        super().__init__(id=id)
        self.token: CodeToken | None = None
        self.shown: CodeToken | None = None
        self.line_cap = LINE_CAP

    def compose_body(self) -> ComposeResult:
        """File bar and the text view."""
        yield FileBar()
        yield TextView(line_numbers=True, id="code-view")

    @property
    def view(self) -> TextView:
        """The text view."""
        return self.query_one("#code-view", TextView)

    def focus_target(self) -> Widget:
        """Focus the code."""
        return self.view

    def selection_changed(self, selection: Selection) -> None:
        """Redraw the header; load the file when attempt, file or diff changed."""
        run = self.review.runs_by_key.get(selection.run_key)
        self.draw_header(selection, run)
        token = CodeToken(selection.run_key, selection.attempt, selection.file, selection.diff, self.line_cap)
        if token == self.token:
            return
        self.token = token
        if run is None:
            return
        if not selection.file:
            self.view.show_notice("no files recorded for this attempt")
            self.set_banner(())
            return
        self.load(token)

    def settled(self, selection: Selection) -> bool:
        """The selected attempt's file is on screen (at least uncoloured)."""
        token = self.token
        if token is None or (token.run_key, token.attempt, token.file, token.diff) != (
                selection.run_key, selection.attempt, selection.file, selection.diff):
            return selection.run_key not in self.review.runs_by_key
        return not selection.file or self.shown == token

    def show_more(self) -> None:
        """Raise the per-line cap tenfold and reload."""
        self.line_cap *= 10
        self.token = None
        self.selection_changed(self.review.selection)

    def draw_header(self, selection: Selection, run: Run | None) -> None:
        """Attempt n/m, diff state, the file's folder warning; then the file bar."""
        if run is None:
            self.set_header(Content(""))
            return
        attempt = run.attempt(selection.attempt)
        numbers = [a.number for a in run.attempts]
        position = numbers.index(selection.attempt) + 1 if selection.attempt in numbers else 0
        f = find_file(attempt, selection.file)
        parts: list[Content | tuple[str, str] | str] = []
        parts.append((f"attempt {position}/{len(numbers)}", "bold") if numbers else "no attempts recorded")
        if attempt is not None and attempt.files:
            index = [x.path for x in attempt.files].index(f.path) + 1 if f is not None else 0
            parts.append(f"  file {index}/{len(attempt.files)}")
        if selection.diff:
            parts += ["  ", (" diff ", "reverse $text-accent")]
        if f is not None and f.outside_expected:
            parts += ["  ", (OUTSIDE, "bold $text-warning")]
        if f is not None:
            parts += ["  ", (one_line(f.path, 120), "$text-primary")]
        if attempt is not None and attempt.note:
            parts += ["  ", (one_line(attempt.note, 80), "italic $text-muted")]
        self.set_header(Content.assemble(*parts))
        self.query_one(FileBar).show(attempt, selection.file)

    def rehighlight(self) -> None:
        """The theme changed: colour the shown file again with its token colours (scroll kept)."""
        token = self.token
        if token is None or token.diff or not token.file:
            return
        self.load(token, fresh=self.shown != token)

    @work(thread=True, exclusive=True, group="code")
    def load(self, token: CodeToken, fresh: bool = True) -> None:
        """Read and prepare the file, or the diff (worker thread); ``fresh=False`` only re-highlights."""
        run = self.review.runs_by_key.get(token.run_key)
        if run is None:
            return
        current = find_file(run.attempt(token.attempt), token.file)
        if current is None:
            return
        blob = self.review.store.text(current.ref)
        notes = blob_notes(blob)
        if blob.error:
            message = Content.styled(f"cannot show {one_line(token.file)}: {one_line(blob.error)}", "$text-error")
            self.post_message(self.Loaded(token, Prepared([message]), True, notice=True))
            return
        if blob.binary:
            self.post_message(self.Loaded(token, Prepared([Content(blob.text)], notes=notes), True, notice=True))
            return
        if token.diff:
            self.post_message(self.Loaded(token, self.diff_for(run, token, blob.text), True))
            return
        big = blob.text.count("\n") >= HIGHLIGHT_LINES
        if big:
            notes = (*notes, f"\u26a0 over {HIGHLIGHT_LINES:,} lines: shown without syntax colours")
        if fresh or big:  # plain lines first: finding the lexer may import and compile it (the first time)
            self.post_message(self.Loaded(token, plain_lines(blob.text, token.line_cap, notes), big))
        if big:
            return
        language = language_for(token.file)
        if language is None and not fresh:
            self.post_message(self.Loaded(token, plain_lines(blob.text, token.line_cap, notes), True))
        if language is not None:
            style = current_highlight(self.app)
            prepared = code_lines(blob.text, token.file, token.line_cap, notes, theme=style)
            self.post_message(self.Loaded(token, prepared, True, style=style))

    def diff_for(self, run: Run, token: CodeToken, text: str) -> Prepared:
        """The diff of this file against the previous attempt's file of the same path."""
        numbers = [a.number for a in run.attempts]
        index = numbers.index(token.attempt)
        label = f"attempt {token.attempt}/{token.file}"
        if index == 0:
            prepared = diff_lines("", text, "(nothing before attempt 1)", label, token.line_cap)
            return with_note(prepared, "attempt 1 has nothing before it: every line is new")
        before = numbers[index - 1]
        previous = find_file(run.attempt(before), token.file)
        if previous is None:
            prepared = diff_lines("", text, f"attempt {before}: no such file", label, token.line_cap)
            return with_note(prepared, f"attempt {before} has no file at this path: every line is new")
        old = self.review.store.text(previous.ref)
        return diff_lines(old.text, text, f"attempt {before}/{token.file}", label, token.line_cap)

    def on_code_pane_loaded(self, message: Loaded) -> None:
        """Show prepared lines if they are still wanted."""
        if message.token != self.token:
            return
        if message.style is not None and message.style is not current_highlight(self.app):
            return  # coloured for a theme no longer in use; the new colours are on their way
        prepared = message.prepared
        if message.notice:
            self.view.show_notice(prepared.lines[0].plain if prepared.lines else "", "$text-warning")
        else:
            self.view.set_lines(prepared.lines, prepared.width, keep_scroll=self.shown == message.token)
        self.shown = message.token
        banner = list(prepared.notes)
        if prepared.hidden:
            banner.append(HIDDEN_BANNER)
        if prepared.controls:
            banner.append(CONTROLS_BANNER)
        if prepared.cut_chars:
            banner.append(f"\u26a0 long lines cut: {prepared.cut_chars:,} characters not shown (e: show more)")
        if prepared.cut_lines:
            banner.append(f"\u26a0 {prepared.cut_lines:,} lines not shown")
        self.set_banner(banner)

    def on_file_bar_picked(self, message: FileBar.Picked) -> None:
        """A file name was clicked."""
        self.review.pick_file(message.path)


def with_note(prepared: Prepared, note: str) -> Prepared:
    """The same lines with one more banner note."""
    return Prepared(prepared.lines, prepared.hidden, prepared.controls, prepared.cut_chars,
                    prepared.cut_lines, prepared.width, prepared.notes + (note,))
