"""The Code pane: the current attempt's files, highlighted by file name, or a diff."""

from __future__ import annotations

from typing import Hashable

from textual import events
from textual.app import ComposeResult
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from reviewer.model import Attempt
from reviewer.model.sanitize import one_line
from reviewer.review.view import CodeView
from reviewer.ui.render.badges import Piece
from reviewer.ui.render.panes import Part
from reviewer.ui.widgets.pane import Pane
from reviewer.ui.widgets.text_view import TextView

OUTSIDE = "\u26a0 outside expected folder"


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
            parts += [piece, Content(" ")]
            x += piece.cell_length + 1
        self.update(Content.assemble(*parts) if parts else Content.styled("no files in this attempt", "$text-muted"),
                    layout=False)

    def on_click(self, event: events.Click) -> None:
        """Pick the clicked file."""
        for start, end, path in self.ranges:
            if start <= event.x < end:
                self.post_message(self.Picked(path))
                return


def code_header(code: CodeView) -> Content:
    """``attempt 2/3  file 1/2  diff  ⚠ outside expected folder  roman.go`` (the attempt's note goes in the banner)."""
    parts: list[Piece] = [(f"attempt {code.position}/{len(code.attempts)}", "bold") if code.attempts
                          else "no attempts recorded"]
    attempt, f = code.attempt, code.file
    if attempt is not None and attempt.files:
        parts.append(f"  file {code.file_index}/{len(attempt.files)}")
    if code.diff:
        parts += ["  ", (" diff ", "reverse $text-accent")]
    if f is not None and f.outside_expected:
        parts += ["  ", (OUTSIDE, "bold $text-warning")]
    if f is not None:
        parts += ["  ", (one_line(f.path, 120), "$text-primary")]
    return Content.assemble(*parts)


class CodePane(Pane):
    """The code the model wrote, one attempt and file at a time."""

    TITLE = "Code"

    def __init__(self, id: str = "code") -> None:
        super().__init__(id=id)
        self.shown: Hashable = None
        """The key of the part on screen."""
        self.shown_coloured = False
        self.shown_theme = ""
        self.note = ""
        """The shown attempt's note (wrapped in the banner: a header line would cut it)."""
        self.file_bar = FileBar()
        self.view = TextView(line_numbers=True, id="code-view")
        """The text view."""

    def compose_body(self) -> ComposeResult:
        """File bar and the text view."""
        yield self.file_bar
        yield self.view

    def focus_target(self) -> Widget:
        """Focus the code."""
        return self.view

    def show(self, code: CodeView, part: Part) -> None:
        """Draw the header, the file bar and the file (kept, with its scroll, when unchanged)."""
        self.set_header(code_header(code))
        self.file_bar.show(code.attempt, code.file.path if code.file is not None else "")
        self.note = f"attempt {code.attempt.number}: {one_line(code.attempt.note, 400)}" if code.attempt and code.attempt.note else ""
        self.show_part(part)

    def show_part(self, part: Part) -> None:
        """Draw rendered lines; the same lines again change nothing, their colours (the first ones, or
        another theme's) keep the place."""
        same = part.key == self.shown
        if not same or part.theme != self.shown_theme or (part.coloured and not self.shown_coloured):
            if part.notice:
                self.view.show_notice(part.notice, "$text-warning")
            else:
                self.view.set_lines(part.prepared.lines, part.prepared.width, keep_scroll=same)
            self.shown, self.shown_coloured, self.shown_theme = part.key, part.coloured, part.theme
        self.set_banner((self.note, *part.banner) if self.note else part.banner)
