"""Final verdicts: the adjudicated verdict, else the unanimous one, per failure."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from reviewer.model.label import Label
from reviewer.model.records import record
from reviewer.store.adjudication import migrated
from reviewer.store.labelread import read_labels_file
from reviewer.store.labels import ADJUDICATED_FILE, label_dirs, read_all_labels
from reviewer.store.tomlfile import BadToml

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
    """Adjudicated verdicts (``<session>/labels/_adjudicated.toml``), old entries read in the new
    form (the adjudicator out of the note, into ``adjudicator``)."""

    out: dict[FailureKey, Label] = {}
    for session, folder in label_dirs(root, sessions):
        path = folder / ADJUDICATED_FILE
        if not path.is_file() or path.is_symlink():
            continue
        try:
            parsed = read_labels_file(path, session, "final")
        except (BadToml, ValueError, OSError):
            continue
        for lab in parsed.labels.values():
            if lab.verdict.decided:
                out[lab.key] = migrated(lab)
    return out


def by_failure(root: Path, sessions: list[str]) -> dict[FailureKey, list[Label]]:
    """Every reviewer's decided (non-deferred) labels, grouped by failure."""
    grouped: dict[FailureKey, list[Label]] = {}
    for f in read_all_labels(root, sessions):
        for lab in f.labels:
            if lab.verdict.decided:
                grouped.setdefault(lab.key, []).append(lab)
    return grouped


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


