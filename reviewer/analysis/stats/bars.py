"""Terminal bar charts as plain strings: full blocks ``█`` and eighth blocks ``▏▎▍▌▋▊▉``.

Every function returns text only (no markup, no colour), so the UI can put it in a ``Static``
through ``Text`` and the CLI can print it. Labels are sanitised by the callers' renderers.
"""

from __future__ import annotations

EIGHTHS = " ▏▎▍▌▋▊▉"
FULL = "█"
EMPTY = " "


def bar(fraction: float, width: int) -> str:
    """A left-aligned bar ``width`` cells wide filled to ``fraction`` (0..1), in eighths."""
    width = max(0, width)
    f = min(1.0, max(0.0, fraction))
    eighths = round(f * width * 8)
    full, part = divmod(eighths, 8)
    text = FULL * full + (EIGHTHS[part] if part and full < width else "")
    return text + EMPTY * (width - len(text))


def split_bar(first: float, second: float, width: int, second_char: str = "░") -> str:
    """Two shares side by side in one bar: ``█`` for the first, ``second_char`` for the second."""
    width = max(0, width)
    a = round(min(1.0, max(0.0, first)) * width)
    b = min(width - a, round(min(1.0, max(0.0, second)) * width))
    return FULL * a + second_char * b + EMPTY * (width - a - b)


def percent(fraction: float | None) -> str:
    """``42%``, or ``—`` when undefined."""
    return "—" if fraction is None else f"{round(fraction * 100):d}%"


def bar_rows(rows: list[tuple[str, float | None, str]], width: int = 30, label_width: int | None = None) -> list[str]:
    """One line per (label, fraction, note): ``label  ████▍      note``."""
    lw = label_width if label_width is not None else max((len(r[0]) for r in rows), default=0)
    out = []
    for label, fraction, note in rows:
        cells = bar(fraction, width) if fraction is not None else "·" * width
        out.append(f"{label[:lw]:<{lw}}  {cells}  {note}".rstrip())
    return out


def interval_line(low: float, value: float, high: float, width: int = 40) -> str:
    """An interval on a 0..100% scale: ``├`` low, ``●`` the estimate, ``┤`` high."""
    width = max(width, 10)
    cells = ["·"] * width

    def at(x: float) -> int:
        """The cell of a fraction."""
        return min(width - 1, max(0, round(min(1.0, max(0.0, x)) * (width - 1))))

    lo, mid, hi = at(low), at(value), at(high)
    for i in range(lo, hi + 1):
        cells[i] = "─"
    cells[lo] = "├"
    cells[hi] = "┤"
    cells[mid] = "●"
    return "0% " + "".join(cells) + " 100%"
