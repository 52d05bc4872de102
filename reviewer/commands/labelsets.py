"""Labels as other tools read them: an Inspect Scout validation set and a Docent label set.

Both tools score an automatic judge of a whole transcript (Scout's scanners, Docent's rubric
judges) against one human label per transcript; reviewer labels each failing check of a run.
A run's labels therefore become one case, whose verdict is ``specification`` when at least one
of the run's labelled checks was labelled specification (the checker demanded what the brief
never stated) and ``capability`` otherwise. Docent's label keeps every check's own verdict,
tags and note beside it; Scout's file has no room for them.

Ids (what a user must do is in the README, "Labels for Inspect Scout and Docent"):

- Scout matches a validation case to a transcript by the transcript id, which for an Inspect
  log is the sample's ``uuid``, or for a sample saved without one an id Inspect derives from the
  log's eval id, the sample id and the epoch. ``reviewer import inspect`` keeps all three as the
  run's metadata (``sample_uuid``, ``inspect_eval_id``, ``inspect_sample_id``, ``epoch``); a
  harness that writes the sessions layout itself can record the id as ``scout_transcript_id``.
  A run with none of these (a log so old it has no eval id, a run imported before the eval id
  was kept) is left out and counted on stderr, as is an id Scout's CSV reader would not read
  back as the same string (a comma splits it into a list, pandas turns ``NA`` or ``1e5`` into
  something else).
- Docent gives every agent run a random id when it is ingested, so no file written before can
  know it: a run's label carries ``agent_run_id`` only when the run's metadata records it
  (``docent_agent_run_id``), else null, and always ``match``: the metadata Docent's Inspect
  loader puts on the agent run (``sample_id``, ``epoch``), by which the id is found after
  ingestion.

Hostile text stays data: the Docent file is JSON with every non-ASCII and control character
escaped; Scout's CSV carries no label text at all, and its one free-text column
(``task_id``, informational: Scout never matches on it) is written on one line, control
characters made visible, a leading ``=``, ``+``, ``-``, ``@`` (a spreadsheet formula) behind an
apostrophe.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from typing import Any

from reviewer.commands.export import Record
from reviewer.model.records import record
from reviewer.model.sanitize import plain_line
from reviewer.model.wording import count
from reviewer.store.labels import Labeller

SCOUT_FIELDS = ("id", "target", "task_id", "task_repeat")
SCOUT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,254}$")
PANDAS_MISSING = frozenset({"NA", "NULL", "NaN", "None", "nan", "null", "N/A", "n/a", "-NaN", "-nan", "<NA>"})
"""Strings pandas' CSV reader turns into a missing value (those :data:`SCOUT_ID` lets through)."""
SHORTUUID = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
DOCENT_NAME = "reviewer verdicts"
DOCENT_DESCRIPTION = (
    "Human verdicts on failing runs of code-generating models, from reviewer. label: specification when at "
    "least one labelled failing check of the run was a specification defect (the checker demanded what the "
    "brief never stated), capability when every one was the model's own failure. checks: each check's verdict."
)
VERDICTS = ["specification", "capability"]
DOCENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "label": {
            "type": "string",
            "enum": VERDICTS,
            "description": "specification: at least one failing check demanded what the brief never stated",
        },
        "explanation": {"type": "string", "description": "the reviewers' notes, one per labelled check"},
        "checks": {
            "type": "array",
            "description": "every labelled failing check of the run",
            "items": {
                "type": "object",
                "properties": {
                    "check": {"type": "string", "description": "the check id GRADER:KEY within the run"},
                    "name": {"type": "string"},
                    "verdict": {"type": "string", "enum": VERDICTS},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "note": {"type": "string"},
                },
                "required": ["check", "verdict"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["label", "explanation", "checks"],
    "additionalProperties": False,
}
"""The label set's JSON schema, inside the subset of JSON Schema 2020-12 Docent accepts for
label sets and judge outputs (its ``meta_schema.json``); ``label`` and ``explanation`` are the
names of Docent's default judge output, so a judge's answers compare with these labels."""


@record
class RunCase:
    """One run's labels, as one case of a validation or label set.

    Attributes:
        key: ``<session>/<run>``.
        task, model: from the run's manifest.
        metadata: the run's metadata ({} when the run is gone).
        checks: the run's labelled checks (export records), in check order.
    """

    key: str
    task: str
    model: str
    metadata: dict[str, Any]
    checks: tuple[dict[str, Any], ...]

    @property
    def verdict(self) -> str:
        """``specification`` when any labelled check is, else ``capability``."""
        return "specification" if any(c["verdict"] == "specification" for c in self.checks) else "capability"


def run_cases(labeller: Labeller, records: list[Record]) -> list[RunCase]:
    """The records grouped by run (in their order: session, run), deferred ones left out."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        if r.values["verdict"] in VERDICTS:
            grouped.setdefault(f"{r.values['session']}/{r.values['run']}", []).append(r.values)
    cases = []
    for key, checks in grouped.items():
        run = labeller.sessions.run(key)
        metadata = dict(run.metadata) if run is not None else {}
        cases.append(RunCase(key, checks[0]["task"], checks[0]["model"], metadata, tuple(checks)))
    return cases


def text_of(value: Any) -> str:
    """A metadata value as text ("" for none; a bool is not an id)."""
    if value is None or isinstance(value, bool):
        return ""
    return value if isinstance(value, str) else str(value) if isinstance(value, int) else ""


def inspect_auto_id(eval_id: str, sample_id: str, epoch: int) -> str:
    """The id Inspect's sample table (and so Scout) gives a sample saved without a ``uuid``: the md5
    of ``<eval_id>_<sample id>_<epoch>`` as a UUID, in shortuuid's 22 characters."""
    number = int.from_bytes(hashlib.md5(f"{eval_id}_{sample_id}_{epoch}".encode()).digest(), "big")
    digits = []
    while number:
        number, digit = divmod(number, len(SHORTUUID))
        digits.append(SHORTUUID[digit])
    return "".join(reversed(digits)).rjust(22, SHORTUUID[0])


def scout_id(case: RunCase) -> str:
    """The Scout transcript id of a run: recorded by its harness, else its Inspect sample's uuid, else
    the id Inspect derives for a sample without one (from the log's eval id, the sample id and epoch); ""."""
    meta = case.metadata
    found = text_of(meta.get("scout_transcript_id")) or text_of(meta.get("sample_uuid"))
    eval_id, sample, epoch = text_of(meta.get("inspect_eval_id")), text_of(meta.get("inspect_sample_id")), meta.get("epoch")
    if found or not eval_id or not sample or not isinstance(epoch, int) or isinstance(epoch, bool):
        return found
    return inspect_auto_id(eval_id, sample, epoch)


def scout_id_problem(transcript_id: str) -> str:
    """Why Scout would not read ``transcript_id`` back as this one id, or ""."""
    if not transcript_id:
        return "no transcript id"
    if not SCOUT_ID.match(transcript_id):
        return "a transcript id of other characters than letters, digits, '.', '_', ':', '-'"
    if transcript_id in PANDAS_MISSING:
        return "a transcript id pandas reads as a missing value"
    try:
        float(transcript_id)
    except ValueError:
        return ""
    return "a transcript id pandas reads as a number"


def spreadsheet_safe(text: str) -> str:
    """``text`` on one line with control characters visible, a formula's first character behind an apostrophe."""
    line = plain_line(text)
    return f"'{line}" if line.startswith(FORMULA_START) else line


def render_scout(cases: list[RunCase]) -> tuple[str, dict[str, int]]:
    """Scout's validation set CSV (``id,target,task_id,task_repeat``) and, by reason, the runs left out.

    ``target`` is ``true`` for a specification defect; ``task_id`` and ``task_repeat`` are the
    Inspect sample id and epoch (Scout's informational columns), else the run's task and nothing.
    """
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(SCOUT_FIELDS)
    left_out: dict[str, int] = {}
    seen: set[str] = set()
    for case in cases:
        transcript_id = scout_id(case)
        problem = scout_id_problem(transcript_id) or ("a transcript id another run has too" if transcript_id in seen else "")
        if problem:
            left_out[problem] = left_out.get(problem, 0) + 1
            continue
        seen.add(transcript_id)
        sample = text_of(case.metadata.get("inspect_sample_id")) or case.task
        epoch = case.metadata.get("epoch")
        repeat = str(epoch) if isinstance(epoch, int) and not isinstance(epoch, bool) else ""
        out.writerow([transcript_id, "true" if case.verdict == "specification" else "false", spreadsheet_safe(sample), repeat])
    return buf.getvalue(), left_out


def docent_label(case: RunCase) -> dict[str, Any]:
    """One label of the Docent label set: the agent run's id when known, how to find it, the value."""
    checks = []
    for c in case.checks:
        entry: dict[str, Any] = {"check": c["check"], "name": c["check_name"], "verdict": c["verdict"], "tags": list(c["tags"])}
        if c["note"]:
            entry["note"] = c["note"]
        checks.append(entry)
    notes = "\n".join(f"{c['check']}: {c['note']}" for c in case.checks if c["note"])
    match: dict[str, Any] = {"sample_id": text_of(case.metadata.get("inspect_sample_id")) or case.task}
    epoch = case.metadata.get("epoch")
    if isinstance(epoch, int) and not isinstance(epoch, bool):
        match["epoch"] = epoch
    match["model"] = case.model
    return {
        "agent_run_id": text_of(case.metadata.get("docent_agent_run_id")) or None,
        "match": match,
        "reviewer_run": case.key,
        "label_value": {"label": case.verdict, "explanation": notes, "checks": checks},
    }


def render_docent(cases: list[RunCase]) -> str:
    """The Docent label set as one JSON document: ``label_set`` (the arguments of Docent's
    ``create_label_set``) and ``labels`` (one per run, in run order)."""
    doc = {
        "label_set": {"name": DOCENT_NAME, "description": DOCENT_DESCRIPTION, "label_schema": DOCENT_SCHEMA},
        "labels": [docent_label(case) for case in cases],
    }
    return json.dumps(doc, ensure_ascii=True, indent=1) + "\n"


def render_tool(labeller: Labeller, records: list[Record], fmt: str) -> tuple[str, list[str]]:
    """The ``scout`` or ``docent`` document of ``records``, and lines for stderr on what was left out or is unmatched."""
    cases = run_cases(labeller, records)
    if fmt == "scout":
        text, left_out = render_scout(cases)
        notes = [f"{count(n, 'run')} left out of the Scout validation set: {why} (README: Labels for Inspect Scout and Docent)"
                 for why, n in sorted(left_out.items())]
        return text, notes
    unmatched = sum(1 for case in cases if not text_of(case.metadata.get("docent_agent_run_id")))
    notes = [f"{count(unmatched, 'label')} of {len(cases):,} without a Docent agent_run_id: Docent assigns the ids when "
             "the runs are ingested; find each by its `match` (README: Labels for Inspect Scout and Docent)"] if unmatched else []
    return render_docent(cases), notes
