"""Git as the review session knows it: the repository, each run's last commit, committing labels.

The git calls themselves (:mod:`reviewer.store.git`) run
in workers; their answers come back to :class:`GitState`, which decides what the screen says.
A folder outside git shows nothing and every key that needs git says why. A repository git
refuses ("dubious ownership") gets one warning with the command the user may run; reviewer never
runs it and leaves git off.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer.model.records import record
from reviewer.model.sanitize import one_line
from reviewer.model.wording import count, plural
from reviewer.review.outcome import NOTHING, SEPARATOR, Outcome, Part, Work, asking_for, saying
from reviewer.store.labels import ADJUDICATED, ADJUDICATED_FILE, LABELS_DIR

if TYPE_CHECKING:
    from reviewer.store.git import CommitResult, RepoInfo, RunCommit


@record(frozen=False, slots=False)
class GitState:
    """What the session knows about the sessions folder's repository.

    Attributes:
        checked: the repository was looked at once (until then nothing is shown).
        info: the repository, or None outside git (or when git is off).
        unsafe: the command that would make git trust the folder, when git refused it.
        error: the last git failure, "" when none.
        provenance: each run's last commit, by run key (empty until loaded).
        provenance_asked: the provenance was asked for once.
        committing: a commit is running.
        adjudicated: sessions this app wrote adjudications in (they are committed with the labels).
    """

    checked: bool = False
    info: RepoInfo | None = None
    unsafe: str = ""
    error: str = ""
    provenance: dict[str, RunCommit] = field(default_factory=dict)
    provenance_asked: bool = False
    committing: bool = False
    adjudicated: set[str] = field(default_factory=set)

    @property
    def on(self) -> bool:
        """The folder is in a repository git agrees to work with."""
        return self.info is not None and not self.unsafe

    def read(self, info: RepoInfo | None, unsafe: str = "", error: str = "") -> Outcome:
        """The repository line was read (or git refused, or failed); the first time, read the provenance."""
        if unsafe:
            return self.refused(unsafe)
        if error:
            return self.failed(error)
        said = self.info is not None and self.info.warning == (info.warning if info else "")
        self.checked, self.info, self.error = True, info, ""
        out = NOTHING
        if info is not None and info.read_only and not said:
            out = saying(f"{info.warning} Labels are saved as usual; commit them yourself once you trust the repository.",
                       "Git: read-only", "warning", 30)
        if info is not None and not self.provenance_asked:
            self.provenance_asked = True
            return out.then(asking_for(Work.PROVENANCE))
        return out

    def refused(self, command: str) -> Outcome:
        """Git refuses the repository: say what the user may run, once; git stays off."""
        first = not self.unsafe
        self.checked, self.info, self.unsafe = True, None, command
        if not first:
            return NOTHING
        return saying("git refuses this repository: it belongs to another user (\"dubious ownership\"). "
                    f"If you trust it, run:\n{command}\nreviewer never changes your git config; "
                    "git features stay off until then.", "Git", "warning", 30)

    def failed(self, message: str) -> Outcome:
        """A git command failed: keep working, say it once."""
        said = self.error == message
        self.checked, self.error = True, message
        return NOTHING if said else saying(one_line(message, 400), "Git", "warning", 10)

    def unavailable(self, what: str) -> Outcome | None:
        """Why git cannot do ``what`` now; None when it can."""
        if self.unsafe:
            return saying(f"{what}: git refuses this repository (\"dubious ownership\"). If you trust it, run:\n"
                        f"{self.unsafe}", "Git", "warning", 20)
        if not self.checked:
            return saying(f"{what}: still looking at the repository; try again in a moment.")
        if self.info is None:
            return saying(f"{what}: this sessions folder is not in a git repository.", "Git")
        if self.info.read_only:
            return saying(f"{what}: {self.info.warning}", "Git: read-only", "warning", 20)
        return None

    def begin_commit(self, pending: int) -> Outcome | None:
        """Why labels cannot be committed now (``pending`` decisions not yet saved); None: a commit starts."""
        refusal = self.unavailable("Commit")
        if refusal is not None:
            return refusal
        if pending:
            return saying(f"Not committed: {count(pending, 'decision')} {plural('is', pending)} not saved yet. Try again once they are.",
                        "Commit", "error")
        if self.committing:
            return saying("A commit is already running.")
        self.committing = True
        return None

    def committed(self, result: CommitResult | None, error: str, unsafe: str = "") -> Outcome:
        """Say what a commit did (or why not); the repository line is read again."""
        self.committing = False
        if unsafe:
            return self.refused(unsafe)
        if error:
            return saying(f"Not committed: {one_line(error, 400)}", "Commit", "error", 15)
        if result is None:
            return NOTHING
        message = one_line(result.message, 300)
        out = saying(f"{result.sha[:7]} {message}", "Committed") if result.committed else saying(
            message[:1].upper() + message[1:], "Commit")
        if result.outside_git:
            out = out.then(saying(f"{count(len(result.outside_git), 'label file')} {plural('is', len(result.outside_git))} in your per-user "
                                "folder (the sessions folder is read only); not in git.", "Commit", "warning"))
        return out

    def status(self) -> list[Part]:
        """``⎇ repo main ● uncommitted`` for the status line (nothing outside git)."""
        if self.unsafe:
            return [SEPARATOR, ("git off: dubious ownership", "warning")]
        info = self.info
        if info is None:
            return []
        branch = info.branch or (f"detached at {info.head}" if info.head else "no commits")
        parts: list[Part] = [SEPARATOR, (f"\u2387 {one_line(Path(info.toplevel).name, 40)}", "muted"),
                             (" ", ""), (one_line(branch, 40), "accent")]
        if info.dirty:
            parts += [(" ", ""), ("\u25cf uncommitted", "warning")]
        if info.read_only:
            parts += [(" ", ""), ("\u26a0 read-only: no commits", "warning")]
        return parts


def commit_mine(root: Path, reviewer: str, adjudicated_in: list[str]) -> CommitResult:
    """Commit the reviewer's label files plus the adjudication files of the given sessions (worker)."""
    from reviewer.store.git import CommitResult, commit_labels, commit_reviewer, label_files
    from reviewer.store.labels.layout import run_files

    extra = [root / s / LABELS_DIR / ADJUDICATED_FILE for s in adjudicated_in]
    extra += [p for s in adjudicated_in for p in run_files(root / s / LABELS_DIR / ADJUDICATED)]
    extra = [p for p in extra if p.is_file() and not p.is_symlink()]
    if not extra:
        return commit_reviewer(root, reviewer)
    inside, outside = label_files(root, reviewer)
    result = commit_labels(root, reviewer, inside + extra)
    return CommitResult(result.committed, result.message, result.sha, result.paths, tuple(str(p) for p in outside))
