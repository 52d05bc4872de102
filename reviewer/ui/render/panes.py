"""A failure's heavy parts rendered for the screen: brief, code, grader output, transcript.

The view worker calls :func:`render_view` right after reading a view, so the screen takes a new
failure in one paint. The first screen's view is rendered without a theme (``plain``): its brief
as source lines and its code without colours, so that neither the Markdown parser nor Pygments
is loaded before the first paint; the colour pass renders it again after that paint. Each part
carries a ``key`` naming what it was rendered from; a pane whose shown key is the same keeps its
lines (and its scroll). Rendered parts are remembered (a small LRU), so stepping back to a
failure renders nothing again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Callable, Hashable, TypeVar

from textual.content import Content

from reviewer.model.records import record
from reviewer.model.sanitize import clean, one_line
from reviewer.review.view import CodeView, FailureView
from reviewer.store.fs.untrusted import TextBlob
from reviewer.ui.render.banners import blob_notes, prepared_banner
from reviewer.ui.render.brief import BriefText, DrawnBrief, draw_brief, plain_brief, prepare_brief
from reviewer.ui.render.language import language_for
from reviewer.ui.render.lines import Prepared, ansi_lines, code_lines, diff_lines, plain_lines
from reviewer.ui.render.transcript import TranscriptLines, build_lines

if TYPE_CHECKING:
    from textual.highlight import HighlightTheme

HIGHLIGHT_LINES = 10_000
"""Files this long are shown plain: colouring 20,000 lines takes a second of CPU and tens of MB."""
COLOUR_LATER_LINES = 2_000
"""Files this long are shown plain first and coloured after (shorter ones are coloured at once)."""
T = TypeVar("T")


class Remembered:
    """A small thread-safe LRU of rendered parts."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Hashable, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        """The part for ``key``, made (outside the lock) when it is not remembered."""
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        made = make()
        with self.lock:
            self.items[key] = made
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return made

    def clear(self) -> None:
        """Forget everything (a file changed on disk)."""
        with self.lock:
            self.items.clear()


REMEMBERED = Remembered(48)


def text_key(blob: TextBlob | None) -> Hashable:
    """What a rendered part of a text depends on (the text itself: its hash is cached by Python)."""
    return None if blob is None else (hash(blob.text), blob.size, blob.error, blob.binary, blob.truncated)


@record
class Part:
    """Rendered lines of one pane's text view.

    Attributes:
        key: what they were rendered from (a pane showing the same key keeps its scroll).
        prepared: the lines and what rendering found.
        banner: warning lines for above the text.
        notice: a one-line message instead of lines (no file, cannot read...), "" when there are lines.
        coloured: syntax colours are in (False: plain lines now, colours to come).
        theme: the highlight theme the colours are of ("" for lines no theme colours).
        raw: the recorded text as it is, when these lines were decoded from it (the test output
            a ``go test -json`` stream carries); None when they are the recorded text.
    """

    key: Hashable
    prepared: Prepared
    banner: tuple[str, ...] = ()
    notice: str = ""
    coloured: bool = True
    theme: str = ""
    raw: Part | None = None


@record
class Rendered:
    """The heavy parts of one view."""

    view: FailureView
    brief: DrawnBrief | None
    code: Part
    output: Part
    transcript: TranscriptLines | None
    plain: bool = False
    """Rendered without a theme (the first screen's): the colour pass renders it again."""


def notice(key: Hashable, message: str) -> Part:
    """A part that is one message."""
    return Part(key, Prepared([Content(message)]), notice=message)


def theme_name(theme: type[HighlightTheme] | None) -> str:
    """What a rendered part's key says of the theme it was drawn with."""
    return theme.__name__ if theme is not None else ""


def render_brief(blob: TextBlob | None, theme: type[HighlightTheme] | None) -> DrawnBrief:
    """The brief drawn for a theme (None: its source as plain lines)."""
    if blob is None:
        brief = BriefText("*No brief was recorded for this run.*", ())
    elif blob.error:
        brief = BriefText("", (f"\u26a0 cannot show the brief: {clean(blob.error).text}",))
    else:
        brief = prepare_brief(blob.text, blob_notes(blob, "brief"))
    return draw_brief(brief, theme) if theme is not None else plain_brief(brief)


def render_code(code: CodeView, cap: int, theme: type[HighlightTheme] | None, colour: bool) -> Part:
    """The Code pane's lines: the file (coloured now or later; without a theme, later), a diff, or
    why there is none."""
    path = code.file.path if code.file is not None else ""
    key = ("code", path, text_key(code.text), code.diff, text_key(code.before), cap)
    blob = code.text
    if code.file is None or blob is None:
        return notice(key, "no files recorded for this attempt")
    if blob.error:
        return notice(key, f"cannot show {one_line(path)}: {one_line(blob.error)}")
    notes = blob_notes(blob)
    if blob.binary:
        return notice(key, blob.text or notes[0])
    if code.diff:
        number = code.attempt.number if code.attempt is not None else 0
        before = code.before.text if code.before is not None else ""
        if code.before is not None:
            old = code.before_label
        elif code.position <= 1:
            old = "(nothing before attempt 1)"
        else:
            old = f"attempt {code.attempts[code.position - 2]}: no such file"
        prepared = diff_lines(before, blob.text, old, f"attempt {number}/{path}", cap)
        extra = () if code.before is not None else (code.before_label,)
        return Part(key, prepared, prepared_banner(prepared) + extra)
    lines = blob.text.count("\n")
    if lines >= HIGHLIGHT_LINES:
        notes = (*notes, f"\u26a0 over {HIGHLIGHT_LINES:,} lines: shown without syntax colours")
        prepared = plain_lines(blob.text, cap, notes)
        return Part(key, prepared, prepared_banner(prepared))
    if theme is None:
        prepared = plain_lines(blob.text, cap, notes)
        return Part(key, prepared, prepared_banner(prepared), coloured=False)
    if language_for(path) is None:
        prepared = plain_lines(blob.text, cap, notes)
        return Part(key, prepared, prepared_banner(prepared))
    if not colour and lines >= COLOUR_LATER_LINES:
        prepared = plain_lines(blob.text, cap, notes)
        return Part(key, prepared, prepared_banner(prepared), coloured=False)
    prepared = REMEMBERED.get((*key, theme.__name__), lambda: code_lines(blob.text, path, cap, notes, theme=theme))
    return Part(key, prepared, prepared_banner(prepared), theme=theme.__name__)


def render_output(view: FailureView, cap: int) -> Part:
    """The Grader pane's output: as recorded, or decoded when it is meant for machines (a
    ``go test -json`` stream: the test output it carries, the recorded lines as its ``raw``)."""
    blob = view.output
    key = ("output", view.grader.name if view.grader else "", text_key(blob), cap)
    if blob is None:
        return notice(key, "no raw output recorded")
    if blob.error:
        return notice(key, f"cannot show the output: {one_line(blob.error)}")
    prepared = REMEMBERED.get(key, lambda: ansi_lines(blob.text, cap, blob_notes(blob, "output")))
    raw = Part(key, prepared, prepared_banner(prepared, "output"))
    if blob.binary:
        return raw
    decoded_key = ("decoded", *key)
    decoded = REMEMBERED.get(decoded_key, lambda: decode_output(blob, view.grader.format if view.grader else "", cap))
    if decoded is None:
        return raw
    return Part(decoded_key, decoded, prepared_banner(decoded, "output"), raw=raw)


def decode_output(blob: TextBlob, fmt: str, cap: int) -> Prepared | None:
    """The decoded lines of an output meant for machines, None for any other (see :func:`render_output`)."""
    from reviewer.parsers import readable_output

    text = readable_output(blob.text, fmt)
    return None if text is None else ansi_lines(text, cap, blob_notes(blob, "output"))


def render_view(view: FailureView, theme: type[HighlightTheme] | None, code_cap: int, output_cap: int,
                colour: bool = False) -> Rendered:
    """Render a view's heavy parts (worker thread); without a theme, plain (see the module's text)."""
    brief_key = ("brief", text_key(view.brief), theme_name(theme))
    brief = REMEMBERED.get(brief_key, lambda: render_brief(view.brief, theme))
    transcript = None
    if view.run is not None and view.turns:
        transcript = REMEMBERED.get(("turns", view.run.key, hash(view.turns), theme_name(theme)),
                                    lambda: build_lines(view.run.key if view.run else "", view.turns, theme))
    return Rendered(view, brief, render_code(view.code, code_cap, theme, colour), render_output(view, output_cap),
                    transcript, plain=theme is None)
