"""The Brief pane: the task's brief, its Markdown drawn as styled lines (links shown, never followed)."""

from __future__ import annotations

from dataclasses import dataclass

from textual import work
from textual.app import ComposeResult
from textual.content import Content
from textual.highlight import HighlightTheme
from textual.message import Message
from textual.widget import Widget

from reviewer.model.sanitize import clean, clean_and_cap
from reviewer.ui.markdown_lines import markdown_lines
from reviewer.ui.state import Selection
from reviewer.ui.theming import current_highlight
from reviewer.ui.widgets.pane import CONTROLS_BANNER, HIDDEN_BANNER, Pane, blob_notes
from reviewer.ui.widgets.text_view import TextView

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


@dataclass(frozen=True)
class DrawnBrief:
    """A brief drawn for one theme: its lines and what their wrapped rows start with."""

    brief: BriefText
    theme: type[HighlightTheme]
    lines: list[Content]
    hangs: list[Content]


def draw_brief(brief: BriefText, theme: type[HighlightTheme]) -> DrawnBrief:
    """Draw a prepared brief's Markdown (worker threads)."""
    lines, hangs = markdown_lines(brief.markdown, theme)
    return DrawnBrief(brief, theme, lines, hangs)


class BriefPane(Pane):
    """The brief the model was given."""

    TITLE = "Brief"

    class Loaded(Message):
        """A brief was read and drawn in a worker."""

        def __init__(self, run_key: str, drawn: DrawnBrief) -> None:
            super().__init__()
            self.run_key = run_key
            self.drawn = drawn

    def __init__(self, id: str = "brief") -> None:
        super().__init__(id=id)
        self.run_key = ""
        self.loaded = ""
        """The run whose brief is on screen."""
        self.drawn: DrawnBrief | None = None
        """The brief on screen, as drawn (runs of one task share it: it is not drawn again)."""

    @property
    def shown(self) -> str:
        """The Markdown source on screen ("" before the first brief)."""
        return self.drawn.brief.markdown if self.drawn is not None else ""

    def compose_body(self) -> ComposeResult:
        """The brief's lines, wrapped at the pane's width."""
        yield TextView(wrap=True, id="brief-view")

    @property
    def view(self) -> TextView:
        """The text view showing the brief."""
        return self.query_one("#brief-view", TextView)

    def focus_target(self) -> Widget:
        """Focus the view."""
        return self.view

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

    def rehighlight(self) -> None:
        """The theme changed: draw the brief again with the new code colours (scroll kept)."""
        if self.loaded:
            self.load(self.loaded)

    @work(thread=True, exclusive=True, group="brief")
    def load(self, run_key: str) -> None:
        """Read, prepare and draw the brief (worker thread)."""
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
        theme = current_highlight(self.app)
        drawn = self.drawn
        if drawn is None or drawn.brief.markdown != brief.markdown or drawn.theme is not theme:
            drawn = draw_brief(brief, theme)
        elif drawn.brief != brief:
            drawn = DrawnBrief(brief, theme, drawn.lines, drawn.hangs)
        self.post_message(self.Loaded(run_key, drawn))

    def on_brief_pane_loaded(self, message: Loaded) -> None:
        """Show a loaded brief if it is still the one wanted."""
        if message.run_key != self.run_key:
            return
        run = self.review.runs_by_key.get(message.run_key)
        ref = run.brief_ref if run is not None else ""
        drawn = message.drawn
        self.set_header(Content.assemble((clean(ref).text, "$text-muted")))
        self.set_banner(drawn.brief.banner)
        if self.drawn is None or drawn.lines is not self.drawn.lines:
            same_text = drawn.brief.markdown == self.shown  # a new theme: stay where the reader is
            self.view.set_lines(drawn.lines, keep_scroll=same_text, hangs=drawn.hangs)
        self.drawn = drawn
        self.loaded = message.run_key

    def settled(self, selection: Selection) -> bool:
        """The brief of the selected run is on screen."""
        return self.loaded == selection.run_key or selection.run_key not in self.review.runs_by_key
