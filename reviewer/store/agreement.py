"""Several reviewers: pairwise agreement (Cohen's kappa), disagreements, and blind mode.

Only decided labels count (specification or capability); a deferred label is no verdict and is
left out, as is a failure only one reviewer of a pair decided. Labels are used as labelled:
a stale label (its evidence changed since) or one whose failure is gone from the folder still
counts, because it is what the reviewer said; ``reviewer check``/the app flag staleness.
A reviewer is the ``reviewer`` named in the labels file; files of one reviewer in several
sessions (and in the per-user folder of a read-only folder) are merged.
"""

from __future__ import annotations

import threading
from itertools import combinations
from pathlib import Path

from reviewer.model.label import Label, Verdict
from reviewer.model.records import record
from reviewer.store.final import FailureKey, read_adjudications
from reviewer.store.labelread import FORGET
from reviewer.store.labels import OtherFile, read_all_labels

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
    (None when not worked out).
    """

    by_failure: dict[FailureKey, tuple[Label, ...]]
    reviewers: tuple[str, ...]
    errors: tuple[str, ...] = ()
    disagreeing: tuple[FailureKey, ...] | None = None


@record(frozen=False, slots=False)
class Built:
    """A label set as last built for a folder, kept so the next read applies only what changed."""

    files: dict[str, OtherFile]
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

    Reading again after a decision costs what changed: when every file is the one read last time
    or the same TOML with more journal lines, only the failures of those lines are grouped again.
    """
    files = read_all_labels(Path(root), sessions)
    errors = tuple(f"{f.path}: {f.error}" for f in files if f.error)
    usable = {str(f.path): f for f in files if not f.error}
    reviewers = tuple(sorted({f.reviewer for f in usable.values()}))
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
            built.files = usable
        return LabelSet(dict(built.grouped), reviewers, errors, tuple(sorted(built.disagree)))


def changed_keys(built: Built, files: dict[str, OtherFile]) -> set[FailureKey] | None:
    """The failures to group again, or None when the files changed more than by added journal lines."""
    if built.files.keys() != files.keys() or len({(f.path.parent.parent.name, f.reviewer) for f in files.values()}) != len(files):
        return None  # a reviewer with two files for one session (the folder's and the per-user one): group all again
    changed: set[FailureKey] = set()
    for path, f in files.items():
        old = built.files[path]
        if old is f:
            continue
        if f.base is None or old.base is not f.base or old.lines > f.lines or old.reviewer != f.reviewer:
            return None
        session = f.path.parent.parent.name
        changed.update((session, run, check) for run, check in f.keys[old.lines:])
    return changed


def regroup(built: Built, k: FailureKey, files: dict[str, OtherFile]) -> None:
    """Group one failure's labels again from the files (each reviewer has one file here)."""
    session, run, check = k
    per = {}
    for f in files.values():
        if f.path.parent.parent.name != session or f.parsed is None:
            continue
        lab = f.parsed.labels.get((run, check))
        if lab is not None:
            per[lab.reviewer] = lab
    if per:
        built.per[k] = per
        built.grouped[k] = tuple(per[r] for r in sorted(per))
        (built.disagree.add if disagreeing(built.grouped[k]) else built.disagree.discard)(k)
    else:
        built.per.pop(k, None)
        built.grouped.pop(k, None)
        built.disagree.discard(k)


def build(files: dict[str, OtherFile]) -> Built:
    """Group every label of every file (the first read, or after a bigger change)."""
    per: dict[FailureKey, dict[str, Label]] = {}
    for f in files.values():
        for lab in f.labels:
            seen = per.setdefault(lab.key, {}).get(lab.reviewer)
            if seen is None or lab.labelled_at >= seen.labelled_at:
                per[lab.key][lab.reviewer] = lab
    grouped = {k: tuple(v[r] for r in sorted(v)) for k, v in sorted(per.items())}
    return Built(dict(files), per, grouped, {k for k, labs in grouped.items() if disagreeing(labs)})


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
