"""Reading ATIF trajectories (Harbor's Agent Trajectory Interchange Format, RFC 0001) one at a time.

A trajectory is a JSON object ``{schema_version: "ATIF-v1.x", session_id, trajectory_id, agent,
steps[], notes, final_metrics, continued_trajectory_ref, extra, subagent_trajectories[]}``; this
reader knows versions 1.0 to 1.8 and reads a newer 1.x as far as it knows it (with a note).
Everything is read without trusting it:

- a source is a file or a folder; every file is opened relative to a descriptor of the folder
  it was found in (:func:`reviewer.store.logs.sources.open_inside`): no link is followed, no
  ``..`` or absolute path is opened, a FIFO or device is never opened;
- a trajectory is read within a budget (:data:`TRAJECTORY_CAPS`: at most :data:`MAX_STEPS`
  steps and :data:`MAX_SUBAGENTS` embedded subagents kept, a document past the fast budget
  walked rather than parsed whole, see :mod:`reviewer.store.logs.boundedjson`); what was left
  out comes back as notes;
- a continuation (``continued_trajectory_ref``) and a subagent file
  (``subagent_trajectory_ref[].trajectory_path``) are read only when they name a file in the
  trajectory's own folder (a bare name or a path below it); anything else (a URL, ``..``, an
  absolute path, a link) is named in a note and not read. At most :data:`MAX_SEGMENTS`
  continuation segments and :data:`MAX_SUBAGENT_FILES` subagent files per run;
- the Harbor trial folder around ``<trial>/agent/<trajectory>.json`` (``result.json``,
  ``verifier/reward.json`` or ``reward.txt``, ``verifier/test-stdout.txt``) is read when it is
  there: the RFC defines no reward or verifier field, so this is where a trajectory's outcome
  lives. A multi-step trial (``<trial>/steps/<step>/agent/``) takes its step's verifier folder
  and its ``step_results`` entry.

:func:`find_trajectories` lists the trajectories of a folder without parsing them (a file is one
when its name starts with ``trajectory`` or its first 64 KiB name an ATIF ``schema_version``);
a file another trajectory names as its continuation or subagent is read with that one, not as a
run of its own. :func:`read_trajectory` reads one; :func:`iter_trajectories` yields them one at
a time. Nothing here builds runs: :mod:`reviewer.store.logs.atif` does.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import stat
from collections.abc import Iterator
from dataclasses import field
from pathlib import Path
from typing import Any

from reviewer.model.records import record
from reviewer.store.logs.boundedjson import Caps, read_object
from reviewer.store.logs.ids import as_text, list_at, table_at
from reviewer.store.logs.sources import (
    SKIP_DIRS,
    SOURCE_CAP,
    LinkRefused,
    open_folder,
    open_inside,
    read_fd,
)
from reviewer.store.logs.spec import ImportFailed, NotFormat

VERSION = re.compile(r"^ATIF-v(\d{1,4})\.(\d{1,4})$")
NEWEST = (1, 8)
"""The newest version this reader knows (Harbor 0.26's models accept ATIF-v1.0 to ATIF-v1.8)."""
MAX_STEPS = 10_000
MAX_SUBAGENTS = 200
MAX_SEGMENTS = 20
MAX_SUBAGENT_FILES = 100
MAX_DEPTH = 3
TRAJECTORY_CAPS = Caps(members={"steps": MAX_STEPS, "subagent_trajectories": MAX_SUBAGENTS})
SIDE_CAPS = Caps(fast_values=200_000, fast_bytes=16 << 20, values=200_000, bytes=16 << 20)
RESULT_CAP = 16 << 20
OUTPUT_CAP = 8 << 20
SNIFF = 64 << 10
CHUNK = 1 << 20
MAX_REFS = 10_000
SNIFFED = re.compile(rb'"schema_version"\s*:\s*"ATIF-')
REF_KEYS = (b'"trajectory_path"', b'"continued_trajectory_ref"')
REF_VALUE = re.compile(rb'\s*:\s*("(?:[^"\\]|\\.){0,4096}")')
HARBOR_FILES = frozenset({"result.json", "config.json", "lock.json", "reward.json", "manifest.json"})
"""JSON files a Harbor job or trial folder holds beside its trajectories (never listed as skipped)."""


@record(frozen=False, slots=False)
class TrialInfo:
    """What the Harbor trial folder around a trajectory holds.

    Attributes:
        folder: the trial folder, as shown (relative to the source).
        step: the step's name in a multi-step trial, else "".
        result: ``result.json`` (``{}`` when absent), read within a budget.
        rewards: the verifier's rewards (``verifier_result.rewards``, else ``reward.json``, else
            ``reward.txt`` as ``{"reward": value}``), None when there is no verifier result.
        reward_source: which file the rewards came from.
        stdout, stderr: ``verifier/test-stdout.txt`` and ``test-stderr.txt`` (capped).
        notes: what could not be read, and why.
    """

    folder: str
    step: str = ""
    result: dict[str, Any] = field(default_factory=dict)
    rewards: dict[str, Any] | None = None
    reward_source: str = ""
    stdout: str = ""
    stderr: str = ""
    notes: list[str] = field(default_factory=list)

    def exception(self) -> dict[str, Any]:
        """The trial's (or its step's) ``exception_info``, ``{}`` when none."""
        found = table_at(self.step_result(), "exception_info") if self.step else {}
        return found or table_at(self.result, "exception_info")

    def step_result(self) -> dict[str, Any]:
        """The ``step_results`` entry of this step (multi-step trials), ``{}`` otherwise."""
        for entry in list_at(self.result, "step_results"):
            if isinstance(entry, dict) and as_text(entry.get("step_name")) == self.step:
                return entry
        return {}


@record(frozen=False, slots=False)
class AtifTrajectory:
    """One trajectory with the files that belong to it.

    Attributes:
        source: the file, as shown (the source folder's name, then the path below it).
        doc: the root trajectory, read within :data:`TRAJECTORY_CAPS`.
        version: (major, minor) of ``schema_version``.
        segments: continuation segments after the root, in order: (shown name, document).
        subagents: subagent trajectories read from files: ref path as written -> document.
        trial: the Harbor trial folder around it, or None.
        notes: what reading left out or could not read, and why.
    """

    source: str
    doc: dict[str, Any]
    version: tuple[int, int]
    segments: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    subagents: dict[str, dict[str, Any]] = field(default_factory=dict)
    trial: TrialInfo | None = None
    notes: list[str] = field(default_factory=list)


@record(frozen=False, slots=False)
class Found:
    """What :func:`find_trajectories` found in a folder.

    Attributes:
        base: the folder the paths are relative to.
        roots: trajectories that are runs (relative paths, sorted).
        parts: trajectories read as another one's continuation or subagent.
        skipped: files not taken, with the reason (Harbor's own JSON files are not listed).
    """

    base: str
    roots: list[str] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def version_of(value: object) -> tuple[int, int] | None:
    """(major, minor) of an ``ATIF-vX.Y`` string, None for anything else."""
    m = VERSION.match(value) if isinstance(value, str) else None
    return (int(m.group(1)), int(m.group(2))) if m else None


def parse_trajectory(data: bytes | bytearray, what: str, caps: Caps = TRAJECTORY_CAPS) -> tuple[dict[str, Any], tuple[int, int], list[str]]:
    """(document, version, notes) of ATIF JSON bytes; NotFormat when they are not a trajectory."""
    doc, notes = read_object(data, what, caps)
    version = version_of(doc.get("schema_version"))
    if version is None:
        if "schema_version" in doc:
            raise NotFormat(f"`schema_version` is {as_text(doc.get('schema_version'))[:40]!r}, not \"ATIF-v<major>.<minor>\"")
        if isinstance(doc.get("trajectory_format"), str) or isinstance(doc.get("messages"), list):
            raise NotFormat("no ATIF `schema_version`; this looks like a mini-swe-agent trajectory (use the mini-swe-agent format)")
        if isinstance(doc.get("history"), list) or isinstance(doc.get("attempts"), list):
            raise NotFormat("no ATIF `schema_version`; this looks like a SWE-agent trajectory (use the swe-agent format)")
        raise NotFormat("no ATIF `schema_version` (\"ATIF-v1.x\")")
    if not isinstance(doc.get("steps"), list):
        raise NotFormat("`steps` is missing or not a list")
    if version[0] != NEWEST[0] or version > NEWEST:
        notes.append(f"schema version ATIF-v{version[0]}.{version[1]} is newer than this reader knows (up to "
                     f"ATIF-v{NEWEST[0]}.{NEWEST[1]}): what it does not know is kept as metadata")
    if not isinstance(doc.get("agent"), dict):
        notes.append("the trajectory has no `agent` object (ATIF requires one)")
    if not doc["steps"]:
        notes.append("the trajectory has no steps (ATIF requires at least one)")
    return doc, version, notes


# ---- files inside the source ------------------------------------------------------------


def shown_name(base: str, rel: str) -> str:
    """How a file is named in messages: the source folder's name, then the path below it."""
    name = Path(base).name
    return f"{name}/{rel}" if name and name not in (".", "..") else rel


def inside(rel_dir: str, ref: str) -> str | None:
    """The path of ``ref`` (as a trajectory wrote it) relative to the source, when it names a file
    in the trajectory's folder or below it; None for a URL, an absolute path or one with ``..``."""
    if not ref or "://" in ref or ref.startswith(("/", "\\", "~")) or "\\" in ref or "\x00" in ref or len(ref) > 1000:
        return None
    parts = [p for p in ref.split("/") if p not in ("", ".")]
    if not parts or ".." in parts or (len(parts[0]) > 1 and parts[0][1] == ":"):
        return None
    return posixpath.join(rel_dir, *parts) if rel_dir else "/".join(parts)


def read_inside(base_fd: int, rel: str, shown: str, cap: int) -> bytes | None:
    """The bytes of ``rel`` below the source folder, None when there is no such file (or folder on
    the way); ImportFailed (a link, a FIFO, too large ...) otherwise."""
    try:
        fd = open_inside(base_fd, rel, shown)
    except LinkRefused:
        raise
    except ImportFailed as exc:
        if str(exc).endswith(("no such file", "No such file or directory")):
            return None
        raise
    return read_fd(fd, shown, cap)


def side_text(base_fd: int, rel: str, shown: str, cap: int, notes: list[str]) -> str:
    """A text file beside a trajectory (UTF-8, bad bytes replaced, cut at ``cap`` with a marker); "" when absent."""
    try:
        data = read_inside(base_fd, rel, shown, SOURCE_CAP)
    except ImportFailed as exc:
        notes.append(f"{shown}: not read: {str(exc).partition(': ')[2] or exc}")
        return ""
    if data is None:
        return ""
    text = data[:cap].decode("utf-8", "replace").removeprefix("\ufeff")
    if len(data) > cap:
        text += f"\n\u2026[truncated: {len(data) - cap:,} more bytes of {shown}]"
    return text


def side_json(base_fd: int, rel: str, shown: str, notes: list[str]) -> Any:
    """A JSON document beside a trajectory (within a budget), None when absent or unreadable (noted)."""
    try:
        data = read_inside(base_fd, rel, shown, RESULT_CAP)
    except ImportFailed as exc:
        notes.append(f"{shown}: not read: {str(exc).partition(': ')[2] or exc}")
        return None
    if data is None:
        return None
    stripped = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not stripped.startswith(b"{"):
        try:
            return json.loads(stripped.decode("utf-8"))
        except (ValueError, RecursionError):
            notes.append(f"{shown}: not valid JSON")
            return None
    try:
        doc, cuts = read_object(data, shown, SIDE_CAPS)
    except NotFormat as exc:
        notes.append(f"{shown}: {exc.reason}")
        return None
    notes.extend(cuts)
    return doc


def numeric_rewards(value: Any) -> dict[str, Any] | None:
    """A rewards table whose values are numbers (a non-number is kept as text: it is shown, not scored)."""
    if not isinstance(value, dict) or not value:
        return None
    return {as_text(k): v if isinstance(v, (int, float)) and not isinstance(v, bool) else as_text(v) for k, v in value.items()}


def read_trial(base_fd: int, base: str, rel: str) -> TrialInfo | None:
    """The Harbor trial folder around ``<trial>/agent/<name>.json``; None when ``rel`` is not in one
    or the folder holds no result and no verifier output."""
    parts = rel.split("/")
    if len(parts) < 2 or parts[-2] != "agent":
        return None
    trial_parts = parts[:-2]
    step = ""
    root_parts = trial_parts
    if len(trial_parts) >= 2 and trial_parts[-2] == "steps":
        step, root_parts = trial_parts[-1], trial_parts[:-2]

    def at(*names: str, under: list[str] = trial_parts) -> str:
        return "/".join([*under, *names])

    info = TrialInfo(shown_name(base, "/".join(root_parts)) if root_parts else Path(base).name or ".", step)
    result = side_json(base_fd, at("result.json", under=root_parts), shown_name(base, at("result.json", under=root_parts)), info.notes)
    info.result = result if isinstance(result, dict) else {}
    if result is not None and not isinstance(result, dict):
        info.notes.append(f"{shown_name(base, at('result.json', under=root_parts))}: not a JSON object")
    verifier = table_at(info.step_result(), "verifier_result") if step else table_at(info.result, "verifier_result")
    if verifier.get("rewards") is not None:
        info.rewards = numeric_rewards(verifier.get("rewards"))
        info.reward_source = "result.json verifier_result.rewards"
    if info.rewards is None:
        found = side_json(base_fd, at("verifier", "reward.json"), shown_name(base, at("verifier", "reward.json")), info.notes)
        if isinstance(found, dict):
            info.rewards = numeric_rewards(found)
            info.reward_source = "verifier/reward.json"
        elif found is not None:
            info.rewards = numeric_rewards({"reward": found})
            info.reward_source = "verifier/reward.json"
    if info.rewards is None:
        text = side_text(base_fd, at("verifier", "reward.txt"), shown_name(base, at("verifier", "reward.txt")), 1000, info.notes).strip()
        if text:
            try:
                value: Any = float(text)
            except ValueError:
                value = text
            info.rewards = numeric_rewards({"reward": value})
            info.reward_source = "verifier/reward.txt"
    info.stdout = side_text(base_fd, at("verifier", "test-stdout.txt"), shown_name(base, at("verifier", "test-stdout.txt")), OUTPUT_CAP, info.notes)
    info.stderr = side_text(base_fd, at("verifier", "test-stderr.txt"), shown_name(base, at("verifier", "test-stderr.txt")), OUTPUT_CAP, info.notes)
    if not info.result and info.rewards is None and not info.stdout and not info.stderr and not info.notes:
        return None
    return info


def subagent_paths(doc: dict[str, Any]) -> list[str]:
    """Every ``trajectory_path`` a trajectory's observations name (embedded subagents' too), in order."""
    found: list[str] = []
    docs = [doc, *[s for s in list_at(doc, "subagent_trajectories") if isinstance(s, dict)]]
    for one in docs:
        for step in list_at(one, "steps"):
            for result in list_at(table_at(step, "observation"), "results"):
                for ref in list_at(result, "subagent_trajectory_ref"):
                    path = ref.get("trajectory_path") if isinstance(ref, dict) else None
                    if isinstance(path, str) and path not in found:
                        found.append(path)
    return found


def read_trajectory(base: str, rel: str) -> AtifTrajectory:
    """The trajectory ``rel`` below the folder ``base``, with its continuations, subagent files and
    trial folder; NotFormat (naming the file) when it is not a trajectory, ImportFailed when it cannot be read."""
    shown = shown_name(base, rel)
    base_fd = open_folder(Path(base))
    try:
        data = read_inside(base_fd, rel, shown, SOURCE_CAP)
        if data is None:
            raise ImportFailed(f"{shown}: no such file")
        try:
            doc, version, notes = parse_trajectory(data, "the trajectory")
        except NotFormat as exc:
            raise exc.about(shown) from None
        del data
        found = AtifTrajectory(shown, doc, version, notes=[f"{shown}: {n}" for n in notes])
        rel_dir = posixpath.dirname(rel)
        read_segments(base_fd, base, rel, rel_dir, found)
        read_subagent_files(base_fd, base, rel_dir, found)
        found.trial = read_trial(base_fd, base, rel)
        if found.trial is not None:
            found.notes.extend(found.trial.notes)
        return found
    finally:
        os.close(base_fd)


def read_part(base_fd: int, base: str, rel: str, what: str, notes: list[str]) -> dict[str, Any] | None:
    """A continuation or subagent file (a trajectory of its own), None when it cannot be read (noted)."""
    shown = shown_name(base, rel)
    try:
        data = read_inside(base_fd, rel, shown, SOURCE_CAP)
    except ImportFailed as exc:
        notes.append(f"{what} {shown}: not read: {str(exc).partition(': ')[2] or exc}")
        return None
    if data is None:
        notes.append(f"{what} {shown}: no such file beside the trajectory")
        return None
    try:
        doc, _version, cuts = parse_trajectory(data, shown)
    except NotFormat as exc:
        notes.append(f"{what} {shown}: not read: {exc.reason}")
        return None
    notes.extend(f"{shown}: {c}" for c in cuts)
    return doc


def read_segments(base_fd: int, base: str, rel: str, rel_dir: str, found: AtifTrajectory) -> None:
    """Follow ``continued_trajectory_ref`` from the root (at most MAX_SEGMENTS, never a file twice)."""
    seen = {rel}
    doc = found.doc
    while isinstance(doc.get("continued_trajectory_ref"), str) and doc["continued_trajectory_ref"]:
        ref = doc["continued_trajectory_ref"]
        target = inside(rel_dir, ref)
        if target is None:
            found.notes.append(f"continuation {as_text(ref)[:200]!r}: not read (not a file in the trajectory's folder)")
            return
        if target in seen:
            found.notes.append(f"continuation {shown_name(base, target)}: already read (a loop of continuations)")
            return
        if len(found.segments) >= MAX_SEGMENTS:
            found.notes.append(f"more than {MAX_SEGMENTS} continuation segments: the rest not read")
            return
        seen.add(target)
        part = read_part(base_fd, base, target, "continuation", found.notes)
        if part is None:
            return
        found.segments.append((shown_name(base, target), part))
        doc = part


def read_subagent_files(base_fd: int, base: str, rel_dir: str, found: AtifTrajectory) -> None:
    """Read the subagent files the trajectory (and its segments, and those files, MAX_DEPTH deep) name."""
    queue = [(p, 1) for d in [found.doc, *(s for _n, s in found.segments)] for p in subagent_paths(d)]
    while queue:
        ref, depth = queue.pop(0)
        if ref in found.subagents:
            continue
        target = inside(rel_dir, ref)
        if target is None:
            found.notes.append(f"subagent {as_text(ref)[:200]!r}: not read (not a file in the trajectory's folder)")
            continue
        if len(found.subagents) >= MAX_SUBAGENT_FILES:
            found.notes.append(f"more than {MAX_SUBAGENT_FILES} subagent files: the rest not read")
            return
        part = read_part(base_fd, base, target, "subagent", found.notes)
        if part is None:
            continue
        found.subagents[ref] = part
        if depth < MAX_DEPTH:
            queue.extend((p, depth + 1) for p in subagent_paths(part))


# ---- finding the trajectories of a folder -------------------------------------------------


def refs_in(fd: int, candidate: bool = True) -> tuple[bool, list[str]]:
    """(looks like ATIF, the continuation and subagent paths it names) of an open file, read a
    megabyte at a time (closed afterwards). Names are found by their key, not by parsing. A file
    that is not a ``candidate`` by its name is read no further than its first 64 KiB when they
    do not look like ATIF."""
    refs: dict[str, None] = {}
    head = b""
    tail = b""
    try:
        while True:
            chunk = os.read(fd, CHUNK)
            if not chunk:
                break
            if len(head) < SNIFF:
                head += chunk[: SNIFF - len(head)]
                if len(head) >= SNIFF and not candidate and SNIFFED.search(head) is None:
                    break
            window = tail + chunk
            for key in REF_KEYS:
                at = window.find(key)
                while at >= 0:
                    m = REF_VALUE.match(window, at + len(key))
                    if m is not None:
                        try:
                            value = json.loads(m.group(1))
                        except ValueError:
                            value = None
                        if isinstance(value, str) and len(refs) < MAX_REFS:
                            refs[value] = None
                    at = window.find(key, at + 1)
            tail = chunk[-(4200 + 40):]
    except OSError:
        pass
    finally:
        os.close(fd)
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return stripped.startswith(b"{") and SNIFFED.search(head) is not None, list(refs)


def base_of(path: Path) -> tuple[str, str]:
    """(folder, path below it) for a source file: a trajectory in a Harbor ``agent/`` folder is
    read from the trial folder (so its ``result.json`` and ``verifier/`` are inside)."""
    if path.parent.name == "agent":
        return str(path.parent.parent), f"agent/{path.name}"
    return str(path.parent), path.name


def folder_base(path: Path) -> tuple[str, str]:
    """(folder, prefix) for a source folder: an ``agent/`` folder is read from its trial folder."""
    if path.name == "agent" and str(path.parent) != str(path):
        return str(path.parent), "agent"
    return str(path), ""


def find_trajectories(folder: Path) -> Found:
    """The trajectories below ``folder`` (no link followed, hidden and VCS folders skipped); NotFormat
    never: a file that is not one is listed as skipped."""
    base, prefix = folder_base(folder)
    out = Found(base)
    candidates: list[str] = []
    named: dict[str, list[str]] = {}
    try:
        root_fd = open_folder(folder)
    except ImportFailed:
        raise ImportFailed(f"{folder}: not a folder") from None
    os.close(root_fd)
    for here, dirs, names, dir_fd in os.fwalk(folder, follow_symlinks=False):
        below = os.path.relpath(here, folder).replace(os.sep, "/")
        rel_dir = "/".join(p for p in (prefix, "" if below == "." else below) if p)
        keep = []
        for d in sorted(dirs):
            if d in SKIP_DIRS or d.startswith("."):
                continue
            try:
                is_link = stat.S_ISLNK(os.lstat(d, dir_fd=dir_fd).st_mode)
            except OSError:
                continue
            if is_link:
                out.skipped.append(f"{posixpath.join(rel_dir, d)}/: a symbolic link (not followed)")
            else:
                keep.append(d)
        dirs[:] = keep
        for name in sorted(names):
            if not name.endswith(".json"):
                continue
            rel = posixpath.join(rel_dir, name) if rel_dir else name
            try:
                st = os.lstat(name, dir_fd=dir_fd)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode):
                if stat.S_ISLNK(st.st_mode) or name.startswith("trajectory"):
                    out.skipped.append(f"{rel}: {'a symbolic link (not followed)' if stat.S_ISLNK(st.st_mode) else 'not a regular file'}")
                continue
            try:
                fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
            except OSError as exc:
                out.skipped.append(f"{rel}: cannot open: {exc.strerror or exc}")
                continue
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                continue
            looks, refs = refs_in(fd, name.startswith("trajectory"))
            if looks or name.startswith("trajectory"):
                candidates.append(rel)
                named[rel] = refs
            elif name not in HARBOR_FILES:
                out.skipped.append(f"{rel}: not an ATIF trajectory (no ATIF schema_version at its start)")
    roots, parts = roots_of(candidates, named)
    out.roots, out.parts = roots, parts
    return out


def roots_of(candidates: list[str], refs: dict[str, list[str]]) -> tuple[list[str], list[str]]:
    """(runs, parts): a trajectory no other one names is a run, and so is the first of a group that
    only name each other (a loop; a ``trajectory.json`` first); every file the runs reach through
    their names is a part."""
    edges = {rel: [t for t in (inside(posixpath.dirname(rel), r) for r in refs.get(rel, [])) if t is not None and t != rel] for rel in candidates}
    named = {t for targets in edges.values() for t in targets}
    roots = sorted(r for r in candidates if r not in named)
    reached: set[str] = set()

    def reach(start: str) -> None:
        stack = [start]
        while stack:
            here = stack.pop()
            if here in reached:
                continue
            reached.add(here)
            stack.extend(t for t in edges.get(here, []) if t not in reached)

    for root in roots:
        reach(root)
    for rel in sorted(candidates, key=lambda r: (posixpath.basename(r) != "trajectory.json", r)):
        if rel not in reached:
            roots.append(rel)
            reach(rel)
    return sorted(roots), sorted(r for r in candidates if r not in roots)


def iter_trajectories(units: list[tuple[str, str]]) -> Iterator[AtifTrajectory]:
    """Each (folder, path below it) read in turn, one in memory at a time."""
    for base, rel in units:
        yield read_trajectory(base, rel)
