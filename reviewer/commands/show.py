"""``reviewer show``: what the panes show for one failure, as plain, sanitised text."""

from __future__ import annotations

from reviewer.analysis.evidence import evidence_for, render_evidence
from reviewer.model import Failure, Run
from reviewer.model.sanitize import cap_text, plain, strip_sgr
from reviewer.store.labeller import Labeller
from reviewer.store.sessions import SessionStore

SYMBOL = {"pass": "✓", "fail": "✗", "error": "!", "skip": "–"}


def section(title: str, body: str) -> str:
    """A titled block."""
    return f"── {title} " + "─" * max(0, 60 - len(title)) + "\n" + body.rstrip("\n") + "\n"


def graded_attempt(run: Run, failure: Failure) -> int:
    """The attempt number the failing grader graded."""
    g = run.grader(failure.grader)
    return g.attempt if g else (run.attempts[-1].number if run.attempts else 0)


def evidence_text(store: SessionStore, run: Run, failure: Failure) -> str:
    """The checker-versus-brief evidence as plain text (a hint for the reviewer, never a label)."""
    try:
        return render_evidence(evidence_for(store, run, failure))
    except Exception as exc:  # noqa: BLE001 - an analysis bug must not cost the rest of the output
        return f"(the evidence could not be computed: {plain(type(exc).__name__)}: {plain(str(exc))[:300]})"


def show_failure(labeller: Labeller, failure_id: str) -> str:
    """Render the brief, code, grader and transcript of a failure as plain text."""
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
