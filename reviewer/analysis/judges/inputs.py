"""The document a judge reads on its stdin: one failure, everything a reviewer sees of it.

Schema: :data:`reviewer.model.prediction.INPUT_SCHEMA` (protocol version
:data:`~reviewer.model.prediction.PROTOCOL_VERSION`). Recorded text is passed as it was recorded
(the judge must see what the checker saw), capped per field with ``truncated`` saying so, and
encoded as ASCII JSON (``ensure_ascii``): no raw control byte, escape sequence or invalid UTF-8
ever reaches the judge's pipe. The evidence is the strip's (``reviewer show --json``'s
``evidence``), computed within a budget; the re-scores are every saved re-score of the failure's
grading, latest first, and the latest observation of the program.
"""

from __future__ import annotations

import json
from typing import Any

from reviewer.analysis.evidence.across import Across
from reviewer.analysis.evidence.engine import Evidence
from reviewer.analysis.evidence.strip import evidence_json
from reviewer.model import Failure, Run
from reviewer.model.observation import Observation
from reviewer.model.prediction import PROTOCOL_VERSION
from reviewer.rescore.record import Entry
from reviewer.store.sessions.protocol import Store

TEXT_CAP = 64 << 10
"""Characters of one text field (the brief, a file, the grader output, a message) passed at most."""
FILES_CAP = 20
SOURCES_CAP = 5
TURNS_CAP = 200
TURN_CAP = 8 << 10
RESCORES_CAP = 20


def text_field(text: str, cap: int = TEXT_CAP, tail: bool = False) -> dict[str, Any]:
    """``{"text", "truncated"}``: the head of a long text (with ``tail``: its head and tail, where a
    grader's summary and last failure are)."""
    if len(text) <= cap:
        return {"text": text, "truncated": False}
    if tail:
        half = cap // 2
        cut = len(text) - 2 * half
        return {"text": f"{text[:half]}\n[... {cut:,} characters left out ...]\n{text[-half:]}", "truncated": True}
    return {"text": text[:cap], "truncated": True}


def blob_field(store: Store, ref: str, path: str, tail: bool = False) -> dict[str, Any]:
    """A recorded file as a text field, or its read error."""
    blob = store.text(ref)
    if blob.error:
        return {"path": path, "text": "", "truncated": False, "error": blob.error}
    return {"path": path, **text_field(blob.text, tail=tail)}


def code_field(store: Store, run: Run, attempt_number: int | None) -> dict[str, Any]:
    """The graded attempt's files."""
    attempt = run.attempt(attempt_number) if attempt_number is not None else (run.attempts[-1] if run.attempts else None)
    files = attempt.files if attempt is not None else ()
    shown = []
    for f in files[:FILES_CAP]:
        shown.append({**blob_field(store, f.ref, f.path), "outside_expected": f.outside_expected})
    return {"attempt": attempt.number if attempt is not None else None, "attempts": len(run.attempts),
            "files": shown, "files_left_out": max(0, len(files) - FILES_CAP)}


def grader_field(store: Store, run: Run, failure: Failure) -> dict[str, Any]:
    """The grader that failed the check: its command, output, other checks and source."""
    grader = run.grader(failure.grader)
    checks = [{"check": f"{gc.grader}:{c.key}", "status": c.status.value}
              for gc in store.grader_checks(run) if gc.grader == failure.grader for c in gc.checks]
    if grader is None:
        return {"name": failure.grader, "command": "", "cwd": "", "exit_status": None,
                "output": {"text": "", "truncated": False, "error": "no such grader recorded"}, "checks": checks, "source": []}
    output = blob_field(store, grader.output_ref, grader.output_ref, tail=True) if grader.output_ref else \
        {"text": "", "truncated": False, "error": "no output recorded"}
    sources = [blob_field(store, ref, ref) for ref in grader.source_refs[:SOURCES_CAP]]
    return {"name": grader.name, "command": grader.command, "cwd": grader.cwd, "exit_status": grader.exit_status,
            "output": output, "checks": checks, "source": sources}


def transcript_field(store: Store, run: Run) -> dict[str, Any]:
    """The retry transcript, turn by turn."""
    transcript = store.transcript(run)
    turns = []
    for t in transcript.turns[:TURNS_CAP]:
        calls = [{"name": c.name, "arguments": text_field(c.arguments, TURN_CAP)["text"],
                  "output": text_field(c.output, TURN_CAP, tail=True)["text"]} for c in t.tool_calls[:20]]
        turns.append({"role": t.role, **text_field(t.text, TURN_CAP), "attempt": t.attempt, "nudge": t.nudge,
                      "tool_calls": calls})
    return {"turns": turns, "turns_left_out": max(0, len(transcript.turns) - TURNS_CAP), "error": transcript.error}


def rescore_rows(entries: list[Entry], failure_id: str) -> list[dict[str, Any]]:
    """Every saved re-score of this failure, latest first: its repairs and what the check did."""
    rows = []
    for e in sorted((e for e in entries if failure_id in e.failures), key=lambda e: e.at, reverse=True)[:RESCORES_CAP]:
        row = e.check(failure_id)
        recorded, before, after = (row[1], row[2], row[3]) if row else ("", "", "")
        rows.append({"repairs": list(e.repairs), "at": e.at, "reproduced": e.reproduced,
                     "flipped": failure_id in e.flipped, "recorded": recorded, "before": before, "after": after,
                     "summary": e.summary, "stated": e.stated})
    return rows


def observation_field(observation: Observation | None, check_key: str) -> dict[str, Any] | None:
    """What a re-score saw of the program, for this check's runs."""
    if observation is None:
        return None
    runs = [{"argv": list(i.argv), "stdin": i.stdin, "stdout": i.stdout, "stderr": i.stderr,
             "exit_status": i.exit_status} for i in observation.for_check(check_key)[:20]]
    return {"program": observation.program, "at": observation.at, "summary": observation.summary(), "runs": runs}


def judge_input(store: Store, run: Run, failure: Failure, evidence: Evidence | None, across: Across | None = None,
                evidence_error: str = "", rescores: list[Entry] | None = None,
                observation: Observation | None = None) -> dict[str, Any]:
    """The input document of one failure (see the module)."""
    grader = run.grader(failure.grader)
    brief = blob_field(store, run.brief_ref, run.brief_ref) if run.brief_ref else \
        {"path": "", "text": "", "truncated": False, "error": "no brief recorded"}
    message = text_field(failure.check.message, tail=True)
    return {
        "protocol": "reviewer-judge",
        "version": PROTOCOL_VERSION,
        "failure": {"id": failure.id, "session": run.session, "run": run.id, "task": run.task, "model": run.model,
                    "check": failure.check_id, "check_name": failure.check.name, "status": failure.check.status.value,
                    "message": message["text"], "message_truncated": message["truncated"]},
        "brief": brief,
        "code": code_field(store, run, grader.attempt if grader is not None else None),
        "grader": grader_field(store, run, failure),
        "transcript": transcript_field(store, run),
        "evidence": evidence_json(evidence, across) if evidence is not None else None,
        "evidence_error": evidence_error,
        "rescores": rescore_rows(rescores or [], failure.id),
        "observation": observation_field(observation, failure.check.key),
    }


def document_bytes(doc: dict[str, Any]) -> bytes:
    """The document as the judge reads it: one line of ASCII JSON and a newline."""
    return json.dumps(doc, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"
