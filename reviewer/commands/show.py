"""``reviewer show``: what the panes show for one failure, as plain, sanitised text or JSON.

The Evidence section is the :class:`~reviewer.analysis.evidence.strip.EvidenceReport` the app's strip
draws, so the two never disagree. Computing it is bounded: it is stopped after
:data:`EVIDENCE_SECONDS` (the rest of the output is still printed, with a note). Other
reviewers' verdicts, and the judges' predictions, are shown only when blind mode is off (setting
``blind``, default true) or this reviewer has decided the failure.
"""

from __future__ import annotations

import time
from typing import Any

from reviewer.analysis.evidence.across import Across, across, with_across
from reviewer.analysis.evidence.engine import Evidence
from reviewer.analysis.evidence.strip import evidence_json, json_text, render_evidence
from reviewer.analysis.reading.scan import Cancel, Cancelled
from reviewer.model.check import check_id
from reviewer.model.sanitize import TAB_STOP, cap_text, plain, strip_sgr
from reviewer.review.reviewers import read_snapshot
from reviewer.review.selection import Target
from reviewer.review.session import ReviewSession
from reviewer.review.view import FailureView
from reviewer.store.labels import Labeller

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


def bounded_evidence(session: ReviewSession, failure_id: str, seconds: float = EVIDENCE_SECONDS,
                     across_too: bool = False) -> tuple[Evidence | None, Across | None, str]:
    """The evidence (as the app's strip has it) and, with ``across_too``, the same check across
    models; None and why it could not be had (stopped past the budget, a bug)."""
    try:
        if across_too:
            run, failure = session.labeller.find(failure_id)
            ev, found = with_across(session.store, run, failure, cancel=deadline(seconds))
            return ev, found, ""
        return session.evidence(failure_id, deadline(seconds)), None, ""
    except Cancelled:
        return None, None, f"(the evidence took longer than {seconds:.0f} s and was stopped)"
    except Exception as exc:  # noqa: BLE001 - an analysis bug must not cost the rest of the output
        return None, None, f"(the evidence could not be computed: {plain(type(exc).__name__)}: {plain(str(exc))[:300]})"


def open_view(labeller: Labeller, failure_id: str, blind: bool) -> tuple[ReviewSession, FailureView]:
    """The failure as the app's review session shows it: its view, with the other reviewers'
    labels read and blind mode applied (the headless commands and the app share this code)."""
    store = labeller.sessions
    run, failure = labeller.find(failure_id)
    session = ReviewSession(store, labeller, blind=blind)
    session.folder.set_runs(store.runs, store.errors)
    session.folder.take_counts({run.key: tuple(f.id for f in store.failures(run))})
    session.reviewers.take(read_snapshot(store.root, [run.session]))
    session.follow_at_once(Target(run.key, failure.id))  # the app's path for a move, in this thread
    assert session.shown is not None  # the run was found above
    return session, session.shown


def others_text(view: FailureView) -> str:
    """Other reviewers' verdicts as the reviewer may see them (hidden in blind mode)."""
    others = view.marks.others
    if others.hidden or others.final_hidden:
        return "others hidden (blind mode: decide this failure, or set blind = false, to see them)\n"
    shown = [lab for lab in others.shown if lab.reviewer != others.me]
    out = "".join(f"other {plain(lab.reviewer)}: {lab.verdict.value} at {lab.labelled_at}\n" for lab in shown)
    if others.final is not None:
        out += f"final {others.final.verdict.value}\n"
    return out


def judges_text(view: FailureView) -> str:
    """The judges' predictions as the reviewer may see them (hidden in blind mode until decided)."""
    judged = view.marks.judges
    if judged.hidden:
        return "judges hidden (blind mode: decide this failure, or set blind = false, to see their predictions)\n"
    out = []
    for p in judged.shown:
        said = "abstains" if p.verdict is None else p.verdict.value
        sure = f" ({round(p.confidence * 100)}% sure)" if p.confidence is not None else ""
        out.append(f"judge {plain(p.judge)}: {said}{sure} at {plain(p.predicted_at)}"
                   + (f": {cap_text(plain(p.rationale), 1, 300).text}" if p.rationale else "") + "\n")
    return "".join(out)


def show_failure(labeller: Labeller, failure_id: str, blind: bool = True, tab_size: int = TAB_STOP) -> str:
    """Render the brief, code, grader, evidence and transcript of a failure as plain text.

    ``tab_size``: the tab stops recorded texts are expanded to (as the app's panes show them, for
    a terminal); 0 keeps their tabs (for a pipe or a file).
    """
    store = labeller.sessions
    session, view = open_view(labeller, failure_id, blind)
    run, failure = view.run, view.failure
    assert run is not None and failure is not None
    out = [f"failure {plain(failure.id)}\nrun {plain(run.key)}  task {plain(run.task)}  model {plain(run.model)}  outcome {run.outcome}\n"]
    lab = view.marks.label
    if lab is not None:
        out.append(
            f"label {lab.verdict.value}{' (stale: evidence changed)' if view.marks.stale else ''} by {plain(lab.reviewer)}"
            f" at {lab.labelled_at}" + (f"  tags {', '.join(plain(t) for t in lab.tags)}" if lab.tags else "")
            + (f"\nnote {plain(lab.note)}" if lab.note else "") + "\n"
        )
    else:
        out.append("label none\n")
    out.append(others_text(view))
    out.append(judges_text(view))
    brief = view.brief
    out.append(section("Brief", "(no brief recorded)" if brief is None else brief.error or cap_text(plain(brief.text, tab_size)).text))
    attempt = view.code.attempt
    code = []
    for f in attempt.files if attempt else ():
        blob = store.text(f.ref)
        mark = "  ⚠ outside expected folder" if f.outside_expected else ""
        code.append(f"=== {plain(f.path)}{mark}\n{blob.error or cap_text(plain(blob.text, tab_size)).text}")
    out.append(section(f"Code  attempt {view.code.position}/{len(view.code.attempts)}", "\n".join(code) or "(no files)"))
    lines = []
    for gc in view.graders:
        for c in gc.checks:
            here = "  ◀" if gc.grader == failure.grader and c.key == failure.check.key else ""
            lines.append(f"{SYMBOL[c.status.value]} {plain(gc.grader)}:{plain(c.key)}{here}")
    lines.append("")
    lines.append(f"message:\n{cap_text(plain(failure.check.message, tab_size)).text}")
    grader, output = view.grader, view.output
    if grader is not None and output is not None:
        lines.append(f"\noutput ({plain(grader.command)}, exit {grader.exit_status}):")
        lines.append(output.error or cap_text(plain(strip_sgr(output.text), tab_size)).text)
    out.append(section(f"Grader  {plain(failure.grader)}", "\n".join(lines)))
    ev, _, problem = bounded_evidence(session, failure.id)
    out.append(section("Evidence", render_evidence(ev) if ev is not None else problem + "\n"))
    turns = []
    for t in view.turns:
        tag = f"{t.role}{' (nudge)' if t.nudge else ''}"
        att = f" [attempt {t.attempt}]" if t.attempt is not None else ""
        turns.append(f"{tag}{att}: {cap_text(plain(t.text, tab_size), 200, 2000).text}")
        for call in t.tool_calls:
            turns.append(f"    tool {plain(call.name)}({cap_text(plain(call.arguments), 20, 400).text})")
    out.append(section("Transcript", view.transcript_error or "\n".join(turns) or "(no transcript)"))
    return "\n".join(out)


def show_json(labeller: Labeller, failure_id: str, blind: bool = True) -> dict[str, Any]:
    """The failure, its brief path, its run's checks and the evidence as the strip shows it."""
    session, view = open_view(labeller, failure_id, blind)
    run, failure = view.run, view.failure
    assert run is not None and failure is not None
    checks = [
        {"id": json_text(check_id(gc.grader, c.key)), "status": c.status.value, "current": gc.grader == failure.grader and c.key == failure.check.key}
        for gc in view.graders for c in gc.checks
    ]
    ev, found, problem = bounded_evidence(session, failure.id, across_too=True)
    others = view.marks.others
    hidden = bool(others.hidden or others.final_hidden)
    return {
        "failure": json_text(failure.id), "run": json_text(run.key), "task": json_text(run.task), "model": json_text(run.model),
        "brief": json_text(run.brief_ref), "checks": checks,
        "label": None if view.marks.label is None else {"verdict": view.marks.label.verdict.value, "stale": view.marks.stale},
        "others_hidden": hidden,
        "others": [{"reviewer": json_text(o.reviewer), "verdict": o.verdict.value} for o in others.shown if o.reviewer != others.me],
        "judges_hidden": bool(view.marks.judges.hidden),
        "judges": [{"judge": json_text(p.judge), "verdict": p.verdict.value if p.verdict else None, "confidence": p.confidence,
                    "rationale": json_text(p.rationale), "predicted_at": json_text(p.predicted_at)}
                   for p in view.marks.judges.shown],
        "evidence": evidence_json(ev, found) if ev is not None else None,
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
