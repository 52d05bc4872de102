"""The judges' predictions in the review: what may be shown, and the walks they steer (``P``).

Predictions (``reviewer judge``) are read with the other reviewers' labels
(:func:`reviewer.review.reviewers.read_snapshot`) and obey the same blind rule: in blind mode a
judge's prediction on a failure stays hidden until this reviewer has decided the failure, or asked
to see what others said (``r``); with blind mode off they are shown at once.

``P`` cycles the judges' walks:

1. **doubts first**: ``j``/``k`` step through every failure as usual, but the next unlabelled failure
   (after a label, a deferral) is the one the judges doubt most: first the failures where the
   judges' verdicts differ (the most even split first), then those where the least sure judge is
   least sure (its ``confidence``; a judge that gives none counts as sure), then the rest in list
   order. The order tells which failures the judges doubt, never which way any of them leans, so
   it is offered in blind mode too.
2. **the judges disagree with me**: the failures this reviewer decided where a judge says otherwise.
3. **judged specification, not labelled yet**: failures a judge calls specification that this
   reviewer has not decided. It shows what blind mode hides (a judge's verdict on an undecided
   failure), so it is offered only with blind mode off.

Then back to every failure. ``reviewer failures`` has the same filters (``--judge-disagrees``,
``--judged``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from reviewer.model.label import Label, Verdict
from reviewer.model.prediction import Prediction
from reviewer.model.wording import count
from reviewer.review.moving.walking import Walking
from reviewer.review.moving.walks import EveryFailure, ListedRuns, ListWalk, Wanted
from reviewer.review.outcome import Outcome, Work, asking_for, saying
from reviewer.review.reviewers import Reviewers
from reviewer.review.selection import End, Move, NeedsCounting, Selection, Target, Toward, run_key_of


def doubt(predictions: Sequence[Prediction]) -> tuple[int, float, float] | None:
    """How much the judges doubt a failure, as a sort key (smaller: more doubt); None without a verdict.

    (0 when the verdicts differ else 1, minus the share of the minority verdict, the lowest confidence).
    """
    said = [p for p in predictions if p.verdict is not None]
    if not said:
        return None
    spec = sum(1 for p in said if p.verdict is Verdict.SPECIFICATION)
    minority = min(spec, len(said) - spec)
    least = min((p.confidence if p.confidence is not None else 1.0) for p in said)
    return (0 if minority else 1, -minority / len(said), least)


def ranked(predictions: Mapping[str, tuple[Prediction, ...]], order: Callable[[str], int]) -> tuple[str, ...]:
    """Failure ids with a judge's verdict, most doubted first (ties in list order)."""
    keyed = [(key, order(fid), fid) for fid, preds in predictions.items() if (key := doubt(preds)) is not None]
    return tuple(fid for _, _, fid in sorted(keyed))


class DoubtsFirst(EveryFailure):
    """Every failure for ``j``/``k``; the next unlabelled one is the one the judges doubt most."""

    name = "judges' doubts first"

    def __init__(self, doubted: Callable[[], tuple[str, ...]]) -> None:
        self.doubted = doubted
        """The failure ids the judges have a verdict on, most doubted first (read when asked)."""

    def next_unlabelled(self, listed: ListedRuns, current: Selection, wanted: Wanted) -> Move:
        """The most doubted listed failure this reviewer has not labelled, else the usual next one."""
        listed_keys = set(listed.order)
        for fid in self.doubted():
            run_key = run_key_of(fid)
            if fid == current.failure_id or run_key not in listed_keys or not wanted(fid):
                continue
            ids = listed.lookup(run_key)
            if ids is None:
                return NeedsCounting(run_key, Toward.UNLABELLED)
            if fid in ids:
                return Target(run_key, fid)
        return super().next_unlabelled(listed, current, wanted)


class JudgeList(ListWalk):
    """A fixed list the judges picked: where they disagree with me, or what they call specification."""

    def __init__(self, kind: str, failure_ids: Sequence[str], what: str, moves_on: bool) -> None:
        super().__init__(kind, failure_ids, what)
        self.moves_on = moves_on
        """After a decision go to the next of the list (its failures are decided already), not the next unlabelled."""

    def next_unlabelled(self, listed: ListedRuns, current: Selection, wanted: Wanted) -> Move:
        """The next of the list (``moves_on``), else the next one not labelled."""
        if not self.moves_on:
            return super().next_unlabelled(listed, current, wanted)
        move = self.step(listed, current, 1)
        return End(move.message) if isinstance(move, End) else move


DISAGREE = "judges disagree with me"
JUDGED_SPEC = "judged specification"


def disagreeing(predictions: Mapping[str, tuple[Prediction, ...]], mine: Callable[[str], Label | None],
                decided: Callable[[str], bool]) -> list[str]:
    """Failures this reviewer decided where a judge's verdict differs, in failure-id order."""
    out = []
    for fid, preds in predictions.items():
        lab = mine(fid)
        if lab is not None and decided(fid) and any(p.verdict is not None and p.verdict is not lab.verdict for p in preds):
            out.append(fid)
    return sorted(out)


def judged_specification(predictions: Mapping[str, tuple[Prediction, ...]], decided: Callable[[str], bool]) -> list[str]:
    """Failures a judge calls specification that this reviewer has not decided, in failure-id order."""
    return sorted(fid for fid, preds in predictions.items()
                  if not decided(fid) and any(p.verdict is Verdict.SPECIFICATION for p in preds))


class JudgeWalks:
    """``P``: the walks the judges steer (the state is the walk in force, :class:`Walking`'s)."""

    def __init__(self, reviewers: Reviewers, walking: Walking, mine: Callable[[str], Label | None],
                 decided: Callable[[str], bool], order: Callable[[], Sequence[str]]) -> None:
        self.reviewers = reviewers
        self.walking = walking
        self.mine = mine
        self.decided = decided
        self.order = order
        self.cache: tuple[object, tuple[str, ...]] | None = None

    @property
    def mode(self) -> str:
        """The judges' walk in force: ``doubts``, a :class:`JudgeList`'s name, or "" (none)."""
        walk = self.walking.walk
        if isinstance(walk, DoubtsFirst):
            return "doubts"
        return walk.name if isinstance(walk, JudgeList) else ""

    def doubted(self) -> tuple[str, ...]:
        """The judged failures, most doubted first (worked out once per snapshot of the predictions)."""
        predictions = self.reviewers.snapshot.predictions
        if self.cache is None or self.cache[0] is not predictions:
            positions = {key: n for n, key in enumerate(self.order())}
            self.cache = (predictions, ranked(predictions, lambda fid: positions.get(run_key_of(fid), len(positions))))
        return self.cache[1]

    def cycle(self, listed: ListedRuns, here: Selection) -> Outcome:
        """``P``: the next judges' walk (see the module), or back to every failure."""
        predictions = self.reviewers.snapshot.predictions
        if not self.reviewers.loaded:
            return saying("The judges' predictions are still being read: press P again in a moment.")
        if not predictions:
            if self.mode:
                return self.every()
            return saying("No judge has predicted anything here: `reviewer judge PATH --command CMD --name NAME` runs one.")
        mode = self.mode
        if not mode:
            self.walking.walk, self.walking.cluster = DoubtsFirst(self.doubted), None
            doubted = len(self.doubted())
            return saying(f"Doubts first: after each label, the next unlabelled failure is the one the judges doubt most "
                        f"({count(doubted, 'failure')} judged). P again: where the judges disagree with you.", "Judges")
        if mode == "doubts":
            ids = disagreeing(predictions, self.mine, self.decided)
            if ids:
                return self.follow(JudgeList(DISAGREE, ids, "where the judges disagree with you", True), listed, here,
                                   f"{count(len(ids), 'failure')} you decided where a judge says otherwise: j/k step "
                                   "through them.")
            mode = DISAGREE
            if self.reviewers.blind:
                return self.every("No failure you decided has a judge saying otherwise. ")
        if mode == DISAGREE and not self.reviewers.blind:
            ids = judged_specification(predictions, self.decided)
            if ids:
                return self.follow(JudgeList(JUDGED_SPEC, ids, "judged specification", False), listed, here,
                                   f"{count(len(ids), 'failure')} a judge calls specification that you have not "
                                   "decided: j/k step through them.")
            return self.every("No undecided failure is judged specification. ")
        return self.every()

    def follow(self, walk: JudgeList, listed: ListedRuns, here: Selection, message: str) -> Outcome:
        """Walk ``walk``'s failures; go to its first one unless the current one is in it."""
        self.walking.walk, self.walking.cluster = walk, None
        out = saying(message + " P again: " + ("every failure." if walk.name == JUDGED_SPEC or self.reviewers.blind
                                             else "judged specification, not labelled yet."), "Judges")
        if here.failure_id not in walk.present(listed):
            out = out.then(Outcome(move=walk.step(listed, Selection(), 1)))
        return out.then(asking_for(Work.RELABEL))

    def every(self, before: str = "") -> Outcome:
        """Back to every failure."""
        return self.walking.every(before + "Judges' walks off: j/k step through every failure.").then(asking_for(Work.RELABEL))
