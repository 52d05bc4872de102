"""The other reviewers' labels and the judges' predictions as the review session holds them, and
what blind mode lets through.

Other reviewers' labels and the judges' predictions (``reviewer judge``) are read from the folder
in a worker (:func:`read_snapshot`), at start and whenever labels change. In blind mode (settings
``blind``, the default) another reviewer's verdict, and a judge's prediction, on a failure stay
hidden until this reviewer has decided it, or asked to see them (``r``); the disagreements walk
shows every verdict.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

from reviewer.model.label import Label
from reviewer.model.prediction import Prediction
from reviewer.model.records import record


@record
class ReviewersSnapshot:
    """Every reviewer's labels as read from the folder.

    Attributes:
        labels: each failure's labels by failure id, one per reviewer (deferred included).
        finals: adjudicated verdicts by failure id.
        disagreements: failure ids whose reviewers' decided verdicts differ, in failure order.
        errors: labels (and predictions) files that could not be read.
        predictions: every judge's prediction on each failure, by failure id (by judge).
    """

    labels: dict[str, tuple[Label, ...]] = field(default_factory=dict)
    finals: dict[str, Label] = field(default_factory=dict)
    disagreements: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    predictions: dict[str, tuple[Prediction, ...]] = field(default_factory=dict)


def failure_key_id(key: tuple[str, str, str]) -> str:
    """``session/run#check`` of a (session, run, check) key."""
    return f"{key[0]}/{key[1]}#{key[2]}"


def read_snapshot(root: Path, sessions: list[str]) -> ReviewersSnapshot:
    """Read every reviewer's labels, the adjudications, the disagreements and the judges' predictions
    (worker threads)."""
    from reviewer.store.labels.agreement import disagreements, read_label_set
    from reviewer.store.labels.final import read_adjudications
    from reviewer.store.predictions import read_predictions

    label_set = read_label_set(root, sessions)
    finals = {failure_key_id(k): lab for k, lab in read_adjudications(root, sessions).items()}
    found = disagreements(root, sessions, label_set)
    judged = read_predictions(root, sessions)
    predictions: dict[str, list[Prediction]] = {}
    for judge in sorted(judged.by_judge):
        for key, p in judged.by_judge[judge].items():
            predictions.setdefault(failure_key_id(key), []).append(p)
    return ReviewersSnapshot({failure_key_id(k): labs for k, labs in label_set.by_failure.items()}, finals,
                             tuple(d.failure_id for d in found), label_set.errors + judged.problems,
                             {fid: tuple(ps) for fid, ps in predictions.items()})


@record
class Others:
    """What the screen may show of other reviewers on one failure.

    Attributes:
        shown: labels to show (this reviewer's too in the disagreements walk), in order.
        me: this reviewer's name (to mark "(you)").
        hidden: how many other verdicts blind mode hides (0: none hidden).
        final_hidden: an adjudicated verdict exists but is hidden.
        final: the adjudicated verdict when it may be shown.
        everyone: the disagreements walk: every verdict is shown, this reviewer's included.
    """

    shown: tuple[Label, ...] = ()
    me: str = ""
    hidden: int = 0
    final_hidden: bool = False
    final: Label | None = None
    everyone: bool = False


NOBODY = Others()


@record
class Judged:
    """What the screen may show of the judges on one failure.

    Attributes:
        shown: the predictions to show, by judge.
        hidden: how many predictions blind mode hides (0: none hidden).
    """

    shown: tuple[Prediction, ...] = ()
    hidden: int = 0


NO_JUDGES = Judged()


def visible_judges(predictions: tuple[Prediction, ...], mine: Label | None, blind: bool, revealed: bool) -> Judged:
    """The judges' predictions on one failure as this reviewer may see them (the blind rule)."""
    if not predictions:
        return NO_JUDGES
    if not blind or revealed or (mine is not None and mine.verdict.decided):
        return Judged(predictions)
    return Judged(hidden=len(predictions))




class Reviewers:
    """The snapshot of everyone's labels and what this reviewer asked to see."""

    def __init__(self, me: str, blind: bool) -> None:
        self.me = me
        self.blind = blind
        self.snapshot = ReviewersSnapshot()
        self.loaded = False
        self.revealed: set[str] = set()
        self.reported: tuple[str, ...] = ()

    def take(self, snapshot: ReviewersSnapshot) -> tuple[str, ...]:
        """Keep a new snapshot; returns the read errors not reported before."""
        self.snapshot, self.loaded = snapshot, True
        if snapshot.errors and snapshot.errors != self.reported:
            self.reported = snapshot.errors
            return snapshot.errors
        return ()

    def labels_of(self, failure_id: str, mine: Label | None) -> tuple[Label, ...]:
        """Every reviewer's label on a failure; this reviewer's as it is now (unsaved included)."""
        others = tuple(lab for lab in self.snapshot.labels.get(failure_id, ()) if lab.reviewer != self.me)
        return others + ((mine,) if mine is not None else ())

    def others(self, failure_id: str, mine: Label | None, everyone: bool) -> Others:
        """What may be shown under a failure (pure; blind rules applied)."""
        if not failure_id:
            return NOBODY
        labs = self.labels_of(failure_id, mine)
        final = self.snapshot.finals.get(failure_id)
        if everyone:
            return Others(labs, self.me, final=final, everyone=True)
        from reviewer.store.labels.agreement import visible_others  # the other reviewers' rules load with their labels

        shown = visible_others(labs, self.me, blind=self.blind, revealed=failure_id in self.revealed)
        if shown is None:
            hidden = sum(1 for lab in labs if lab.reviewer != self.me)
            return Others(me=self.me, hidden=hidden, final_hidden=final is not None)
        return Others(shown, self.me, final=final)

    def judges(self, failure_id: str, mine: Label | None, everyone: bool) -> Judged:
        """What may be shown of the judges' predictions on a failure (pure; the blind rule applied)."""
        predictions = self.snapshot.predictions.get(failure_id, ()) if failure_id else ()
        return visible_judges(predictions, mine, self.blind and not everyone, failure_id in self.revealed)

    def has_others(self, failure_id: str) -> bool:
        """Another reviewer (or an adjudication, or a judge) has a verdict on this failure."""
        return failure_id in self.snapshot.finals or failure_id in self.snapshot.predictions or any(
            lab.reviewer != self.me for lab in self.snapshot.labels.get(failure_id, ()))

    def adjudicated(self, failure_id: str, label: Label | None) -> None:
        """An adjudication made here: show it at once (the next read confirms it)."""
        finals = dict(self.snapshot.finals)
        if label is None:
            finals.pop(failure_id, None)
        else:
            finals[failure_id] = label
        snap = self.snapshot
        self.snapshot = ReviewersSnapshot(snap.labels, finals, snap.disagreements, snap.errors, snap.predictions)

    def settled(self, ids: list[str]) -> int:
        """How many of these failures carry an adjudicated verdict."""
        return sum(1 for f in ids if f in self.snapshot.finals)
