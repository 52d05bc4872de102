"""One pass over a sessions folder: every failure with its task, model and final verdict.

Final verdicts come from :func:`reviewer.store.final.final_verdicts` (adjudicated, else
unanimous; a single reviewer's label is unanimous). Deferred labels are never verdicts. A
failure whose reviewers disagree without adjudication is *disputed* (no verdict). A final label
whose evidence fingerprint no longer matches the failure (brief, check, code or output changed
since it was given) is *stale* and counts as unlabelled.

Staleness costs one :func:`~reviewer.store.sessions.fingerprint.evidence_hash` per labelled failure (it reads
the brief, the graded attempt's files and the grader output, through the store's cache): on the
example corpus this is milliseconds, and it grows with the number of *labelled* failures only,
so statistics and scores always check it (``check_stale=False`` skips it for a quick look).

Whose labels count (:func:`collect`'s ``only``): by default the final verdicts of every reviewer;
with ``only="alice"`` alice's own decided labels and nothing of anyone else's (blind mode:
``reviewer stats`` and ``reviewer report`` without ``--final``). ``count_passes`` also counts each
run's passing checks, for pass rates (it parses every grader output, so it is asked for).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import field

from reviewer.model import Failure, Run
from reviewer.model.check import CheckStatus
from reviewer.model.label import Label, Verdict, reviewer_file_stem
from reviewer.model.records import record
from reviewer.store.labels import read_all_labels
from reviewer.store.labels.final import final_verdicts
from reviewer.store.sessions.fingerprint import evidence_hash
from reviewer.store.sessions.protocol import Store

FailureKey = tuple[str, str, str]


@record
class FailureFact:
    """One failure as statistics see it.

    Attributes:
        id: global failure id.
        key: (session, run, check id).
        task, model: of its run.
        message: the check's failure text (for clustering).
        verdict: the final verdict, None when unlabelled, deferred only, stale or disputed.
        stale: a final label exists but its evidence changed.
        disputed: reviewers disagree and nobody adjudicated.
        check_name: the check's display name.
        label: the label that gave the verdict (its note and tags), None without a verdict.
    """

    id: str
    key: FailureKey
    task: str
    model: str
    message: str = field(repr=False, default="")
    verdict: Verdict | None = None
    stale: bool = False
    disputed: bool = False
    check_name: str = field(repr=False, default="")
    label: Label | None = field(repr=False, compare=False, default=None)

    @property
    def run_key(self) -> str:
        """``<session>/<run>``."""
        return f"{self.key[0]}/{self.key[1]}"


@record
class ReviewerProgress:
    """How far one reviewer got: decided and deferred labels on current failures, and stale ones."""

    reviewer: str
    labelled: int
    deferred: int
    stale: int = 0


@record
class RunChecks:
    """One run's checks for pass rates: how many ran (passed or failed; skipped ones left out)."""

    run_key: str
    task: str
    model: str
    passed: int
    failing: int

    @property
    def ran(self) -> int:
        """Checks that ran: passed plus failing."""
        return self.passed + self.failing


@record
class Facts:
    """Everything statistics, scores and clusters need, gathered once.

    Attributes:
        failures: every failing check of every run that loaded, in folder order.
        task_models: for each task, the models that ran it (passing runs included).
        reviewers: each reviewer's progress.
        errors: label files that could not be read.
        only: the one reviewer whose labels were used, None for everyone's final verdicts.
        runs: every run's checks, when collected with ``count_passes`` (else None).
    """

    failures: tuple[FailureFact, ...]
    task_models: dict[str, tuple[str, ...]]
    reviewers: tuple[ReviewerProgress, ...] = ()
    errors: tuple[str, ...] = ()
    only: str | None = None
    runs: tuple[RunChecks, ...] | None = None

    @property
    def left_out(self) -> int:
        """Failures left out because reviewers disagree without adjudication."""
        return sum(1 for f in self.failures if f.disputed)

    def by_key(self) -> dict[FailureKey, FailureFact]:
        """The failures by (session, run, check id)."""
        return {f.key: f for f in self.failures}


class StaleCheck:
    """Evidence fingerprints of current failures, computed once each."""

    def __init__(self, store: Store, enabled: bool) -> None:
        self.store = store
        self.enabled = enabled
        self.cache: dict[str, str] = {}

    def is_stale(self, label: Label, run: Run, failure: Failure) -> bool:
        """True when the label carries a fingerprint that no longer matches."""
        if not self.enabled or not label.evidence:
            return False
        if failure.id not in self.cache:
            self.cache[failure.id] = evidence_hash(self.store, run, failure)
        return label.evidence != self.cache[failure.id]


def collect(store: Store, check_stale: bool = True, only: str | None = None, count_passes: bool = False) -> Facts:
    """Gather the failures, verdicts and reviewer progress of a scanned store.

    ``only``: use this reviewer's own decided labels instead of everyone's final verdicts.
    ``count_passes``: also count every run's passing checks (:attr:`Facts.runs`).
    """
    sessions = sorted(store.corpus.sessions)
    if only is None:
        finals = final_verdicts(store.root, sessions)
        chosen, disputed = finals.labels, set(finals.disagreements)
    else:
        chosen, disputed = own_labels(store, sessions, only), set()
    stale = StaleCheck(store, check_stale)
    task_models: dict[str, list[str]] = {}
    facts: list[FailureFact] = []
    runs: list[RunChecks] = []
    current: dict[FailureKey, tuple[Run, Failure]] = {}
    for run in store.runs:
        models = task_models.setdefault(run.task, [])
        if run.model not in models:
            models.append(run.model)
        failures = store.failures(run)
        for failure in failures:
            key = (run.session, run.id, failure.check_id)
            current[key] = (run, failure)
            lab = chosen.get(key)
            is_stale = lab is not None and stale.is_stale(lab, run, failure)
            verdict = lab.verdict if lab is not None and lab.verdict.decided and not is_stale else None
            facts.append(FailureFact(
                failure.id, key, run.task, run.model, failure.check.message, verdict, is_stale,
                key in disputed and lab is None, failure.check.name, lab if verdict is not None else None,
            ))
        if count_passes:
            passed = sum(1 for gc in store.grader_checks(run) for c in gc.checks if c.status is CheckStatus.PASS)
            runs.append(RunChecks(run.key, run.task, run.model, passed, len(failures)))
    reviewers, errors = progress(store, sessions, current, stale, only)
    return Facts(tuple(facts), {t: tuple(sorted(m)) for t, m in task_models.items()}, reviewers, errors, only,
                 tuple(runs) if count_passes else None)


def own_labels(store: Store, sessions: list[str], reviewer: str) -> dict[FailureKey, Label]:
    """One reviewer's decided labels by failure (the latest where several files hold one)."""
    out: dict[FailureKey, Label] = {}
    for f in read_all_labels(store.root, sessions):
        if f.reviewer != reviewer:
            continue
        for lab in f.labels:
            seen = out.get(lab.key)
            if lab.verdict.decided and (seen is None or lab.labelled_at >= seen.labelled_at):
                out[lab.key] = lab
    return out


def progress(
    store: Store, sessions: list[str], current: dict[FailureKey, tuple[Run, Failure]], stale: StaleCheck,
    only: str | None = None,
) -> tuple[tuple[ReviewerProgress, ...], tuple[str, ...]]:
    """Per reviewer (or only ``only``): labels on current failures that are decided, deferred, or stale."""
    counts: dict[str, Counter[str]] = {}
    errors: list[str] = []
    for f in read_all_labels(store.root, sessions):
        if only is not None and f.stem and f.reviewer != only and f.stem != reviewer_file_stem(only):
            continue  # another reviewer's files are not used (and, blind, their verdicts never named)
        errors += f.problems  # damage and duplicates: what is read still counts, and the command says so
        if not f.reviewer:
            continue
        c = counts.setdefault(f.reviewer, Counter())
        for lab in f.labels:
            hit = current.get(lab.key)
            if hit is None:
                continue
            if stale.is_stale(lab, *hit):
                c["stale"] += 1
            elif lab.verdict.decided:
                c["labelled"] += 1
            else:
                c["deferred"] += 1
    out = tuple(ReviewerProgress(name, c["labelled"], c["deferred"], c["stale"]) for name, c in sorted(counts.items()))
    return out, tuple(errors)
