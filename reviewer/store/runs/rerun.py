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
import re
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
from reviewer.store.fs.untrusted import Unreadable, lexically_inside

FORBIDDEN_ENV = re.compile(
    r"^(?:LD_\w*|GCONV_PATH|GLIBC_TUNABLES|MALLOC_\w*|LOCPATH|NLSPATH|HOSTALIASES|RES_OPTIONS|LOCALDOMAIN|TZDIR"
    r"|BASH_ENV|ENV|BASH_FUNC_\w*|SHELLOPTS|BASHOPTS|IFS|PS4|PROMPT_COMMAND|CDPATH|GLOBIGNORE|SHELL|PWD|OLDPWD"
    r"|TMP|TEMP|USER|LOGNAME|PYTHONHOME|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|NODE_OPTIONS|JAVA_TOOL_OPTIONS"
    r"|_JAVA_OPTIONS|GIT_\w*|SSH_\w*|DISPLAY|XAUTHORITY|DBUS_\w*)$")
"""Variables a recorded ``env`` may not set: the dynamic loader's and the C library's (they run code
or read files before any program starts), the shell's start-up ones, the sandbox's own, those
that make an interpreter load code of their naming, and those reaching out of the sandbox."""
ENV_NAME_SHAPE = re.compile(r"^[A-Z][A-Z0-9_]{0,63}$")
OFF_LIMITS = frozenset({".git", "labels", "rescores", "predictions"})
"""Folders of a session no staged path may reach into: git's, the reviewers' labels, the re-score
records, the judges' predictions (another reviewer's blind verdicts, a remote's token)."""

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
    """Manifest-relative paths as sessions-root refs, each inside the run's own session and outside
    its ``.git``, ``labels``, ``rescores`` and ``predictions`` (a staged path is read into the
    sandbox, whose output is saved and shown)."""
    session = run_dir.split("/", 1)[0]
    out = []
    for v in values:
        try:
            ref = lexically_inside(run_dir, v)
        except Unreadable as exc:
            raise Defect(f"`{where}`: {v!r}: {exc}") from None
        out.append(own_session(session, ref, v, where))
    return tuple(out)


def own_session(session: str, ref: str, written: str, where: str) -> str:
    """``ref`` when it is inside ``session`` and outside its off-limits folders; Defect otherwise."""
    parts = ref.split("/")
    if parts[0] != session or len(parts) < 2:
        what = "the session folder itself" if parts[0] == session else "outside the run's session"
        raise Defect(f"`{where}`: {written!r} is {what} ({ref or 'the sessions folder'}): a grader's files come "
                     "from its own session")
    hidden = [p for p in parts[1:] if p in OFF_LIMITS or p.startswith(".")]
    if hidden:
        raise Defect(f"`{where}`: {written!r} reaches into {hidden[0]}/ of the session, which no grader may read")
    return ref


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
        if FORBIDDEN_ENV.match(name) or not ENV_NAME_SHAPE.match(name):
            raise Defect(f"`{where}.env.{name}` is not allowed: a recorded environment may set upper-case "
                         "variables a grader reads, never the loader's, the C library's, a shell's start-up or "
                         "an interpreter's code-loading ones")
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
            files=tuple(own_session(run_dir.split("/", 1)[0], s, s, f"{where}.source") for s in sources)
            if files is None else refs(run_dir, files, f"{w}.files"),
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
