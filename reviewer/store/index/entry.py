"""The entries of the index cache and the lines they are saved as (see :mod:`reviewer.store.index.cache`).

An entry holds one run as parsed and two derived slots (failing checks, evidence fingerprints)
as their stored JSON text, decoded on first use. A line is
``<manifest path>\t<head>\t<details>\t<failing checks>\t<fingerprints>``; heads are parsed in
one batch when the file is loaded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, BinaryIO

from reviewer.model import Check, Run
from reviewer.model.records import record
from reviewer.model.run import LAZY_FIELDS, LazyRun
from reviewer.store.fs.keys import Deps, StatKey
from reviewer.store.index.codec import BadEntry, dumps, encode_body, encode_head, encode_keyed

BAD = (BadEntry, ValueError, TypeError, RecursionError)
"""What decoding a forged or damaged slot can raise."""
CHUNK = 1 << 20
"""The cache file is read this many bytes at a time."""


@record
class Failing:
    """A run's failing checks, in order, and the grader outputs they were parsed from."""

    outputs: Deps
    checks: tuple[tuple[str, Check], ...]


@record(frozen=False)
class Evidence:
    """Evidence fingerprints of a run's failures and the files they were computed from."""

    deps: Deps
    hashes: dict[str, str]


@record(frozen=False)
class Entry:
    """What the index knows about one run: its manifest key, the run, and two slots as text."""

    key: StatKey
    run: Run
    body: str | None = None
    """The run's details as stored, while the run has not read them (saved again as they are)."""
    failing_text: str | None = None
    evidence_text: str | None = None
    evidence: Evidence | None = None
    """The decoded fingerprints, once asked for (``evidence_text`` is then stale until saved)."""
    failing_checked: int = -1
    evidence_checked: int = -1


def read_lines(f: BinaryIO, digest: Any) -> dict[str, bytes]:
    """The rest of the cache file, hashed into ``digest``: its lines by the manifest path (or labels
    mark) before their first tab.

    Read and hashed :data:`CHUNK` bytes at a time: hashed line by line, the hash held the
    interpreter for each of 10,000 short updates (0.5 s of a warm open, beside the UI's start); a
    big update lets go of it, so the file is hashed on the other core.
    """
    stored: dict[str, bytes] = {}
    pending = b""
    while chunk := f.read(CHUNK):
        digest.update(chunk)
        *lines, pending = (pending + chunk).split(b"\n")
        for part in lines:
            remember_line(stored, part + b"\n")
    if pending:
        remember_line(stored, pending)
    return stored


def remember_line(stored: dict[str, bytes], line: bytes) -> None:
    """One line of the file, kept by its name (the text before its first tab)."""
    tab = line.find(b"\t")
    if tab > 0:
        stored[line[:tab].decode("utf-8", "surrogateescape")] = line


def batch_heads(stored: dict[str, bytes]) -> dict[str, object]:
    """The heads (second field) of stored lines, parsed as one JSON array.

    Only heads holding exactly one ``[`` and one ``]`` (at their ends) go into the array, so no
    forged head can spill into its neighbour; others are parsed on their own when looked up.
    Any failure and nothing is batched.
    """
    rels, pieces = [], []
    for rel, line in stored.items():
        start = line.find(b"\t") + 1
        end = line.find(b"\t", start)
        head = line[start:end]
        if end > start and head[:1] == b"[" and head[-1:] == b"]" and head.count(b"[") == 1 and head.count(b"]") == 1:
            rels.append(rel)
            pieces.append(head)
    try:
        heads = json.loads(b"[" + b",".join(pieces) + b"]")
    except (ValueError, RecursionError):
        return {}
    return dict(zip(rels, heads)) if len(heads) == len(rels) else {}


def encode_line(rel: str, entry: Entry) -> str:
    """One index line (with its newline); "" when the run holds values JSON cannot keep."""
    try:
        run = entry.run
        head = dumps([*entry.key, *encode_head(run)])
        body = entry.body if entry.body is not None and not (isinstance(run, LazyRun) and run.filled) else None
        run_text = f"{head}\t{body if body is not None else dumps(encode_body(run))}"
        if entry.evidence_text is None and entry.evidence is not None:
            entry.evidence_text = encode_keyed(entry.evidence.deps, entry.evidence.hashes, run_dir(entry.run))
    except (TypeError, ValueError, RecursionError):
        return ""
    return f"{rel}\t{run_text}\t{entry.failing_text or 'null'}\t{entry.evidence_text or 'null'}\n"


def run_dir(run: Run) -> str:
    """The run's folder, relative to the root."""
    return run.manifest.rpartition("/")[0]


def manifest_fields(root: Path, rel: str) -> tuple[object, ...]:
    """A run's lazy fields read from its manifest (when the stored details did not decode).

    A manifest that no longer parses gives a run without attempts or graders until the next look.
    """
    from reviewer.store.fs.tomlfile import BadToml
    from reviewer.store.fs.untrusted import Unreadable
    from reviewer.store.runs.manifest import BadManifest, load_manifest, run_from_doc

    session, _, rest = rel.partition("/runs/")
    run_id = rest.rpartition("/")[0]
    try:
        run = run_from_doc(load_manifest(root, rel), session, run_id, rel.rpartition("/")[0], rel)
    except (Unreadable, BadToml, BadManifest, RecursionError):
        return ("unknown", "", "", "", (), (), {})
    return tuple(getattr(run, name) for name in LAZY_FIELDS)
