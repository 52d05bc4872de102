"""The app's workers: each reads what it is given and posts one typed message back.

A worker never touches the app or its widgets and never changes the session: it calls the
session's (or store's) reading methods, then ``post`` (the app's thread-safe ``post_message``).
Long ones poll their worker's cancel flag, so a newer request or ``q`` stops them.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from textual.message import Message
from textual.worker import get_current_worker

from reviewer.review.gitstate import commit_mine
from reviewer.review.moving.moves import MoveRequest
from reviewer.review.reviewers import ReviewersSnapshot, read_snapshot
from reviewer.review.runlist.folder import Scan
from reviewer.review.runlist.listing import ListRequest, tally
from reviewer.review.session import ReviewSession
from reviewer.review.view import FailureView
from reviewer.store.labels import UnknownFailure
from reviewer.store.sessions.protocol import Store
from reviewer.ui import messages
from reviewer.ui.render.panes import render_view
from reviewer.ui.theming import save_theme

if TYPE_CHECKING:
    from textual.highlight import HighlightTheme

Post = Callable[[Message], object]
SCAN_POLL_SECONDS = 0.05
"""How often the scan worker, waiting for the launcher's scan, looks whether it was cancelled."""
COUNT_BATCH_SECONDS = 0.25
"""How often counted failures are handed to the screen while counting (at least)."""
COUNT_BATCH_RUNS = 40_000
"""Runs per extra second between batches: each batch recounts the totals over every listed run."""


def cancelled() -> bool:
    """The current worker was cancelled (a newer request, or the app is closing)."""
    return get_current_worker().is_cancelled


def scan(session: ReviewSession, early: "Future[Scan] | None", post: Post) -> None:
    """Scan the folder and load this reviewer's labels, or take the scan the launcher began (waited
    for while the worker is not cancelled: after a head, the rest is read only once the first screen
    is painted, and a reviewer who quits before never gets it)."""
    if early is None:
        post(messages.Scanned(session.folder.read_scan(session.identity)))
        return
    while True:
        try:
            scanned = early.result(timeout=SCAN_POLL_SECONDS)
        except TimeoutError:
            if cancelled():
                return
            continue
        post(messages.Scanned(scanned))
        return


def count(session: ReviewSession, keys: list[str], post: Post) -> None:
    """Count every listed run's failures, reporting everything counted so far in batches."""
    counted: dict[str, tuple[str, ...]] = {}
    errors: dict[str, str] = {}
    last = time.monotonic()
    every = max(COUNT_BATCH_SECONDS, len(keys) / COUNT_BATCH_RUNS)
    for key in keys:
        if cancelled():
            return
        run = session.folder.runs_by_key.get(key)
        if run is None or key in session.folder.failure_ids:
            continue
        counted[key], error = session.folder.read_failures(run)
        if error:
            errors[key] = error
        if time.monotonic() - last > every:
            post(messages.Counted(dict(counted), dict(errors), False))
            last = time.monotonic()
    post(messages.Counted(counted, errors, True))


def carried_out(session: ReviewSession, request: MoveRequest, theme: type[HighlightTheme] | None,
                caps: tuple[int, int], cancelled: Callable[[], bool]) -> messages.Moved | None:
    """A move carried out and the view where it lands rendered (``theme`` None: plain, as the first
    screen draws it before its colours); None once ``cancelled``. The app's one path for a move:
    here in a worker (:func:`move`), in the app's thread while the first screen is built."""
    arrival = session.carry_out(request, cancelled)
    if cancelled():
        return None
    rendered = render_view(arrival.view, theme, caps[0], caps[1]) if arrival.view is not None else None
    return None if cancelled() else messages.Moved(arrival, rendered)


def move(session: ReviewSession, request: MoveRequest, theme: type[HighlightTheme], caps: tuple[int, int],
         post: Post) -> None:
    """Carry out a move (count what it needs, read and render where it lands), then its file's colours."""
    moved = carried_out(session, request, theme, caps, cancelled)
    if moved is None:
        return
    post(moved)
    if moved.rendered is not None and not moved.rendered.code.coloured:
        colour(moved.rendered.view, theme, caps, post)


def read_ahead(session: ReviewSession, request: MoveRequest, theme: type[HighlightTheme], caps: tuple[int, int],
               post: Post) -> None:
    """Carry out a move the reviewer is likely to make next, only to fill the caches (its view is
    read and rendered in colour; nothing is posted)."""
    arrival = session.carry_out(request, cancelled)
    if arrival.view is not None and not cancelled():
        render_view(arrival.view, theme, caps[0], caps[1], colour=True)


def colour(found: FailureView, theme: type[HighlightTheme], caps: tuple[int, int], post: Post) -> None:
    """A view's syntax colours (and a plain brief's Markdown), after its plain lines."""
    post(messages.Coloured(render_view(found, theme, caps[0], caps[1], colour=True)))


def evidence(session: ReviewSession, failure_id: str, post: Post) -> None:
    """Compute a failure's evidence."""
    from reviewer.analysis.reading.scan import Cancelled

    try:
        found = session.evidence(failure_id, cancelled)
    except Cancelled:
        return
    except Exception as exc:  # noqa: BLE001 - an analysis bug must not stop the review
        if not cancelled():
            post(messages.EvidenceReady(failure_id, None, f"{type(exc).__name__}: {exc}"))
        return
    if not cancelled():
        post(messages.EvidenceReady(failure_id, found))


def stale_one(session: ReviewSession, failure_id: str, post: Post) -> None:
    """Whether the shown failure's label is stale (hashes its evidence ahead of a decision)."""
    try:
        run, failure = session.labeller.find(failure_id)
    except UnknownFailure:
        return
    state = session.decisions.check(run, failure)
    if not cancelled():
        post(messages.StaleChecked({failure_id: state.stale}))


def stale_all(session: ReviewSession, post: Post) -> None:
    """Whether each of this reviewer's labels is stale."""
    post(messages.StaleChecked(session.decisions.all_stale()))


def build_list(request: ListRequest, post: Post) -> None:
    """Rows of a big run list."""
    rows, order = request.build()
    if not cancelled():
        post(messages.ListBuilt(request.generation, rows, order))


def recount(session: ReviewSession, order: list[str], post: Post) -> None:
    """Totals of a big list."""
    counted = tally(order, dict(session.folder.failure_ids), session.labelled)
    if not cancelled():
        post(messages.Tallied(order, counted))


def reviewers(root: Path, sessions: list[str], post: Post) -> None:
    """Every reviewer's labels."""
    try:
        snapshot = read_snapshot(root, sessions)
    except Exception as exc:  # noqa: BLE001 - the other reviewers' labels are optional: say why
        snapshot = ReviewersSnapshot(errors=(f"cannot read the other reviewers' labels: {exc}",))
    if not cancelled():
        post(messages.ReviewersRead(snapshot))


def repository(root: Path, post: Post) -> None:
    """The repository line."""
    from reviewer.store.git import GitUnsafe, repo_info  # git's modules load after the first screen

    try:
        post(messages.RepoRead(repo_info(root)))
    except GitUnsafe as exc:
        post(messages.RepoRead(None, unsafe=exc.command))
    except Exception as exc:  # noqa: BLE001 - any git failure turns git off, never the app
        post(messages.RepoRead(None, error=str(exc)))


def run_commits(root: Path, post: Post) -> None:
    """Each run's last commit."""
    from reviewer.store.git import GitUnsafe, provenance

    try:
        post(messages.ProvenanceRead(provenance(root)))
    except GitUnsafe as exc:
        post(messages.RepoRead(None, unsafe=exc.command))
    except Exception as exc:  # noqa: BLE001 - provenance is optional: say why it is missing
        post(messages.RepoRead(None, error=str(exc)))


def commit(root: Path, reviewer: str, adjudicated: list[str], post: Post) -> None:
    """Commit this reviewer's label files (and adjudications made here)."""
    from reviewer.store.git import GitUnsafe

    try:
        post(messages.Committed(commit_mine(root, reviewer, adjudicated)))
    except GitUnsafe as exc:
        post(messages.Committed(None, unsafe=exc.command))
    except Exception as exc:  # noqa: BLE001 - shown to the user; the labels on disk are untouched
        post(messages.Committed(None, str(exc)))


def refresh(store: Store, save: bool, post: Post) -> None:
    """Look at the folder again; write the index cache when asked."""
    changes = store.refresh()
    if changes:
        post(messages.FolderChanged(changes, list(store.runs), list(store.errors)))
    if save:
        store.save_index()


def save_index(store: Store, post: Post) -> None:
    """Write the index cache (nothing to report)."""
    store.save_index()


def theme_saved(name: str, lock: threading.Lock, post: Post) -> None:
    """Save the chosen theme in config.toml."""
    warning = save_theme(name, lock)
    if warning:
        post(messages.Said(warning, "Theme"))
