"""The Brief pane: the task's brief rendered as Markdown, with links made inert."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from markdown_it.token import Token
from textual.widgets import Markdown
from textual.highlight import highlight
from textual.widgets.markdown import MarkdownFence

from reviewer.model.sanitize import clean, clean_and_cap
from reviewer.ui.state import Selection
from reviewer.ui.theming import current_highlight
from reviewer.ui.widgets.pane import CONTROLS_BANNER, HIDDEN_BANNER, Pane, blob_notes

BRIEF_LINES = 3_000
BRIEF_LINE = 2_000


@dataclass(frozen=True, slots=True)
class BriefText:
    """A brief ready to render: sanitised, capped Markdown source and its banner lines."""

    markdown: str
    banner: tuple[str, ...]


def prepare_brief(text: str, notes: tuple[str, ...]) -> BriefText:
    """Sanitise and cap a brief; say what was found."""
    cleaned, capped = clean_and_cap(text, False, BRIEF_LINES, BRIEF_LINE)
    banner = list(notes)
    if cleaned.hidden:
        banner.append(HIDDEN_BANNER.replace("file", "brief"))
    if cleaned.controls:
        banner.append(CONTROLS_BANNER)
    if capped.cut_lines or capped.cut_chars:
        banner.append(f"\u26a0 long brief: {capped.cut_lines:,} lines and {capped.cut_chars:,} characters not shown")
    body = capped.text
    if capped.cut_lines:
        body += f"\n\n*\u2026 {capped.cut_lines:,} more lines not shown*\n"
    return BriefText(body, tuple(banner))


class NamedFence(MarkdownFence):
    """A code block highlighted only by the language it names; plain text when it names none."""

    def __init__(self, markdown: Markdown, token: Token, code: str) -> None:
        words = (token.info or "").split()
        token.info = words[0] if words else "text"
        super().__init__(markdown, token, code)

    def highlight(self, code: str, language: str, ansi: bool = False, dark: bool = False) -> Content:  # type: ignore[override]
        """Highlight in the current theme's code colours (as the Code pane does)."""
        if ansi:
            return MarkdownFence.highlight(code, language, ansi, dark)
        return highlight(code, language=language or "text", theme=current_highlight(self.app))


class InertMarkdown(Markdown):
    """Markdown whose links never open anything and whose code is never guessed at."""

    BLOCKS = {**Markdown.BLOCKS, "fence": NamedFence, "code_block": NamedFence}

    def __init__(self, id: str | None = None) -> None:
        super().__init__("", id=id, open_links=False)

    @on(Markdown.LinkClicked)
    def ignore_link(self, event: Markdown.LinkClicked) -> None:
        """A link in a recorded brief is shown, never followed."""
        event.stop()
        event.prevent_default()
        self.notify(f"Links in a brief are not opened: {clean(event.href).text[:200]}", markup=False)


class BriefPane(Pane):
    """The brief the model was given."""

    TITLE = "Brief"

    class Loaded(Message):
        """A brief was read and prepared in a worker."""

        def __init__(self, run_key: str, brief: BriefText) -> None:
            super().__init__()
            self.run_key = run_key
            self.brief = brief

    def __init__(self, id: str = "brief") -> None:
        super().__init__(id=id)
        self.run_key = ""
        self.shown = ""
        self.loaded = ""
        """The run whose brief is on screen."""

    def compose_body(self) -> ComposeResult:
        """A scrolling Markdown document."""
        with VerticalScroll(id="brief-scroll", can_focus=True):
            yield InertMarkdown(id="brief-markdown")

    def focus_target(self) -> Widget:
        """Focus the scroller."""
        return self.query_one("#brief-scroll")

    def selection_changed(self, selection: Selection) -> None:
        """Load the brief when the run changes."""
        if selection.run_key == self.run_key:
            return
        self.run_key = selection.run_key
        run = self.review.runs_by_key.get(selection.run_key)
        if run is None:
            return
        self.set_header(Content.assemble(("loading\u2026", "$text-muted")))
        self.load(selection.run_key)

    @work(thread=True, exclusive=True, group="brief")
    def load(self, run_key: str) -> None:
        """Read and prepare the brief (worker thread)."""
        run = self.review.runs_by_key.get(run_key)
        if run is None:
            return
        if not run.brief_ref:
            brief = BriefText("*No brief was recorded for this run.*", ())
        else:
            blob = self.review.store.brief(run)
            if blob.error:
                brief = BriefText("", (f"\u26a0 cannot show the brief: {clean(blob.error).text}",))
            else:
                brief = prepare_brief(blob.text, blob_notes(blob, "brief"))
        self.post_message(self.Loaded(run_key, brief))

    async def on_brief_pane_loaded(self, message: Loaded) -> None:
        """Show a loaded brief if it is still the one wanted."""
        if message.run_key != self.run_key:
            return
        run = self.review.runs_by_key.get(message.run_key)
        ref = run.brief_ref if run is not None else ""
        self.set_header(Content.assemble((clean(ref).text, "$text-muted")))
        self.set_banner(message.brief.banner)
        if message.brief.markdown != self.shown:
            self.shown = message.brief.markdown
            await self.query_one(InertMarkdown).update(message.brief.markdown)
            self.query_one("#brief-scroll").scroll_home(animate=False)
        self.loaded = message.run_key

    def settled(self, selection: Selection) -> bool:
        """The brief of the selected run is on screen."""
        return self.loaded == selection.run_key or selection.run_key not in self.review.runs_by_key
