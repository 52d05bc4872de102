"""A brief as display lines: sanitised, capped, its Markdown drawn (links shown, never followed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from reviewer.model.records import record
from reviewer.model.sanitize import clean_and_cap
from reviewer.model.wording import count
from reviewer.ui.render.banners import CONTROLS_BANNER, HIDDEN_BANNER
from reviewer.ui.render.markdown import markdown_lines

if TYPE_CHECKING:
    from textual.highlight import HighlightTheme

BRIEF_LINES = 3_000
BRIEF_LINE = 2_000


@record
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
        banner.append(f"\u26a0 long brief: {count(capped.cut_lines, 'line')} and {count(capped.cut_chars, 'character')} not shown")
    body = capped.text
    if capped.cut_lines:
        body += f"\n\n*\u2026 {count(capped.cut_lines, 'more line')} not shown*\n"
    return BriefText(body, tuple(banner))


@record(slots=False)
class DrawnBrief:
    """A brief drawn for one theme: its lines and what their wrapped rows start with."""

    brief: BriefText
    theme: type[HighlightTheme] | None
    """The code colours it was drawn with; None: its source as plain lines (see :func:`plain_brief`)."""
    lines: list[Content]
    hangs: list[Content]


def draw_brief(brief: BriefText, theme: type[HighlightTheme]) -> DrawnBrief:
    """Draw a prepared brief's Markdown (worker threads)."""
    lines, hangs = markdown_lines(brief.markdown, theme)
    return DrawnBrief(brief, theme, lines, hangs)


def plain_brief(brief: BriefText) -> DrawnBrief:
    """A prepared brief's source as plain lines: the first screen's, which does not wait for the
    Markdown parser and Pygments to load (about 25 ms); the colour pass draws it after that paint."""
    lines = [Content(line) for line in brief.markdown.split("\n")]
    return DrawnBrief(brief, None, lines, [Content("")] * len(lines))
