"""The one sanitiser every piece of recorded text passes through before anyone sees it.

Recorded text is untrusted. Escape sequences never reach a terminal: ESC, C0 and C1 control
characters become visible symbols (``␛``, ``␇``, ``⟨9B⟩``), NUL is dropped, bidi controls and
invisible characters become visible tags (``⟨RLO⟩``, ``⟨ZWSP⟩``) and are reported, so a
reviewer sees what a compiler sees. Where a pane shows terminal output, SGR colour sequences
may be kept (``keep_sgr``) for the UI to turn into styles; nothing else survives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BIDI_NAMES = {
    "\u202a": "LRE",
    "\u202b": "RLE",
    "\u202c": "PDF",
    "\u202d": "LRO",
    "\u202e": "RLO",
    "\u2066": "LRI",
    "\u2067": "RLI",
    "\u2068": "FSI",
    "\u2069": "PDI",
    "\u200e": "LRM",
    "\u200f": "RLM",
    "\u061c": "ALM",
}
INVISIBLE_NAMES = {
    "\u200b": "ZWSP",
    "\u200c": "ZWNJ",
    "\u200d": "ZWJ",
    "\u2060": "WJ",
    "\ufeff": "BOM",
    "\u00ad": "SHY",
}


def build_table() -> dict[int, str | None]:
    """The translation table: every unsafe code point to its visible form."""
    table: dict[int, str | None] = {}
    for code in range(0x20):
        table[code] = chr(0x2400 + code)
    del table[0x09]
    del table[0x0A]
    table[0x00] = None
    table[0x1B] = "\u241b"
    table[0x7F] = "\u2421"
    for code in range(0x80, 0xA0):
        table[code] = f"\u27e8{code:02X}\u27e9"
    for ch, name in {**BIDI_NAMES, **INVISIBLE_NAMES}.items():
        table[ord(ch)] = f"\u27e8{name}\u27e9"
    for code in (0x2028, 0x2029):
        table[code] = "\n"
    return table


TABLE = build_table()
SGR = re.compile(r"\x1b\[[0-9;:]{0,64}m")
HIDDEN = re.compile("[" + "".join(BIDI_NAMES) + "".join(c for c in INVISIBLE_NAMES if c != "\ufeff") + "]|(?<!^)\ufeff")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@dataclass(frozen=True, slots=True)
class Cleaned:
    """Sanitised text and what was found in it.

    Attributes:
        text: safe to display; may hold SGR sequences only when asked to keep them.
        hidden: bidi controls or invisible characters were found (and made visible).
        controls: escape or control characters were found (and made visible).
    """

    text: str
    hidden: bool = False
    controls: bool = False


def clean(text: str, keep_sgr: bool = False) -> Cleaned:
    """Sanitise recorded text for display.

    Args:
        text: anything from a recorded run.
        keep_sgr: keep ``ESC[...m`` colour sequences (for terminal output panes).
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n")
    hidden = HIDDEN.search(text) is not None
    if keep_sgr and "\x1b" in text:
        pieces: list[str] = []
        last = 0
        for m in SGR.finditer(text):
            pieces.append(text[last : m.start()].translate(TABLE))
            pieces.append(m.group())
            last = m.end()
        pieces.append(text[last:].translate(TABLE))
        stripped = SGR.sub("", text)
        controls = CONTROL.search(stripped) is not None
        return Cleaned("".join(pieces), hidden, controls)
    controls = CONTROL.search(text) is not None
    return Cleaned(text.translate(TABLE), hidden, controls)


def plain(text: str) -> str:
    """Sanitise for plain output (CLI, one-line labels): no escapes, no SGR."""
    return clean(text).text


def strip_sgr(text: str) -> str:
    """Remove SGR colour sequences (used before searching terminal output)."""
    return SGR.sub("", text)


@dataclass(frozen=True, slots=True)
class Capped:
    """Text cut down for rendering, with what was cut."""

    text: str
    cut_lines: int = 0
    cut_chars: int = 0


def cap_text(text: str, max_lines: int = 50_000, max_line: int = 4_000) -> Capped:
    """Limit lines and line length; cut lines end with a visible marker."""
    lines = text.split("\n")
    cut_lines = max(0, len(lines) - max_lines)
    if cut_lines:
        lines = lines[:max_lines]
    cut_chars = 0
    for i, line in enumerate(lines):
        if len(line) > max_line:
            extra = len(line) - max_line
            cut_chars += extra
            lines[i] = f"{line[:max_line]} \u2026[line truncated: {extra:,} more characters]"
    return Capped("\n".join(lines), cut_lines, cut_chars)
