"""The record of re-scores: ``<session>/rescores/<reviewer>.toml``, beside the labels.

One file per reviewer (git merges two reviewers' experiments without conflict), one
``[[rescore]]`` table per failure and set of repairs (a re-score with the same repairs
replaces the earlier one), sorted, so the same results give the same bytes. Written like the
labels: the folders made from the sessions root down refusing any link on the way
(:func:`reviewer.store.nofollow.ensure_dir`), a lock, the file re-read and merged, then temp
file, fsync, rename (:func:`reviewer.store.atomic.atomic_write`). A file that cannot be read is
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

import tomli_w

from reviewer.model.check import split_failure_id
from reviewer.model.label import reviewer_file_stem
from reviewer.model.records import record
from reviewer.model.repair import format_repair
from reviewer.store.atomic import atomic_write, clean_stale_temps, folder_lock
from reviewer.store.labels import fallback_root, redirect_reason, writable
from reviewer.store.nofollow import check_dir, ensure_dir
from reviewer.store.tomlfile import BadToml, parse_toml_bytes

if TYPE_CHECKING:  # a record is read at every failure opened; the engine loads with the first re-score
    from reviewer.rescore.engine import Rescore

RESCORES_DIR = "rescores"
RECORD_FORMAT = 1
OUTPUT_KEEP = 32 << 10
FAILING = ("fail", "error")
FILE_CAP = 64 << 20


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
    if not redirect_reason(root, session) and writable(inside):  # where this reviewer's labels go too
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
    """True when this grading's re-score flipped that failure's check."""
    key = failure_id.partition("#")[2].partition(":")[2]
    row = next((c for c in r.checks if c.key == key), None)
    return row is not None and row.recorded in FAILING and row.before in FAILING and row.after == "pass"


def table(rs: list[Rescore], failures: list[str], evidence: dict[str, str]) -> dict[str, Any]:
    """The ``[[rescore]]`` table of one grading's results (they share every run and check)."""
    r = rs[0]
    t: dict[str, Any] = {
        "grading": grading_id(r.failure), "failures": sorted(failures),
        "flipped": sorted(f for f in failures if flips(r, f)), "repairs": [format_repair(x) for x in r.repairs],
        "at": r.at, "evidence": dict(sorted({**evidence, **{x.failure: x.evidence for x in rs}}.items())),
        "command": r.command, "cwd": r.cwd, "runtime": r.runtime, "sandbox": r.sandbox,
        "reproduced": all(x.reproduced for x in rs), "summary": r.summary(),
        "stopped_before": r.stopped_before, "stopped_after": r.stopped_after, "seconds": round(r.seconds, 3),
        "notes": list(r.notes), "limits": r.limits.as_table(),
        "output_before": cut(r.output_before), "output_after": cut(r.output_after),
        "check": [{"key": c.key, "recorded": c.recorded, "before": c.before, "after": c.after, "message": c.message}
                  for c in r.checks],
    }
    if r.exit_before is not None:
        t["exit_before"] = r.exit_before
    if r.exit_after is not None:
        t["exit_after"] = r.exit_after
    return t


def dumps(doc: dict[str, Any]) -> bytes:
    """TOML that reads back exactly (multi-line strings unless a carriage return forbids them)."""
    for multiline in (True, False):
        text = tomli_w.dumps(doc, multiline_strings=multiline)
        try:
            if tomllib.loads(text) == doc:
                return text.encode("utf-8")
        except (tomllib.TOMLDecodeError, ValueError):
            continue
    return tomli_w.dumps(doc).encode("utf-8")


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
    for r in results:
        key = (grading_id(r.failure), tuple(format_repair(x) for x in r.repairs))
        by_session.setdefault(split_failure_id(r.failure)[0], {}).setdefault(key, []).append(r)
    written = []
    for session, groups in sorted(by_session.items()):
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
            ordered = [entries[k] for k in sorted(entries)]
            atomic_write(path, dumps({"format": RECORD_FORMAT, "reviewer": reviewer, "rescore": ordered}))
        written.append(path)
    return written


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
    summary, output = t.get("summary", ""), t.get("output_after", "")
    return Entry(grading, failures, flipped, repairs, at, t.get("reproduced") is True, tuple(rows), reviewer,
                 summary if isinstance(summary, str) else "", output if isinstance(output, str) else "")


def read_entries(root: Path, sessions: list[str]) -> tuple[list[Entry], list[str]]:
    """Every reviewer's re-scores of ``sessions`` (in the folder and in the per-user fallback),
    and the files that could not be read."""
    found: list[Entry] = []
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
                reviewer = str((doc or {}).get("reviewer", path.stem))
                for t in (doc or {}).get("rescore", []):
                    e = entry(t, reviewer)
                    if e is not None:
                        found.append(e)
    return found, errors
