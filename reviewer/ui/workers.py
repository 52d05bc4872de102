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

from reviewer.review.folder import Scan
from reviewer.review.gitstate import commit_mine
from reviewer.review.listing import ListRequest, tally
from reviewer.review.reviewers import ReviewersSnapshot, read_snapshot
from reviewer.review.selection import Selection
from reviewer.review.session import ReviewSession
from reviewer.review.view import FailureView
from reviewer.store.labels import UnknownFailure
from reviewer.store.sessions.protocol import Store
from reviewer.ui import messages as m
from reviewer.ui.render.panes import render_view
from reviewer.ui.theming import save_theme

if TYPE_CHECKING:
    from textual.highlight import HighlightTheme

Post = Callable[[Message], object]
COUNT_BATCH_SECONDS = 0.25
"""How often counted failures are handed to the screen while counting (at least)."""
COUNT_BATCH_RUNS = 40_000
"""Runs per extra second between batches: each batch recounts the totals over every listed run."""


def cancelled() -> bool:
    """The current worker was cancelled (a newer request, or the app is closing)."""
    return get_current_worker().is_cancelled


def scan(session: ReviewSession, early: "Future[Scan] | None", post: Post) -> None:
    """Scan the folder and load this reviewer's labels (or take the scan the launcher began)."""
    post(m.Scanned(early.result() if early is not None else session.folder.read_scan(session.identity)))


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
            post(m.Counted(dict(counted), dict(errors), False))
            last = time.monotonic()
    post(m.Counted(counted, errors, True))


def seek(session: ReviewSession, kind: str, current: Selection, order: list[str], step: int, post: Post) -> None:
    """Answer a move that needed uncounted runs."""
    move, found = session.seek(kind, current, order, step, cancelled)
    if not cancelled():
        post(m.Seeked(kind, current, move, found))


def view(session: ReviewSession, selection: Selection, theme: type[HighlightTheme], caps: tuple[int, int],
         post: Post, prefetch: bool = False) -> None:
    """Read and render what the panes show for a selection (``prefetch``: only fill the caches)."""
    found = session.view(selection)
    if found is None or cancelled():
        return
    rendered = render_view(found, theme, caps[0], caps[1], colour=prefetch)
    if prefetch or cancelled():
        return
    post(m.ViewReady(found, rendered))
    if not rendered.code.coloured:
        colour(found, theme, caps, post)


def view_now(session: ReviewSession, selection: Selection, caps: tuple[int, int]) -> m.ViewReady | None:
    """A selection's view read and rendered plain in the caller's thread (the first screen's: drawn
    in the same paint as the run list; its Markdown and colours by :func:`colour`)."""
    found = session.view(selection)
    return None if found is None else m.ViewReady(found, render_view(found, None, caps[0], caps[1]))


def colour(found: FailureView, theme: type[HighlightTheme], caps: tuple[int, int], post: Post) -> None:
    """A view's syntax colours (and a plain brief's Markdown), after its plain lines."""
    post(m.Coloured(render_view(found, theme, caps[0], caps[1], colour=True)))


def evidence(session: ReviewSession, failure_id: str, post: Post) -> None:
    """Compute a failure's evidence."""
    from reviewer.analysis.reading.scan import Cancelled

    try:
        found = session.evidence(failure_id, cancelled)
    except Cancelled:
        return
    except Exception as exc:  # noqa: BLE001 - an analysis bug must not stop the review
        if not cancelled():
            post(m.EvidenceReady(failure_id, None, f"{type(exc).__name__}: {exc}"))
        return
    if not cancelled():
        post(m.EvidenceReady(failure_id, found))


def stale_one(session: ReviewSession, failure_id: str, post: Post) -> None:
    """Whether the shown failure's label is stale (hashes its evidence ahead of a decision)."""
    try:
        run, failure = session.labeller.find(failure_id)
    except UnknownFailure:
        return
    state = session.decisions.check(run, failure)
    if not cancelled():
        post(m.StaleChecked({failure_id: state.stale}))


def stale_all(session: ReviewSession, post: Post) -> None:
    """Whether each of this reviewer's labels is stale."""
    post(m.StaleChecked(session.decisions.all_stale()))


def build_list(request: ListRequest, post: Post) -> None:
    """Rows of a big run list."""
    rows, order = request.build()
    if not cancelled():
        post(m.ListBuilt(request.generation, rows, order))


def recount(session: ReviewSession, order: list[str], post: Post) -> None:
    """Totals of a big list."""
    counted = tally(order, dict(session.folder.failure_ids), session.labelled)
    if not cancelled():
        post(m.Tallied(order, counted))


def reviewers(root: Path, sessions: list[str], post: Post) -> None:
    """Every reviewer's labels."""
    try:
        snapshot = read_snapshot(root, sessions)
    except Exception as exc:  # noqa: BLE001 - the other reviewers' labels are optional: say why
        snapshot = ReviewersSnapshot(errors=(f"cannot read the other reviewers' labels: {exc}",))
    if not cancelled():
        post(m.ReviewersRead(snapshot))


def repository(root: Path, post: Post) -> None:
    """The repository line."""
    from reviewer.store.git import GitUnsafe, repo_info  # git's modules load after the first screen

    try:
        post(m.RepoRead(repo_info(root)))
    except GitUnsafe as exc:
        post(m.RepoRead(None, unsafe=exc.command))
    except Exception as exc:  # noqa: BLE001 - any git failure turns git off, never the app
        post(m.RepoRead(None, error=str(exc)))


def run_commits(root: Path, post: Post) -> None:
    """Each run's last commit."""
    from reviewer.store.git import GitUnsafe, provenance

    try:
        post(m.ProvenanceRead(provenance(root)))
    except GitUnsafe as exc:
        post(m.RepoRead(None, unsafe=exc.command))
    except Exception as exc:  # noqa: BLE001 - provenance is optional: say why it is missing
        post(m.RepoRead(None, error=str(exc)))


def commit(root: Path, reviewer: str, adjudicated: list[str], post: Post) -> None:
    """Commit this reviewer's label files (and adjudications made here)."""
    from reviewer.store.git import GitUnsafe

    try:
        post(m.Committed(commit_mine(root, reviewer, adjudicated)))
    except GitUnsafe as exc:
        post(m.Committed(None, unsafe=exc.command))
    except Exception as exc:  # noqa: BLE001 - shown to the user; the labels on disk are untouched
        post(m.Committed(None, str(exc)))


def refresh(store: Store, save: bool, post: Post) -> None:
    """Look at the folder again; write the index cache when asked."""
    changes = store.refresh()
    if changes:
        post(m.FolderChanged(changes, list(store.runs), list(store.errors)))
    if save:
        store.save_index()


def save_index(store: Store, post: Post) -> None:
    """Write the index cache (nothing to report)."""
    store.save_index()


def theme_saved(name: str, lock: threading.Lock, post: Post) -> None:
    """Save the chosen theme in config.toml."""
    warning = save_theme(name, lock)
    if warning:
        post(m.Said(warning, "Theme"))
