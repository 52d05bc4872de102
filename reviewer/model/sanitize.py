"""The one sanitiser every piece of recorded text passes through before anyone sees it.

Recorded text is untrusted. Escape sequences never reach a terminal: ESC, C0 and C1 control
characters become visible symbols (``␛``, ``␇``, ``⟨9B⟩``), NUL is dropped, bidi controls and
invisible characters become visible tags (``⟨RLO⟩``, ``⟨ZWSP⟩``) and are reported, so a
reviewer sees what a compiler sees. Where a pane shows terminal output, SGR colour sequences
may be kept (``keep_sgr``) for the UI to turn into styles; nothing else survives.

A tab is expanded to spaces up to the next tab stop (every :data:`TAB_STOP` columns of its line),
unless the caller asks to keep tabs (``tab_size=0``, for output that is not drawn on a screen).
A terminal moves its cursor to the next stop on a tab, while a widget counts the tab as no cell
at all: a raw tab left the rest of the row where the widget never drew (stale text, a border
pushed out of the pane). With ``mark_tabs`` a tab after a line's indentation starts with a
visible ``→``: where a tab and spaces may differ to a checker (a check's message, a name on
one line), the reviewer sees which it was.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from reviewer.model.records import record

TAB_STOP = 4
"""Columns between tab stops wherever recorded text is shown."""
TAB_MARK = "\u2192"
"""The first cell of a tab shown visibly (the rest of its cells are spaces)."""

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
HIDDEN_ANYWHERE = re.compile("[" + "".join(BIDI_NAMES) + "".join(INVISIBLE_NAMES) + "]")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
SEPARATORS = re.compile("[\u2028\u2029]")


@record
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


def clean(text: str, keep_sgr: bool = False, at_start: bool = True, tab_size: int = TAB_STOP,
          mark_tabs: bool = False) -> Cleaned:
    """Sanitise recorded text for display.

    Args:
        text: anything from a recorded run.
        keep_sgr: keep ``ESC[...m`` colour sequences (for terminal output panes); they take no
            column when tabs are expanded.
        at_start: the text is the start of a file, where a byte order mark is dropped
            silently (elsewhere it is an invisible character like any other).
        tab_size: expand tabs to stops this many columns apart (0: keep them, for output that
            no screen draws, such as a file or a pipe).
        mark_tabs: start each tab after a line's indentation with a visible ``→``.
    """
    if at_start and text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n")
    hidden = (HIDDEN if at_start else HIDDEN_ANYWHERE).search(text) is not None
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
        shown = "".join(pieces)
        return Cleaned(expand_tabs(shown, tab_size, mark_tabs, sgr=True) if tab_size else shown, hidden, controls)
    controls = CONTROL.search(text) is not None
    shown = text.translate(TABLE)
    return Cleaned(expand_tabs(shown, tab_size, mark_tabs) if tab_size else shown, hidden, controls)


def cells(text: str) -> int:
    """The terminal cells a line of sanitised text takes (wide East Asian characters take two,
    combining marks none; every character below U+0300 one)."""
    if text.isascii():
        return len(text)
    return len(text) + sum(cell_delta(ch) for ch in text if ch > "\u02ff")


@functools.lru_cache(maxsize=4096)
def cell_delta(ch: str) -> int:
    """Cells a character takes beyond one: 1 when wide, -1 for a combining mark, else 0."""
    return -1 if unicodedata.combining(ch) else 1 if unicodedata.east_asian_width(ch) in "WF" else 0


def expand_tabs(text: str, tab_size: int = TAB_STOP, mark: bool = False, sgr: bool = False) -> str:
    """Every tab replaced by spaces to the next tab stop of its line (counted in cells).

    ``mark``: a tab after the line's indentation shows as ``→`` and spaces. ``sgr``: the text
    holds SGR sequences, which take no column.
    """
    if "\t" not in text:
        return text
    if not mark and not sgr and text.isascii():
        return text.expandtabs(tab_size)
    return "\n".join(expand_line(line, tab_size, mark, sgr) if "\t" in line else line for line in text.split("\n"))


def expand_line(line: str, tab_size: int, mark: bool, sgr: bool) -> str:
    """:func:`expand_tabs` of one line."""
    body = line.lstrip(" \t")
    indent = line[: len(line) - len(body)].expandtabs(tab_size)
    out = [indent]
    column = len(indent)
    parts = body.split("\t")
    last = len(parts) - 1
    for number, part in enumerate(parts):
        if number:
            pad = tab_size - column % tab_size
            out.append(TAB_MARK + " " * (pad - 1) if mark else " " * pad)
            column += pad
        out.append(part)
        if number < last:  # the width after the last tab decides no stop
            column += cells(SGR.sub("", part) if sgr and "\x1b" in part else part)
    return "".join(out)


def plain(text: str, tab_size: int = TAB_STOP) -> str:
    """Sanitise for plain output (CLI, one-line labels): no escapes, no SGR; tabs expanded unless
    ``tab_size`` is 0."""
    return clean(text, tab_size=tab_size).text


LINE_BREAKS = str.maketrans({"\n": "\u240a"})


def plain_line(text: str) -> str:
    """:func:`plain` on one line: a newline becomes a visible ``␊``, a tab a visible ``→`` and spaces.

    For output read one line per item (``reviewer check``: one line per problem), where a name
    holding a newline would otherwise start a line of its own that looks like another item.
    """
    return clean(text, mark_tabs=True).text.translate(LINE_BREAKS)


def strip_sgr(text: str) -> str:
    """Remove SGR colour sequences (used before searching terminal output)."""
    return SGR.sub("", text)


@record
class Capped:
    """Text cut down for rendering, with what was cut."""

    text: str
    cut_lines: int = 0
    cut_chars: int = 0


def cap_text(text: str, max_lines: int = 50_000, max_line: int = 4_000) -> Capped:
    """Limit lines and line length; cut lines end with a visible marker."""
    return cap_lines(text.split("\n"), max_lines, max_line)


def cap_lines(lines: list[str], max_lines: int, max_line: int, extra: list[int] | None = None) -> Capped:
    """:func:`cap_text` of lines; ``extra[i]``: characters already cut from line ``i`` (counted too)."""
    cut_lines = max(0, len(lines) - max_lines)
    if cut_lines:
        lines = lines[:max_lines]
    cut_chars = 0
    for i, line in enumerate(lines):
        before = extra[i] if extra is not None else 0
        if len(line) > max_line or before:
            more = len(line) - min(len(line), max_line) + before
            cut_chars += more
            lines[i] = f"{line[:max_line]} \u2026[line truncated: {more:,} more characters]"
    return Capped("\n".join(lines), cut_lines, cut_chars)


def clean_and_cap(text: str, keep_sgr: bool = False, max_lines: int = 50_000, max_line: int = 4_000,
                  tab_size: int = TAB_STOP) -> tuple[Cleaned, Capped]:
    """:func:`clean` then :func:`cap_text` (final newline dropped, tabs expanded when ``tab_size``).

    The same result as cleaning the whole text first, but a line far longer than anything shown
    (a 10 MB line of output) is cut *before* the sanitiser walks it: cleaning what is never
    shown would cost hundreds of milliseconds. The cut characters are still counted in the
    line's "N more characters" marker and in ``cut_chars``; ``hidden``/``controls`` then speak
    of the part that is shown.
    """
    lines = text.split("\n")
    keep = max_line * 2 + 64  # cleaning may make a line longer (⟨9B⟩), never shorter but for NUL/CR
    if all(len(line) <= keep for line in lines[:max_lines]):
        cleaned = clean(text, keep_sgr, tab_size=tab_size)
        out = cleaned.text[:-1] if cleaned.text.endswith("\n") else cleaned.text
        return cleaned, cap_text(out, max_lines, max_line)
    rest = lines[max_lines:] if len(lines) > max_lines else []
    del lines[max_lines:]
    raw_cut_lines = count_lines(rest)
    pieces: list[str] = []
    extra: list[int] = []
    hidden = controls = False
    lost_lines = 0
    last = len(lines) - 1
    for number, line in enumerate(lines):
        if number < last or rest:
            line = line.removesuffix("\r")  # it ended "\r\n", a plain line break
        # U+2028/U+2029 break lines too: split a long line at them before cutting it
        long = len(line) > keep and ("\u2028" in line or "\u2029" in line)  # `in` is cheap, a regex walk is not
        segments = SEPARATORS.split(line, maxsplit=max_lines) if long else [line]
        for part_number, segment in enumerate(segments):
            dropped = max(0, len(segment) - keep)
            if dropped and part_number == max_lines:  # the unsplit rest past max_lines breaks: lines cut
                lost_lines += segment.count("\u2028", keep) + segment.count("\u2029", keep)
            part = clean(segment[:keep] if dropped else segment, keep_sgr, at_start=number == 0 and part_number == 0,
                         tab_size=tab_size)
            hidden, controls = hidden or part.hidden, controls or part.controls
            sub = part.text.split("\n")
            pieces += sub
            extra += [0] * (len(sub) - 1) + [dropped]
        if len(pieces) > max_lines and number < last:
            raw_cut_lines = count_lines(lines[number + 1:] + rest)
            break
    else:
        if not rest and len(pieces) > 1 and pieces[-1] == "":
            pieces.pop()  # the cleaned text ended with a line break: no empty line after it
            extra.pop()
    capped = cap_lines(pieces, max_lines, max_line, extra)
    return Cleaned("\n".join(pieces), hidden, controls), Capped(capped.text, capped.cut_lines + raw_cut_lines + lost_lines,
                                                                 capped.cut_chars)


def count_lines(raw: list[str]) -> int:
    """How many lines raw lines left out make once cleaned (a final empty one is no line)."""
    if raw and raw[-1] == "":
        raw = raw[:-1]
    final = 1 if raw and raw[-1].endswith(("\u2028", "\u2029")) else 0  # a final break makes no line
    return sum(1 + line.count("\u2028") + line.count("\u2029") for line in raw) - final


def id_lines(failure_id: str) -> str:
    """A failure id on two lines that wrap only between its parts: ``session/run`` and ``#grader:check``."""
    run, sep, check = failure_id.partition("#")
    return one_line(run, 300) + (f"\n{sep}{one_line(check, 300)}" if sep else "")


def one_line(text: str, limit: int = 200) -> str:
    """Sanitised text squeezed onto one line (for headers, rows and messages that quote data); a tab
    after a line's indentation shows as ``→`` and spaces."""
    flat = clean(text[: limit * 4 + 16], mark_tabs=True).text.replace("\n", " \u23ce ")
    return flat if len(flat) <= limit else flat[: limit - 1] + "\u2026"
