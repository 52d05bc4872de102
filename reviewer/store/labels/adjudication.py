"""Adjudicated final verdicts: ``<session>/labels/_adjudicated/<run>.toml``, reviewer ``final``
(format 1: ``<session>/labels/_adjudicated.toml``, read, and moved at the next adjudication there).

The files have the labels-file schema and are written like every labels file (a
:class:`~reviewer.store.labels.store.LabelStore` for reviewer ``final``): merged with what is
on disk now, atomically, never over a file that could not be read. ``reviewer export --final``
and :func:`reviewer.store.final.final_verdicts` prefer an adjudicated verdict to the reviewers'.
A read-only sessions folder gets its adjudications in the per-user folder, like labels.

Each adjudication records its provenance: the evidence hash at that moment (computed like a
label's, so a re-recorded run shows it stale), ``adjudicator`` (who decided, a field of its own)
and ``settled`` (the reviewers' decided verdicts it settled). Files written before those fields
kept the adjudicator in the note (``adjudicated by NAME: note``); they are read as if written
now, and rewritten in the new form the next time the file is saved.

Adjudication is for disagreements: :func:`adjudicate_failure` refuses a failure whose
reviewers all agree unless ``override`` is given (:func:`consensus` is the question the app asks
before its confirmation).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.model.label import Label, Verdict
from reviewer.model.records import record
from reviewer.store.labels.labeller import utc_now
from reviewer.store.labels.layout import FINAL
from reviewer.store.labels.reading import read_all_labels
from reviewer.store.labels.store import LabelStore

if TYPE_CHECKING:
    from reviewer.store.labels.labeller import Labeller

OLD_NOTE = re.compile(r"adjudicated by (?P<who>.+?)(?:: (?P<note>.*))?", re.DOTALL)


class Unanimous(Exception):
    """Every reviewer who decided the failure gave the same verdict: adjudicating it needs an override."""

    def __init__(self, found: Consensus) -> None:
        self.consensus = found
        super().__init__(found.describe() + "; adjudication is for disagreements (override to record it anyway)")


@record
class Consensus:
    """The reviewers' decided verdicts on one failure.

    Attributes:
        verdicts: (reviewer, verdict) pairs, sorted by reviewer (deferred labels left out).
    """

    verdicts: tuple[tuple[str, Verdict], ...]

    @property
    def unanimous(self) -> Verdict | None:
        """The verdict when at least one reviewer decided and all who did agree, else None."""
        found = {v for _, v in self.verdicts}
        return found.pop() if len(found) == 1 else None

    def describe(self) -> str:
        """``all 2 reviewers say specification (alice, bob)``."""
        who = ", ".join(r for r, _ in self.verdicts)
        verdict = self.unanimous
        if verdict is None:
            return f"reviewers disagree ({', '.join(f'{r}: {v.value}' for r, v in self.verdicts)})" if self.verdicts \
                else "no reviewer has decided this failure"
        n = len(self.verdicts)
        return f"{'the only reviewer who decided says' if n == 1 else f'all {n} reviewers say'} {verdict.value} ({who})"


def consensus(root: Path, session: str, run: str, check: str) -> Consensus:
    """Every reviewer's decided verdict on a failure (the newest label of each reviewer)."""
    newest: dict[str, Label] = {}
    for g in read_all_labels(Path(root), [session]):
        labs = g.entries.get((run, check))
        lab = labs[0] if labs else None
        if lab is not None and lab.verdict.decided:
            seen = newest.get(g.reviewer)
            if seen is None or lab.labelled_at >= seen.labelled_at:
                newest[g.reviewer] = lab
    return Consensus(tuple(sorted((who, lab.verdict) for who, lab in newest.items())))


def migrated(lab: Label) -> Label:
    """An adjudication as written now: an old one's ``adjudicated by NAME: note`` becomes the
    ``adjudicator`` field and the note."""
    if lab.adjudicator:
        return lab
    m = OLD_NOTE.fullmatch(lab.note)
    if m is None:
        return lab
    return replace(lab, adjudicator=m["who"].strip(), note=(m["note"] or "").strip())


def adjudications(root: Path) -> LabelStore:
    """The folder's adjudications, as a labels store of reviewer ``final`` (in the per-user folder when read-only)."""
    return LabelStore(Path(root), FINAL, adjudications=True)


def adjudicate(
    root: Path,
    session: str,
    run: str,
    check: str,
    verdict: Verdict,
    note: str = "",
    adjudicator: str = "",
    evidence: str = "",
    tags: tuple[str, ...] = (),
    clock: Callable[[], str] = utc_now,
    settled: tuple[tuple[str, Verdict], ...] = (),
) -> Label:
    """Record the final verdict of a failure (replacing an earlier adjudication) and save it.

    Entries of the file still in the old form are migrated in the same write. This is the
    low-level save; :func:`adjudicate_failure` adds the evidence, the settled verdicts and the
    unanimity check.

    Raises:
        ValueError: the verdict is "deferred" (an adjudication decides).
        LabelsUnsafe, OSError: not saved (the file could not be read, or written).
    """
    if not verdict.decided:
        raise ValueError("an adjudicated verdict is specification or capability, not deferred")
    label = Label(
        session=session,
        run=run,
        check=check,
        verdict=verdict,
        reviewer=FINAL,
        labelled_at=clock(),
        evidence=evidence,
        tags=tuple(sorted(set(tags))),
        note=note.strip(),
        adjudicator=adjudicator.strip(),
        settled=tuple(sorted(settled)),
    )
    store = adjudications(root)
    store.list_session(session)
    old = [(session, lab.run, lab.check, migrated(lab)) for lab in store.mine_all()
           if migrated(lab) != lab and (lab.run, lab.check) != (run, check)]
    try:
        store.put_many([*old, (session, run, check, label)])
    finally:
        store.pending.clear()  # a one-shot store: what failed is reported, not kept
    return label


def adjudicate_failure(labeller: Labeller, failure_id: str, verdict: Verdict, note: str = "",
                       override: bool = False, tags: tuple[str, ...] = ()) -> Label:
    """Adjudicate a failure as the labeller's reviewer, with its evidence hash and the verdicts settled.

    Raises:
        UnknownFailure: no such failure.
        Unanimous: every reviewer who decided agrees and ``override`` is False (nothing written).
        ValueError, LabelsUnsafe, OSError: as :func:`adjudicate`.
    """
    run, failure = labeller.find(failure_id)
    root = labeller.sessions.root
    found = consensus(root, run.session, run.id, failure.check_id)
    if found.unanimous is not None and not override:
        raise Unanimous(found)
    return adjudicate(root, run.session, run.id, failure.check_id, verdict, note=note,
                      adjudicator=labeller.labels.reviewer, evidence=labeller.evidence(run, failure),
                      tags=tags, clock=labeller.clock, settled=found.verdicts)


def clear_adjudication(root: Path, session: str, run: str, check: str) -> bool:
    """Remove a failure's adjudication; False when it had none.

    Raises:
        LabelsUnsafe, OSError: not saved.
    """
    store = adjudications(root)
    if store.get(session, run, check) is None:
        return False
    try:
        store.put(session, run, check, None)
    finally:
        store.pending.clear()
    return True


