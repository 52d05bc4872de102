"""The evidence of one failure as display lines: demands against the brief, near-misses, hints.

Pure (safe in a worker thread): :class:`~reviewer.analysis.evidence.Evidence` in,
:class:`~textual.content.Content` lines out. Every recorded string passes through
:func:`~reviewer.ui.render.one_line` and enters a ``Content`` as plain text, never markup.
An unstated demand is shown as evidence towards specification; nothing here sets a label.
"""

from __future__ import annotations

from textual.content import Content

from reviewer.analysis.brief import Stated
from reviewer.analysis.demands import Demand
from reviewer.analysis.evidence import Evidence
from reviewer.analysis.nearmiss import NearMiss
from reviewer.model.sanitize import one_line

MARKS: dict[Stated, tuple[str, str, str]] = {
    Stated.VERBATIM: ("\u2713", "stated", "$text-success"),
    Stated.NEAR: ("\u2248", "near form", "$text-warning"),
    Stated.UNSTATED: ("\u2717", "not stated", "$text-error"),
}
"""Symbol, word and style for each answer to "does the brief state it?" (never colour alone)."""
BOUND_SHOWN = 4
"""Input-bound values named on their summary line."""
VALUE_CAP = 60
BRIEF_CAP = 90


def demand_value(d: Demand) -> str:
    """The demanded value as shown, with the other accepted values."""
    value = d.shown()
    if d.alternatives:
        value += " or " + " or ".join(repr(a) for a in d.alternatives)
    return one_line(value, VALUE_CAP)


def demand_line(d: Demand) -> Content:
    """``✗ literal   'yes'  not stated in the brief`` or ``✓ key  connected  stated · brief line 13: …``."""
    symbol, word, style = MARKS[d.stated]
    parts: list[Content | tuple[str, str] | str] = [
        (f"{symbol} ", f"bold {style}"), (f"{d.kind.value:<9} ", "$text-muted"), (demand_value(d), "bold"),
    ]
    if d.note:
        parts.append((f" ({one_line(d.note, 60)})", "$text-muted"))
    parts.append("  ")
    if d.stated is Stated.UNSTATED:
        parts.append((f"{word} in the brief", style))
    else:
        parts += [(word, style), (f" \u00b7 brief line {d.brief_line}", "$text-muted")]
        if d.brief_text.strip():
            parts += [(": ", "$text-muted"), (one_line(d.brief_text.strip(), BRIEF_CAP), "italic")]
    if d.met is not None:
        parts.append((" \u00b7 printed" if d.met else " \u00b7 not in the output", "$text-muted"))
    return Content.assemble(*parts)


def bound_line(bound: list[Demand]) -> Content:
    """One line for values bound to the check's input (their form is what a brief states)."""
    names = ", ".join(demand_value(d) for d in bound[:BOUND_SHOWN])
    more = f", \u2026 {len(bound) - BOUND_SHOWN} more" if len(bound) > BOUND_SHOWN else ""
    noun = "value" if len(bound) == 1 else "values"
    return Content.assemble(
        ("\u00b7 ", "$text-muted"), (f"{len(bound)} input-bound {noun}: ", "$text-muted"), names + more,
        ("  a brief states their form, not each value", "$text-muted"),
    )


def kinds_of(nm: NearMiss) -> str:
    """How a near-miss differs: ``vocabulary: true for yes``."""
    return one_line(", ".join(nm.notations), 80)


def near_miss_line(nm: NearMiss) -> Content:
    """``near-miss: expected 'yes' · printed 'true' (vocabulary: true for yes)``."""
    return Content.assemble(
        ("\u2248 near-miss: ", "bold $text-warning"), ("expected ", "$text-muted"), (one_line(nm.expected, VALUE_CAP), "bold"),
        (" \u00b7 printed ", "$text-muted"), (one_line(nm.actual, VALUE_CAP), "bold"),
        (f" ({kinds_of(nm)})", "$text-muted"),
    )


def summary(ev: Evidence) -> str:
    """``5 demands · 4 stated · 1 not stated · near-miss`` (for the panel's title)."""
    shown = [d for d in ev.demands if not d.bound]
    stated = sum(1 for d in shown if d.stated is not Stated.UNSTATED)
    bound = len(ev.demands) - len(shown)
    parts = []
    if shown:
        parts += [f"{len(shown)} demand{'s' if len(shown) != 1 else ''}", f"{stated} stated"]
    if ev.unstated:
        parts.append(f"{len(ev.unstated)} not stated")
    if bound:
        parts.append(f"{bound} input-bound")
    if ev.near_miss:
        parts.append("near-miss")
    return " \u00b7 ".join(parts) or "nothing read"


def evidence_lines(ev: Evidence) -> list[Content]:
    """The panel's lines: near-misses first, then each demand (unstated first), hints, problems."""
    lines: list[Content] = [near_miss_line(nm) for nm in ev.near_misses]
    if ev.brief_missing:
        lines.append(Content.styled("\u26a0 the brief could not be read: nothing counts as stated", "$text-warning"))
    lines += [demand_line(d) for d in ev.demands if not d.bound]
    bound = [d for d in ev.demands if d.bound]
    if bound:
        lines.append(bound_line(bound))
    if not ev.demands and not ev.near_misses:
        lines.append(Content.styled("no demand of the check could be read from its failure text or source", "$text-muted"))
    for hint in ev.hints:
        lines.append(Content.assemble(("hint: ", "bold $text-accent"), one_line(hint, 400)))
    if ev.unstated:
        lines.append(Content.styled(
            "\u2717 not stated in the brief: evidence towards specification, for you to weigh (not a label)", "$text-muted"
        ))
    for error in ev.errors:
        lines.append(Content.assemble(("not read: ", "$text-error"), one_line(error, 300)))
    return lines
