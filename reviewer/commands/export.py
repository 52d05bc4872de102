"""``reviewer export``: every label as TOML (default), JSON Lines or CSV, byte-stable."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import tomli_w

from reviewer.model import Failure, Run
from reviewer.model.label import LABELS_FORMAT, Label, Verdict
from reviewer.model.records import record
from reviewer.store.index_files import file_key, paused_gc
from reviewer.store.labelfile import LABEL_FILE_CAP
from reviewer.store.labeljournal import journal_path
from reviewer.store.labeller import Labeller
from reviewer.store.labelread import describe, read_labels_file
from reviewer.store.labels import OtherFile, label_dirs
from reviewer.store.protocol import Store
from reviewer.store.tomlfile import BadToml

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


def read_labels(store: Store, sessions: list[str]) -> list[OtherFile]:
    """Every reviewer's labels file, as ``read_all_labels`` reads them, unchanged files from the index."""
    index = store.index
    out, seen = [], set()
    for session, folder in label_dirs(store.root, sessions):
        for path in sorted(folder.glob("*.toml")):
            if path.name.startswith((".", "_")) or not path.is_file() or path.is_symlink():
                continue
            key = file_key("", str(path))
            seen.add(str(path))
            journal = journal_path(path).exists()  # a journal beside it: read both, not the cached TOML alone
            cached = index.label_files.get(path, key, session) if index is not None and key and not journal else None
            if cached is not None:
                out.append(OtherFile(path, cached[0], cached[1]))
                continue
            try:
                parsed = read_labels_file(path, session, path.stem, budget=LABEL_FILE_CAP)
            except (BadToml, ValueError, OSError) as exc:
                out.append(OtherFile(path, path.stem, (), describe(exc)))
                continue
            labels = tuple(parsed.labels.values())
            out.append(OtherFile(path, parsed.reviewer, labels))
            if index is not None and key and not journal and not parsed.notes:  # note entries are not cached
                index.label_files.remember(path, key, parsed.reviewer, labels)
    if index is not None:
        index.label_files.retain(seen)
    return out


def collect(labeller: Labeller, reviewer: str | None, include_deferred: bool) -> tuple[list[Record], list[str]]:
    """Records for every reviewer's labels (or one reviewer's), and unreadable-file errors."""
    sessions = sorted(labeller.sessions.corpus.sessions)
    records, errors = [], []
    memo: FailuresByCheck = {}
    with paused_gc():
        for f in read_labels(labeller.sessions, sessions):
            if f.error:
                errors.append(f"{f.path.name}: {f.error}")
                continue
            if reviewer is not None and f.reviewer != reviewer:
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


TOML_ESCAPE = re.compile(r'[\x00-\x08\x0a-\x1f\x7f"\\]')
TOML_ESCAPES = {"\b": "\\b", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def toml_string(value: str) -> str:
    """A TOML basic string, byte for byte as tomli-w writes it."""
    if TOML_ESCAPE.search(value) is None:
        return f'"{value}"'
    return '"' + TOML_ESCAPE.sub(lambda m: TOML_ESCAPES.get(m.group(), f"\\u{ord(m.group()):04x}"), value) + '"'


def toml_value(value: Any) -> str:
    """A label field as tomli-w writes it: string, boolean or list of strings."""
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "[\n" + "".join(f"    {toml_string(v)},\n" for v in value) + "]" if value else "[]"
    raise TypeError(f"unexpected {type(value).__name__} in an export record")


def render_toml(rows: list[dict[str, Any]]) -> str:
    """``{"format": 1, "label": rows}`` exactly as tomli-w writes it, without its per-character loop."""
    if not rows:
        return tomli_w.dumps({"format": LABELS_FORMAT, "label": []})
    q = toml_string
    out = [f"format = {LABELS_FORMAT}\n"]
    for v in rows:
        tags = v["tags"]
        out.append(
            f'\n[[label]]\nsession = {q(v["session"])}\nrun = {q(v["run"])}\ntask = {q(v["task"])}\n'
            f'model = {q(v["model"])}\ncheck = {q(v["check"])}\ncheck_name = {q(v["check_name"])}\n'
            f'verdict = {q(v["verdict"])}\ntags = {toml_value(tags) if tags else "[]"}\nnote = {q(v["note"])}\n'
            f'reviewer = {q(v["reviewer"])}\nadjudicator = {q(v["adjudicator"])}\nlabelled_at = {q(v["labelled_at"])}\n'
            f'evidence = {q(v["evidence"])}\nstale = {"true" if v["stale"] else "false"}\n'
        )
    return "".join(out)


def collect_final(labeller: Labeller) -> tuple[list[Record], list[str], int]:
    """Records of the final verdicts (``reviewer = "final"``) and how many were left out."""
    from reviewer.store.final import final_verdicts

    finals = final_verdicts(labeller.sessions.root, sorted(labeller.sessions.corpus.sessions))
    memo: FailuresByCheck = {}
    records = sorted((record_for(labeller, lab, memo) for lab in finals.labels.values()), key=Record.sort_key)
    return records, [], finals.left_out
