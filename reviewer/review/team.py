"""Several reviewers: their labels as read, blind mode, the disagreements walk, adjudication."""

from __future__ import annotations

from pathlib import Path

from reviewer.model.check import split_failure_id
from reviewer.model.label import Verdict
from reviewer.model.sanitize import one_line
from reviewer.review.gitstate import GitState
from reviewer.review.moving.walking import Walking
from reviewer.review.moving.walks import ListedRuns
from reviewer.review.outcome import NOTHING, Outcome, Work, asking_for, saying
from reviewer.review.reviewers import Reviewers, ReviewersSnapshot
from reviewer.review.selection import Selection
from reviewer.store.labels import Labeller
from reviewer.store.sessions.protocol import Store


class Team:
    """What one reviewer does with the others' labels (the state is the session's components')."""

    def __init__(self, store: Store, labeller: Labeller, reviewers: Reviewers, git: GitState, walking: Walking) -> None:
        self.store = store
        self.labeller = labeller
        self.reviewers = reviewers
        self.git = git
        self.walking = walking

    def take(self, snapshot: ReviewersSnapshot, listed: ListedRuns, here: Selection) -> Outcome:
        """The other reviewers' labels were read; enter the disagreements walk when it was asked for."""
        errors = self.reviewers.take(snapshot)
        out = NOTHING
        if errors:
            out = saying("Some labels or predictions files could not be read: " + one_line("; ".join(errors), 400),
                         "Reviewers", "warning")
        if self.walking.want_disagreements:
            out = out.then(self.walking.follow_disagreements(snapshot, listed, here))
        return out.then(asking_for(Work.RELABEL))

    def toggle_disagreements(self) -> Outcome:
        """``D``: the disagreements walk (entered once everyone's labels are read again), or back."""
        if self.walking.disagreements:
            return self.walking.every("Disagreements mode off: j/k step through every failure.").then(asking_for(Work.RELABEL))
        self.walking.want_disagreements = True
        return asking_for(Work.REVIEWERS)

    def reveal(self, failure_id: str) -> Outcome:
        """``r``: show the other reviewers' verdicts (and the judges' predictions) on this failure before labelling it."""
        if not failure_id:
            return saying("No failure selected.", bell=True)
        if not self.reviewers.has_others(failure_id):
            return saying("No other reviewer (or judge) has labelled this failure.")
        self.reviewers.revealed.add(failure_id)
        return asking_for(Work.RELABEL)

    def adjudicate(self, failure_id: str, verdict: Verdict | None, note: str, override: bool = False) -> Outcome:
        """Record (or, with None, clear) the final verdict of a failure, with its evidence hash now and
        the verdicts it settles; overriding a unanimous decision needs ``override`` (the app asks first)."""
        from reviewer.store.labels.adjudication import Unanimous, adjudicate_failure, clear_adjudication

        session, run_id, check = split_failure_id(failure_id)
        try:
            if verdict is None:
                clear_adjudication(Path(self.store.root), session, run_id, check)
                label = None
            else:
                label = adjudicate_failure(self.labeller, failure_id, verdict, note, override=override)
        except Unanimous as exc:
            return saying(f"{exc.consensus.describe()}: not overridden.", "Adjudicate", "warning")
        except Exception as exc:  # noqa: BLE001 - LabelsUnsafe, OSError, ValueError: nothing was written
            return saying(f"Not saved: {one_line(str(exc), 300)}", "Adjudicate", "error", 15)
        self.reviewers.adjudicated(failure_id, label)
        self.git.adjudicated.add(session)
        said = "Adjudication cleared." if label is None else f"Final verdict: {label.verdict.value}"
        return saying(said, "Adjudicate").then(Outcome(labels_changed=True))

    def unanimous(self, failure_id: str) -> str:
        """How the reviewers agree on a failure ("" when they do not all agree)."""
        from reviewer.store.labels.adjudication import consensus

        session, run_id, check = split_failure_id(failure_id)
        found = consensus(Path(self.store.root), session, run_id, check)
        return found.describe() if found.unanimous is not None else ""
