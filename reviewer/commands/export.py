"""``reviewer export``: every label as TOML (default), JSON Lines or CSV, byte-stable."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from reviewer.model import Failure, Run
from reviewer.model.label import LABELS_FORMAT, Label, Verdict
from reviewer.model.records import record
from reviewer.store.fs.tomlfile import dumps
from reviewer.store.index.files import paused_gc
from reviewer.store.labels import FILE_CAP, Labeller, ReviewerLabels, read_all_labels
from reviewer.store.sessions.protocol import Store

FIELDS = (
    "session", "run", "task", "model", "check", "check_name", "verdict",
    "tags", "note", "reviewer", "adjudicator", "labelled_at", "evidence", "stale",
)


@record
class Record:
    """One exported label with the run facts beside it."""

    values: dict[str, Any]

    def sort_key(self) -> tuple[str, ...]:
        """Deterministic order: session, run, check, reviewer."""
        v = self.values
        return (v["session"], v["run"], v["check"], v["reviewer"])


FailuresByCheck = dict[str, dict[str, Failure]]


def run_failures(labeller: Labeller, run: Run, memo: FailuresByCheck) -> dict[str, Failure]:
    """A run's failures by check id, looked up once per run (from the index when unchanged)."""
    found = memo.get(run.key)
    if found is None:
        found = memo[run.key] = {f.check_id: f for f in labeller.sessions.failures(run)}
    return found


def record_for(labeller: Labeller, lab: Label, memo: FailuresByCheck | None = None) -> Record:
    """The export record of a label; a label whose failure is gone is stale."""
    run = labeller.sessions.run(f"{lab.session}/{lab.run}")
    task = model = ""
    name = lab.check.split(":", 1)[-1]
    stale = True
    if run is not None:
        task, model = run.task, run.model
        f = run_failures(labeller, run, {} if memo is None else memo).get(lab.check)
        if f is not None:
            name = f.check.name
            stale = bool(lab.evidence) and lab.evidence != labeller.evidence(run, f)
    return Record(
        {
            "session": lab.session, "run": lab.run, "task": task, "model": model, "check": lab.check,
            "check_name": name, "verdict": lab.verdict.value, "tags": sorted(lab.tags), "note": lab.note,
            "reviewer": lab.reviewer, "adjudicator": lab.adjudicator, "labelled_at": lab.labelled_at, "evidence": lab.evidence, "stale": stale,
        }
    )


def read_labels(store: Store, sessions: list[str]) -> list[ReviewerLabels]:
    """Every reviewer's labels, as ``read_all_labels`` reads them (unchanged files from the index,
    which then forgets the files that are gone)."""
    groups = read_all_labels(store.root, sessions, budget=FILE_CAP, index=store.index)
    if store.index is not None:
        store.index.label_files.retain({path for g in groups for path in g.files})
    return groups


def collect(labeller: Labeller, reviewer: str | None, include_deferred: bool) -> tuple[list[Record], list[str]]:
    """Records for every reviewer's labels (or one reviewer's), and unreadable-file errors."""
    sessions = sorted(labeller.sessions.corpus.sessions)
    records: list[Record] = []
    errors: list[str] = []
    memo: FailuresByCheck = {}
    with paused_gc():
        for f in read_labels(labeller.sessions, sessions):
            if reviewer is not None and f.reviewer != reviewer and f.stem:
                continue
            errors += f.problems  # what could be read is exported (the label in force of a duplicate), and said
            if not f.reviewer:
                continue
            for lab in f.labels:
                if lab.verdict is Verdict.DEFERRED and not include_deferred:
                    continue
                records.append(record_for(labeller, lab, memo))
        records.sort(key=Record.sort_key)
    labeller.sessions.save_index()
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
    with paused_gc():
        return render_toml(rows)


def render_toml(rows: list[dict[str, Any]]) -> str:
    """``{"format": 1, "label": rows}`` (fields in the schema's order), by the project's one TOML writer."""
    return dumps({"format": LABELS_FORMAT, "label": [{k: v[k] for k in FIELDS} for v in rows]})


def collect_final(labeller: Labeller) -> tuple[list[Record], list[str], int]:
    """Records of the final verdicts (``reviewer = "final"``), the problems of the labels files they
    come from, and how many failures were left out."""
    from reviewer.store.labels.final import final_verdicts
    from reviewer.store.labels.reading import read_adjudications_of

    root, sessions = labeller.sessions.root, sorted(labeller.sessions.corpus.sessions)
    finals = final_verdicts(root, sessions)
    errors = [text for g in [*read_all_labels(root, sessions), *read_adjudications_of(root, sessions)]
              for text in g.problems]
    memo: FailuresByCheck = {}
    records = sorted((record_for(labeller, lab, memo) for lab in finals.labels.values()), key=Record.sort_key)
    return records, errors, finals.left_out
