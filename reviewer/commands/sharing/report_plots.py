"""The report's plots: matplotlib figures written as inline SVG, in the reviewer-cvd palette.

matplotlib is an optional extra (``pip install 'reviewer[report]'``); :func:`require` says how
to get it when it is missing. Figures are drawn with the object API (no pyplot, no global
state); text stays text (``svg.fonttype = none``), maths parsing is off so a ``$`` in a model
name is a dollar sign, ids are salted so the same data gives the same bytes. Every plot marks
its series with a shape or a hatch as well as a colour.
"""

from __future__ import annotations

import importlib.util
import io
import re
import warnings
from collections.abc import Sequence
from typing import Any

from reviewer.analysis.stats.passrates import PassRate, Proportion
from reviewer.analysis.stats.score import Score
from reviewer.model.records import record
from reviewer.model.sanitize import plain

INSTALL = "pip install 'reviewer[report]'"
LABEL_CHARS = 32
RC: Any = {
    "svg.fonttype": "none",
    "svg.hashsalt": "reviewer-report",
    "text.parse_math": False,
    "text.usetex": False,
    "font.family": "sans-serif",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


class PlotsMissing(Exception):
    """matplotlib is not installed; the message says how to install it."""


def require() -> None:
    """Raise :class:`PlotsMissing` unless matplotlib can be imported."""
    try:
        found = importlib.util.find_spec("matplotlib") is not None
    except (ImportError, ValueError):  # a broken install, or a module set to None
        found = False
    if not found:
        raise PlotsMissing(f"the report draws its plots with matplotlib, which is not installed: {INSTALL}")


@record
class Palette:
    """Colours of the report, from the reviewer-cvd theme (Okabe-Ito)."""

    graded: str
    corrected: str
    rescored: str
    specification: str
    capability: str
    ink: str


def palette() -> Palette:
    """The shipped reviewer-cvd theme's colours (its verdict colours and its palette)."""
    from reviewer.store.settings.themes import read_theme_file, shipped_themes_dir

    spec, _ = read_theme_file(shipped_themes_dir() / "reviewer-cvd.toml")
    c = spec.colors
    return Palette(c["secondary"], spec.specification_color, c["success"], spec.specification_color, spec.capability_color,
                   c["panel"])


def short(name: str) -> str:
    """A label for an axis: sanitised, at most :data:`LABEL_CHARS` characters."""
    text = plain(name).replace("\n", " ")
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def svg_of(fig: Any) -> str:
    """The figure as an ``<svg>`` element (no XML prolog), scaled by its container."""
    buf = io.StringIO()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")  # the browser draws the text
        fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches="tight")
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    return re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1 role="img" class="plot"', text, count=1)


def figure(rows: int) -> Any:
    """A figure sized for ``rows`` horizontal rows."""
    from matplotlib.figure import Figure

    return Figure(figsize=(5.0, 0.9 + 0.3 * max(rows, 1)), layout="constrained")


def errors(ps: Sequence[Proportion]) -> tuple[list[float], list[float], list[float]]:
    """Values and distances to the interval bounds, in percent (0 where undefined; never below 0:
    Wilson's lower bound of 0 of n comes out a rounding error above 0, which matplotlib refuses)."""
    vs = [100 * (p.value or 0.0) for p in ps]
    lo = [max(0.0, v - 100 * (p.low or 0.0)) if p.value is not None else 0.0 for v, p in zip(vs, ps, strict=True)]
    hi = [max(0.0, 100 * (p.high or 0.0) - v) if p.value is not None else 0.0 for v, p in zip(vs, ps, strict=True)]
    return vs, lo, hi


def rate_plot(rates: Sequence[PassRate], pal: Palette, what: str) -> str:
    """Graded vs corrected (and re-scored) pass rate per row, with 95% intervals, as SVG."""
    import matplotlib

    rows = [r for r in rates if r.checks]
    with matplotlib.rc_context(RC):
        fig = figure(len(rows))
        ax = fig.add_subplot()
        ys = list(range(len(rows)))[::-1]
        rescored = [r.rescored for r in rows]
        three = bool(rows) and all(p is not None for p in rescored)
        series: list[tuple[str, str, str, float, list[Proportion]]] = [
            ("as graded", pal.graded, "o", 0.2 if three else 0.12, [r.graded for r in rows]),
            ("corrected", pal.corrected, "D", 0.0 if three else -0.12, [r.corrected for r in rows]),
        ]
        if three:
            series.append(("re-scored", pal.rescored, "s", -0.2, [p for p in rescored if p is not None]))
        for label, colour, marker, dy, ps in series:
            vs, lo, hi = errors(ps)
            ax.errorbar(vs, [y + dy for y in ys], xerr=[lo, hi], fmt=marker, color=colour, ecolor=colour,
                        elinewidth=1.2, capsize=2.5, markersize=5, label=label)
        ax.set_yticks(ys, [short(r.name) for r in rows])
        ax.set_xlim(0, 102)
        ax.set_xticks([0, 20, 40, 60, 80, 100])
        ax.set_xlabel(f"pass rate per {what}, % of checks (bars: 95% Wilson interval)")
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(series), frameon=False, fontsize=8)
        return svg_of(fig)


def shares_plot(rows: Sequence[tuple[str, int, int, int]], pal: Palette, what: str) -> str:
    """Failures per row split into specification, capability and unlabelled, as stacked bars."""
    import matplotlib

    with matplotlib.rc_context(RC):
        fig = figure(len(rows))
        ax = fig.add_subplot()
        ys = list(range(len(rows)))[::-1]
        spec = [r[1] for r in rows]
        cap = [r[2] for r in rows]
        rest = [r[3] for r in rows]
        ax.barh(ys, spec, color=pal.specification, edgecolor=pal.ink, linewidth=0.5, hatch="//", label="◆ specification")
        ax.barh(ys, cap, left=spec, color=pal.capability, edgecolor=pal.ink, linewidth=0.5, hatch="\\\\", label="▲ capability")
        if any(rest):
            left = [a + b for a, b in zip(spec, cap, strict=True)]
            ax.barh(ys, rest, left=left, color="white", edgecolor=pal.ink, linewidth=0.5, label="unlabelled")
        ax.set_yticks(ys, [short(r[0]) for r in rows])
        ax.set_xlabel(f"failures per {what}")
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False, fontsize=8)
        return svg_of(fig)


def predictor_plot(cards: Sequence[tuple[str, Score]], pal: Palette) -> str:
    """Precision and recall of each predictor beside the flag-everything baseline, as bars."""
    import matplotlib

    rows: list[tuple[str, float | None, float | None]] = []
    if cards:
        base = cards[0][1]
        rows.append(("flag every failure", base.baseline_precision, base.baseline_recall))
    rows += [(name, s.precision, s.recall) for name, s in cards]
    with matplotlib.rc_context(RC):
        fig = figure(2 * len(rows))
        ax = fig.add_subplot()
        ys = list(range(len(rows)))[::-1]
        ax.barh([y + 0.2 for y in ys], [100 * (p or 0) for _, p, _ in rows], height=0.38, color=pal.specification,
                edgecolor=pal.ink, linewidth=0.5, hatch="//", label="precision")
        ax.barh([y - 0.2 for y in ys], [100 * (r or 0) for _, _, r in rows], height=0.38, color=pal.capability,
                edgecolor=pal.ink, linewidth=0.5, hatch="\\\\", label="recall")
        ax.set_yticks(ys, [short(n) for n, _, _ in rows])
        ax.set_xlim(0, 100)
        ax.set_xlabel("% (positive: labelled specification)")
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False, fontsize=8)
        return svg_of(fig)
