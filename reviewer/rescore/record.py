"""The record of re-scores: ``<session>/rescores/<reviewer>.toml``, beside the labels.

One file per reviewer (git merges two reviewers' experiments without conflict), one
``[[rescore]]`` table per failure and set of repairs (a re-score with the same repairs
replaces the earlier one), and one ``[[observation]]`` table per grading: the program's runs in
its latest control run (:mod:`reviewer.model.observation`), each stream kept as head and tail;
sorted, so the same results give the same bytes. Written like the
labels: the folders made from the sessions root down refusing any link on the way
(:func:`reviewer.store.fs.nofollow.ensure_dir`), a lock, the file re-read and merged, then temp
file, fsync, rename (:func:`reviewer.store.fs.atomic.atomic_write`). A file that cannot be read is
never written over. Where labels are not written into the folder (the example corpus, a folder
inside an installed package or not writable), the record goes to the per-user data folder, as
labels do.

A record is evidence (what ran, with what, and what each check did), never a label.
"""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reviewer.model.check import split_failure_id
from reviewer.model.label import reviewer_file_stem
from reviewer.model.observation import STREAM_CUT, Invocation, Observation
from reviewer.model.records import record
from reviewer.model.repair import format_repair
from reviewer.store.fs.atomic import atomic_write, clean_stale_temps, folder_lock
from reviewer.store.fs.nofollow import check_dir, ensure_dir
from reviewer.store.fs.paths import fallback_root, redirect_reason, writable
from reviewer.store.fs.tomlfile import BadToml, parse_toml_bytes
from reviewer.store.fs.tomlfile import dumps as toml_dumps

if TYPE_CHECKING:  # a record is read at every failure opened; the engine loads with the first re-score
    from reviewer.rescore.engine import Rescore

RESCORES_DIR = "rescores"
RECORD_FORMAT = 1
OUTPUT_KEEP = 32 << 10
FAILING = ("fail", "error")
FILE_CAP = 64 << 20
RUNS_KEPT = 100
"""Runs of the program an observation keeps in the record (the rest are counted as dropped)."""
STREAM_KEPT = {"stdin": (2 << 10, 1 << 10), "stdout": (8 << 10, 4 << 10), "stderr": (2 << 10, 6 << 10)}
"""Characters of each stream an observation keeps in the record: (head, tail)."""


class RecordUnsafe(Exception):
    """The record file exists but cannot be read: it is not written over."""


@record
class Entry:
    """One ``[[rescore]]`` as read back: one grading re-run with one set of repairs."""

    grading: str
    """``<session>/<run>#<grader>``."""
    failures: tuple[str, ...]
    flipped: tuple[str, ...]
    repairs: tuple[str, ...]
    at: str
    reproduced: bool
    checks: tuple[tuple[str, str, str, str], ...]
    """(key, recorded, before, after) for every check of the grader."""
    reviewer: str = ""
    summary: str = ""
    """``3/9 -> 9/9 with key steps->mults`` (for the Evidence strip)."""
    output_after: str = ""
    """The repaired run's output as recorded (for the Grader pane)."""
    stated: str = ""
    """Why the repairs changed what the brief states ("" when they did not): what they flipped is
    evidence for capability, and counts in no re-scored figure."""

    def note(self) -> str:
        """A note to pre-fill when labelling after this re-score."""
        return f"re-scored in the sandbox: {self.summary}" if self.summary else ""

    def check(self, failure_id: str) -> tuple[str, str, str, str] | None:
        """The row of one failure's check, or None when this entry is not about it."""
        if failure_id not in self.failures:
            return None
        key = failure_id.partition("#")[2].partition(":")[2]
        return next((row for row in self.checks if row[0] == key), None)


def grading_id(failure_id: str) -> str:
    """``<session>/<run>#<grader>`` of a failure id."""
    head, _, check = failure_id.partition("#")
    return f"{head}#{check.partition(':')[0]}"


def latest_for(root: Path, failure_id: str) -> Entry | None:
    """The latest re-score of one failure by any reviewer, or None (for the Evidence strip)."""
    found = for_failure(read_entries(root, [failure_id.partition("/")[0]])[0], failure_id)
    return found[0] if found else None


def for_failure(entries: list[Entry], failure_id: str) -> list[Entry]:
    """The entries about one failure, latest first."""
    return sorted((e for e in entries if failure_id in e.failures), key=lambda e: e.at, reverse=True)


def record_dir(root: Path, session: str) -> tuple[Path, Path, str]:
    """(trusted base, its folder for ``session``'s records, that folder relative to the base)."""
    inside = root / session / RESCORES_DIR
    if not redirect_reason(root, root / session) and writable(inside):  # where this reviewer's labels go too
        return root, inside, f"{session}/{RESCORES_DIR}"
    base = fallback_root(root)
    base.mkdir(parents=True, exist_ok=True)
    return base, base / session / RESCORES_DIR, f"{session}/{RESCORES_DIR}"


def record_path(root: Path, session: str, reviewer: str) -> Path:
    """Where ``reviewer``'s re-scores of ``session`` are written."""
    return record_dir(root, session)[1] / f"{reviewer_file_stem(reviewer)}.toml"


def cut(text: str) -> str:
    """Long output kept as its head and tail with a marker between."""
    if len(text) <= 2 * OUTPUT_KEEP:
        return text
    left = len(text) - 2 * OUTPUT_KEEP
    return f"{text[:OUTPUT_KEEP]}\n[... {left} characters left out of the record ...]\n{text[-OUTPUT_KEEP:]}"


def flips(r: Rescore, failure_id: str) -> bool:
    """True when this grading's re-score flipped that failure's check (whatever the repairs changed)."""
    key = failure_id.partition("#")[2].partition(":")[2]
    row = next((c for c in r.checks if c.key == key), None)
    return row is not None and row.recorded in FAILING and row.before in FAILING and row.after == "pass"


def table(rs: list[Rescore], failures: list[str], evidence: dict[str, str]) -> dict[str, Any]:
    """The ``[[rescore]]`` table of one grading's results (they share every run and check)."""
    r = rs[0]
    t: dict[str, Any] = {
        "grading": grading_id(r.failure), "failures": sorted(failures),
        "flipped": [] if r.stated else sorted(f for f in failures if flips(r, f)),
        "repairs": [format_repair(x) for x in r.repairs],
        "at": r.at, "evidence": dict(sorted({**evidence, **{x.failure: x.evidence for x in rs}}.items())),
        "command": r.command, "cwd": r.cwd, "runtime": r.runtime, "sandbox": r.sandbox,
        "reproduced": all(x.reproduced for x in rs), "summary": r.summary(),
        "stopped_before": r.stopped_before, "stopped_after": r.stopped_after, "seconds": round(r.seconds, 3),
        "notes": list(r.notes), "limits": r.limits.as_table(), "memory": r.memory,
        "output_before": cut(r.output_before), "output_after": cut(r.output_after),
        "check": [{"key": c.key, "recorded": c.recorded, "before": c.before, "after": c.after, "message": c.message}
                  for c in r.checks],
    }
    if r.stated:
        t["stated"] = r.stated
        t["flipped_stated"] = sorted(f for f in failures if flips(r, f))
    if r.exit_before is not None:
        t["exit_before"] = r.exit_before
    if r.exit_after is not None:
        t["exit_after"] = r.exit_after
    return t


def dumps(doc: dict[str, Any]) -> bytes:
    """TOML that reads back exactly (multi-line strings unless a carriage return forbids them)."""
    for multiline in (True, False):
        text = toml_dumps(doc, multiline=multiline)
        try:
            if tomllib.loads(text) == doc:
                return text.encode("utf-8")
        except (tomllib.TOMLDecodeError, ValueError):
            continue
    return toml_dumps(doc).encode("utf-8")


def read_doc(path: Path) -> dict[str, Any] | None:
    """The record file's document (None when there is none); RecordUnsafe when unreadable."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(st.st_mode):
        raise RecordUnsafe(f"{path} is not a regular file")
    if st.st_size > FILE_CAP:
        raise RecordUnsafe(f"{path} is over {FILE_CAP >> 20} MiB")
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(FILE_CAP + 1)
    try:
        doc = parse_toml_bytes(data)
    except BadToml as exc:
        raise RecordUnsafe(f"{path} {exc}; it is not written over") from None
    if doc.get("format") != RECORD_FORMAT or not isinstance(doc.get("rescore", []), list):
        raise RecordUnsafe(f"{path} is not a format-{RECORD_FORMAT} rescores file; it is not written over")
    return doc


def save(root: Path, reviewer: str, results: list[Rescore] | tuple[Rescore, ...]) -> list[Path]:
    """Merge ``results`` into each session's record of ``reviewer``; returns the files written.

    Raises RecordUnsafe (a file that cannot be read) or OSError (a link on the way, a full disk).
    """
    by_session: dict[str, dict[tuple[str, tuple[str, ...]], list[Rescore]]] = {}
    seen: dict[str, list[Observation]] = {}
    for r in results:
        key = (grading_id(r.failure), tuple(format_repair(x) for x in r.repairs))
        by_session.setdefault(split_failure_id(r.failure)[0], {}).setdefault(key, []).append(r)
        if r.observation is not None:
            seen.setdefault(split_failure_id(r.failure)[0], []).append(r.observation)
    written = []
    for session, groups in sorted(by_session.items()):
        written.append(write_session(root, session, reviewer, groups, seen.get(session, [])))
    return written


def save_observations(root: Path, reviewer: str, observations: list[Observation]) -> list[Path]:
    """Merge observations (``reviewer rescore --observe``) into each session's record of
    ``reviewer``; returns the files written. Raises like :func:`save`."""
    by_session: dict[str, list[Observation]] = {}
    for o in observations:
        by_session.setdefault(o.grading.partition("/")[0], []).append(o)
    return [write_session(root, session, reviewer, {}, obs) for session, obs in sorted(by_session.items())]


def write_session(root: Path, session: str, reviewer: str, groups: dict[tuple[str, tuple[str, ...]], list[Rescore]],
                  observations: list[Observation]) -> Path:
    """Merge one session's re-scores and observations into ``reviewer``'s record of it."""
    base, _, rel = record_dir(root, session)
    folder = ensure_dir(base, rel)
    path = folder / f"{reviewer_file_stem(reviewer)}.toml"
    with folder_lock(folder):
        clean_stale_temps(folder)
        doc = read_doc(path) or {"format": RECORD_FORMAT, "reviewer": reviewer, "rescore": []}
        entries = {(str(t.get("grading")), tuple(map(str, t.get("repairs", [])))): t for t in doc.get("rescore", [])
                   if isinstance(t, dict)}
        for key, rs in groups.items():
            before = entries.get(key, {})
            old = strings(before.get("failures")) or ()
            found = before.get("evidence")
            evidence: dict[Any, Any] = found if isinstance(found, dict) else {}
            failures = {x.failure for x in rs} | set(old)
            entries[key] = table(rs, sorted(failures), {str(k): str(v) for k, v in evidence.items()})
        watched = {str(t.get("grading")): t for t in doc.get("observation", []) if isinstance(t, dict)}
        for o in observations:
            watched[o.grading] = observation_table(o)
        out: dict[str, Any] = {"format": RECORD_FORMAT, "reviewer": reviewer, "rescore": [entries[k] for k in sorted(entries)]}
        if watched:
            out["observation"] = [watched[k] for k in sorted(watched)]
        atomic_write(path, dumps(out))
    return path


def kept(text: str, head: int, tail: int) -> str:
    """A stream kept as its head and tail (with the cut marker) when longer than both."""
    if len(text) <= head + tail + len(STREAM_CUT):
        return text
    return text[:head] + STREAM_CUT + text[-tail:]


def observation_table(o: Observation) -> dict[str, Any]:
    """The ``[[observation]]`` table of one grading's observed control run."""
    runs = []
    for i in o.invocations[:RUNS_KEPT]:
        streams = {name: kept(getattr(i, name), *caps) for name, caps in STREAM_KEPT.items()}
        cut = sorted(set(i.cut) | {n for n in streams if streams[n] != getattr(i, n)})
        row: dict[str, Any] = {"argv": list(i.argv), **streams, "test": i.test, "cut": cut, "seconds": round(i.seconds, 4)}
        if i.exit_status is not None:
            row["exit_status"] = i.exit_status
        runs.append(row)
    t: dict[str, Any] = {"grading": o.grading, "program": o.program, "at": o.at, "stopped": o.stopped,
                         "dropped": o.dropped + max(0, len(o.invocations) - RUNS_KEPT), "run": runs}
    if o.exit_status is not None:
        t["exit_status"] = o.exit_status
    return t


def observation_of(t: Any, reviewer: str) -> Observation | None:
    """One ``[[observation]]`` table read back, or None when it is not one this program writes."""
    if not isinstance(t, dict):
        return None
    grading, program, at, runs = t.get("grading"), t.get("program"), t.get("at"), t.get("run", [])
    if not isinstance(grading, str) or not isinstance(program, str) or not isinstance(at, str) or not isinstance(runs, list):
        return None
    out = []
    for r in runs[:RUNS_KEPT]:
        argv = strings(r.get("argv")) if isinstance(r, dict) else None
        if argv is None:
            continue
        assert isinstance(r, dict)
        status = r.get("exit_status")
        seconds = r.get("seconds", 0.0)
        texts = {k: r.get(k, "") if isinstance(r.get(k, ""), str) else "" for k in ("stdin", "stdout", "stderr", "test")}
        out.append(Invocation(argv, texts["stdin"], texts["stdout"], texts["stderr"],
                              status if isinstance(status, int) and not isinstance(status, bool) else None, texts["test"],
                              strings(r.get("cut", [])) or (),
                              float(seconds) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else 0.0))
    status, dropped, stopped = t.get("exit_status"), t.get("dropped", 0), t.get("stopped", "")
    return Observation(grading, program, at, tuple(out), dropped if isinstance(dropped, int) else 0,
                       status if isinstance(status, int) and not isinstance(status, bool) else None,
                       stopped if isinstance(stopped, str) else "", reviewer)


def strings(value: Any) -> tuple[str, ...] | None:
    """A list of strings, or None."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None
    return tuple(value)


def entry(t: Any, reviewer: str) -> Entry | None:
    """One table read back, or None when it is not one this program writes."""
    if not isinstance(t, dict):
        return None
    grading, at = t.get("grading"), t.get("at")
    failures, flipped, repairs = strings(t.get("failures")), strings(t.get("flipped", [])), strings(t.get("repairs"))
    checks = t.get("check", [])
    if not isinstance(grading, str) or not isinstance(at, str) or failures is None or flipped is None \
            or repairs is None or not isinstance(checks, list):
        return None
    rows = []
    for c in checks:
        if isinstance(c, dict) and all(isinstance(c.get(k), str) for k in ("key", "recorded", "before", "after")):
            rows.append((c["key"], c["recorded"], c["before"], c["after"]))
    summary, output, stated = t.get("summary", ""), t.get("output_after", ""), t.get("stated", "")
    return Entry(grading, failures, () if stated else flipped, repairs, at, t.get("reproduced") is True, tuple(rows),
                 reviewer, summary if isinstance(summary, str) else "", output if isinstance(output, str) else "",
                 stated if isinstance(stated, str) else "changes what the brief states")


def owner(doc: dict[str, Any], path: Path, errors: list[str]) -> str:
    """Whose record a file is: the reviewer its own name belongs to. A file may say anything in its
    ``reviewer`` key (a received ``mallory.toml`` claiming to be ann's): a name that does not match
    the file's is reported and the file counted as the file name's, never as the name it claims."""
    claimed = doc.get("reviewer")
    if isinstance(claimed, str) and reviewer_file_stem(claimed) == path.stem:
        return claimed
    if isinstance(claimed, str):
        errors.append(f"{path}: says it is {claimed}'s re-score record, but that reviewer's file is "
                      f"{reviewer_file_stem(claimed)}.toml: counted as {path.stem}'s")
    return path.stem


def read_entries(root: Path, sessions: list[str]) -> tuple[list[Entry], list[str]]:
    """Every reviewer's re-scores of ``sessions`` (in the folder and in the per-user fallback),
    and the files that could not be read."""
    entries, _, errors = read_records(root, sessions)
    return entries, errors


def latest_observation(root: Path, grading: str) -> Observation | None:
    """The latest observation of one grading (``<session>/<run>#<grader>``) by any reviewer."""
    _, observed, _ = read_records(root, [grading.partition("/")[0]])
    mine = [o for o in observed if o.grading == grading]
    return max(mine, key=lambda o: o.at) if mine else None


def read_records(root: Path, sessions: list[str]) -> tuple[list[Entry], list[Observation], list[str]]:
    """Every reviewer's re-scores and observations of ``sessions`` (in the folder and in the
    per-user fallback), and the files that could not be read."""
    found: list[Entry] = []
    observed: list[Observation] = []
    errors: list[str] = []
    for session in sessions:
        folders = []
        for base in (root, fallback_root(root)):
            try:
                folders.append(check_dir(base, f"{session}/{RESCORES_DIR}"))
            except FileNotFoundError:
                continue
            except OSError as exc:
                errors.append(str(exc))
        for folder in dict.fromkeys(folders):
            for path in sorted(folder.glob("*.toml")):
                try:
                    doc = read_doc(path)
                except (RecordUnsafe, OSError) as exc:
                    errors.append(str(exc))
                    continue
                reviewer = owner(doc or {}, path, errors)
                for t in (doc or {}).get("rescore", []):
                    e = entry(t, reviewer)
                    if e is not None:
                        found.append(e)
                tables = (doc or {}).get("observation", [])
                for t in tables if isinstance(tables, list) else []:
                    o = observation_of(t, reviewer)
                    if o is not None:
                        observed.append(o)
    return found, observed, errors
