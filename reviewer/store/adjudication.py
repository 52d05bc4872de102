"""Adjudicated final verdicts: ``<session>/labels/_adjudicated.toml``, reviewer ``final``.

The file has the labels-file schema and is written like every labels file: merged with what is
on disk now, atomically, never over a file that could not be read. ``reviewer export --final``
and :func:`reviewer.store.final.final_verdicts` prefer an adjudicated verdict to the reviewers'.
A read-only sessions folder gets its adjudications in the per-user folder, like labels.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from reviewer.model.label import Label, Verdict
from reviewer.store.labelfile import LabelFile
from reviewer.store.labeller import utc_now
from reviewer.store.labels import ADJUDICATED_FILE, LabelStore

FINAL = "final"


def adjudication_file(root: Path, session: str) -> LabelFile:
    """The adjudications file of a session, loaded (in the per-user folder when read-only)."""
    folder = LabelStore(Path(root), FINAL).labels_dir(session)
    lf = LabelFile(folder / ADJUDICATED_FILE, session, FINAL)
    lf.load()
    return lf


def adjudicated_note(note: str, adjudicator: str) -> str:
    """The note saved with an adjudication: names the adjudicator when one is given."""
    note = note.strip()
    if not adjudicator:
        return note
    return f"adjudicated by {adjudicator}: {note}" if note else f"adjudicated by {adjudicator}"


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
) -> Label:
    """Record the final verdict of a failure (replacing an earlier adjudication) and save it.

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
        note=adjudicated_note(note, adjudicator),
    )
    adjudication_file(root, session).change(run, check, label)
    return label


def clear_adjudication(root: Path, session: str, run: str, check: str) -> bool:
    """Remove a failure's adjudication; False when it had none.

    Raises:
        LabelsUnsafe, OSError: not saved.
    """
    lf = adjudication_file(root, session)
    if lf.get(run, check) is None:
        return False
    lf.change(run, check, None)
    return True


def adjudication_of(root: Path, session: str, run: str, check: str) -> Label | None:
    """The adjudicated label of a failure, or None."""
    return adjudication_file(root, session).get(run, check)
