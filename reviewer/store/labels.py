"""All labels of a sessions folder: this reviewer's files (written) and everyone else's (read)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from reviewer.model.label import Label, Note, reviewer_file_stem
from reviewer.model.records import record
from reviewer.store.index import RunIndex
from reviewer.store.labelcodec import Key, Parsed
from reviewer.store.labelfile import Entry, LabelFile
from reviewer.store.labelread import (
    FORGET,
    READ_BUDGET,
    FileRead,
    describe,
    read_labels_entry,
)
from reviewer.store.nofollow import LinkOnPath, check_dir
from reviewer.store.paths import installed_location
from reviewer.store.tomlfile import BadToml

LABELS_DIR = "labels"
ADJUDICATED_FILE = "_adjudicated.toml"


def user_data_dir() -> Path:
    """``$XDG_DATA_HOME/reviewer`` (default ``~/.local/share/reviewer``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "reviewer"


def fallback_root(root: Path) -> Path:
    """Where labels of a read-only or installed sessions folder go: a per-user folder.

    The bundled corpus gets one fixed folder (``reviewer-examples``), so its labels survive a
    reinstall or a new virtualenv; any other folder one keyed by its real path.
    """
    if installed_location(root) == "bundled":
        return user_data_dir() / "labels" / "reviewer-examples"
    real = os.path.realpath(root)
    digest = hashlib.sha256(real.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    name = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in Path(real).name)[:40]
    return user_data_dir() / "labels" / f"{name}-{digest}"


def writable(folder: Path) -> bool:
    """True when files can be created in ``folder`` (or in its nearest existing parent)."""
    probe = folder
    while not probe.exists():
        if probe.parent == probe:
            return False
        probe = probe.parent
    return probe.is_dir() and os.access(probe, os.W_OK | os.X_OK)


def redirect_reason(root: Path, session: str = "") -> str:
    """Why labels of this folder are kept in the per-user folder, or "" when they go in the folder.

    A folder inside an installed package (the bundled corpus, or any folder of an installed
    copy) is never written into, whatever its write bit says: a reinstall would delete the labels.
    """
    where = installed_location(root)
    if where == "bundled":
        return "the sessions folder is the example corpus inside the installed reviewer package"
    if where == "package":
        return "the sessions folder is inside an installed package"
    if not writable(Path(root) / session / LABELS_DIR if session else Path(root)):
        return "the sessions folder is not writable"
    return ""


@record
class OtherFile:
    """A labels file of some reviewer, read only, or the reason it could not be read.

    ``parsed`` is the labels by (run, check) (its ``notes``: the note-only entries, journal lines
    applied; ``labels`` never holds them) and ``version`` says what was read: the TOML's parse
    (its identity) and how many journal lines; a reader that kept an earlier version can apply
    just the lines added since (:func:`reviewer.store.agreement.read_label_set` does).
    """

    path: Path
    reviewer: str
    labels: tuple[Label, ...]
    error: str = ""
    parsed: Parsed | None = None
    base: Parsed | None = None
    """The TOML file's parse these labels start from (the journal's lines applied on top)."""
    lines: int = 0
    """How many journal lines were applied."""
    keys: tuple[Key, ...] = ()
    """The keys of those journal lines, in order (what changed since an earlier read of the same TOML)."""


class LabelStore:
    """Labels of one sessions folder for one reviewer.

    The reviewer's labels live in ``<session>/labels/<reviewer>.toml``; when the session folder
    is not writable (the bundled corpus inside an installed package), in a per-user data
    folder instead (``redirected`` says where).
    """

    def __init__(self, root: Path, reviewer: str) -> None:
        self.root = Path(root)
        self.reviewer = reviewer
        self.stem = reviewer_file_stem(reviewer)
        self.files: dict[str, LabelFile] = {}
        self.redirected: Path | None = None
        self.reported: dict[str, str] = {}
        """The last error :meth:`resync` reported per session (each is reported once)."""
        self.index: RunIndex | None = None
        """The folder's index cache, when the app has one: unchanged files are not parsed again."""

    def labels_dir(self, session: str) -> Path:
        """The labels folder this reviewer writes for a session."""
        inside = self.root / session / LABELS_DIR
        if not redirect_reason(self.root, session):
            return inside
        self.redirected = fallback_root(self.root)
        return self.redirected / session / LABELS_DIR

    def where(self, session: str) -> tuple[Path, str]:
        """This reviewer's labels file of a session and why it is not in the folder ("" when it is)."""
        return self.file(session).path, redirect_reason(self.root, session)

    def file(self, session: str) -> LabelFile:
        """This reviewer's label file for a session (loaded on first use)."""
        lf = self.files.get(session)
        if lf is None:
            lf = LabelFile(self.labels_dir(session) / f"{self.stem}.toml", session, self.reviewer, index=self.index)
            lf.load()
            self.files[session] = lf
        return lf

    def load(self, sessions: list[str]) -> list[str]:
        """Load every session's file now; returns the errors (files that are read only)."""
        return [f"{s}: {self.file(s).error}" for s in sessions if self.file(s).error]

    def get(self, session: str, run: str, check: str) -> Label | None:
        """This reviewer's label on a failure."""
        return self.file(session).get(run, check)

    def put(self, session: str, run: str, check: str, label: Label | None) -> None:
        """Save (or clear) a label at once; raises when it could not be saved (kept pending)."""
        self.file(session).change(run, check, label)

    def note(self, session: str, run: str, check: str) -> Note | None:
        """This reviewer's note-only entry on a failure (a failure with a label has none)."""
        return self.file(session).note(run, check)

    def put_note(self, session: str, run: str, check: str, note: Note) -> None:
        """Save a note-only entry at once (an empty one removes it); the failure stays unlabelled."""
        self.file(session).change(run, check, note)

    def put_many(self, changes: list[tuple[str, str, str, Entry]]) -> None:
        """Save several labels as one decision: one atomic write per session file.

        Raises the first failure after trying every file (failed changes stay pending).
        """
        by_session: dict[str, list[tuple[tuple[str, str], Entry]]] = {}
        for session, run, check, lab in changes:
            by_session.setdefault(session, []).append(((run, check), lab))
        failed: Exception | None = None
        for session, items in by_session.items():
            try:
                self.file(session).change_many(items)
            except Exception as exc:  # noqa: BLE001 - kept pending, raised after the others
                failed = failed or exc
        if failed is not None:
            raise failed

    def retry(self) -> list[str]:
        """Try again to save every pending change; returns what still fails."""
        errors = []
        for s, lf in self.files.items():
            if lf.pending:
                try:
                    lf.flush()
                except Exception as exc:  # noqa: BLE001 - reported, kept pending
                    errors.append(f"{s}: {exc}")
        return errors

    def resync(self) -> tuple[list[str], list[str]]:
        """Re-read this reviewer's files changed on disk by someone else (git pull, checkout,
        another instance), writing back decisions of this session they lost.

        Returns the sessions whose file changed and the errors not reported before (files that
        cannot be used now).
        """
        changed, errors = [], []
        for s, lf in self.files.items():
            try:
                if lf.resync():
                    changed.append(s)
                self.reported.pop(s, None)
            except Exception as exc:  # noqa: BLE001 - reported once; pending changes stay pending
                if self.reported.get(s) != str(exc):
                    self.reported[s] = str(exc)
                    changed.append(s)
                    errors.append(f"{s}: {exc}")
        return changed, errors

    def take_restored(self) -> list[str]:
        """Failure ids of decisions that saves wrote back after an outside change lost them."""
        return [f"{s}/{run}#{check}" for s, lf in self.files.items() for run, check in lf.take_restored()]

    def pending_count(self) -> int:
        """Changes made but not yet on disk."""
        return sum(len(lf.pending) for lf in self.files.values())

    def mine(self) -> list[Label]:
        """Every label of this reviewer in the sessions loaded so far."""
        return [lab for lf in self.files.values() for lab in lf.view().values()]


def label_dirs(root: Path, sessions: list[str], refused: list[tuple[Path, str]] | None = None) -> list[tuple[str, Path]]:
    """Every labels folder of the sessions, in the folder and in the per-user fallback.

    A labels folder reached through a link (``<session>/labels`` a symlink) is left out, and
    named in ``refused`` (path, reason) when a list is given.
    """
    dirs = []
    fb = fallback_root(root)
    for s in sessions:
        for base in (root, fb):
            try:
                dirs.append((s, check_dir(base, f"{s}/{LABELS_DIR}")))
            except LinkOnPath as exc:
                if refused is not None:
                    where, _, why = str(exc).partition(": ")
                    refused.append((Path(where), f"{why}; its labels are not read"))
            except OSError:
                pass
    return dirs


SEEN: dict[str, OtherFile] = {}
"""The last OtherFile made per path: an unchanged file gives the same object (no new tuple of its labels)."""
FORGET.append(SEEN.clear)


def other_file(path: Path, entry: FileRead) -> OtherFile:
    """The OtherFile of a file as read (the same object as last time when nothing changed)."""
    last = SEEN.get(str(path))
    if last is not None and last.parsed is entry.merged:
        return last
    made = OtherFile(path, entry.merged.reviewer, tuple(entry.merged.labels.values()), "", entry.merged, entry.toml,
                     len(entry.records), tuple(rec.key for rec in entry.records))
    SEEN[str(path)] = made
    return made


def read_all_labels(root: Path, sessions: list[str], budget: int = READ_BUDGET) -> list[OtherFile]:
    """Every reviewer's labels file of the sessions (journals applied), read only.

    A labels folder reached through a link, a file that cannot be read, and a file over the read
    ``budget`` (:data:`~reviewer.store.labelread.READ_BUDGET`, never parsed) each come back as an
    entry with ``error`` set and no labels, for the caller to show.
    """
    out: list[OtherFile] = []
    refused: list[tuple[Path, str]] = []
    dirs = label_dirs(root, sessions, refused)
    out += [OtherFile(where, "", (), reason) for where, reason in refused]
    for session, folder in dirs:
        for path in sorted(folder.glob("*.toml")):
            if path.name.startswith((".", "_")) or not path.is_file() or path.is_symlink():
                continue
            try:
                out.append(other_file(path, read_labels_entry(path, session, path.stem, budget)))
            except (BadToml, ValueError, OSError) as exc:
                out.append(OtherFile(path, path.stem, (), describe(exc)))
    return out
