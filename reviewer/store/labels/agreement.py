"""Several reviewers: pairwise agreement (Cohen's kappa), disagreements, and blind mode.

Only decided labels count (specification or capability); a deferred label is no verdict and is
left out, as is a failure only one reviewer of a pair decided. Labels are used as labelled:
a stale label (its evidence changed since) or one whose failure is gone from the folder still
counts, because it is what the reviewer said; ``reviewer check``/the app flag staleness.
A reviewer is the ``reviewer`` named in the labels files; files of one reviewer in several
sessions (and in the per-user folder of a read-only folder) are merged, and where they hold two
labels on one failure the newer is the one that counts.
"""

from __future__ import annotations

import threading
from itertools import combinations
from pathlib import Path

from reviewer.model.label import Label, Verdict
from reviewer.model.records import record
from reviewer.store.labels import FORGET, ReviewerLabels, read_all_labels
from reviewer.store.labels.final import FailureKey, read_adjudications

SPEC, CAP = Verdict.SPECIFICATION, Verdict.CAPABILITY


@record
class PairAgreement:
    """Agreement of two reviewers over the failures both decided.

    Attributes:
        a, b: the reviewers, ``a < b``.
        n: failures both labelled specification or capability.
        ss, sc, cs, cc: the confusion table, a's verdict then b's (s = specification,
            c = capability).
        percent: 100 * agreements / n; None when n is 0.
        kappa: Cohen's kappa, (po - pe) / (1 - pe); 1.0 when pe is 1 (both reviewers gave one
            and the same verdict to everything, so they also agree on everything); None when n is 0.
    """

    a: str
    b: str
    n: int
    ss: int
    sc: int
    cs: int
    cc: int
    percent: float | None
    kappa: float | None

    @property
    def confusion(self) -> dict[str, int]:
        """The 2x2 table keyed ``<a's verdict>/<b's verdict>``."""
        return {
            "specification/specification": self.ss,
            "specification/capability": self.sc,
            "capability/specification": self.cs,
            "capability/capability": self.cc,
        }

    def as_json(self) -> dict[str, object]:
        """The JSON object ``reviewer agreement --json`` prints for this pair."""
        return {"a": self.a, "b": self.b, "n": self.n, "percent": self.percent, "kappa": self.kappa, "confusion": self.confusion}


def agreement(ss: int, sc: int, cs: int, cc: int) -> tuple[float | None, float | None]:
    """Percent agreement and Cohen's kappa of a 2x2 table (None, None when it is empty)."""
    n = ss + sc + cs + cc
    if n == 0:
        return None, None
    po = (ss + cc) / n
    a_spec, b_spec = (ss + sc) / n, (ss + cs) / n
    pe = a_spec * b_spec + (1 - a_spec) * (1 - b_spec)
    kappa = 1.0 if pe >= 1.0 else (po - pe) / (1 - pe)
    return 100.0 * po, kappa


@record
class LabelSet:
    """Every reviewer's labels of a folder, by failure, and files that could not be read.

    ``disagreeing``: the failures whose reviewers' decided verdicts differ, in failure order
    (None when not worked out). ``errors``: what could not be read or is ambiguous, one "path:
    reason" each (damaged files and lines, refused folders, a reviewer's two labels on one failure).
    """

    by_failure: dict[FailureKey, tuple[Label, ...]]
    reviewers: tuple[str, ...]
    errors: tuple[str, ...] = ()
    disagreeing: tuple[FailureKey, ...] | None = None


@record(frozen=False, slots=False)
class Built:
    """A label set as last built for a folder, kept so the next read applies only what changed."""

    groups: dict[tuple[str, str], ReviewerLabels]
    per: dict[FailureKey, dict[str, Label]]
    grouped: dict[FailureKey, tuple[Label, ...]]
    disagree: set[FailureKey]


BUILT: dict[tuple[str, tuple[str, ...]], Built] = {}
BUILT_LOCK = threading.Lock()
FORGET.append(BUILT.clear)


def disagreeing(labs: tuple[Label, ...]) -> bool:
    """True when the decided verdicts among ``labs`` differ."""
    return len({lab.verdict for lab in labs if lab.verdict.decided}) > 1


def read_label_set(root: Path, sessions: list[str]) -> LabelSet:
    """All reviewers' labels (deferred included), grouped by failure, one label per reviewer.

    Reading again after a decision costs what changed: only the failures of the files that
    changed since the last read are grouped again.
    """
    groups = read_all_labels(Path(root), sessions)
    errors = tuple(text for g in groups for text in g.problems)
    usable = {(g.session, g.stem): g for g in groups if g.stem}
    reviewers = tuple(sorted({g.reviewer for g in usable.values() if g.reviewer and g.entries}))
    key = (str(Path(root)), tuple(sessions))
    with BUILT_LOCK:
        built = BUILT.get(key)
        changed = changed_keys(built, usable) if built is not None else None
        if built is None or changed is None:
            built = build(usable)
            BUILT[key] = built
        else:
            for k in changed:
                regroup(built, k, usable)
            built.groups = usable
        return LabelSet(dict(built.grouped), reviewers, errors, tuple(sorted(built.disagree)))


def changed_keys(built: Built, groups: dict[tuple[str, str], ReviewerLabels]) -> set[FailureKey] | None:
    """The failures to group again, or None when more changed than some files (a reviewer came or went)."""
    if built.groups.keys() != groups.keys():
        return None
    changed: set[FailureKey] = set()
    for k, g in groups.items():
        old = built.groups[k]
        if old is g:
            continue
        if old.reviewer != g.reviewer:
            return None
        for path in old.files.keys() | g.files.keys():
            before, after = old.files.get(path), g.files.get(path)
            if before is after:
                continue
            for f in (before, after):
                if f is not None:
                    changed.update((g.session, run, check) for run, check in f.entries)
        if len(changed) > 50_000:
            return None
    return changed


def regroup(built: Built, k: FailureKey, groups: dict[tuple[str, str], ReviewerLabels]) -> None:
    """Group one failure's labels again from the reviewers' groups of its session."""
    session, run, check = k
    per: dict[str, Label] = {}
    for g in groups.values():
        if g.session != session:
            continue
        labs = g.entries.get((run, check))
        if labs:
            seen = per.get(g.reviewer)
            if seen is None or labs[0].labelled_at >= seen.labelled_at:
                per[g.reviewer] = labs[0]
    if per:
        built.per[k] = per
        built.grouped[k] = tuple(per[r] for r in sorted(per))
        (built.disagree.add if disagreeing(built.grouped[k]) else built.disagree.discard)(k)
    else:
        built.per.pop(k, None)
        built.grouped.pop(k, None)
        built.disagree.discard(k)


def build(groups: dict[tuple[str, str], ReviewerLabels]) -> Built:
    """Group every label in force of every reviewer (the first read, or after a bigger change)."""
    per: dict[FailureKey, dict[str, Label]] = {}
    for g in groups.values():
        for lab in g.labels:
            seen = per.setdefault(lab.key, {}).get(g.reviewer)
            if seen is None or lab.labelled_at >= seen.labelled_at:
                per[lab.key][g.reviewer] = lab
    grouped = {k: tuple(v[r] for r in sorted(v)) for k, v in sorted(per.items())}
    return Built(dict(groups), per, grouped, {k for k, labs in grouped.items() if disagreeing(labs)})


def pairwise(labels: LabelSet) -> list[PairAgreement]:
    """Agreement for every pair of reviewers, sorted by (a, b); pairs with n = 0 included."""
    decided: dict[str, dict[FailureKey, Verdict]] = {r: {} for r in labels.reviewers}
    for key, labs in labels.by_failure.items():
        for lab in labs:
            if lab.verdict.decided:
                decided.setdefault(lab.reviewer, {})[key] = lab.verdict
    out = []
    for a, b in combinations(sorted(decided), 2):
        cells = {(SPEC, SPEC): 0, (SPEC, CAP): 0, (CAP, SPEC): 0, (CAP, CAP): 0}
        for key in decided[a].keys() & decided[b].keys():
            cells[(decided[a][key], decided[b][key])] += 1
        ss, sc, cs, cc = cells[(SPEC, SPEC)], cells[(SPEC, CAP)], cells[(CAP, SPEC)], cells[(CAP, CAP)]
        percent, kappa = agreement(ss, sc, cs, cc)
        out.append(PairAgreement(a, b, ss + sc + cs + cc, ss, sc, cs, cc, percent, kappa))
    return out


@record
class Disagreement:
    """A failure whose reviewers gave different verdicts.

    Attributes:
        key: (session, run, check).
        labels: every reviewer's decided label on it (verdicts and notes), by reviewer.
        adjudicated: the adjudicated label (``reviewer = "final"``), or None.
    """

    key: FailureKey
    labels: tuple[Label, ...]
    adjudicated: Label | None = None

    @property
    def failure_id(self) -> str:
        """The global failure id."""
        return f"{self.key[0]}/{self.key[1]}#{self.key[2]}"


def disagreements(root: Path, sessions: list[str], labels: LabelSet | None = None) -> list[Disagreement]:
    """Failures where reviewers' decided verdicts differ, adjudicated or not, in failure order."""
    labels = labels if labels is not None else read_label_set(root, sessions)
    adjudicated = read_adjudications(Path(root), sessions)
    keys = labels.disagreeing if labels.disagreeing is not None else sorted(
        k for k, labs in labels.by_failure.items() if disagreeing(labs))
    return [Disagreement(k, tuple(lab for lab in labels.by_failure[k] if lab.verdict.decided), adjudicated.get(k))
            for k in keys]


def visible_others(labs: tuple[Label, ...], me: str, blind: bool = True, revealed: bool = False) -> tuple[Label, ...] | None:
    """Other reviewers' labels on one failure as the current reviewer may see them.

    In blind mode they stay hidden (None) until ``me`` has decided the failure (specification
    or capability) or the reviewer asked to reveal them; otherwise they are returned.
    """
    mine = next((lab for lab in labs if lab.reviewer == me), None)
    others = tuple(lab for lab in labs if lab.reviewer != me)
    if blind and not revealed and (mine is None or not mine.verdict.decided):
        return None
    return others
