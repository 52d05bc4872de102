"""Everything ``reviewer report`` shows, gathered once from a scanned store.

The figures are those of ``reviewer stats`` for the same scope (one :func:`compute_stats` over
the same facts), plus what only the report lists: verdict shares per tag, reviewer agreement
with kappa intervals and the disagreements, predictor scorecards, the judges against the humans
(``stats.judges``: the same as ``reviewer stats --json``), and the specification failures with what
their check demanded that the brief did not state.

Blind mode: when the scope is one reviewer's own labels, the agreement part is left out
(``agreement`` is None) and nothing of another reviewer is read into the data.

Re-scoring is a separate step whose records are read by :func:`reviewer.analysis.stats.rescored.rescored`:
given to :func:`build_report`, the checks they flipped give the re-scored pass rates, each
specification failure whose grading was re-run says what happened to it, and the tally per task
and model is shown; without it (or without any record) no re-scored figure appears.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace
from pathlib import Path

from reviewer.analysis.evidence.engine import evidence_for
from reviewer.analysis.stats.facts import Facts, FailureFact, FailureKey, collect
from reviewer.analysis.stats.intervals import kappa_interval
from reviewer.analysis.stats.judged import judges_in_scope
from reviewer.analysis.stats.rescored import Rescored
from reviewer.analysis.stats.score import Prediction, Score, score_predictions
from reviewer.analysis.stats.summary import Scope, Stats, compute_stats
from reviewer.model.label import Verdict
from reviewer.model.records import record
from reviewer.store.labels.agreement import (
    Disagreement,
    PairAgreement,
    disagreements,
    pairwise,
    read_label_set,
)
from reviewer.store.sessions.protocol import Store

MAX_DEMANDS = 4
UNTAGGED = "(no tag)"


@record
class TagShare:
    """How many labelled failures carry a tag, by verdict."""

    tag: str
    specification: int
    capability: int


@record
class SpecFailure:
    """One failure labelled specification, as the report lists it.

    Attributes:
        id: the failure id (``reviewer --failure ID`` opens it).
        task, model, check: where it is.
        demands: what the check demanded that the brief does not state (the evidence's words).
        note, tags: the reviewer's.
        rescore: what re-scoring found, "" when it was not re-scored.
    """

    id: str
    task: str
    model: str
    check: str
    demands: tuple[str, ...]
    note: str
    tags: tuple[str, ...]
    rescore: str = ""


@record
class PairKappa:
    """One pair of reviewers' agreement with the kappa interval (None when undefined)."""

    pair: PairAgreement
    low: float | None
    high: float | None


@record
class AgreementData:
    """Reviewer agreement: every pair, and the failures where decided verdicts differ."""

    reviewers: tuple[str, ...]
    pairs: tuple[PairKappa, ...]
    disagreements: tuple[Disagreement, ...]


@record
class Scorecard:
    """A predictor's score against the labels (``name``: its predictions file)."""

    name: str
    score: Score


@record
class ReportData:
    """Everything the report shows.

    Attributes:
        folder: the sessions folder's name.
        runs: runs that loaded.
        stats: the figures of ``reviewer stats`` for this scope.
        tags: verdict shares per tag (``(no tag)`` for labelled failures without one).
        spec_failures: failures labelled specification, in folder order.
        agreement: None when hidden (blind mode, or one reviewer's labels).
        scorecards: one per predictions file.
        load_errors: files of the folder that did not load.
        rescored: the saved re-scores (None: none were read).
    """

    folder: str
    runs: int
    stats: Stats
    tags: tuple[TagShare, ...]
    spec_failures: tuple[SpecFailure, ...]
    agreement: AgreementData | None
    scorecards: tuple[Scorecard, ...] = ()
    load_errors: int = 0
    rescored: Rescored | None = None

    @property
    def scope(self) -> Scope:
        """Whose verdicts the figures use."""
        return self.stats.scope


def tag_shares(failures: tuple[FailureFact, ...]) -> tuple[TagShare, ...]:
    """Per tag, the labelled failures carrying it by verdict; most used first."""
    counts: dict[str, list[int]] = {}
    for f in failures:
        if f.verdict is None or f.label is None:
            continue
        for tag in f.label.tags or (UNTAGGED,):
            c = counts.setdefault(tag, [0, 0])
            c[0 if f.verdict is Verdict.SPECIFICATION else 1] += 1
    rows = [TagShare(t, s, c) for t, (s, c) in counts.items()]
    return tuple(sorted(rows, key=lambda r: (r.tag == UNTAGGED, -(r.specification + r.capability), r.tag)))


def unstated_demands(store: Store, fact: FailureFact) -> tuple[str, ...]:
    """What the check demanded that the brief does not state, in a few words each."""
    run = store.run(fact.run_key)
    if run is None:
        return ()
    failure = next((f for f in store.failures(run) if f.check_id == fact.key[2]), None)
    if failure is None:
        return ()
    ev = evidence_for(store, run, failure)
    demands = ev.unstated_unmet or ev.unstated
    out = [f"{d.kind.value} {d.shown()}" + (f" ({d.note})" if d.note else "") for d in demands[:MAX_DEMANDS]]
    if len(demands) > MAX_DEMANDS:
        out.append(f"and {len(demands) - MAX_DEMANDS} more")
    return tuple(out)


def spec_failures(store: Store, facts: Facts, rescores: Mapping[FailureKey, str] | None) -> tuple[SpecFailure, ...]:
    """The failures labelled specification, with their unstated demands."""
    out = []
    for f in facts.failures:
        if f.verdict is not Verdict.SPECIFICATION:
            continue
        lab = f.label
        out.append(SpecFailure(
            f.id, f.task, f.model, f.check_name or f.key[2], unstated_demands(store, f),
            lab.note if lab else "", lab.tags if lab else (), (rescores or {}).get(f.key, ""),
        ))
    return tuple(out)


def agreement_data(root: Path, sessions: list[str]) -> AgreementData:
    """Every pair's agreement with kappa intervals, and the disagreements."""
    labels = read_label_set(root, sessions)
    pairs = []
    for p in pairwise(labels):
        iv = kappa_interval(p.ss, p.sc, p.cs, p.cc)
        pairs.append(PairKappa(p, iv[0] if iv else None, iv[1] if iv else None))
    return AgreementData(labels.reviewers, tuple(pairs), tuple(disagreements(root, sessions, labels)))


def build_report(
    store: Store,
    scope: Scope,
    predictions: Collection[tuple[str, list[Prediction]]] = (),
    rescored: Rescored | None = None,
) -> ReportData:
    """Gather the report of a scanned store for a scope.

    Args:
        store: the scanned sessions folder.
        scope: whose verdicts count; with one reviewer's, no other reviewer's label is used.
        predictions: (name, predictions) per predictor, scored against the same verdicts.
        rescored: the saved re-scores (:func:`reviewer.analysis.stats.rescored.rescored`), or None.
    """
    facts = collect(store, only=scope.reviewer, count_passes=True)
    judges, problems = judges_in_scope(store, facts, scope.reviewer)
    stats = replace(compute_stats(facts, rescored.repaired if rescored else None, scope), judges=judges,
                    judge_problems=problems)
    sessions = sorted(store.corpus.sessions)
    return ReportData(
        folder=store.root.name,
        runs=len(store.runs),
        stats=stats,
        tags=tag_shares(facts.failures),
        spec_failures=spec_failures(store, facts, rescored.lines if rescored else None),
        agreement=agreement_data(store.root, sessions) if scope.shows_others else None,
        scorecards=tuple(Scorecard(name, score_predictions(list(preds), facts)) for name, preds in predictions),
        load_errors=len(store.errors),
        rescored=rescored if rescored and rescored.repaired is not None else None,
    )
