"""The evidence fingerprint: a hash of what a reviewer judged when labelling a failure."""

from __future__ import annotations

import hashlib
import re

from reviewer.model import Failure, Run
from reviewer.store.sessions import SessionStore

DURATION = re.compile(r"\(\d+(?:\.\d+)?m?s\)|\b\d+\.\d+s\b|\"Elapsed\":\s*[0-9.]+|\"Time\":\s*\"[^\"]*\"")


def normalise_output(text: str) -> str:
    """Drop timings so re-running an unchanged grader does not make labels stale."""
    return DURATION.sub("", text)


def evidence_hash(store: SessionStore, run: Run, failure: Failure) -> str:
    """sha256 over the brief, the failing check, the graded attempt's code and the grader output."""
    h = hashlib.sha256()

    def part(name: str, text: str) -> None:
        data = text.encode("utf-8", "surrogatepass")
        h.update(f"{name}\x00{len(data)}\x00".encode())
        h.update(data)

    part("brief", store.brief(run).text)
    c = failure.check
    part("check", f"{failure.check_id}\x00{c.status.value}\x00{normalise_output(c.message)}")
    grader = run.grader(failure.grader)
    if grader is not None:
        attempt = run.attempt(grader.attempt)
        for f in sorted(attempt.files if attempt else (), key=lambda f: f.path):
            part(f"file:{f.path}", store.text(f.ref).text)
        if grader.output_ref:
            part("output", normalise_output(store.text(grader.output_ref).text))
    return "sha256:" + h.hexdigest()[:32]
