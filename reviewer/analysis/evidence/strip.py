"""The evidence as the strip shows it: one :class:`EvidenceReport`, Textual-free, used by the
app's Evidence strip, ``reviewer show`` and ``reviewer show --json``, so all three say the same.

Each :class:`ReportItem` carries its ``kind`` (what it is), its ``text`` (sanitised, one line),
a ``tone`` the app maps to a theme colour, and whether it is evidence ``towards``
specification. Nothing here sets a label.
"""

from __future__ import annotations

from typing import Any

from reviewer.analysis.evidence.across import Across
from reviewer.analysis.evidence.decidable import blocked, decidable
from reviewer.analysis.evidence.engine import Evidence
from reviewer.analysis.evidence.proposals import judged, propose
from reviewer.analysis.reading.brief import Stated
from reviewer.analysis.reading.demands import Demand, DemandKind
from reviewer.analysis.reading.nearmiss import NearMiss
from reviewer.model.records import record
from reviewer.model.repair import format_repair
from reviewer.model.sanitize import plain

VALUE_CAP = 60
BRIEF_CAP = 90
LINE_CAP = 400
BOUND_SHOWN = 4
MARKS = {Stated.VERBATIM: ("\u2713", "stated", "good"), Stated.NEAR: ("\u2248", "near form", "warn"), Stated.UNSTATED: ("\u2717", "not stated", "bad")}


def one_line(text: str, cap: int) -> str:
    """Recorded text for one line: sanitised, whitespace folded, capped with an ellipsis."""
    flat = plain(" ".join(str(text).split()) if "\n" in str(text) or "\t" in str(text) else str(text))
    return flat if len(flat) <= cap else flat[: cap - 1] + "\u2026"


@record
class ReportItem:
    """One line of the evidence strip.

    Attributes:
        kind: ``near-miss``, ``crash``, ``demand``, ``demand-met``, ``bound``, ``hint``,
            ``across``, ``note`` or ``problem``.
        text: the line, sanitised (no control characters), without markup.
        tone: ``good``, ``warn``, ``bad``, ``muted`` or ``accent``, for the app's colours.
        towards: this line is evidence towards specification.
        mark: the symbol at its start (``✗``, ``✓``, ``≈``, ``○``, ``·``, ``⚠``), part of text.
    """

    kind: str
    text: str
    tone: str = "muted"
    towards: bool = False
    mark: str = ""


@record
class EvidenceReport:
    """The strip's title and lines for one failure.

    Attributes:
        failure_id: the failure.
        title: the counts, ``5 demands · 4 stated · 1 not stated · 2 input-bound · near-miss``.
        items: the lines, in the order shown.
        stated: demands (input-bound ones excluded) the brief states.
        unstated: demands the brief does not state (input-bound ones excluded).
        bound: input-bound values.
        towards: the evidence points towards specification somewhere.
    """

    failure_id: str
    title: str
    items: tuple[ReportItem, ...]
    stated: int = 0
    unstated: int = 0
    bound: int = 0
    towards: bool = False

    def lines(self) -> list[str]:
        """The items' texts."""
        return [i.text for i in self.items]


def demand_value(d: Demand) -> str:
    """The demanded value as shown, with the other accepted values."""
    value = d.shown()
    if d.alternatives:
        value += " or " + " or ".join(repr(a) for a in d.alternatives)
    return one_line(value, VALUE_CAP)


def met_phrase(d: Demand) -> str:
    """`` · printed``, `` · the program prints it (f.py:3)``, `` · not in the output``..."""
    if d.met is None:
        return ""
    if d.met is False:
        return " \u00b7 not in the output"
    if d.met_where == "output":
        return " \u00b7 the program uses it" if d.kind is DemandKind.SEPARATOR else " \u00b7 printed"
    if d.met_where == "observed":
        return " \u00b7 printed when re-run (observed)"
    where = one_line(d.met_where, 80)
    if d.kind is DemandKind.FILE and d.met_where == d.value:
        return ""
    verb = {DemandKind.KEY: "the program prints it", DemandKind.LITERAL: "the program writes it", DemandKind.SYMBOL: "defined",
            DemandKind.FILE: "saved as"}.get(d.kind, "met")
    return f" \u00b7 {verb} ({where})" if d.kind not in (DemandKind.FILE,) else f" \u00b7 {verb} {where}"


def demand_item(d: Demand) -> ReportItem:
    """``✗ literal   'yes'  not stated in the brief`` and its kin."""
    symbol, word, tone = MARKS[d.stated]
    note = f" ({one_line(d.note, 60)})" if d.note else ""
    if d.stated is Stated.UNSTATED:
        where = f"{word} in the brief"
    else:
        where = f"{word} \u00b7 brief line {d.brief_line}" + (f": {one_line(d.brief_text.strip(), BRIEF_CAP)}" if d.brief_text.strip() else "")
    if d.unstated and not d.evidence:
        symbol, tone = "\u25cb", "muted"
    text = f"{symbol} {d.kind.value:<9} {demand_value(d)}{note}  {where}{met_phrase(d)}"
    return ReportItem("demand" if d.met is not True else "demand-met", text, tone, d.evidence, symbol)


def near_miss_item(nm: NearMiss) -> ReportItem:
    """``≈ near-miss: expected 'yes' · printed 'true' (vocabulary: true for yes)`` (pairs) or
    ``≈ renamed key: checks mults, output has steps=15`` (output)."""
    if nm.kind in ("renamed-key", "shape") or (nm.kind == "separator" and nm.wanted_key and nm.line.startswith(nm.wanted_key + "=")):
        label = {"renamed-key": "renamed key", "shape": "shape", "separator": "separator"}[nm.kind]
        text = f"\u2248 {label}: {one_line(nm.line, 200)}"
    else:
        text = (f"\u2248 near-miss: expected {one_line(nm.expected, VALUE_CAP)} \u00b7 printed {one_line(nm.actual, VALUE_CAP)}"
                f" ({one_line(', '.join(nm.notations), 80)})")
    if not nm.towards:
        text += f" \u00b7 {nm.why or 'the brief states it'}: the program did not follow it"
    return ReportItem("near-miss", text, "warn" if nm.towards else "muted", nm.towards, "\u2248")


def summary(ev: Evidence) -> str:
    """``5 demands · 4 stated · 1 not stated · 2 input-bound · near-miss`` (the strip's title)."""
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
    if ev.crash is not None:
        parts.append("stopped early" if ev.crash.partial or ev.crash.hides else "crashed")
    return " \u00b7 ".join(parts) or "nothing read"


def evidence_report(ev: Evidence) -> EvidenceReport:
    """The strip's title and lines for one failure's evidence."""
    items: list[ReportItem] = [near_miss_item(nm) for nm in ev.near_misses]
    for h in ev.hints:
        if h.kind == "crash":
            items.append(ReportItem("crash", "\u26a0 " + one_line(h.text, LINE_CAP), "warn" if h.towards else "muted", h.towards, "\u26a0"))
    if ev.brief_missing:
        items.append(ReportItem("problem", "\u26a0 the brief could not be read: nothing counts as stated", "warn", False, "\u26a0"))
    items += [demand_item(d) for d in ev.demands if not d.bound]
    bound = [d for d in ev.demands if d.bound]
    if bound:
        names = ", ".join(demand_value(d) for d in bound[:BOUND_SHOWN])
        more = f", \u2026 {len(bound) - BOUND_SHOWN} more" if len(bound) > BOUND_SHOWN else ""
        noun = "value" if len(bound) == 1 else "values"
        items.append(ReportItem("bound", f"\u00b7 {len(bound)} input-bound {noun}: {names}{more}  a brief states their form, not each value", "muted", False, "\u00b7"))
    if not ev.demands and not ev.near_misses:
        items.append(ReportItem("note", "no demand of the check could be read from its failure text or source"))
    for h in ev.hints:  # the across-models hint belongs to its own view (``show --across``)
        if h.kind not in ("crash", "across"):
            kind = "across" if h.kind == "across" else "hint"
            items.append(ReportItem(kind, "hint: " + one_line(h.text, LINE_CAP), "accent", h.towards))
    for j in judged(ev):
        if not j.notation_only:
            items.append(ReportItem("hint", "not proposed: " + one_line(j.describe(), LINE_CAP), "muted"))
    why = blocked(ev)
    if why:
        items.append(ReportItem("hint", "\u27f2 a re-score would settle this, but " + one_line(why, LINE_CAP), "muted"))
    if ev.observed:
        items.append(ReportItem("note", "\u25c9 the program's output above was observed in a re-score (the grader output shows none)"))
    if ev.unstated_unmet:
        items.append(ReportItem("note", "\u2717 not stated in the brief and not met: evidence towards specification, for you to weigh (not a label)"))
    elif ev.unstated:
        if all(d.met is True for d in ev.unstated):
            items.append(ReportItem("note", "\u25cb not stated in the brief, but the program meets it: not evidence towards specification"))
        else:
            items.append(ReportItem("note", "\u25cb not stated in the brief; whether the program meets it is not known (nothing shows its output): "
                                    "not counted either way; observing it in a re-score would tell"))
    for error in ev.errors:
        items.append(ReportItem("problem", "not read: " + one_line(error, 300), "bad"))
    shown = [d for d in ev.demands if not d.bound]
    stated = sum(1 for d in shown if d.stated is not Stated.UNSTATED)
    return EvidenceReport(ev.failure_id, summary(ev), tuple(items), stated, len(shown) - stated, len(ev.demands) - len(shown), ev.towards_specification)


def render_evidence(ev: Evidence, width: int = 100) -> str:
    """The evidence as plain text, title first (``reviewer show``)."""
    report = evidence_report(ev)
    return "\n".join([report.title, *report.lines()]) + "\n"


def json_text(text: str) -> str:
    """:func:`~reviewer.model.sanitize.plain` for JSON: escapes and controls made visible, tabs kept
    (JSON escapes them, and a demand for a tab must stay one)."""
    return plain(text, tab_size=0)


def demand_json(d: Demand, brief_missing: bool) -> dict[str, Any]:
    """One demand for ``show --json``."""
    return {
        "kind": d.kind.value, "value": json_text(d.value), "stated": None if brief_missing else d.stated is not Stated.UNSTATED,
        "stated_as": d.stated.value, "brief_line": d.brief_line, "met": d.met, "met_where": json_text(d.met_where),
        "origins": [json_text(o) for o in d.origins], "bound": d.bound, "note": json_text(d.note),
        "alternatives": [json_text(a) for a in d.alternatives], "evidence": d.evidence,
    }


def near_miss_json(nm: NearMiss) -> dict[str, Any]:
    """One near miss for ``show --json``."""
    return {
        "kind": nm.kind, "check": json_text(nm.check), "wanted_key": json_text(nm.wanted_key), "wanted": json_text(nm.wanted),
        "found_key": json_text(nm.found_key), "found": json_text(nm.found), "expected": json_text(nm.expected),
        "actual": json_text(nm.actual), "notations": [json_text(n) for n in nm.notations], "towards": nm.towards, "why": nm.why,
    }


def across_json(a: Across | None) -> dict[str, Any] | None:
    """The across-models summary for ``show --json`` (None when not computed)."""
    if a is None:
        return None
    return {
        "task": json_text(a.task), "grader": json_text(a.grader), "check": json_text(a.check), "keys": [json_text(k) for k in a.keys],
        "failing": a.failing, "total": a.total, "notations": [json_text(n) for n in a.notations], "hint": json_text(a.hint),
        "rows": [{"run": json_text(r.run), "model": json_text(r.model), "result": r.result, "looked_at": r.looked_at,
                  "notation": r.notation, "failure": json_text(r.failure_id), "current": r.current} for r in a.rows],
    }


def evidence_json(ev: Evidence, across: Across | None = None) -> dict[str, Any]:
    """The evidence exactly as the strip shows it, as JSON-ready data (with the same check
    across models when given)."""
    report = evidence_report(ev)
    crash = ev.crash
    return {
        "summary": report.title,
        "counts": {"stated": report.stated, "unstated": report.unstated, "bound": report.bound},
        "demands": [demand_json(d, ev.brief_missing) for d in ev.demands],
        "near_misses": [near_miss_json(nm) for nm in ev.near_misses],
        "crash": None if crash is None else {
            "error": json_text(crash.error), "limit": crash.limit, "lift": crash.lift, "rescorable": crash.rescorable,
            "partial": crash.partial, "hides": [json_text(k) for k in crash.hides],
        },
        "hints": [{"kind": h.kind, "text": json_text(h.text), "towards": h.towards} for h in ev.hints],
        "across": across_json(across),
        "saved_elsewhere": [json_text(s) for s in ev.saved_elsewhere],
        "towards_specification": ev.towards_specification,
        "causes": [json_text(c) for c in ev.causes],
        "observed": ev.observed,
        "proposed": [format_repair(r) for r in propose(ev)],
        "not_proposed": [{"repair": format_repair(j.repair), "stated": json_text(j.stated), "refused": json_text(j.refused)}
                         for j in judged(ev) if not j.notation_only],
        "decidable": decidable(ev) is not None,
        "rescore_blocked": json_text(blocked(ev)),
        "lines": [{"kind": i.kind, "text": i.text, "tone": i.tone, "towards": i.towards} for i in report.items],
        "errors": [json_text(e) for e in ev.errors],
    }
