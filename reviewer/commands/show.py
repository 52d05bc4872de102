"""``reviewer show``: what the panes show for one failure, as plain, sanitised text or JSON.

The Evidence section is the :class:`~reviewer.analysis.report.EvidenceReport` the app's strip
draws, so the two never disagree. Computing it is bounded: it is stopped after
:data:`EVIDENCE_SECONDS` (the rest of the output is still printed, with a note). Other
reviewers' verdicts are shown only when blind mode is off (setting ``blind``, default true)
or this reviewer has decided the failure.
"""

from __future__ import annotations

import time
from typing import Any

from reviewer.analysis.across import Across, across
from reviewer.analysis.evidence import Evidence, evidence_for
from reviewer.analysis.report import evidence_json, render_evidence
from reviewer.analysis.scan import Cancel, Cancelled
from reviewer.model import Failure, Run
from reviewer.model.check import check_id
from reviewer.model.sanitize import cap_text, plain, strip_sgr
from reviewer.store.agreement import read_label_set, visible_others
from reviewer.store.labeller import Labeller
from reviewer.store.sessions import SessionStore

SYMBOL = {"pass": "✓", "fail": "✗", "error": "!", "skip": "–"}
EVIDENCE_SECONDS = 20.0
"""How long ``show`` lets the evidence take before it stops it and says so."""


def deadline(seconds: float) -> Cancel:
    """A cancel check that says stop once ``seconds`` have passed."""
    end = time.monotonic() + seconds
    return lambda: time.monotonic() > end


def section(title: str, body: str) -> str:
    """A titled block."""
    return f"── {title} " + "─" * max(0, 60 - len(title)) + "\n" + body.rstrip("\n") + "\n"


def graded_attempt(run: Run, failure: Failure) -> int:
    """The attempt number the failing grader graded."""
    g = run.grader(failure.grader)
    return g.attempt if g else (run.attempts[-1].number if run.attempts else 0)


def bounded_evidence(store: SessionStore, run: Run, failure: Failure, seconds: float = EVIDENCE_SECONDS,
                     with_across: bool = False) -> tuple[Evidence | None, str]:
    """The evidence, or None and why it could not be had (stopped past the budget, a bug)."""
    try:
        return evidence_for(store, run, failure, cancel=deadline(seconds), with_across=with_across), ""
    except Cancelled:
        return None, f"(the evidence took longer than {seconds:.0f} s and was stopped)"
    except Exception as exc:  # noqa: BLE001 - an analysis bug must not cost the rest of the output
        return None, f"(the evidence could not be computed: {plain(type(exc).__name__)}: {plain(str(exc))[:300]})"


def evidence_text(store: SessionStore, run: Run, failure: Failure) -> str:
    """The checker-versus-brief evidence as plain text (a hint for the reviewer, never a label)."""
    ev, problem = bounded_evidence(store, run, failure)
    return render_evidence(ev) if ev is not None else problem + "\n"


def others_text(labeller: Labeller, run: Run, failure: Failure, blind: bool) -> str:
    """Other reviewers' verdicts as the reviewer may see them (hidden in blind mode)."""
    labels = read_label_set(labeller.sessions.root, [run.session])
    labs = labels.by_failure.get((run.session, run.id, failure.check_id), ())
    me = labeller.labels.reviewer
    if not any(lab.reviewer != me for lab in labs):
        return ""
    shown = visible_others(labs, me, blind=blind)
    if shown is None:
        return "others hidden (blind mode: decide this failure, or set blind = false, to see them)\n"
    return "".join(f"other {plain(lab.reviewer)}: {lab.verdict.value} at {lab.labelled_at}\n" for lab in shown)


def show_failure(labeller: Labeller, failure_id: str, blind: bool = True) -> str:
    """Render the brief, code, grader, evidence and transcript of a failure as plain text."""
    store = labeller.sessions
    run, failure = labeller.find(failure_id)
    out = [f"failure {plain(failure.id)}\nrun {plain(run.key)}  task {plain(run.task)}  model {plain(run.model)}  outcome {run.outcome}\n"]
    state = labeller.state(run, failure)
    if state.label:
        lab = state.label
        out.append(
            f"label {lab.verdict.value}{' (stale: evidence changed)' if state.stale else ''} by {plain(lab.reviewer)}"
            f" at {lab.labelled_at}" + (f"  tags {', '.join(plain(t) for t in lab.tags)}" if lab.tags else "")
            + (f"\nnote {plain(lab.note)}" if lab.note else "") + "\n"
        )
    else:
        out.append("label none\n")
    out.append(others_text(labeller, run, failure, blind))
    brief = store.brief(run)
    out.append(section("Brief", brief.error or cap_text(plain(brief.text)).text))
    number = graded_attempt(run, failure)
    attempt = run.attempt(number)
    code = []
    for f in attempt.files if attempt else ():
        blob = store.text(f.ref)
        mark = "  ⚠ outside expected folder" if f.outside_expected else ""
        code.append(f"=== {plain(f.path)}{mark}\n{blob.error or cap_text(plain(blob.text)).text}")
    out.append(section(f"Code  attempt {number}/{len(run.attempts)}", "\n".join(code) or "(no files)"))
    grader = run.grader(failure.grader)
    lines = []
    for gc in store.grader_checks(run):
        for c in gc.checks:
            here = "  ◀" if gc.grader == failure.grader and c.key == failure.check.key else ""
            lines.append(f"{SYMBOL[c.status.value]} {plain(gc.grader)}:{plain(c.key)}{here}")
    lines.append("")
    lines.append(f"message:\n{cap_text(plain(failure.check.message)).text}")
    if grader is not None and grader.output_ref:
        blob = store.text(grader.output_ref)
        lines.append(f"\noutput ({plain(grader.command)}, exit {grader.exit_status}):")
        lines.append(blob.error or cap_text(plain(strip_sgr(blob.text))).text)
    out.append(section(f"Grader  {plain(failure.grader)}", "\n".join(lines)))
    out.append(section("Evidence", evidence_text(store, run, failure)))
    transcript = store.transcript(run)
    turns = []
    for t in transcript.turns:
        tag = f"{t.role}{' (nudge)' if t.nudge else ''}"
        att = f" [attempt {t.attempt}]" if t.attempt is not None else ""
        turns.append(f"{tag}{att}: {cap_text(plain(t.text), 200, 2000).text}")
        for call in t.tool_calls:
            turns.append(f"    tool {plain(call.name)}({cap_text(plain(call.arguments), 20, 400).text})")
    out.append(section("Transcript", transcript.error or "\n".join(turns) or "(no transcript)"))
    return "\n".join(out)


def show_json(labeller: Labeller, failure_id: str, blind: bool = True) -> dict[str, Any]:
    """The failure, its brief path, its run's checks and the evidence as the strip shows it."""
    store = labeller.sessions
    run, failure = labeller.find(failure_id)
    checks = [
        {"id": plain(check_id(gc.grader, c.key)), "status": c.status.value, "current": gc.grader == failure.grader and c.key == failure.check.key}
        for gc in store.grader_checks(run) for c in gc.checks
    ]
    ev, problem = bounded_evidence(store, run, failure, with_across=True)
    state = labeller.state(run, failure)
    labels = read_label_set(store.root, [run.session]).by_failure.get((run.session, run.id, failure.check_id), ())
    me = labeller.labels.reviewer
    others = visible_others(labels, me, blind=blind) if any(lab.reviewer != me for lab in labels) else ()
    return {
        "failure": plain(failure.id), "run": plain(run.key), "task": plain(run.task), "model": plain(run.model),
        "brief": plain(run.brief_ref), "checks": checks,
        "label": None if state.label is None else {"verdict": state.label.verdict.value, "stale": state.stale},
        "others_hidden": others is None,
        "others": [] if others is None else [{"reviewer": plain(o.reviewer), "verdict": o.verdict.value} for o in others],
        "evidence": evidence_json(ev) if ev is not None else None,
        "evidence_error": problem,
    }


def render_across(a: Across) -> str:
    """The across-models table as plain text, the hint last."""
    rows = [("", "model", "result", "looked at / nearest notation")]
    for r in a.rows:
        rows.append(("▶" if r.current else "", plain(r.model), r.result, r.looked_at or "-"))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = [f"check {plain(a.grader)}:{plain(a.check)} of task {plain(a.task)}"
             + (f" (reads {', '.join(plain(k) for k in a.keys)})" if a.keys else "")]
    for row in rows:
        lines.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:3])) + "  " + row[3])
    lines.append(f"hint: {a.hint}" if a.hint else f"{a.failing} of {a.total} fail this check")
    return "\n".join(lines) + "\n"


def show_across(labeller: Labeller, failure_id: str) -> str:
    """``reviewer show --across``: the same check across models."""
    run, failure = labeller.find(failure_id)
    try:
        return render_across(across(labeller.sessions, run, failure, cancel=deadline(EVIDENCE_SECONDS)))
    except Cancelled:
        return f"(the comparison took longer than {EVIDENCE_SECONDS:.0f} s and was stopped)\n"
