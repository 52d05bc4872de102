"""Git in the app: the repository line, each run's last commit, committing labels, label history.

Every git call runs in a thread worker, through the store functions of
:mod:`reviewer.store.gitrepo` / :mod:`reviewer.store.gitcommit` (each opens its own ``Repo``
for one job and closes it, in git's safe environment). A folder outside git shows no git UI and
every key that needs git says so. A repository git refuses ("dubious ownership") gets one
warning with the command the user may run; reviewer never runs it and leaves git off.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual import work
from textual.app import App
from textual.content import Content
from textual.css.query import NoMatches
from textual.timer import Timer

from reviewer.store.gitcommit import CommitResult, commit_labels, commit_reviewer, label_files
from reviewer.store.gitrepo import GitUnsafe, RepoInfo, RunCommit, provenance, repo_info
from reviewer.store.labels import ADJUDICATED_FILE, LABELS_DIR
from reviewer.ui.render import one_line
from reviewer.ui.screens.history import HistoryScreen
from reviewer.ui.state import Selection

if TYPE_CHECKING:
    from reviewer.ui.app import ReviewApp

INFO_DELAY = 0.4
"""Seconds of quiet after a label change before the repository line is read again."""
StatusPart = Content | tuple[str, str] | str


@dataclass
class GitState:
    """What the app knows about the sessions folder's repository.

    Attributes:
        checked: the repository was looked at once (until then nothing is shown).
        info: the repository, or None outside git (or when git is off).
        unsafe: the command that would make git trust the folder, when git refused it.
        error: the last git failure, "" when none.
        provenance: each run's last commit, by run key (empty until loaded).
        adjudicated: sessions this app wrote adjudications in (they are committed with the labels).
    """

    checked: bool = False
    info: RepoInfo | None = None
    unsafe: str = ""
    error: str = ""
    provenance: dict[str, RunCommit] = field(default_factory=dict)
    provenance_asked: bool = False
    committing: bool = False
    timer: Timer | None = None
    adjudicated: set[str] = field(default_factory=set)


def commit_line(rc: RunCommit) -> Content:
    """``abc1234 2026-11-02 alice · changed since`` for a run's border."""
    if not rc.committed:
        return Content.styled(" not committed ", "$text-warning")
    parts: list[StatusPart] = [" ", (rc.short, "bold"), f" {rc.date[:10]} ", one_line(rc.author, 40)]
    if rc.changed_since:
        parts += [" \u00b7 ", ("changed since", "bold $text-warning")]
    return Content.assemble(*parts, " ")


class GitView(App[int]):
    """The git side of the review app: status, provenance, ``ctrl+g`` commit, ``H`` history."""

    @property
    def gitapp(self) -> "ReviewApp":
        """This app, typed."""
        return cast("ReviewApp", self)

    @property
    def git_state(self) -> GitState:
        """The repository state (created on first use)."""
        state = self.__dict__.get("_git_state")
        if state is None:
            state = self.__dict__["_git_state"] = GitState()
        return state

    @property
    def git_on(self) -> bool:
        """True when the folder is in a repository git agrees to work with."""
        return self.git_state.info is not None and not self.git_state.unsafe

    def on_mount(self) -> None:
        """Look at the repository in a worker; follow the current run for its provenance."""
        self.watch(self, "selection", self.show_provenance, init=False)
        self.load_repo_info()

    # ---- repository line ---------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="git-info")
    def load_repo_info(self) -> None:
        """Read repository, branch and dirtiness (worker thread)."""
        root = Path(self.gitapp.store.root)
        try:
            info = repo_info(root)
        except GitUnsafe as exc:
            self.call_from_thread(self.git_refused, exc.command)
            return
        except Exception as exc:  # any git failure turns git off, never the app
            self.call_from_thread(self.git_failed, str(exc))
            return
        self.call_from_thread(self.repo_info_loaded, info)

    def repo_info_loaded(self, info: RepoInfo | None) -> None:
        """Show the repository line; read the runs' provenance the first time."""
        state = self.git_state
        state.checked, state.info, state.error = True, info, ""
        if info is not None and not state.provenance_asked:
            state.provenance_asked = True
            self.gitapp.after_first_screen(self.load_provenance)  # a log walk: not before the first screen
        self.repaint_git()

    def git_refused(self, command: str) -> None:
        """Git refuses the repository: say what the user may run, once; git stays off."""
        state = self.git_state
        first = not state.unsafe
        state.checked, state.info, state.unsafe = True, None, command
        if first:
            self.notify(
                "git refuses this repository: it belongs to another user (\"dubious ownership\"). "
                f"If you trust it, run:\n{command}\nreviewer never changes your git config; "
                "git features stay off until then.",
                title="Git", severity="warning", timeout=30, markup=False,
            )
        self.repaint_git()

    def git_failed(self, message: str) -> None:
        """A git command failed: keep the app working, say it once."""
        state = self.git_state
        if state.error != message:
            self.notify(one_line(message, 400), title="Git", severity="warning", timeout=10, markup=False)
        state.checked, state.error = True, message
        self.repaint_git()

    def git_labels_changed(self) -> None:
        """Labels changed: read the repository line again after a short quiet spell."""
        state = self.git_state
        if not self.git_on:
            return
        if state.timer is not None:
            state.timer.stop()
        state.timer = self.set_timer(INFO_DELAY, self.load_repo_info)

    def git_status_parts(self) -> list[StatusPart]:
        """``⎇ repo main ● uncommitted`` for the status line (nothing outside git)."""
        state = self.git_state
        if state.unsafe:
            return ["  \u00b7  ", ("git off: dubious ownership", "$text-warning")]
        info = state.info
        if info is None:
            return []
        branch = info.branch or (f"detached at {info.head}" if info.head else "no commits")
        parts: list[StatusPart] = ["  \u00b7  ", (f"\u2387 {one_line(Path(info.toplevel).name, 40)}", "$text-muted"),
                                   " ", (one_line(branch, 40), "$text-accent")]
        if info.dirty:
            parts += [" ", ("\u25cf uncommitted", "$text-warning")]
        return parts

    def repaint_git(self) -> None:
        """Redraw the status line and the provenance once the screen is up."""
        if self.gitapp._review_screen is None or not self.gitapp.review_screen.is_mounted:
            return
        try:
            self.gitapp.refresh_status()
            self.show_provenance(self.gitapp.selection)
        except NoMatches:
            return

    # ---- provenance ---------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="git-provenance")
    def load_provenance(self) -> None:
        """Find each run's last commit and whether it changed since (worker thread)."""
        try:
            found = provenance(Path(self.gitapp.store.root))
        except GitUnsafe as exc:
            self.call_from_thread(self.git_refused, exc.command)
            return
        except Exception as exc:  # provenance is optional: say why it is missing
            self.call_from_thread(self.git_failed, str(exc))
            return
        self.call_from_thread(self.provenance_loaded, found)

    def provenance_loaded(self, found: dict[str, RunCommit]) -> None:
        """Keep the runs' commits; show the current one."""
        self.git_state.provenance = found
        self.repaint_git()

    def run_commit(self, run_key: str) -> RunCommit | None:
        """The last commit of a run, when known."""
        return self.git_state.provenance.get(run_key)

    def show_provenance(self, selection: Selection) -> None:
        """The current run's last commit on the Brief pane's lower border."""
        try:
            pane = self.gitapp.review_screen.query_one("#brief")
        except NoMatches:
            return
        rc = self.run_commit(selection.run_key) if self.git_on else None
        pane.border_subtitle = commit_line(rc) if rc is not None else None

    # ---- committing ---------------------------------------------------------------------------

    def git_unavailable(self, what: str) -> bool:
        """Say why git cannot do ``what`` now; False when it can."""
        state = self.git_state
        if state.unsafe:
            self.notify(f"{what}: git refuses this repository (\"dubious ownership\"). If you trust it, run:\n"
                        f"{state.unsafe}", title="Git", severity="warning", timeout=20, markup=False)
        elif not state.checked:
            self.notify(f"{what}: still looking at the repository; try again in a moment.", markup=False)
        elif state.info is None:
            self.notify(f"{what}: this sessions folder is not in a git repository.", title="Git", markup=False)
        else:
            return False
        return True

    def action_commit_labels(self) -> None:
        """``ctrl+g``: commit this reviewer's label files, and nothing else."""
        app = self.gitapp
        if self.git_unavailable("Commit"):
            return
        pending = app.labeller.labels.pending_count()
        if pending:
            self.notify(f"Not committed: {pending} decision(s) are not saved yet. Try again once they are.",
                        title="Commit", severity="error", markup=False)
            return
        if self.git_state.committing:
            self.notify("A commit is already running.", markup=False)
            return
        self.git_state.committing = True
        self.commit_in_worker(app.reviewer, sorted(self.git_state.adjudicated))

    @work(thread=True, exclusive=True, group="git-commit", description="commit labels")
    def commit_in_worker(self, reviewer: str, adjudicated: list[str]) -> None:
        """Commit the reviewer's label files (and adjudications made here) (worker thread)."""
        root = Path(self.gitapp.store.root)
        try:
            result = commit_mine(root, reviewer, adjudicated)
        except GitUnsafe as exc:
            self.call_from_thread(self.commit_done, None, "")
            self.call_from_thread(self.git_refused, exc.command)
            return
        except Exception as exc:  # shown to the user; the labels on disk are untouched
            self.call_from_thread(self.commit_done, None, str(exc))
            return
        self.call_from_thread(self.commit_done, result, "")

    def commit_done(self, result: CommitResult | None, error: str) -> None:
        """Say what was committed (or why not); read the repository line again."""
        self.git_state.committing = False
        if error:
            self.notify(f"Not committed: {one_line(error, 400)}", title="Commit", severity="error",
                        timeout=15, markup=False)
        elif result is not None and result.committed:
            self.notify(f"{result.sha[:7]} {one_line(result.message, 300)}", title="Committed", markup=False)
        elif result is not None:
            message = one_line(result.message, 300)
            self.notify(message[:1].upper() + message[1:], title="Commit", markup=False)
        if result is not None and result.outside_git:
            self.notify(f"{len(result.outside_git)} label file(s) are in your per-user folder (the sessions "
                        "folder is read only); they are not in git.", title="Commit", severity="warning",
                        markup=False)
        if self.git_on:
            self.load_repo_info()

    # ---- history -------------------------------------------------------------------------------

    def action_label_history(self) -> None:
        """``H``: the current failure's label history from git."""
        app = self.gitapp
        fid = app.selection.failure_id
        if not fid:
            self.bell()
            self.notify("No failure selected.", markup=False)
            return
        if self.screen is not app.review_screen or self.git_unavailable("History"):
            return
        self.push_screen(HistoryScreen(Path(app.store.root), fid))


def commit_mine(root: Path, reviewer: str, adjudicated_in: list[str]) -> CommitResult:
    """Commit the reviewer's label files plus the adjudication files of the given sessions."""
    extra = [root / s / LABELS_DIR / ADJUDICATED_FILE for s in adjudicated_in]
    extra = [p for p in extra if p.is_file() and not p.is_symlink()]
    if not extra:
        return commit_reviewer(root, reviewer)
    inside, outside = label_files(root, reviewer)
    result = commit_labels(root, reviewer, inside + extra)
    return CommitResult(result.committed, result.message, result.sha, result.paths, tuple(str(p) for p in outside))
