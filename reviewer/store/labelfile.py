"""One reviewer's labels for one session: a deterministic TOML file, merged and saved atomically."""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli_w

from reviewer.model.label import LABELS_FORMAT, Label, Verdict
from reviewer.store.atomic import atomic_write, clean_stale_temps, folder_lock
from reviewer.store.index_files import stat_key
from reviewer.store.nofollow import LinkOnPath, check_dir, make_folder
from reviewer.store.tomlfile import BadToml, parse_toml_bytes

if TYPE_CHECKING:
    from reviewer.store.index import RunIndex

LABEL_FILE_CAP = 256 << 20
Key = tuple[str, str]


class LabelsUnsafe(Exception):
    """Saving would overwrite labels that could not be read; nothing was written."""


def label_from_table(t: Any, session: str, reviewer: str) -> Label:
    """A Label from one ``[[label]]`` table; ValueError when it is not one."""
    if not isinstance(t, dict):
        raise ValueError("a [[label]] entry is not a table")
    run, check = t.get("run"), t.get("check")
    if not isinstance(run, str) or not isinstance(check, str) or not run or not check:
        raise ValueError("a [[label]] entry lacks `run` or `check`")
    verdict = Verdict(t.get("verdict"))
    tags = t.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(x, str) for x in tags):
        raise ValueError("`tags` must be a list of strings")
    labelled_at = t.get("labelled_at", "")
    if not isinstance(labelled_at, str):
        labelled_at = str(labelled_at)
    return Label(
        session=session,
        run=run,
        check=check,
        verdict=verdict,
        reviewer=reviewer,
        labelled_at=labelled_at,
        evidence=str(t.get("evidence", "")),
        tags=tuple(tags),
        note=str(t.get("note", "")),
    )


def labels_to_bytes(session: str, reviewer: str, labels: dict[Key, Label]) -> bytes:
    """Deterministic TOML: sorted entries, sorted keys, same bytes for the same labels."""
    doc = {
        "format": LABELS_FORMAT,
        "reviewer": reviewer,
        "session": session,
        "label": [
            {
                "check": lab.check,
                "evidence": lab.evidence,
                "labelled_at": lab.labelled_at,
                "note": lab.note,
                "run": lab.run,
                "tags": sorted(lab.tags),
                "verdict": lab.verdict.value,
            }
            for _, lab in sorted(labels.items())
        ],
    }
    return tomli_w.dumps(doc).encode("utf-8")


@dataclass(frozen=True, slots=True)
class Parsed:
    """What a labels file holds."""

    reviewer: str
    labels: dict[Key, Label]
    newer: bool = False


def parse_labels(data: bytes, session: str, fallback_reviewer: str) -> Parsed:
    """Parse a labels file; BadToml/ValueError when it cannot be trusted whole."""
    doc = parse_toml_bytes(data)
    version = doc.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ValueError("has no `format` version")
    newer = version > LABELS_FORMAT
    reviewer = doc.get("reviewer", fallback_reviewer)
    if not isinstance(reviewer, str) or not reviewer:
        raise ValueError("`reviewer` must be a non-empty string")
    entries = doc.get("label", [])
    if not isinstance(entries, list):
        raise ValueError("`label` must be an array of tables")
    labels: dict[Key, Label] = {}
    for t in entries:
        try:
            lab = label_from_table(t, session, reviewer)
        except ValueError:
            if newer:
                continue
            raise
        labels[(lab.run, lab.check)] = lab
    return Parsed(reviewer, labels, newer)


@dataclass(slots=True)
class LabelFile:
    """The labels of one reviewer in one session, as on disk plus pending changes.

    Every change is saved at once. When the file cannot be read (damaged, conflict markers, a
    newer format), it is never written: changes stay pending in memory and ``error`` says why.

    Each save re-reads the file and merges: what others changed on disk is kept, except that a
    decision made through this object (``mine``) that an outside change removed, or replaced
    by an older label (a ``git checkout`` of an older file, ``git stash``), is written back, and
    ``restored`` names it until :meth:`take_restored` is called.
    """

    path: Path
    session: str
    reviewer: str
    labels: dict[Key, Label] = field(default_factory=dict)
    pending: list[tuple[Key, Label | None]] = field(default_factory=list)
    error: str = ""
    seen: tuple[int, int] | None = None
    mine: dict[Key, Label | None] = field(default_factory=dict)
    restored: list[Key] = field(default_factory=list)
    index: "RunIndex | None" = None
    """The folder's index cache: an unchanged file is taken from it instead of parsed again."""
    base: Path | None = None
    """The trusted root the file's ``<session>/labels`` folder is made in (default: the folder
    above ``<session>``): a link below it is never followed, for reading or writing."""

    @property
    def trusted(self) -> Path:
        """The root below which no link is followed."""
        return self.base if self.base is not None else self.path.parents[2]

    def link_problem(self) -> str:
        """Why the file's folder must not be used ("" when it is a real folder or absent)."""
        rel = self.path.parent.relative_to(self.trusted).as_posix()
        try:
            check_dir(self.trusted, rel)
        except FileNotFoundError:
            return ""
        except LinkOnPath as exc:
            return f"{exc}; labels are neither read nor written there"
        except OSError:
            return ""
        return ""

    def load(self) -> None:
        """Read the file (absent = no labels yet), cleaning stale temp files first."""
        folder = self.path.parent
        problem = self.link_problem()
        if problem:
            self.labels, self.error = {}, problem
            return
        if folder.is_dir():
            try:
                with folder_lock(folder):
                    clean_stale_temps(folder)
            except OSError:
                pass
        self.labels, self.error = self.read_disk()

    def read_disk(self) -> tuple[dict[Key, Label], str]:
        """The labels on disk and an error text ("" when the file is usable)."""
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            self.seen = None
            return {}, ""
        except OSError as exc:
            return {}, f"cannot read {self.path.name}: {exc.strerror or exc}"
        if not stat.S_ISREG(st.st_mode):
            return {}, f"{self.path.name} is not a regular file; labels are not saved over it"
        key = stat_key(st)
        cached = self.index.label_file(self.path, key, self.session) if self.index is not None else None
        if cached is not None and cached[0] == self.reviewer:
            self.seen = (st.st_size, st.st_mtime_ns)
            return {(label.run, label.check): label for label in cached[1]}, ""
        try:
            with open(self.path, "rb") as fh:
                data = fh.read(LABEL_FILE_CAP + 1)
        except OSError as exc:
            return {}, f"cannot read {self.path.name}: {exc.strerror or exc}"
        self.seen = (st.st_size, st.st_mtime_ns)
        try:
            parsed = parse_labels(data, self.session, self.reviewer)
        except (BadToml, ValueError) as exc:
            return {}, f"{self.path.name} {exc}; it is not overwritten until it is repaired"
        if parsed.newer:
            return parsed.labels, f"{self.path.name} was written by a newer reviewer; read only"
        if self.index is not None and len(data) <= LABEL_FILE_CAP:
            self.index.remember_label_file(self.path, key, parsed.reviewer, tuple(parsed.labels.values()))
        return parsed.labels, ""

    def get(self, run: str, check: str) -> Label | None:
        """This reviewer's label on a failure, pending changes included."""
        view = dict(self.labels)
        for key, lab in self.pending:
            if lab is None:
                view.pop(key, None)
            else:
                view[key] = lab
        return view.get((run, check))

    def view(self) -> dict[Key, Label]:
        """All labels, pending changes applied."""
        view = dict(self.labels)
        for key, lab in self.pending:
            if lab is None:
                view.pop(key, None)
            else:
                view[key] = lab
        return view

    def change(self, run: str, check: str, label: Label | None) -> None:
        """Set (or with None, clear) one label and save at once.

        Raises:
            LabelsUnsafe or OSError: not saved; the change is kept pending in memory.
        """
        self.change_many([((run, check), label)])

    def change_many(self, changes: list[tuple[Key, Label | None]]) -> None:
        """Apply several changes as one decision, written in one atomic replace."""
        self.pending.extend(changes)
        self.flush()

    def flush(self) -> None:
        """Merge pending changes into what is on disk now, and write atomically."""
        if self.pending:
            self.merge_and_write()

    def resync(self) -> bool:
        """After an outside change to the file: re-read it and write back decisions of ours it lost.

        Returns True when the file had changed since it was last read or written.

        Raises:
            LabelsUnsafe or OSError: the file cannot be read or written now (``error`` says why).
        """
        if not self.changed_on_disk():
            return False
        self.merge_and_write()
        return True

    def merge_and_write(self) -> None:
        """Under the folder lock: read the disk, re-apply lost decisions and pending ones, write if needed.

        The folder is made from the trusted root down without following a link
        (:class:`~reviewer.store.nofollow.LinkOnPath` when one is on the way: nothing is written).
        """
        folder = self.path.parent
        make_folder(self.trusted, folder)
        with folder_lock(folder):
            disk, error = self.read_disk()
            if error:
                self.error = error
                raise LabelsUnsafe(error)
            restored = self.reapply(disk)
            for key, lab in self.pending:
                if lab is None:
                    disk.pop(key, None)
                else:
                    disk[key] = lab
            if self.pending or restored:
                atomic_write(self.path, labels_to_bytes(self.session, self.reviewer, disk))
                st = os.stat(self.path)
                self.seen = (st.st_size, st.st_mtime_ns)
        self.labels = disk
        self.mine.update(self.pending)
        self.restored += [k for k in restored if k not in self.restored]
        self.pending.clear()
        self.error = ""

    def reapply(self, disk: dict[Key, Label]) -> list[Key]:
        """Put back into ``disk`` this object's decisions that an outside change lost; their keys.

        A label of ours missing from disk, or replaced by a label decided earlier than ours, was
        lost by the outside change; a later label on disk (another instance) wins.
        """
        pending = {key for key, _ in self.pending}
        restored = []
        for key, lab in self.mine.items():
            if lab is None or key in pending:
                continue
            now = disk.get(key)
            if now is None or (now != lab and now.labelled_at < lab.labelled_at):
                disk[key] = lab
                restored.append(key)
        return restored

    def take_restored(self) -> list[Key]:
        """The decisions the saves since the last call wrote back (and forget them)."""
        restored, self.restored = self.restored, []
        return restored

    def changed_on_disk(self) -> bool:
        """True when the file's size or mtime differs from what was last read or written."""
        try:
            st = os.stat(self.path)
        except OSError:
            return self.seen is not None
        return (st.st_size, st.st_mtime_ns) != self.seen

    def refresh(self) -> None:
        """Re-read after an outside change (git pull, another instance); pending stays."""
        self.labels, self.error = self.read_disk()


def file_digest(path: Path) -> str:
    """sha256 of a file's bytes (for tests and diagnostics)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()
