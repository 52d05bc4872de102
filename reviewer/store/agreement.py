"""Several reviewers: pairwise agreement (Cohen's kappa), disagreements, and blind mode.

Only decided labels count (specification or capability); a deferred label is no verdict and is
left out, as is a failure only one reviewer of a pair decided. Labels are used as labelled:
a stale label (its evidence changed since) or one whose failure is gone from the folder still
counts, because it is what the reviewer said; ``reviewer check``/the app flag staleness.
A reviewer is the ``reviewer`` named in the labels file; files of one reviewer in several
sessions (and in the per-user folder of a read-only folder) are merged.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from reviewer.model.label import Label, Verdict
from reviewer.store.final import FailureKey, read_adjudications
from reviewer.store.labels import read_all_labels

SPEC, CAP = Verdict.SPECIFICATION, Verdict.CAPABILITY


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class LabelSet:
    """Every reviewer's labels of a folder, by failure, and files that could not be read."""

    by_failure: dict[FailureKey, tuple[Label, ...]]
    reviewers: tuple[str, ...]
    errors: tuple[str, ...] = ()


def read_label_set(root: Path, sessions: list[str]) -> LabelSet:
    """All reviewers' labels (deferred included), grouped by failure, one label per reviewer."""
    per: dict[FailureKey, dict[str, Label]] = {}
    reviewers: set[str] = set()
    errors = []
    for f in read_all_labels(Path(root), sessions):
        if f.error:
            errors.append(f"{f.path}: {f.error}")
            continue
        reviewers.add(f.reviewer)
        for lab in f.labels:
            seen = per.setdefault(lab.key, {}).get(lab.reviewer)
            if seen is None or lab.labelled_at >= seen.labelled_at:
                per[lab.key][lab.reviewer] = lab
    grouped = {k: tuple(v[r] for r in sorted(v)) for k, v in sorted(per.items())}
    return LabelSet(grouped, tuple(sorted(reviewers)), tuple(errors))


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


@dataclass(frozen=True, slots=True)
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
    out = []
    for key, labs in labels.by_failure.items():
        decided = tuple(lab for lab in labs if lab.verdict.decided)
        if len({lab.verdict for lab in decided}) > 1:
            out.append(Disagreement(key, decided, adjudicated.get(key)))
    return out


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
