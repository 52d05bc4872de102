"""The labelling flow shared by the app and the headless commands: decide, clear, annotate, undo.

A decision on a failure is the reviewer's word on it: it replaces every label they had there
(two or more are a duplicate, kept until this moment). A note or tags changed on a labelled
failure change the label in force and leave any other label there as it was. Undo puts back
exactly what the failure held before, duplicates included.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from typing import Callable

from reviewer.model import Failure, Run
from reviewer.model.check import split_failure_id
from reviewer.model.label import Label, Note, Verdict
from reviewer.model.records import record
from reviewer.store.labels.format import Entry
from reviewer.store.labels.store import LabelStore
from reviewer.store.sessions.fingerprint import evidence_hash
from reviewer.store.sessions.lookup import UnknownFailure
from reviewer.store.sessions.protocol import Store


def utc_now() -> str:
    """Now, RFC 3339 UTC to the second."""
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class SaveFailed(Exception):
    """A decision is kept in memory but could not be written yet; the message says why."""


@record
class LabelState:
    """A failure's label for the current reviewer, and whether its evidence changed since."""

    label: Label | None
    stale: bool = False

    @property
    def decided(self) -> bool:
        """Labelled specification or capability, and not stale."""
        return self.label is not None and self.label.verdict.decided and not self.stale

    @property
    def deferred(self) -> bool:
        """Deferred and not stale."""
        return self.label is not None and self.label.verdict is Verdict.DEFERRED and not self.stale


Change = list[tuple[str, str, str, Entry]]
"""(session, run, check, what the failure holds after the change): a label, exactly these labels
(a duplicate put back by undo), a note-only entry, or None (nothing)."""


class Labeller:
    """Applies reviewers' decisions: saved at once, undoable, with an evidence fingerprint."""

    def __init__(self, sessions: Store, labels: LabelStore, clock: Callable[[], str] = utc_now) -> None:
        self.sessions = sessions
        self.labels = labels
        self.clock = clock
        self.undo_stack: list[Change] = []
        self.evidence_cache: dict[str, str] = {}

    def find(self, failure_id: str) -> tuple[Run, Failure]:
        """The run and failure of a global failure id."""
        try:
            session, run_id, check = split_failure_id(failure_id)
        except ValueError as exc:
            raise UnknownFailure(str(exc)) from None
        run = self.sessions.run(f"{session}/{run_id}")
        if run is None:
            raise UnknownFailure(f"no run {session}/{run_id} in {self.sessions.root}")
        for f in self.sessions.failures(run):
            if f.check_id == check:
                return run, f
        raise UnknownFailure(f"run {session}/{run_id} has no failing check {check!r}")

    def evidence(self, run: Run, failure: Failure) -> str:
        """The evidence hash of a failure (cached per failure until the folder is rescanned)."""
        hit = self.evidence_cache.get(failure.id)
        if hit is None:
            hit = evidence_hash(self.sessions, run, failure)
            self.evidence_cache[failure.id] = hit
        return hit

    def state(self, run: Run, failure: Failure) -> LabelState:
        """The current reviewer's label of a failure and whether it is stale."""
        lab = self.labels.get(run.session, run.id, failure.check_id)
        if lab is None:
            return LabelState(None)
        return LabelState(lab, bool(lab.evidence) and lab.evidence != self.evidence(run, failure))

    def entry(self, session: str, run: str, check: str) -> Label | Note | None:
        """What the current reviewer holds on a failure: the label in force, else the note-only entry, else None."""
        return self.labels.get(session, run, check) or self.labels.note(session, run, check)

    def held(self, session: str, run: str, check: str) -> Entry:
        """Exactly what the reviewer holds on a failure, to put back: its labels (all of a duplicate),
        else its note entry, else None."""
        labels = self.labels.entries(session, run, check)
        if len(labels) > 1:
            return labels
        return labels[0] if labels else self.labels.note(session, run, check)

    def apply(self, change: Change, record: bool = True) -> None:
        """Make each failure of a change hold exactly its entry, saved; record the previous values."""
        before: Change = [(s, r, c, self.held(s, r, c)) for s, r, c, _ in change]
        if record:
            self.undo_stack.append(before)
        ops: list[tuple[str, str, str, Entry]] = []
        for s, r, c, entry in change:
            if isinstance(entry, (Label, tuple)):
                ops.append((s, r, c, entry))
            else:  # no label, and this note entry (or none)
                ops += [(s, r, c, None), (s, r, c, entry or Note(s, r, c, self.labels.reviewer, ""))]
        try:
            self.labels.put_many(ops)
        except Exception as exc:  # noqa: BLE001 - kept pending in memory, reported once
            raise SaveFailed(str(exc)) from exc

    def make(self, run: Run, failure: Failure, verdict: Verdict, note: str | None = None, tags: tuple[str, ...] | None = None) -> Label:
        """A new label for a failure, keeping an existing note and tags (of the label, or of the
        note-only entry it replaces) unless replaced."""
        old = self.entry(run.session, run.id, failure.check_id)
        return Label(
            session=run.session,
            run=run.id,
            check=failure.check_id,
            verdict=verdict,
            reviewer=self.labels.reviewer,
            labelled_at=self.clock(),
            evidence=self.evidence(run, failure),
            tags=tags if tags is not None else (old.tags if old else ()),
            note=note if note is not None else (old.note if old else ""),
        )

    def decide(self, failure_id: str, verdict: Verdict, note: str | None = None, tags: tuple[str, ...] | None = None) -> Label:
        """Label a failure (specification, capability or deferred) and save it."""
        run, failure = self.find(failure_id)
        lab = self.make(run, failure, verdict, note, tags)
        self.apply([(run.session, run.id, failure.check_id, lab)])
        return lab

    def decide_many(self, failure_ids: list[str], verdict: Verdict) -> int:
        """Label several failures as one undoable change; returns how many changed."""
        change: Change = []
        for fid in failure_ids:
            run, failure = self.find(fid)
            change.append((run.session, run.id, failure.check_id, self.make(run, failure, verdict)))
        self.apply(change)
        return len(change)

    def clear(self, failure_id: str) -> bool:
        """Remove the current reviewer's label; False when there was none."""
        run, failure = self.find(failure_id)
        if self.labels.get(run.session, run.id, failure.check_id) is None:
            return False
        self.apply([(run.session, run.id, failure.check_id, None)])
        return True

    def annotate(self, failure_id: str, note: str | None = None, tags: tuple[str, ...] | None = None) -> Label | Note:
        """Set the note and/or tags (None keeps them) and save.

        A labelled failure keeps its verdict. An unlabelled one gets a note-only entry: it stays
        unlabelled (no verdict is invented); an empty note with no tags removes that entry.
        Returns the label, or the note entry.
        """
        run, failure = self.find(failure_id)
        old = self.entry(run.session, run.id, failure.check_id)
        entry: Label | Note
        change: Entry
        if isinstance(old, Label):
            entry = replace(
                old,
                note=note if note is not None else old.note,
                tags=tags if tags is not None else old.tags,
                labelled_at=self.clock(),
            )
            others = self.labels.entries(run.session, run.id, failure.check_id)[1:]
            change = (entry, *others) if others else entry  # a duplicate's other labels stay as they were
        else:
            entry = Note(
                run.session, run.id, failure.check_id, self.labels.reviewer, self.clock(),
                note=note if note is not None else (old.note if old else ""),
                tags=tags if tags is not None else (old.tags if old else ()),
                evidence=self.evidence(run, failure),
            )
            change = entry
        self.apply([(run.session, run.id, failure.check_id, change)])
        return entry

    def note_of(self, failure_id: str) -> Note | None:
        """The current reviewer's note-only entry on a failure (None when labelled or without one)."""
        try:
            session, run, check = split_failure_id(failure_id)
        except ValueError:
            return None
        return self.labels.note(session, run, check)

    def annotation(self, failure_id: str) -> tuple[str, tuple[str, ...]]:
        """The note and tags the current reviewer has on a failure, from its label or note entry."""
        try:
            session, run, check = split_failure_id(failure_id)
        except ValueError:
            return "", ()
        entry = self.entry(session, run, check)
        return (entry.note, entry.tags) if entry is not None else ("", ())

    def undo(self) -> Change | None:
        """Restore the labels before the last change; None when there is nothing to undo."""
        if not self.undo_stack:
            return None
        before = self.undo_stack.pop()
        self.apply(before, record=False)
        return before
