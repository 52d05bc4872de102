"""A labels file's bytes and back: deterministic TOML, read and written fast when it is our own layout.

A labels file written by reviewer has one fixed layout (``format``, ``reviewer``, ``session``,
then one ``[[label]]`` table per label, keys sorted, as ``tomli_w`` lays them out). Parsing
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
from dataclasses import dataclass
from typing import Any

import tomli
import tomli_w

from reviewer.model.label import LABELS_FORMAT, Label, Verdict
from reviewer.store.tomlfile import BadToml, parse_toml_bytes, precheck

Key = tuple[str, str]
SEPARATOR = "\n\n[[label]]\n"
PLAIN = re.compile(r'[\x00-\x08\x0a-\x1f\x7f"\\]')
"""Characters ``tomli_w`` escapes in a basic string (the rest are written as they are)."""
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
FIELDS = ("check", "evidence", "labelled_at", "note", "run")


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
    )


def toml_str(s: str) -> str:
    """A TOML basic string exactly as ``tomli_w`` writes it."""
    if PLAIN.search(s) is None:
        return f'"{s}"'
    return tomli_w.dumps({"x": s})[4:-1]


def label_chunk(lab: Label) -> str:
    """One ``[[label]]`` table, preceded by the blank line ``tomli_w`` puts before it."""
    tags = sorted(lab.tags)
    shown = "[]" if not tags else "[\n" + "".join(f"    {toml_str(t)},\n" for t in tags) + "]"
    return (f"\n[[label]]\ncheck = {toml_str(lab.check)}\nevidence = {toml_str(lab.evidence)}\n"
            f"labelled_at = {toml_str(lab.labelled_at)}\nnote = {toml_str(lab.note)}\nrun = {toml_str(lab.run)}\n"
            f"tags = {shown}\nverdict = {toml_str(lab.verdict.value)}\n")


def labels_to_bytes(session: str, reviewer: str, labels: dict[Key, Label]) -> bytes:
    """Deterministic TOML: sorted entries, sorted keys, the same bytes ``tomli_w`` writes for the document."""
    head = f"format = {LABELS_FORMAT}\nreviewer = {toml_str(reviewer)}\nsession = {toml_str(session)}\n"
    if not labels:
        return (head + "label = []\n").encode("utf-8")
    return (head + "".join(label_chunk(lab) for _, lab in sorted(labels.items()))).encode("utf-8")


@dataclass(frozen=True, slots=True)
class Parsed:
    """What a labels file holds."""

    reviewer: str
    labels: dict[Key, Label]
    newer: bool = False


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


def fast_table(block: str, session: str, reviewer: str) -> Label:
    """One table of our layout (no backslash in it); NotOurLayout when it is not."""
    lines = block.split("\n")
    if len(lines) < 7:
        raise NotOurLayout("short table")
    check, evidence, labelled_at, note, run = (value(lines[i], k) for i, k in enumerate(FIELDS))
    if lines[5] == "tags = []":
        tags: tuple[str, ...] = ()
        rest = 6
    elif lines[5] == "tags = [":
        end = lines.index("]", 6) if "]" in lines[6:] else -1
        if end < 0:
            raise NotOurLayout("tags")
        tags = tuple(tag_item(ln) for ln in lines[6:end])
        rest = end + 1
    else:
        raise NotOurLayout("tags")
    verdict = value(lines[rest], "verdict")
    if any(lines[rest + 1:]) or not run or not check:
        raise NotOurLayout("extra lines")
    try:
        v = Verdict(verdict)
    except ValueError:
        raise NotOurLayout("verdict") from None
    return Label(session, run, check, v, reviewer, labelled_at, evidence, tags, note)


def fast_parse(text: str, session: str, fallback_reviewer: str) -> Parsed:
    """Our layout, or NotOurLayout; tables with an escape are parsed one by one by ``tomli``."""
    if CONTROL.search(text) is not None:
        raise NotOurLayout("control characters")
    head, *blocks = text.split(SEPARATOR)
    hl = head.split("\n")
    if len(hl) < 3 or hl[0] != f"format = {LABELS_FORMAT}" or "\\" in head:
        raise NotOurLayout("header")
    reviewer, found = value(hl[1], "reviewer"), value(hl[2], "session")
    del found  # the file's own session name is not trusted: the folder decides
    if not reviewer:
        raise NotOurLayout("reviewer")
    if not blocks:
        if hl[3:] not in ([""], ["label = []", ""]):
            raise NotOurLayout("header")
        return Parsed(reviewer or fallback_reviewer, {})
    if hl[3:]:
        raise NotOurLayout("header")
    if not blocks[-1].endswith("\n"):
        raise NotOurLayout("end")
    labels: dict[Key, Label] = {}
    for block in blocks:
        if "\\" in block:
            table = tomli.loads("[[label]]\n" + block)
            if list(table) != ["label"] or len(table["label"]) != 1:
                raise NotOurLayout("table")
            lab = label_from_table(table["label"][0], session, reviewer)
        else:
            lab = fast_table(block, session, reviewer)
        labels[(lab.run, lab.check)] = lab
    return Parsed(reviewer, labels)


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
    entries = doc.get("label", [])
    if not isinstance(entries, list):
        raise ValueError("`label` must be an array of tables")
    labels: dict[Key, Label] = {}
    for t in entries:
        try:
            lab = label_from_table(t, session, reviewer)
        except ValueError:
            if newer:
                continue
            raise
        labels[(lab.run, lab.check)] = lab
    return Parsed(reviewer, labels, newer)


def journal_json(lab: Label) -> dict[str, Any]:
    """A label's fields as the journal writes them (the labels-file table's keys)."""
    return {"check": lab.check, "evidence": lab.evidence, "labelled_at": lab.labelled_at, "note": lab.note,
            "run": lab.run, "tags": sorted(lab.tags), "verdict": lab.verdict.value}


def dumps_line(record: dict[str, Any]) -> bytes:
    """One journal line: compact JSON, keys sorted, UTF-8, ending in a newline."""
    return (json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")


__all__ = ["BadToml", "Key", "Parsed", "label_from_table", "labels_to_bytes", "parse_labels"]
