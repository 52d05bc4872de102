"""The reviewer's decisions: every one saved before the screen moves on.

``s``/``c`` label the current failure, ``space`` defers it, ``x`` clears, ``u`` undoes, ``n``
sets the note and ``t`` the tags; a cluster can be labelled as one undoable change. A save is one
small atomic write (the evidence hash it needs was computed ahead, see :meth:`Decisions.check`).
When a save fails, the decision stays in memory, the outcome says so and asks to retry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Mapping

from reviewer.model import Failure, Run
from reviewer.model.label import Label, Verdict
from reviewer.model.sanitize import one_line
from reviewer.review.outcome import NOTHING, Outcome, Work, asking_for, saying
from reviewer.store.labeller import Labeller, LabelState, SaveFailed, UnknownFailure
from reviewer.store.progress import Progress

if TYPE_CHECKING:
    from reviewer.analysis.clusters import ClusterPlan


class Decisions:
    """This reviewer's labels: reading them for the screen, changing them on disk."""

    def __init__(self, labeller: Labeller) -> None:
        self.labeller = labeller
        self.progress = Progress(labeller)

    @property
    def reviewer(self) -> str:
        """Who is labelling."""
        return self.labeller.labels.reviewer

    # ---- reading ---------------------------------------------------------------------------

    def label(self, failure_id: str) -> Label | None:
        """This reviewer's label on a failure (unsaved ones included)."""
        return self.progress.label(failure_id)

    def verdict(self, failure_id: str) -> str:
        """``specification``, ``capability``, ``deferred``, ``stale`` or ""."""
        return self.progress.verdict(failure_id)

    def decided(self, failure_id: str) -> bool:
        """Labelled specification or capability, and not stale."""
        return self.progress.decided(failure_id)

    def deferred(self, failure_id: str) -> bool:
        """Deferred by this reviewer."""
        return self.progress.deferred(failure_id)

    def unlabelled(self, failure_id: str) -> bool:
        """Not labelled by this reviewer (deferred counts as looked at), or stale."""
        return self.progress.label(failure_id) is None or self.progress.is_stale(failure_id)

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
        for lab in list(self.labeller.labels.mine()):
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
        with self.progress.lock:
            for fid, value in stale.items():
                if self.progress.stale.get(fid, False) != value:
                    changed = True
                self.progress.stale[fid] = value
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
        for fid in failure_ids:
            self.progress.forget(fid)

    def restored(self) -> Outcome:
        """Say so when a save wrote back decisions of this session that an outside change lost."""
        restored = self.labeller.labels.take_restored()
        if not restored:
            return NOTHING
        return saying(f"{len(restored)} decision(s) made in this session had gone from the labels file (a git "
                    f"checkout, stash or pull while the app was open?) and were written back: "
                    f"{one_line(', '.join(restored), 300)}", "Labels written back", "warning", 20)

    def decide(self, failure_id: str, verdict: Verdict, what: str) -> Outcome:
        """Label a failure."""
        return self.save(what, lambda: self.labeller.decide(failure_id, verdict), [failure_id])

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
            outcome = outcome.then(saying(f"Restored {len(touched)} labels."))
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
