"""The evidence fingerprint: a hash of what a reviewer judged when labelling a failure.

The fingerprint is sha256 over, in order: the brief, the failing check, the graded attempt's
files (sorted by path) and the grader output (timings removed). Everything but the check is
shared by the failures of a run, so it is read and prepared once per run (:class:`Context`):
the hash state after the brief is copied, the check added, then the prepared bytes of files and
output. Fingerprints are kept in the index cache, keyed by every file they hash.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from reviewer.model import Failure, Run
from reviewer.model.records import record
from reviewer.store.index.codec import hashed_refs
from reviewer.store.fs.keys import Deps, dep_keys
from reviewer.store.sessions.protocol import Store

DURATION = re.compile(r"\(\d+(?:\.\d+)?m?s\)|\b\d+\.\d+s\b|\"Elapsed\":\s*[0-9.]+|\"Time\":\s*\"[^\"]*\"")


def normalise_output(text: str) -> str:
    """Drop timings so re-running an unchanged grader does not make labels stale."""
    return DURATION.sub("", text)


def part(name: str, text: str) -> bytes:
    """One hashed part: its name, its length and its bytes."""
    data = text.encode("utf-8", "surrogatepass")
    return f"{name}\x00{len(data)}\x00".encode() + data


@record
class Context:
    """What the failures of one run share: the hash state after the brief, each grader's files."""

    run: Run
    deps: Deps | None
    head: Any
    tails: dict[str, bytes]


def grader_tail(run: Run, grader_name: str, texts: dict[str, str]) -> bytes:
    """The hashed parts after the check: the graded files by path, then the output."""
    grader = run.grader(grader_name)
    if grader is None:
        return b""
    attempt = run.attempt(grader.attempt)
    chunks = [part(f"file:{f.path}", texts.get(f.ref, "")) for f in sorted(attempt.files if attempt else (), key=lambda f: f.path)]
    if grader.output_ref:
        chunks.append(part("output", normalise_output(texts.get(grader.output_ref, ""))))
    return b"".join(chunks)


def context(store: Store, run: Run) -> Context:
    """The run's shared evidence, read once (keys of the files taken before reading them)."""
    hit = store.evidence_contexts.get(run.key)
    if isinstance(hit, Context) and hit.run is run:
        return hit
    refs = hashed_refs(run)
    deps = dep_keys(str(store.root), refs)
    texts = {ref: store.read(ref).text for ref in refs}
    head = hashlib.sha256(part("brief", texts.get(run.brief_ref, "") if run.brief_ref else ""))
    ctx = Context(run, deps, head, {g.name: grader_tail(run, g.name, texts) for g in run.graders})
    store.evidence_contexts.put(run.key, ctx)
    return ctx


def evidence_hash(store: Store, run: Run, failure: Failure) -> str:
    """sha256 over the brief, the failing check, the graded attempt's code and the grader output."""
    index = store.index
    cached = index.evidence(run, failure.check_id) if index is not None else None
    if cached is not None:
        return cached
    ctx = context(store, run)
    h = ctx.head.copy()
    c = failure.check
    h.update(part("check", f"{failure.check_id}\x00{c.status.value}\x00{normalise_output(c.message)}"))
    h.update(ctx.tails.get(failure.grader, b""))
    value = "sha256:" + str(h.hexdigest())[:32]
    if index is not None and ctx.deps is not None:
        index.remember_evidence(run, ctx.deps, failure.check_id, value)
    return value

