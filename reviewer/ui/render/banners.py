"""The warning lines above a pane's text: what a read or a render found (binary, cut, hidden...)."""

from __future__ import annotations

from reviewer.model.wording import count
from reviewer.store.fs.untrusted import TextBlob
from reviewer.ui.render.lines import Prepared

HIDDEN_BANNER = "\u26a0 this file contains bidirectional or invisible characters, shown as \u27e8\u2026\u27e9"
CONTROLS_BANNER = "\u26a0 escape or control characters were made visible (\u241b, \u27e8\u2026\u27e9)"


def blob_notes(blob: TextBlob, what: str = "file") -> tuple[str, ...]:
    """Banner lines for what the store said about a read."""
    notes = []
    if blob.binary:
        notes.append(f"\u26a0 binary {what} ({blob.size:,} bytes): not shown")
    if blob.invalid_utf8:
        notes.append(f"\u26a0 this {what} is not valid UTF-8: bad bytes are shown as \ufffd")
    if blob.truncated:
        notes.append(f"\u26a0 this {what} is {blob.size:,} bytes: only the start was read")
    return tuple(notes)


def prepared_banner(prepared: Prepared, what: str = "file") -> tuple[str, ...]:
    """Banner lines for prepared lines: the read's notes, hidden and control characters, cuts."""
    banner = list(prepared.notes)
    if prepared.hidden:
        banner.append(HIDDEN_BANNER.replace("file", what))
    if prepared.controls:
        banner.append(CONTROLS_BANNER)
    if prepared.cut_chars:
        banner.append(f"\u26a0 long lines cut: {count(prepared.cut_chars, 'character')} not shown (e: show more)")
    if prepared.cut_lines:
        banner.append(f"\u26a0 {count(prepared.cut_lines, 'line')} not shown")
    return tuple(banner)
