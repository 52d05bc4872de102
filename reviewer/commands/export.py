"""``reviewer export``: every label as TOML (default), JSON Lines or CSV, byte-stable."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

import tomli_w

from reviewer.model.label import LABELS_FORMAT, Label, Verdict
from reviewer.store.labeller import Labeller
from reviewer.store.labels import read_all_labels

FIELDS = (
    "session", "run", "task", "model", "check", "check_name", "verdict",
    "tags", "note", "reviewer", "labelled_at", "evidence", "stale",
)


@dataclass(frozen=True, slots=True)
class Record:
    """One exported label with the run facts beside it."""

    values: dict[str, Any]

    def sort_key(self) -> tuple[str, ...]:
        """Deterministic order: session, run, check, reviewer."""
        v = self.values
        return (v["session"], v["run"], v["check"], v["reviewer"])


def record_for(labeller: Labeller, lab: Label) -> Record:
    """The export record of a label; a label whose failure is gone is stale."""
    run = labeller.sessions.run(f"{lab.session}/{lab.run}")
    task = model = ""
    name = lab.check.split(":", 1)[-1]
    stale = True
    if run is not None:
        task, model = run.task, run.model
        for f in labeller.sessions.failures(run):
            if f.check_id == lab.check:
                name = f.check.name
                stale = bool(lab.evidence) and lab.evidence != labeller.evidence(run, f)
                break
    return Record(
        {
            "session": lab.session, "run": lab.run, "task": task, "model": model, "check": lab.check,
            "check_name": name, "verdict": lab.verdict.value, "tags": sorted(lab.tags), "note": lab.note,
            "reviewer": lab.reviewer, "labelled_at": lab.labelled_at, "evidence": lab.evidence, "stale": stale,
        }
    )


def collect(labeller: Labeller, reviewer: str | None, include_deferred: bool) -> tuple[list[Record], list[str]]:
    """Records for every reviewer's labels (or one reviewer's), and unreadable-file errors."""
    sessions = sorted(labeller.sessions.corpus.sessions)
    records, errors = [], []
    for f in read_all_labels(labeller.sessions.root, sessions):
        if f.error:
            errors.append(f"{f.path.name}: {f.error}")
            continue
        if reviewer is not None and f.reviewer != reviewer:
            continue
        for lab in f.labels:
            if lab.verdict is Verdict.DEFERRED and not include_deferred:
                continue
            records.append(record_for(labeller, lab))
    records.sort(key=Record.sort_key)
    return records, errors


def render(records: list[Record], fmt: str) -> str:
    """The records as one document in the chosen format."""
    rows = [r.values for r in records]
    if fmt == "jsonl":
        return "".join(json.dumps({k: v[k] for k in FIELDS}, ensure_ascii=True) + "\n" for v in rows)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(FIELDS)
        for v in rows:
            w.writerow([";".join(v[k]) if k == "tags" else str(v[k]).lower() if k == "stale" else v[k] for k in FIELDS])
        return buf.getvalue()
    return tomli_w.dumps({"format": LABELS_FORMAT, "label": [{k: v[k] for k in FIELDS} for v in rows]})


def collect_final(labeller: Labeller) -> tuple[list[Record], list[str], int]:
    """Records of the final verdicts (``reviewer = "final"``) and how many were left out."""
    from reviewer.store.final import final_verdicts

    finals = final_verdicts(labeller.sessions.root, sorted(labeller.sessions.corpus.sessions))
    records = sorted((record_for(labeller, lab) for lab in finals.labels.values()), key=Record.sort_key)
    return records, [], finals.left_out
