"""Reading a run's manifest and turning it (a plain dict) into model values, with a reason for every defect."""

from __future__ import annotations

import datetime
import os
import posixpath
import sys
from pathlib import Path
from typing import Any

from reviewer.model import Attempt, AttemptFile, Check, CheckStatus, GraderRecord, Run, Session, ToolCall, Turn
from reviewer.model.check import dedupe_keys
from reviewer.model.run import ACCESS_KINDS, OUTCOMES, ROLES
from reviewer.store.fs.keys import StatKey, stat_key
from reviewer.store.fs.tomlfile import parse_toml_bytes
from reviewer.store.fs.untrusted import MANIFEST_CAP, IsLink, Unreadable, lexically_inside, read_capped, read_listed
from reviewer.store.runs.rerun import rerun_from_doc

FORMAT_VERSION = 1


class BadManifest(Exception):
    """A manifest that parsed as TOML but does not describe a session, run or transcript."""


def check_format(doc: dict[str, Any]) -> None:
    """Require ``format = 1``; say plainly when the file is newer or unknown."""
    version = doc.get("format")
    if version is None:
        raise BadManifest("has no `format` version (this reviewer reads format 1)")
    if not isinstance(version, int) or isinstance(version, bool):
        raise BadManifest(f"`format` must be a whole number, not {type(version).__name__}")
    if version > FORMAT_VERSION:
        raise BadManifest(
            f"is format {version}, written by a newer program; this reviewer reads format "
            f"{FORMAT_VERSION}: upgrade reviewer to read it"
        )
    if version < FORMAT_VERSION:
        raise BadManifest(f"is format {version}, which no version of reviewer wrote")


def text_field(table: dict[str, Any], key: str, where: str, default: str | None = "") -> str:
    """A string field; datetimes become RFC 3339 text. BadManifest when missing or mistyped."""
    value = table.get(key, default)
    if type(value) is str:
        return value
    if value is None:
        raise BadManifest(f"`{where}.{key}` is missing")
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if not isinstance(value, str):
        raise BadManifest(f"`{where}.{key}` must be a string, not {type(value).__name__}")
    return value


def shared(value: str) -> str:
    """A short string many runs repeat (task, model, command, file name): kept once in memory."""
    return sys.intern(value) if len(value) < 200 else value


def int_field(table: dict[str, Any], key: str, where: str) -> int | None:
    """An optional whole-number field."""
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadManifest(f"`{where}.{key}` must be a whole number")
    return value


def table_field(table: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    """An optional sub-table."""
    value = table.get(key, {})
    if not isinstance(value, dict):
        raise BadManifest(f"`{where}.{key}` must be a table")
    return value


def tables_field(table: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    """An optional array of tables."""
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise BadManifest(f"`{where}` must be an array of tables ([[{key}]])")
    return value


def strings_field(table: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    """An optional list of strings (a single string is taken as a list of one)."""
    value = table.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadManifest(f"`{where}.{key}` must be a list of strings")
    return tuple(value)


def ref_field(base: str, table: dict[str, Any], key: str, where: str) -> str:
    """A path reference, joined to the manifest's folder and kept inside the root."""
    value = text_field(table, key, where)
    if not value:
        return ""
    try:
        return lexically_inside(base, value)
    except Unreadable as exc:
        raise BadManifest(f"`{where}.{key}`: {exc}") from None


LOG_OFF_LIMITS = frozenset({"runs", "labels", "rescores"})
"""Folders of a session a log may not be in: the format's own."""


def log_fields(doc: dict[str, Any], session_id: str) -> tuple[str, str]:
    """The ``[log]`` table: (the log's path relative to the root, its format), or ("", "") without one."""
    if "log" not in doc:
        return "", ""
    table = table_field(doc, "log", "log")
    name = text_field(table, "format", "log", None)
    from reviewer.store.logs.registry import by_name, names  # only a session with a log needs the readers

    if by_name(name) is None:
        raise BadManifest(f"`log.format` {name!r} is not a format read in place (one of: {', '.join(names())})")
    path = text_field(table, "path", "log", None)
    try:
        ref = lexically_inside(session_id, path)
    except Unreadable as exc:
        raise BadManifest(f"`log.path`: {exc}") from None
    parts = ref.split("/")
    if len(parts) < 2 or parts[0] != session_id:
        raise BadManifest(f"`log.path` {path!r} must name a file or folder inside the session folder")
    if parts[1] in LOG_OFF_LIMITS:
        raise BadManifest(f"`log.path` {path!r} is inside the session's {parts[1]}/ folder, which the format keeps for itself")
    return ref, name


def session_from_doc(doc: dict[str, Any], session_id: str, manifest: str) -> Session:
    """Build a Session from a parsed ``session.toml``."""
    check_format(doc)
    s = table_field(doc, "session", "session")
    log, log_format = log_fields(doc, session_id)
    return Session(
        id=session_id,
        harness=text_field(s, "harness", "session"),
        harness_version=text_field(s, "harness_version", "session"),
        started=text_field(s, "started", "session"),
        models=strings_field(s, "models", "session"),
        notes=text_field(s, "notes", "session"),
        manifest=manifest,
        log=log,
        log_format=log_format,
    )


def file_in_expected(path: str, expected_dir: str) -> bool:
    """True when a saved file sits directly in the expected folder."""
    want = posixpath.normpath(expected_dir) if expected_dir else "."
    if "/" not in path:  # a bare name sits in the attempt's top folder
        return want == "."
    folder = posixpath.dirname(posixpath.normpath(path))
    return (folder or ".") == want


def attempts_from_doc(run_dir: str, tables: list[dict[str, Any]], expected_dir: str) -> tuple[Attempt, ...]:
    """Build attempts; each file path must stay inside the attempt's folder."""
    attempts = []
    for number, a in enumerate(tables, start=1):
        where = f"attempt[{number}]"
        folder = ref_field(run_dir, a, "dir", where) if "dir" in a else lexically_inside(run_dir, f"attempts/{number}")
        files = []
        for path in strings_field(a, "files", where):
            try:
                ref = lexically_inside(folder, path)
            except Unreadable as exc:
                raise BadManifest(f"`{where}.files`: {exc}") from None
            if not (ref + "/").startswith(folder + "/"):
                raise BadManifest(f"`{where}.files`: {path!r} leaves the attempt folder")
            files.append(AttemptFile(shared(path), ref, not file_in_expected(path, expected_dir)))
        attempts.append(Attempt(number, tuple(files), shared(text_field(a, "note", where))))
    return tuple(attempts)


def checks_from_doc(tables: list[dict[str, Any]], where: str) -> tuple[Check, ...]:
    """Build recorded checks of a grader."""
    checks = []
    for i, c in enumerate(tables, start=1):
        w = f"{where}.check[{i}]"
        key = text_field(c, "key", w, None)
        if not key.strip():
            raise BadManifest(f"`{w}.key` is empty")
        try:
            status = CheckStatus.parse(text_field(c, "status", w, None))
        except ValueError:
            raise BadManifest(f"`{w}.status` must be pass, fail, error or skip") from None
        checks.append(
            Check(key, text_field(c, "name", w) or key, status, text_field(c, "message", w), text_field(c, "location", w))
        )
    return tuple(dedupe_keys(checks))


def graders_from_doc(run_dir: str, tables: list[dict[str, Any]], last_attempt: int) -> tuple[GraderRecord, ...]:
    """Build grader records; names must be unique."""
    graders: list[GraderRecord] = []
    names: set[str] = set()
    for i, g in enumerate(tables, start=1):
        where = f"grader[{i}]"
        name = text_field(g, "name", where) or "grader"
        if name in names:
            raise BadManifest(f"`{where}.name` {name!r} is used twice")
        if any(ch in name for ch in "#/:") or not name.strip():
            raise BadManifest(f"`{where}.name` {name!r} may not hold '#', '/' or ':'")
        names.add(name)
        attempt = int_field(g, "attempt", where)
        sources = tuple(
            lexically_inside_or_bad(run_dir, s, f"{where}.source") for s in strings_field(g, "source", where)
        )
        recorded = tables_field(g, "check", f"{where}.check")
        command = shared(text_field(g, "command", where))
        cwd = shared(text_field(g, "cwd", where))
        graders.append(
            GraderRecord(
                name=shared(name),
                attempt=attempt if attempt is not None else last_attempt,
                command=command,
                cwd=cwd,
                exit_status=int_field(g, "exit_status", where),
                output_ref=ref_field(run_dir, g, "output", where),
                format=shared(text_field(g, "format", where)),
                source_refs=sources,
                checks=checks_from_doc(recorded, where) if recorded else None,
                rerun=rerun_from_doc(run_dir, g, where, command, cwd, sources),
            )
        )
    return tuple(graders)


def lexically_inside_or_bad(base: str, ref: str, where: str) -> str:
    """lexically_inside, reported as a manifest defect."""
    try:
        return lexically_inside(base, ref)
    except Unreadable as exc:
        raise BadManifest(f"`{where}`: {exc}") from None


def run_from_doc(doc: dict[str, Any], session_id: str, run_id: str, run_dir: str, manifest: str) -> Run:
    """Build a Run from a parsed ``run.toml``; ``run_dir`` is relative to the root."""
    check_format(doc)
    r = doc.get("run")
    if not isinstance(r, dict):
        raise BadManifest("has no [run] table")
    access = text_field(r, "access", "run") or "unknown"
    outcome = text_field(r, "outcome", "run") or "unknown"
    if access not in ACCESS_KINDS:
        raise BadManifest(f"`run.access` must be one of {', '.join(ACCESS_KINDS)}")
    if outcome not in OUTCOMES:
        raise BadManifest(f"`run.outcome` must be one of {', '.join(OUTCOMES)}")
    expected_dir = text_field(r, "expected_dir", "run")
    attempts = attempts_from_doc(run_dir, tables_field(doc, "attempt", "attempt"), expected_dir)
    graders = graders_from_doc(run_dir, tables_field(doc, "grader", "grader"), len(attempts))
    return Run(
        session=session_id,
        id=run_id,
        task=shared(text_field(r, "task", "run", None)),
        model=shared(text_field(r, "model", "run", None)),
        access=sys.intern(access),
        outcome=sys.intern(outcome),
        brief_ref=shared(ref_field(run_dir, r, "brief", "run")),  # often one brief for many runs
        transcript_ref=ref_field(run_dir, r, "transcript", "run"),
        expected_dir=shared(expected_dir),
        attempts=attempts,
        graders=graders,
        metadata=table_field(r, "metadata", "run"),
        manifest=manifest,
    )


def turns_from_doc(doc: dict[str, Any]) -> tuple[Turn, ...]:
    """Build transcript turns from a parsed ``transcript.toml``."""
    check_format(doc)
    turns = []
    for i, t in enumerate(tables_field(doc, "turn", "turn")):
        where = f"turn[{i + 1}]"
        role = text_field(t, "role", where, None)
        if role not in ROLES:
            raise BadManifest(f"`{where}.role` must be one of {', '.join(ROLES)}")
        calls = tuple(
            ToolCall(
                text_field(c, "name", f"{where}.tool_call"),
                text_field(c, "arguments", f"{where}.tool_call"),
                text_field(c, "output", f"{where}.tool_call"),
            )
            for c in tables_field(t, "tool_call", f"{where}.tool_call")
        )
        nudge = t.get("nudge", False)
        if not isinstance(nudge, bool):
            raise BadManifest(f"`{where}.nudge` must be true or false")
        turns.append(Turn(i, role, text_field(t, "text", where), nudge, int_field(t, "attempt", where), calls))
    return tuple(turns)


def load_manifest(root: Path, rel: str, listed: bool = False) -> dict[str, Any]:
    """Read and parse one manifest safely; BadManifest/Unreadable/BadToml on defects.

    ``listed``: the manifest was found by listing folders reached without links, so it is
    inside the root by construction and only its last step needs checking.
    """
    return load_manifest_keyed(root, rel, listed)[0]


def load_manifest_keyed(root: Path, rel: str, listed: bool = False) -> tuple[dict[str, Any], StatKey | None]:
    """:func:`load_manifest`, with the index key of the file as it was opened (None if unknown)."""
    try:
        raw = read_listed(os.path.join(root, rel), MANIFEST_CAP) if listed else read_capped(root, rel, MANIFEST_CAP)
    except IsLink:
        raw = read_capped(root, rel, MANIFEST_CAP)
    if raw.truncated:
        raise BadManifest(f"is larger than {MANIFEST_CAP // 1024} KiB, too large for a manifest")
    return parse_toml_bytes(raw.data), stat_key(raw.stat) if raw.stat is not None else None
