"""A labels file's bytes and back: deterministic TOML, read and written fast when it is our own layout.

A labels file written by reviewer has one fixed layout (``format``, ``reviewer``, ``session``,
then one ``[[label]]`` table per label, then one ``[[note]]`` table per note-only entry, keys
sorted, as ``tomli_w`` lays them out; an adjudication's ``settled`` is a ``[label.settled]``
sub-table). Parsing
200,000 labels with a general TOML parser takes seconds, so :func:`parse_labels` first reads
that layout line by line (strings without a backslash are taken as they are) and checks every
line as it goes; anything else (a hand-edited file, an escape, another key order) is parsed by
``tomli``, table by table where only a table is unusual, the whole file otherwise. Both give
the same result. :func:`labels_to_bytes` writes exactly the bytes ``tomli_w`` would, without
building the document first.
"""

from __future__ import annotations

import json
import re
from dataclasses import field
from typing import Any

import tomli
import tomli_w

from reviewer.model.label import LABELS_FORMAT, Label, Note, Verdict
from reviewer.model.records import record
from reviewer.store.tomlfile import BadToml, parse_toml_bytes, precheck

Key = tuple[str, str]
Entry = Label | Note | None
"""A change to one failure: a label (replaces the note entry), None (clears the label) or a note
entry (an empty one clears it)."""
SEPARATOR = "\n\n[[label]]\n"
NOTE_SEPARATOR = "\n\n[[note]]\n"
BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
INLINE_WIDTH = 100
"""``tomli_w`` writes an array of tables inline when every table fits on a line this long."""
PLAIN = re.compile(r'[\x00-\x08\x0a-\x1f\x7f"\\]')
"""Characters ``tomli_w`` escapes in a basic string (the rest are written as they are)."""
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
FIELDS = ("check", "evidence", "labelled_at", "note", "run")
NOTE_FIELDS = ("check", "evidence", "note", "noted_at", "run")


class NotOurLayout(ValueError):
    """The text is not in the layout reviewer writes; the general parser decides."""


def label_from_table(t: Any, session: str, reviewer: str) -> Label:
    """A Label from one ``[[label]]`` table; ValueError when it is not one."""
    if not isinstance(t, dict):
        raise ValueError("a [[label]] entry is not a table")
    run, check = t.get("run"), t.get("check")
    if not isinstance(run, str) or not isinstance(check, str) or not run or not check:
        raise ValueError("a [[label]] entry lacks `run` or `check`")
    verdict = Verdict(t.get("verdict"))
    tags = t.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(x, str) for x in tags):
        raise ValueError("`tags` must be a list of strings")
    labelled_at = t.get("labelled_at", "")
    if not isinstance(labelled_at, str):
        labelled_at = str(labelled_at)
    settled = t.get("settled", {})
    if not isinstance(settled, dict) or not all(isinstance(v, str) for v in settled.values()):
        raise ValueError("`settled` must be a table of reviewer = verdict")
    return Label(
        session=session,
        run=run,
        check=check,
        verdict=verdict,
        reviewer=reviewer,
        labelled_at=labelled_at,
        evidence=str(t.get("evidence", "")),
        tags=tuple(tags),
        note=str(t.get("note", "")),
        adjudicator=str(t.get("adjudicator", "")),
        settled=tuple(sorted((str(k), Verdict(v)) for k, v in settled.items())),
    )


def note_from_table(t: Any, session: str, reviewer: str) -> Note:
    """A Note from one ``[[note]]`` table; ValueError when it is not one."""
    if not isinstance(t, dict):
        raise ValueError("a [[note]] entry is not a table")
    run, check, tags = t.get("run"), t.get("check"), t.get("tags", [])
    if not isinstance(run, str) or not isinstance(check, str) or not run or not check:
        raise ValueError("a [[note]] entry lacks `run` or `check`")
    if not isinstance(tags, list) or not all(isinstance(x, str) for x in tags):
        raise ValueError("`tags` must be a list of strings")
    return Note(session, run, check, reviewer, str(t.get("noted_at", "")), str(t.get("note", "")), tuple(tags),
                str(t.get("evidence", "")))


def label_table(lab: Label) -> dict[str, Any]:
    """One ``[[label]]`` table (adjudication fields only when set, so labels files keep their bytes)."""
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
    """One ``[[note]]`` table."""
    return {"check": n.check, "evidence": n.evidence, "note": n.note, "noted_at": n.noted_at, "run": n.run,
            "tags": sorted(n.tags)}


def toml_str(s: str) -> str:
    """A TOML basic string exactly as ``tomli_w`` writes it."""
    if PLAIN.search(s) is None:
        return f'"{s}"'
    return tomli_w.dumps({"x": s})[4:-1]


def toml_key(s: str) -> str:
    """A TOML key exactly as ``tomli_w`` writes it (bare when it can be)."""
    return s if BARE_KEY.fullmatch(s) else toml_str(s)


def tags_value(tags: tuple[str, ...]) -> str:
    """A tags array as ``tomli_w`` writes it in a table."""
    return "[]" if not tags else "[\n" + "".join(f"    {toml_str(t)},\n" for t in sorted(tags)) + "]"


def label_chunk(lab: Label) -> str:
    """One ``[[label]]`` table, preceded by the blank line ``tomli_w`` puts before it."""
    head = f"\n[[label]]\nadjudicator = {toml_str(lab.adjudicator)}\n" if lab.adjudicator else "\n[[label]]\n"
    settled = "" if not lab.settled else "\n[label.settled]\n" + "".join(
        f"{toml_key(who)} = {toml_str(v.value)}\n" for who, v in dict(lab.settled).items())
    return (f"{head}check = {toml_str(lab.check)}\nevidence = {toml_str(lab.evidence)}\n"
            f"labelled_at = {toml_str(lab.labelled_at)}\nnote = {toml_str(lab.note)}\nrun = {toml_str(lab.run)}\n"
            f"tags = {tags_value(lab.tags)}\nverdict = {toml_str(lab.verdict.value)}\n{settled}")


def note_chunk(n: Note) -> str:
    """One ``[[note]]`` table, preceded by the blank line ``tomli_w`` puts before it."""
    return (f"\n[[note]]\ncheck = {toml_str(n.check)}\nevidence = {toml_str(n.evidence)}\nnote = {toml_str(n.note)}\n"
            f"noted_at = {toml_str(n.noted_at)}\nrun = {toml_str(n.run)}\ntags = {tags_value(n.tags)}\n")


def inline_note(n: Note) -> bool:
    """True when ``tomli_w`` could write this note's table on one line (it does when every one fits)."""
    if n.tags:
        return False
    line = (f"    {{ check = {toml_str(n.check)}, evidence = {toml_str(n.evidence)}, note = {toml_str(n.note)}, "
            f"noted_at = {toml_str(n.noted_at)}, run = {toml_str(n.run)}, tags = [] }},")
    return len(line) <= INLINE_WIDTH


def labels_to_bytes(session: str, reviewer: str, labels: dict[Key, Label], notes: dict[Key, Note] | None = None) -> bytes:
    """Deterministic TOML: sorted entries, sorted keys, the same bytes ``tomli_w`` writes for the document.

    Note-only entries follow as ``[[note]]`` tables (none: the file is as before they existed).
    A label table never fits on one line; when every note table would, ``tomli_w`` itself writes.
    """
    head = f"format = {LABELS_FORMAT}\nreviewer = {toml_str(reviewer)}\nsession = {toml_str(session)}\n"
    if notes and all(inline_note(n) for n in notes.values()):
        doc = {"format": LABELS_FORMAT, "reviewer": reviewer, "session": session,
               "label": [label_table(lab) for _, lab in sorted(labels.items())],
               "note": [note_table(n) for _, n in sorted(notes.items())]}
        return tomli_w.dumps(doc).encode("utf-8")
    body = "label = []\n" if not labels else "".join(label_chunk(lab) for _, lab in sorted(labels.items()))
    tail = "".join(note_chunk(n) for _, n in sorted(notes.items())) if notes else ""
    return (head + body + tail).encode("utf-8")


@record
class Parsed:
    """What a labels file holds."""

    reviewer: str
    labels: dict[Key, Label]
    newer: bool = False
    notes: dict[Key, Note] = field(default_factory=dict)
    """Note-only entries (``[[note]]``): failures with a note and no verdict."""


def value(line: str, key: str) -> str:
    """The string of ``key = "..."`` written without escapes; NotOurLayout otherwise."""
    if not line.startswith(key) or line[len(key):len(key) + 4] != ' = "' or not line.endswith('"'):
        raise NotOurLayout(key)
    inner = line[len(key) + 4:-1]
    if '"' in inner:
        raise NotOurLayout(key)
    return inner


def tag_item(line: str) -> str:
    """One ``    "tag",`` line of a multi-line tags array; NotOurLayout otherwise."""
    if not line.startswith('    "') or not line.endswith('",') or '"' in line[5:-2]:
        raise NotOurLayout("tags")
    return line[5:-2]


def tags_lines(lines: list[str], at: int) -> tuple[tuple[str, ...], int]:
    """The tags array starting at line ``at`` and the index of the line after it; NotOurLayout otherwise."""
    if lines[at] == "tags = []":
        return (), at + 1
    if lines[at] == "tags = [":
        end = lines.index("]", at + 1) if "]" in lines[at + 1:] else -1
        if end < 0:
            raise NotOurLayout("tags")
        return tuple(tag_item(ln) for ln in lines[at + 1:end]), end + 1
    raise NotOurLayout("tags")


def fast_table(block: str, session: str, reviewer: str) -> Label:
    """One label table of our layout (no backslash, no adjudication fields); NotOurLayout when it is not."""
    lines = block.split("\n")
    if len(lines) < 7:
        raise NotOurLayout("short table")
    check, evidence, labelled_at, note, run = (value(lines[i], k) for i, k in enumerate(FIELDS))
    tags, rest = tags_lines(lines, 5)
    verdict = value(lines[rest], "verdict")
    if any(lines[rest + 1:]) or not run or not check:
        raise NotOurLayout("extra lines")
    try:
        v = Verdict(verdict)
    except ValueError:
        raise NotOurLayout("verdict") from None
    return Label(session, run, check, v, reviewer, labelled_at, evidence, tags, note)


def fast_note(block: str, session: str, reviewer: str) -> Note:
    """One note table of our layout (no backslash in it); NotOurLayout when it is not."""
    lines = block.split("\n")
    if len(lines) < 6:
        raise NotOurLayout("short table")
    check, evidence, note, noted_at, run = (value(lines[i], k) for i, k in enumerate(NOTE_FIELDS))
    tags, rest = tags_lines(lines, 5)
    if any(lines[rest:]) or not run or not check:
        raise NotOurLayout("extra lines")
    return Note(session, run, check, reviewer, noted_at, note, tags, evidence)


def one_table(name: str, block: str) -> Any:
    """A single ``[[name]]`` table parsed by ``tomli`` (an escape, a sub-table); NotOurLayout when it is more."""
    table = tomli.loads(f"[[{name}]]\n" + block)
    if list(table) != [name] or len(table[name]) != 1:
        raise NotOurLayout("table")
    return table[name][0]


def fast_parse(text: str, session: str, fallback_reviewer: str) -> Parsed:
    """Our layout, or NotOurLayout; a table with an escape or a sub-table is parsed alone by ``tomli``."""
    if CONTROL.search(text) is not None:
        raise NotOurLayout("control characters")
    main, *note_blocks = text.split(NOTE_SEPARATOR)
    if note_blocks:  # the last label table (or ``label = []``) ends where the first note's blank line begins
        if not note_blocks[-1].endswith("\n"):
            raise NotOurLayout("end")
        main += "\n"
    head, *blocks = main.split(SEPARATOR)
    hl = head.split("\n")
    if len(hl) < 3 or hl[0] != f"format = {LABELS_FORMAT}" or "\\" in head:
        raise NotOurLayout("header")
    reviewer, found = value(hl[1], "reviewer"), value(hl[2], "session")
    del found  # the file's own session name is not trusted: the folder decides
    if not reviewer:
        raise NotOurLayout("reviewer")
    if not blocks:
        if hl[3:] not in ([""], ["label = []", ""]) or (note_blocks and hl[3:] != ["label = []", ""]):
            raise NotOurLayout("header")
    elif hl[3:] or not blocks[-1].endswith("\n"):
        raise NotOurLayout("header" if hl[3:] else "end")
    labels: dict[Key, Label] = {}
    for block in blocks:
        try:
            lab = fast_table(block, session, reviewer) if "\\" not in block else None
        except NotOurLayout:
            lab = None
        if lab is None:
            lab = label_from_table(one_table("label", block), session, reviewer)
        labels[(lab.run, lab.check)] = lab
    notes: dict[Key, Note] = {}
    for block in note_blocks:
        try:
            n = fast_note(block, session, reviewer) if "\\" not in block else None
        except NotOurLayout:
            n = None
        if n is None:
            n = note_from_table(one_table("note", block), session, reviewer)
        notes[(n.run, n.check)] = n
    return Parsed(reviewer, labels, False, notes)


def parse_labels(data: bytes, session: str, fallback_reviewer: str) -> Parsed:
    """Parse a labels file; BadToml/ValueError when it cannot be trusted whole."""
    text = precheck(data)
    try:
        return fast_parse(text, session, fallback_reviewer)
    except (NotOurLayout, tomli.TOMLDecodeError, ValueError):
        pass
    doc = parse_toml_bytes(data)
    version = doc.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ValueError("has no `format` version")
    newer = version > LABELS_FORMAT
    reviewer = doc.get("reviewer", fallback_reviewer)
    if not isinstance(reviewer, str) or not reviewer:
        raise ValueError("`reviewer` must be a non-empty string")
    entries, notes = doc.get("label", []), doc.get("note", [])
    if not isinstance(entries, list):
        raise ValueError("`label` must be an array of tables")
    if not isinstance(notes, list):
        raise ValueError("`note` must be an array of tables")
    labels: dict[Key, Label] = {}
    for t in entries:
        try:
            lab = label_from_table(t, session, reviewer)
        except ValueError:
            if newer:
                continue
            raise
        labels[(lab.run, lab.check)] = lab
    found: dict[Key, Note] = {}
    for t in notes:
        try:
            n = note_from_table(t, session, reviewer)
        except ValueError:
            if newer:
                continue
            raise
        found[(n.run, n.check)] = n
    return Parsed(reviewer, labels, newer, found)


def journal_json(lab: Label) -> dict[str, Any]:
    """A label's fields as the journal writes them (the labels-file table's keys, adjudication's too)."""
    return label_table(lab)


def note_json(n: Note) -> dict[str, Any]:
    """A note-only entry's fields as the journal writes them: the ``[[note]]`` table's, and ``entry = "note"``."""
    return {**note_table(n), "entry": "note"}


def dumps_line(record: dict[str, Any]) -> bytes:
    """One journal line: compact JSON, keys sorted, UTF-8, ending in a newline."""
    return (json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")


__all__ = ["BadToml", "Entry", "Key", "Parsed", "label_from_table", "label_table", "labels_to_bytes", "note_from_table",
           "note_table", "parse_labels"]
