"""Final verdicts: the adjudicated verdict, else the unanimous one, per failure."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from reviewer.model.label import Label
from reviewer.model.records import record
from reviewer.store.labels.adjudication import migrated
from reviewer.store.labels.reading import read_adjudications_of, read_all_labels

FailureKey = tuple[str, str, str]


@record
class Finals:
    """Final labels per failure, and the failures left out because reviewers disagree."""

    labels: dict[FailureKey, Label]
    disagreements: tuple[FailureKey, ...]

    @property
    def left_out(self) -> int:
        """How many failures had disagreeing reviewers and no adjudication."""
        return len(self.disagreements)


def read_adjudications(root: Path, sessions: list[str]) -> dict[FailureKey, Label]:
    """Adjudicated verdicts (``<session>/labels/_adjudicated/``, or format 1's ``_adjudicated.toml``),
    old entries read in the new form (the adjudicator out of the note, into ``adjudicator``). Where
    two adjudications name one failure, the newer is in force; what cannot be read is left out
    (``reviewer check`` names it)."""
    out: dict[FailureKey, Label] = {}
    for group in read_adjudications_of(root, sessions):
        for lab in group.labels:
            if lab.verdict.decided:
                out[lab.key] = migrated(lab)
    return out


def by_failure(root: Path, sessions: list[str]) -> dict[FailureKey, list[Label]]:
    """Every reviewer's decided (non-deferred) label in force, grouped by failure (one per reviewer:
    the newest where their files hold several)."""
    newest: dict[FailureKey, dict[str, Label]] = {}
    for group in read_all_labels(root, sessions):
        for lab in group.labels:
            seen = newest.setdefault(lab.key, {}).get(group.reviewer)
            if seen is None or lab.labelled_at >= seen.labelled_at:
                newest[lab.key][group.reviewer] = lab
    return {key: [lab for lab in per.values() if lab.verdict.decided] for key, per in newest.items()
            if any(lab.verdict.decided for lab in per.values())}


def final_verdicts(root: Path, sessions: list[str]) -> Finals:
    """One label per failure with ``reviewer = "final"``: adjudicated, else unanimous."""
    adjudicated = read_adjudications(root, sessions)
    finals: dict[FailureKey, Label] = {}
    disagreements = []
    for key, labs in sorted(by_failure(root, sessions).items()):
        if key in adjudicated:
            finals[key] = replace(adjudicated[key], reviewer="final")
        elif len({lab.verdict for lab in labs}) == 1:
            latest = max(labs, key=lambda lab: lab.labelled_at)
            finals[key] = replace(latest, reviewer="final", note="; ".join(lab.note for lab in labs if lab.note))
        else:
            disagreements.append(key)
    for key, lab in adjudicated.items():
        finals.setdefault(key, replace(lab, reviewer="final"))
    return Finals(finals, tuple(disagreements))


