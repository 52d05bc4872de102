"""Reading and writing labels files in tests, in either layout, as a user's repository holds them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import tomli_w

from reviewer.model.label import Label, reviewer_file_stem
from reviewer.store.labels import clear_cache, read_all_labels, run_file_name

Key = tuple[str, str]


def groups(root: Path, session: str, reviewer: str = "alice", adjudications: bool = False) -> list[Any]:
    """The reviewer's groups of labels in a session, read afresh (the sessions folder's and the per-user folder's)."""
    from reviewer.store.labels.reading import read_adjudications_of

    clear_cache()
    if adjudications:
        return read_adjudications_of(root, [session])
    return [g for g in read_all_labels(root, [session], budget=None) if g.stem == reviewer_file_stem(reviewer)]


def on_disk(root: Path, session: str, reviewer: str = "alice") -> dict[Key, Label]:
    """(run, check) -> the reviewer's label in force on disk (both layouts merged, read afresh)."""
    return {k: labs[0] for g in groups(root, session, reviewer) for k, labs in g.entries.items()}


def verdicts(root: Path, session: str, reviewer: str = "alice") -> dict[str, str]:
    """``session/run#check`` -> verdict of the reviewer's labels in force on disk."""
    return {f"{session}/{run}#{check}": lab.verdict.value for (run, check), lab in on_disk(root, session, reviewer).items()}


def all_entries(root: Path, session: str, reviewer: str = "alice") -> dict[Key, tuple[Label, ...]]:
    """(run, check) -> every label of the reviewer on disk (two or more: a duplicate)."""
    return {k: labs for g in groups(root, session, reviewer) for k, labs in g.entries.items()}


def run_file(root: Path, session: str, run: str, reviewer: str = "alice") -> Path:
    """The format-2 file of a reviewer's labels on one run."""
    return root / session / "labels" / reviewer_file_stem(reviewer) / run_file_name(run)


def reviewer_files(root: Path, session: str, reviewer: str = "alice") -> list[str]:
    """Names of the files in the reviewer's format-2 folder of a session (sorted; [] when none)."""
    folder = root / session / "labels" / reviewer_file_stem(reviewer)
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def table(run: str, check: str, verdict: str = "capability", at: str = "2026-11-29T12:00:00Z", note: str = "",
          evidence: str = "", tags: tuple[str, ...] = ()) -> dict[str, Any]:
    """One ``[[label]]`` table as reviewer writes it."""
    return {"check": check, "evidence": evidence, "labelled_at": at, "note": note, "run": run, "tags": list(tags),
            "verdict": verdict}


def write_old_file(root: Path, session: str, reviewer: str, labels: list[dict[str, Any]],
                   notes: list[dict[str, Any]] | None = None, journal: list[Any] | None = None,
                   name: str | None = None) -> Path:
    """A format-1 file (``<session>/labels/<reviewer>.toml``) as earlier versions wrote it, and its
    journal when ``journal`` is given (its lines: dicts written as JSON, bytes as they are; the
    header is written first)."""
    folder = root / session / "labels"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (name or f"{reviewer_file_stem(reviewer)}.toml")
    doc: dict[str, Any] = {"format": 1, "reviewer": reviewer, "session": session,
                           "label": sorted(labels, key=lambda t: (t["run"], t["check"]))}
    if notes:
        doc["note"] = notes
    path.write_bytes(tomli_w.dumps(doc).encode())
    if journal is not None:
        head = {"base": None, "journal": 1, "reviewer": reviewer, "session": session}
        lines = [json.dumps(head, sort_keys=True).encode() + b"\n"]
        for line in journal:
            lines.append(line if isinstance(line, bytes) else json.dumps(line, sort_keys=True).encode() + b"\n")
        path.with_suffix(".journal").write_bytes(b"".join(lines))
    return path
