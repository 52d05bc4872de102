"""A labels file's bytes and back: format 2 (one file per run and reviewer) written, formats 1 and 2 read.

A format-2 file holds one reviewer's labels on the failures of one run::

    format = 2
    reviewer = "alice"
    run = "roman-go--delta-pro"
    session = "pounce-2026-11"

    [[label]]            # one table per label (the fields of format 1, ``run`` included)
    ...
    [[note]]             # one table per note-only entry
    ...

Format 1 (``<session>/labels/<reviewer>.toml``, every run of the session in one file) has the
same tables and no ``run`` at the top. Both are parsed by ``tomli``; a table that is not a label
or a note entry is reported (with its number and what is wrong) and left out, the others are
read: a damaged entry never hides the rest of the file, and the file is never written over while
it is damaged. Two tables for one failure are both kept (the newer by ``labelled_at`` is the one
in force, see :mod:`reviewer.store.labels.reading`). Files are written by the project's one TOML
writer (:func:`reviewer.store.fs.tomlfile.dumps`): keys sorted, tables sorted by check, so the same
labels always give the same bytes.
"""

from __future__ import annotations

from typing import Any, Iterable

from reviewer.model.label import Label, Note, Verdict
from reviewer.model.records import record
from reviewer.store.fs.tomlfile import BadToml, dumps, parse_toml_bytes

FORMAT = 2
"""The labels format this program writes (one file per run and reviewer)."""
OLD_FORMAT = 1
"""One file per reviewer and session, with a journal beside a big one (read, moved on the next decision)."""

Key = tuple[str, str]
"""(run, check): a failure within a session."""
Entry = Label | Note | None | tuple[Label, ...]
"""A change to one failure: a label (replaces every label entry there and the note entry), None
(no label), a note entry (an empty one removes it), or exactly these label entries (undoing a
change to a failure that had several)."""


class Unreadable(ValueError):
    """The whole file cannot be used (not TOML, no format, a table where an array belongs...)."""


VERDICTS = {v.value: v for v in Verdict}


def label_from_table(t: Any, session: str, reviewer: str) -> Label:
    """A Label from one ``[[label]]`` table; ValueError when it is not one."""
    if type(t) is not dict:
        raise ValueError("is not a table")
    run, check = t.get("run"), t.get("check")
    if type(run) is not str or type(check) is not str or not run or not check:
        raise ValueError("lacks `run` or `check`")
    verdict = VERDICTS.get(t.get("verdict"))  # type: ignore[arg-type]
    if verdict is None:
        raise ValueError(f"has no verdict this program knows ({str(t.get('verdict'))[:40]!r})")
    tags = t.get("tags", ())
    if type(tags) is not list and tags != () or not all(type(x) is str for x in tags):
        raise ValueError("has `tags` that are not a list of strings")
    labelled_at = t.get("labelled_at", "")
    if type(labelled_at) is not str:
        labelled_at = str(labelled_at)
    settled_pairs: tuple[tuple[str, Verdict], ...] = ()
    if "settled" in t:
        settled = t["settled"]
        if type(settled) is not dict or not all(type(v) is str for v in settled.values()):
            raise ValueError("has a `settled` that is not a table of reviewer = verdict")
        if any(v not in VERDICTS for v in settled.values()):
            raise ValueError("has a `settled` verdict this program does not know")
        settled_pairs = tuple(sorted((str(k), VERDICTS[v]) for k, v in settled.items()))
    return Label(session, run, check, verdict, reviewer, labelled_at, str(t.get("evidence", "")), tuple(tags),
                 str(t.get("note", "")), str(t.get("adjudicator", "")), settled_pairs)


def note_from_table(t: Any, session: str, reviewer: str) -> Note:
    """A Note from one ``[[note]]`` table; ValueError when it is not one."""
    if not isinstance(t, dict):
        raise ValueError("is not a table")
    run, check, tags = t.get("run"), t.get("check"), t.get("tags", [])
    if not isinstance(run, str) or not isinstance(check, str) or not run or not check:
        raise ValueError("lacks `run` or `check`")
    if not isinstance(tags, list) or not all(isinstance(x, str) for x in tags):
        raise ValueError("has `tags` that are not a list of strings")
    return Note(session, run, check, reviewer, str(t.get("noted_at", "")), str(t.get("note", "")), tuple(tags),
                str(t.get("evidence", "")))


def label_table(lab: Label) -> dict[str, Any]:
    """One ``[[label]]`` table, keys sorted (adjudication fields only when set)."""
    table: dict[str, Any] = {
        "check": lab.check,
        "evidence": lab.evidence,
        "labelled_at": lab.labelled_at,
        "note": lab.note,
        "run": lab.run,
        "tags": sorted(lab.tags),
        "verdict": lab.verdict.value,
    }
    if lab.adjudicator:
        table["adjudicator"] = lab.adjudicator
    if lab.settled:
        table["settled"] = {who: verdict.value for who, verdict in lab.settled}
    return dict(sorted(table.items()))


def note_table(n: Note) -> dict[str, Any]:
    """One ``[[note]]`` table, keys sorted."""
    return {"check": n.check, "evidence": n.evidence, "note": n.note, "noted_at": n.noted_at, "run": n.run,
            "tags": sorted(n.tags)}


@record
class Contents:
    """What a labels file holds.

    Attributes:
        reviewer: the name in the file.
        run: a format-2 file's run ("" in format 1).
        labels: every ``[[label]]`` table that could be read, in file order (two for one failure
            are both here).
        notes: every ``[[note]]`` table that could be read.
        damage: what was left out, one sentence each (``[[label]] 3 (run r1, check heldout:T1):
            has no verdict this program knows``).
        newer: written by a newer program (read; never written over).
    """

    reviewer: str
    run: str = ""
    labels: tuple[Label, ...] = ()
    notes: tuple[Note, ...] = ()
    damage: tuple[str, ...] = ()
    newer: bool = False


def where_in(kind: str, n: int, t: Any) -> str:
    """``[[label]] 3 (run r1, check heldout:T1)``: a table of a file, for a person."""
    if isinstance(t, dict) and isinstance(t.get("run"), str) and isinstance(t.get("check"), str):
        return f"[[{kind}]] {n} (run {t['run'][:80]}, check {t['check'][:120]})"
    return f"[[{kind}]] {n}"


def parse(data: bytes, session: str, fallback_reviewer: str) -> Contents:
    """Parse a labels file of format 1 or 2.

    Raises:
        Unreadable: nothing in it can be trusted (not TOML, conflict markers, no ``format``...).
    """
    try:
        doc = parse_toml_bytes(data)
    except BadToml as exc:
        raise Unreadable(str(exc)) from None
    version = doc.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise Unreadable("has no `format` version")
    newer = version > FORMAT
    reviewer = doc.get("reviewer", fallback_reviewer)
    if not isinstance(reviewer, str) or not reviewer:
        raise Unreadable("has a `reviewer` that is not a non-empty string")
    run = doc.get("run", "")
    if version >= FORMAT and not newer and (not isinstance(run, str) or not run):
        raise Unreadable("has no `run` (a format-2 file holds the labels of one run)")
    run = run if isinstance(run, str) else ""
    damage: list[str] = []
    labels: list[Label] = []
    notes: list[Note] = []
    for kind, parse_table, out in (("label", label_from_table, labels), ("note", note_from_table, notes)):
        tables = doc.get(kind, [])
        if not isinstance(tables, list):
            raise Unreadable(f"has a `{kind}` that is not an array of tables")
        for n, t in enumerate(tables, start=1):
            try:
                entry = parse_table(t, session, reviewer)
                if run and entry.run != run:
                    raise ValueError(f"names run {entry.run[:80]!r}, not the file's run {run[:80]!r}")
            except ValueError as exc:
                if not newer:  # a newer program's tables may hold what this one cannot read: never reported
                    damage.append(f"{where_in(kind, n, t)} {exc}")
                continue
            out.append(entry)  # type: ignore[arg-type]
    return Contents(reviewer, run, tuple(labels), tuple(notes), tuple(damage), newer)


def run_file_bytes(session: str, reviewer: str, run: str, labels: Iterable[Label], notes: Iterable[Note]) -> bytes:
    """A format-2 file: sorted keys, label tables by check (then time), note tables by check."""
    doc: dict[str, Any] = {"format": FORMAT, "reviewer": reviewer, "run": run, "session": session}
    ordered = sorted(labels, key=lambda lab: (lab.check, lab.labelled_at, lab.verdict.value, lab.note, lab.evidence))
    if ordered:
        doc["label"] = [label_table(lab) for lab in ordered]
    kept = sorted(notes, key=lambda n: (n.check, n.noted_at))
    if kept:
        doc["note"] = [note_table(n) for n in kept]
    return dumps(doc).encode("utf-8")
