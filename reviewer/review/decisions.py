"""The reviewer's decisions: every one saved before the screen moves on.

``s``/``c`` label the current failure, ``space`` defers it, ``x`` clears, ``u`` undoes, ``n``
sets the note and ``t`` the tags; a cluster can be labelled as one undoable change. A save is one
small atomic write of the run's labels file (the evidence hash it needs was computed ahead, see
:meth:`Decisions.check`). When a save fails, the decision stays in memory, the outcome says so and
asks to retry. Whether a label is stale (its evidence changed) needs the run's files: workers
work it out (:meth:`Decisions.all_stale`, :meth:`Decisions.check`) and it is kept here; until
then a label counts as it was recorded.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Callable, Mapping

from reviewer.model import Failure, Run
from reviewer.model.check import split_failure_id
from reviewer.model.label import Label, Verdict
from reviewer.model.sanitize import one_line
from reviewer.model.wording import count
from reviewer.review.outcome import NOTHING, Outcome, Work, asking_for, saying
from reviewer.store.labels import Labeller, LabelState, SaveFailed, UnknownFailure

if TYPE_CHECKING:
    from reviewer.analysis.clusters import ClusterPlan


class Decisions:
    """This reviewer's labels: reading them for the screen, changing them on disk.

    ``stale`` is the one record of which labels are known stale (by failure id), written by
    workers' results under ``lock``.
    """

    def __init__(self, labeller: Labeller) -> None:
        self.labeller = labeller
        self.stale: dict[str, bool] = {}
        self.lock = threading.Lock()

    @property
    def reviewer(self) -> str:
        """Who is labelling."""
        return self.labeller.labels.reviewer

    # ---- reading ---------------------------------------------------------------------------

    def label(self, failure_id: str) -> Label | None:
        """This reviewer's label on a failure (unsaved ones included)."""
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
        """``specification``, ``capability``, ``deferred``, ``stale`` or ""."""
        lab = self.label(failure_id)
        if lab is None:
            return ""
        return "stale" if self.is_stale(failure_id) else lab.verdict.value

    def decided(self, failure_id: str) -> bool:
        """Labelled specification or capability, and not stale."""
        lab = self.label(failure_id)
        return lab is not None and lab.verdict.decided and not self.is_stale(failure_id)

    def deferred(self, failure_id: str) -> bool:
        """Deferred by this reviewer."""
        lab = self.label(failure_id)
        return lab is not None and lab.verdict is Verdict.DEFERRED

    def unlabelled(self, failure_id: str) -> bool:
        """Not labelled by this reviewer (deferred counts as looked at), or stale."""
        return self.label(failure_id) is None or self.is_stale(failure_id)

    def pending(self) -> int:
        """Decisions made but not on disk yet."""
        return self.labeller.labels.pending_count()

    # ---- staleness (computed in workers, taken here) ----------------------------------------

    def check(self, run: Run, failure: Failure) -> LabelState:
        """Whether a failure's label is stale (reads the run's files: worker threads)."""
        return self.labeller.state(run, failure)

    def all_stale(self) -> dict[str, bool]:
        """Every label of this reviewer and whether it is stale (worker thread: reads files)."""
        found: dict[str, bool] = {}
        for lab in self.labeller.labels.mine_all():
            try:
                run, failure = self.labeller.find(lab.failure_id)
            except UnknownFailure:
                found[lab.failure_id] = True
                continue
            found[lab.failure_id] = self.check(run, failure).stale
        return found

    def take_stale(self, stale: Mapping[str, bool]) -> Outcome:
        """Keep staleness worked out in a worker; what is shown is redrawn when it changes."""
        changed = False
        with self.lock:
            for fid, value in stale.items():
                if self.stale.get(fid, False) != value:
                    changed = True
                self.stale[fid] = value
        return asking_for(Work.RELABEL) if changed else NOTHING

    # ---- changing ----------------------------------------------------------------------------

    def save(self, what: str, change: Callable[[], object], touched: list[str]) -> Outcome:
        """Run one change; a failed save keeps the decision in memory and says so."""
        try:
            change()
        except UnknownFailure as exc:
            return saying(one_line(str(exc), 300), what, "error")
        except SaveFailed as exc:
            self.forget(touched)
            return Outcome(saying(f"Not saved yet: {one_line(str(exc), 300)}. The decision is kept and saved as soon "
                                "as the file can be written.", f"{what}: not saved", "error", 15).notices,
                           labels_changed=True, work=frozenset({Work.RETRY}))
        self.forget(touched)
        return self.restored().then(Outcome(labels_changed=True))

    def forget(self, failure_ids: list[str]) -> None:
        """Labels changed: their staleness is decided again (a fresh label is not stale)."""
        with self.lock:
            for fid in failure_ids:
                self.stale.pop(fid, None)

    def restored(self) -> Outcome:
        """Say so when a save moved a format-1 labels file into the new layout, or wrote back
        decisions of this session that an outside change lost."""
        out = NOTHING
        for moved in self.labeller.labels.take_moved():
            out = out.then(saying(one_line(moved, 400), "Labels moved to one file per run", "information", 15))
        restored = self.labeller.labels.take_restored()
        if not restored:
            return out
        return out.then(saying(f"{count(len(restored), 'decision')} made in this session had gone from the labels file (a git "
                    f"checkout, stash or pull while the app was open?) and were written back: "
                    f"{one_line(', '.join(restored), 300)}", "Labels written back", "warning", 20))

    def decide(self, failure_id: str, verdict: Verdict, what: str) -> Outcome:
        """Label a failure (a duplicate's labels are all replaced, and the outcome says so)."""
        replaced = self.duplicate(failure_id)
        out = self.save(what, lambda: self.labeller.decide(failure_id, verdict), [failure_id])
        if len(replaced) > 1 and not out.retry:
            out = out.then(saying(f"The failure had {len(replaced)} labels of yours ("
                                + ", ".join(f"{lab.verdict.value} {lab.labelled_at}" for lab in replaced)
                                + f"); this {verdict.value} replaces them (u brings them back).", "Duplicate resolved"))
        return out

    def duplicate(self, failure_id: str) -> tuple[Label, ...]:
        """Every label this reviewer has on a failure (two or more: a duplicate)."""
        try:
            session, run, check = split_failure_id(failure_id)
        except ValueError:
            return ()
        return self.labeller.labels.entries(session, run, check)

    def clear(self, failure_id: str) -> Outcome:
        """Remove a failure's label."""
        return self.save("Clear label", lambda: self.labeller.clear(failure_id), [failure_id])

    def note(self, failure_id: str, note: str) -> Outcome:
        """Set the note of a failure's label."""
        return self.save("Note", lambda: self.labeller.annotate(failure_id, note=note), [failure_id])

    def tags(self, failure_id: str, tags: tuple[str, ...]) -> Outcome:
        """Set the tags of a failure's label."""
        return self.save("Tags", lambda: self.labeller.annotate(failure_id, tags=tags), [failure_id])

    def undo(self) -> tuple[Outcome, list[str]]:
        """Undo the last change; the outcome and the failure ids it touched (first one to show)."""
        stack = self.labeller.undo_stack
        if not stack:
            return saying("Nothing to undo."), []
        touched = [f"{session}/{run}#{check}" for session, run, check, _ in stack[-1]]
        outcome = self.save("Undo", self.labeller.undo, touched)
        if len(touched) > 1:
            outcome = outcome.then(saying(f"Restored {count(len(touched), 'label')}."))
        return outcome, touched

    def label_cluster(self, plan: ClusterPlan) -> Outcome:
        """Apply a confirmed cluster plan as one undoable change."""
        from reviewer.analysis.clusters import apply_cluster_label

        changed: list[int] = []
        outcome = self.save("Cluster label", lambda: changed.append(apply_cluster_label(self.labeller, plan)),
                            list(plan.to_change))
        if outcome.retry or not any(n.severity == "error" for n in outcome.notices):
            count = changed[0] if changed else len(plan.to_change)
            outcome = outcome.then(saying(f"Labelled {count} failure{'s' if count != 1 else ''} "
                                        f"{plan.verdict.value} (u undoes them all)."))
        return outcome

    def retry(self) -> Outcome:
        """Try again to write decisions a fault kept in memory."""
        if not self.pending():
            return NOTHING
        if self.labeller.labels.retry():
            return asking_for(Work.RETRY)
        return saying("Every decision kept in memory is now saved.", "Saved").then(self.restored()).then(
            Outcome(labels_changed=True))

    def resync(self) -> Outcome:
        """Take in outside changes to this reviewer's labels files (git pull, checkout, another instance)."""
        changed, errors = self.labeller.labels.resync()
        out = NOTHING
        for error in errors:
            out = out.then(saying(one_line(error, 400), "Labels file changed outside the app", "error", 20))
        if changed:
            out = out.then(self.restored()).then(Outcome(labels_changed=True))
        return out
