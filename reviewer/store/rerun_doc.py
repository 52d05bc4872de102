"""``[grader.rerun]``: reading the table into a :class:`~reviewer.model.rerun.Rerun`.

The table is optional and only a re-score uses it, so a defect in it never stops the run from
loading: the value carries a ``problem`` that ``reviewer check`` reports and a re-score refuses
with. Field by field (sessions/README.md documents them):

``command`` (default: the grader's), ``cwd`` (default: the grader's), ``runtime``, ``files``
(default: the grader's ``source``), ``setup``, ``remove``, ``program``, ``reads``,
``time_limit`` (seconds), ``env`` (a table of strings), ``format`` (a grader-output format name,
default the grader's), ``report`` (a workspace file the re-run writes its results to).
"""

from __future__ import annotations

import math
from typing import Any

from reviewer.model.check import OUTPUT_FORMATS
from reviewer.model.rerun import (
    DEFAULT_TIME_LIMIT,
    ENV_NAME,
    MAX_TIME_LIMIT,
    Rerun,
    parse_runtime,
    workspace_path_problem,
)
from reviewer.model.wording import plural
from reviewer.store.safe_fs import Unreadable, lexically_inside

KNOWN = ("command", "cwd", "runtime", "files", "setup", "remove", "program", "reads", "time_limit", "env", "format",
         "report")
RESERVED_ENV = ("PATH", "HOME", "TMPDIR")


class Defect(Exception):
    """One thing wrong with the table."""


def text(t: dict[str, Any], key: str, where: str, default: str) -> str:
    """A string field."""
    value = t.get(key, default)
    if not isinstance(value, str):
        raise Defect(f"`{where}.{key}` must be a string")
    return value


def strings(t: dict[str, Any], key: str, where: str) -> tuple[str, ...] | None:
    """A list of strings, or None when absent."""
    if key not in t:
        return None
    value = t[key]
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Defect(f"`{where}.{key}` must be a list of strings")
    return tuple(value)


def refs(run_dir: str, values: tuple[str, ...], where: str) -> tuple[str, ...]:
    """Manifest-relative paths as sessions-root refs (inside the root)."""
    out = []
    for v in values:
        try:
            out.append(lexically_inside(run_dir, v))
        except Unreadable as exc:
            raise Defect(f"`{where}`: {v!r}: {exc}") from None
    return tuple(out)


def workspace_paths(values: tuple[str, ...], where: str) -> tuple[str, ...]:
    """Workspace-relative paths, checked."""
    for v in values:
        problem = workspace_path_problem(v, f"`{where}`")
        if problem:
            raise Defect(problem)
    return values


def time_limit(t: dict[str, Any], where: str) -> float:
    """``time_limit``: seconds, above 0 and at most an hour."""
    value = t.get("time_limit", DEFAULT_TIME_LIMIT)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise Defect(f"`{where}.time_limit` must be a number of seconds")
    if not 0 < value <= MAX_TIME_LIMIT:
        raise Defect(f"`{where}.time_limit` must be above 0 and at most {MAX_TIME_LIMIT:g} seconds")
    return float(value)


def env(t: dict[str, Any], where: str) -> tuple[tuple[str, str], ...]:
    """``env``: variable names to string values (the sandbox's own PATH, HOME, TMPDIR excepted)."""
    value = t.get("env", {})
    if not isinstance(value, dict):
        raise Defect(f"`{where}.env` must be a table of strings")
    out = []
    for name, v in sorted(value.items()):
        if not ENV_NAME.match(name) or not isinstance(v, str) or "\x00" in v:
            raise Defect(f"`{where}.env.{name}` must be a variable name with a string value")
        if name in RESERVED_ENV:
            raise Defect(f"`{where}.env.{name}`: the sandbox sets {name} itself")
        out.append((name, v))
    return tuple(out)


def rerun_from_doc(run_dir: str, g: dict[str, Any], where: str, command: str, cwd: str,
                   sources: tuple[str, ...]) -> Rerun | None:
    """The grader's ``rerun`` table, or None when there is none; never raises."""
    if "rerun" not in g:
        return None
    w = f"{where}.rerun"
    t = g["rerun"]
    if not isinstance(t, dict):
        return Rerun(command, cwd, problem=f"`{w}` must be a table")
    try:
        unknown = sorted(k for k in t if k not in KNOWN)
        if unknown:
            raise Defect(f"`{w}` has unknown {plural('field', len(unknown))} {', '.join(unknown)} (known: {', '.join(KNOWN)})")
        cmd = text(t, "command", w, command)
        if not cmd.strip():
            raise Defect(f"`{w}.command` is empty and the grader records no command")
        folder = text(t, "cwd", w, cwd).strip("/")
        if folder:
            workspace_paths((folder,), f"{w}.cwd")
        runtime = text(t, "runtime", w, "")
        try:
            parse_runtime(runtime)
        except ValueError as exc:
            raise Defect(f"`{w}.runtime`: {exc}") from None
        files = strings(t, "files", w)
        program = text(t, "program", w, "")
        if program:
            workspace_paths((program,), f"{w}.program")
        fmt = text(t, "format", w, "")
        if fmt and fmt not in OUTPUT_FORMATS:
            raise Defect(f"`{w}.format`: unknown format {fmt!r} (one of {', '.join(OUTPUT_FORMATS)})")
        report = text(t, "report", w, "")
        if report:
            workspace_paths((report,), f"{w}.report")
        remove = strings(t, "remove", w) or ()
        for glob in remove:
            if not glob or "/" in glob:
                raise Defect(f"`{w}.remove`: {glob!r} must be a file-name pattern (no '/')")
        return Rerun(
            command=cmd,
            cwd=folder,
            runtime=runtime.strip(),
            files=sources if files is None else refs(run_dir, files, f"{w}.files"),
            setup=refs(run_dir, strings(t, "setup", w) or (), f"{w}.setup"),
            remove=remove,
            program=program,
            reads=workspace_paths(strings(t, "reads", w) or (), f"{w}.reads"),
            time_limit=time_limit(t, w),
            env=env(t, w),
            format=fmt,
            report=report,
        )
    except Defect as exc:
        return Rerun(command, cwd, problem=str(exc))
