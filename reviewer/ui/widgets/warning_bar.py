"""A non-modal warning bar: broken theme files and settings problems, shown until dismissed.

It sits docked at the top of the review screen and never takes focus, so every key keeps
working while it shows. A click on it, or the ``dismiss-warning`` key, hides it.
"""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from reviewer.model.records import record
from reviewer.model.sanitize import one_line

MAX_SHOWN = 6
"""Warnings listed on the bar; the rest are counted."""


@record
class BarWarning:
    """One line of the bar.

    Attributes:
        source: what the warning is about ("Theme file", "Settings", "Theme").
        subject: the file or setting it names (may be "").
        reason: what is wrong.
    """

    source: str
    subject: str
    reason: str


def warning_line(warning: BarWarning) -> Content:
    """``⚠ Theme file /path/x.toml: skipped: reason``, every part as plain text (never markup)."""
    parts: list[Content | tuple[str, str] | str] = [("\u26a0 ", "bold $text-warning"), (warning.source, "bold")]
    if warning.subject:
        parts += [" ", (one_line(warning.subject, 160), "bold $text-warning")]
    parts += [": ", one_line(warning.reason, 400)]
    return Content.assemble(*parts)


class WarningBar(Static, can_focus=False):
    """Warnings listed at the top of the screen until dismissed (never modal, never focused)."""

    class Dismissed(Message):
        """The bar was clicked away."""

    def __init__(self, warnings: list[BarWarning], dismiss_keys: str = "ctrl+w", id: str = "warning-bar") -> None:
        super().__init__(Content(""), id=id, markup=False)
        self.warnings = list(warnings)
        """The warnings shown."""
        self.dismiss_keys = dismiss_keys
        """How the dismiss key is shown in the hint."""

    def on_mount(self) -> None:
        """Draw the lines."""
        self.draw()

    def draw(self) -> None:
        """The warnings, at most :data:`MAX_SHOWN`, and how to dismiss them."""
        lines = [warning_line(w) for w in self.warnings[:MAX_SHOWN]]
        more = len(self.warnings) - MAX_SHOWN
        if more > 0:
            lines.append(Content.styled(f"  \u2026 and {more} more (reviewer themes lists theme problems)",
                                        "$text-muted"))
        self.border_subtitle = Content(f" {self.dismiss_keys} or click: dismiss \u00b7 keys keep working ")
        self.update(Content("\n").join(lines))

    def text(self) -> str:
        """The bar as plain text (for tests)."""
        return "\n".join(warning_line(w).plain for w in self.warnings)

    def on_click(self, event: events.Click) -> None:
        """A click dismisses the bar."""
        event.stop()
        self.post_message(self.Dismissed())
