"""How far a reviewer has got: labelled counts per run and each failure's verdict, cached.

The screen asks these questions for every visible row, so answers come from memory. Whether a
label is stale (its evidence changed) needs the run's files: ``warm()`` works that out for every
label in a worker thread; until then a label counts as it was recorded.
"""

from __future__ import annotations

import threading

from reviewer.model import Failure, Run
from reviewer.model.check import split_failure_id
from reviewer.model.label import Label, Verdict
from reviewer.store.labeller import Labeller, LabelState


class Progress:
    """This reviewer's labels, indexed for the screen."""

    def __init__(self, labeller: Labeller) -> None:
        self.labeller = labeller
        self.stale: dict[str, bool] = {}
        self.lock = threading.Lock()

    def label(self, failure_id: str) -> Label | None:
        """This reviewer's label on a failure (pending changes included)."""
        try:
            session, run, check = split_failure_id(failure_id)
        except ValueError:
            return None
        return self.labeller.labels.get(session, run, check)

    def is_stale(self, failure_id: str) -> bool:
        """Known stale (False until checked)."""
        with self.lock:
            return self.stale.get(failure_id, False)

    def verdict(self, failure_id: str) -> str:
        """"specification", "capability", "deferred", "stale" or ""."""
        lab = self.label(failure_id)
        if lab is None:
            return ""
        if self.is_stale(failure_id):
            return "stale"
        return lab.verdict.value

    def decided(self, failure_id: str) -> bool:
        """Labelled specification or capability, and not stale."""
        lab = self.label(failure_id)
        return lab is not None and lab.verdict.decided and not self.is_stale(failure_id)

    def labelled(self, run_key: str) -> int:
        """How many of the run's failures carry a decided, fresh label."""
        session, _, run_id = run_key.partition("/")
        lf = self.labeller.labels.file(session)
        count = 0
        for check, lab in lf.run_labels(run_id).items():
            if lab.verdict.decided and not self.is_stale(f"{run_key}#{check}"):
                count += 1
        return count

    def check(self, run: Run, failure: Failure) -> LabelState:
        """Work out (and remember) whether a failure's label is stale."""
        state = self.labeller.state(run, failure)
        with self.lock:
            self.stale[failure.id] = state.stale
        return state

    def forget(self, failure_id: str) -> None:
        """A label changed: its staleness is decided again (a fresh label is not stale)."""
        with self.lock:
            self.stale.pop(failure_id, None)

    def deferred(self, failure_id: str) -> bool:
        """Deferred by this reviewer."""
        lab = self.label(failure_id)
        return lab is not None and lab.verdict is Verdict.DEFERRED
