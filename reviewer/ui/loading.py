"""The app's workers: scanning, counting failures, seeking, loading the current run.

Every store call runs here, in thread workers; results come back with ``call_from_thread``.
"""

from __future__ import annotations

import gc
import time
from typing import TYPE_CHECKING, cast

from textual import work
from textual.app import App
from textual.css.query import NoMatches
from textual.worker import get_current_worker

from reviewer.model import LoadError, Run
from reviewer.ui.render import one_line
from reviewer.ui.state import (
    GraderView,
    RunDetail,
    Selection,
    Tally,
    Target,
    Unknown,
    grader_of,
    select_failure,
    step_failure,
    tally,
)
from reviewer.ui.widgets.chrome import NavigatorPanel

if TYPE_CHECKING:
    from reviewer.ui.app import ReviewApp

COUNT_BATCH_SECONDS = 0.25
"""How often counted failures are handed to the screen while counting (at least)."""
COUNT_BATCH_RUNS = 40_000
"""Runs per extra second between batches: each batch recounts the totals over every listed run,
so a folder of 100,000 runs gets a batch every 2.5 s (else the recounts cost more than the count)."""
BIG_FOLDER = 1_000
"""Runs from which loaded data is frozen out of the garbage collector's full passes."""


class LoadingWorkers(App[int]):
    """Workers of the review app and the callbacks that take their results."""

    _froze = False
    _prefetched: Target | None = None

    @property
    def me(self) -> "ReviewApp":
        """This app, typed."""
        return cast("ReviewApp", self)

    @work(thread=True, exclusive=True, group="scan")
    def scan_folder(self) -> None:
        """Scan the sessions folder (worker thread)."""
        corpus = self.me.store.scan()
        self.me.labeller.labels.index = getattr(self.me.store, "index", None)
        self.me.labeller.evidence_cache.clear()
        problems = self.me.labeller.labels.load(sorted(corpus.sessions))
        redirected = self.me.labeller.labels.redirected
        self.call_from_thread(self.folder_scanned, list(corpus.runs), list(corpus.errors))
        self.call_from_thread(self.me.labels_loaded, problems, str(redirected) if redirected else "")
        self.me.check_labels()

    def folder_scanned(self, runs: list[Run], errors: list[LoadError]) -> None:
        """Show the runs, start counting, open at the first (or the asked-for) failure."""
        self.me.runs = runs
        self.me.runs_by_key = {r.key: r for r in runs}
        self.me.load_errors = errors
        self.settle_memory()
        self.me.scanned = True
        self.me.navigator.set_runs(runs)
        self.me.review_screen.query_one(NavigatorPanel).draw_header()
        self.me.refresh_status()
        if errors:
            self.notify(f"{len(errors)} item(s) in the folder did not load (E lists them)",
                        severity="warning", markup=False)
        self.count_failures(runs)
        if self.me.start_failure:
            self.open_failure(self.me.start_failure)
        elif runs:
            self.me.seek_unlabelled(Selection(), list(self.me.navigator.order or self.me.runs_by_key))
        else:
            self.notify("No runs in this folder.", severity="warning", markup=False)
            self.me.refresh_status()

    def settle_memory(self) -> None:
        """With a big folder, keep the loaded runs out of the garbage collector's full passes.

        Python's full collections walk every live object; with 10,000 runs one takes 100 ms,
        a visible pause on a key press. Freezing what is loaded so far (it lives as long as the
        app) keeps those passes short. No collection first (that would be the same pause): the
        little cyclic garbage of the start-up is left alone; objects freed by reference counting,
        as almost all are, are still freed.
        """
        if len(self.me.runs) >= BIG_FOLDER:
            gc.freeze()
            self._froze = True

    def on_unmount(self) -> None:
        """The app is closing: what :meth:`settle_memory` froze may be collected again."""
        if self._froze:
            gc.unfreeze()

    def failures_of(self, run: Run) -> tuple[str, ...]:
        """A run's failure ids (worker threads only: parses grader output)."""
        try:
            return tuple(f.id for f in self.me.store.failures(run))
        except Exception as exc:  # a parser bug must not stop the count
            self.me.count_errors[run.key] = str(exc)
            return ()

    @work(thread=True, exclusive=True, group="count", description="count failures")
    def count_failures(self, runs: list[Run]) -> None:
        """Count every run's failures in the background, reporting in batches (worker thread)."""
        worker = get_current_worker()
        batch: dict[str, tuple[str, ...]] = {}
        last = time.monotonic()
        every = max(COUNT_BATCH_SECONDS, len(runs) / COUNT_BATCH_RUNS)
        for run in runs:
            if worker.is_cancelled:
                return
            if run.key in self.me.failure_ids:
                continue
            batch[run.key] = self.failures_of(run)
            if time.monotonic() - last > every:
                self.call_from_thread(self.counts_arrived, batch, False)
                batch, last = {}, time.monotonic()
        self.call_from_thread(self.counts_arrived, batch, True)

    def counts_arrived(self, batch: dict[str, tuple[str, ...]], done: bool) -> None:
        """Merge counted runs; repaint the list and the status line."""
        self.me.failure_ids.update(batch)
        if done and not self.me.counting_done:
            self.settle_memory()
        self.me.counting_done = self.me.counting_done or done
        if batch or done:
            self.me.totals_changed()
            self.me.navigator.counts_changed()
            self.me.review_screen.query_one(NavigatorPanel).draw_header()
            self.me.refresh_status()
        run_key = self.me.selection.run_key
        if self.me.want_first and self.me.want_first == run_key and run_key in batch:
            self.me.want_first = ""
            self.me.open_run(run_key)

    @work(thread=True, exclusive=True, group="seek", description="seek a failure")
    def seek(self, current: Selection, step: int, order: list[str]) -> None:
        """Find the next failure when runs on the way are not counted yet (worker thread)."""
        found: dict[str, tuple[str, ...]] = {}

        def lookup(key: str) -> tuple[str, ...]:
            """A run's failure ids: counted already, or counted now (in this thread)."""
            ids = self.me.failure_ids.get(key)
            if ids is None:
                ids = found.get(key)
            if ids is None:
                run = self.me.runs_by_key.get(key)
                ids = found[key] = self.failures_of(run) if run is not None else ()
            return ids

        result = step_failure(order, lookup, current, step)
        self.call_from_thread(self.seek_done, current, result, found)

    def seek_done(self, asked: Selection, result: Target | Unknown | None, found: dict[str, tuple[str, ...]]) -> None:
        """Go where a seek landed, unless the reviewer moved on meanwhile."""
        if found:
            self.counts_arrived(found, False)
        if asked != self.me.selection:
            return
        if isinstance(result, Target):
            self.me.go_to(result)
        elif not asked.run_key:
            self.notify("No failing checks in this folder.", markup=False)
            if self.me.navigator.order:
                self.me.open_run(self.me.navigator.order[0])
        else:
            self.notify("No more failures in this direction.", markup=False)

    @work(thread=True, exclusive=True, group="seek")
    def open_failure(self, failure_id: str) -> None:
        """Open at a failure id given on the command line (worker thread)."""
        run_key = failure_id.partition("#")[0]
        run = self.me.runs_by_key.get(run_key)
        ids = self.failures_of(run) if run is not None else ()
        self.call_from_thread(self.failure_opened, failure_id, run_key if run is not None else "", ids)

    def failure_opened(self, failure_id: str, run_key: str, ids: tuple[str, ...]) -> None:
        """Select the asked-for failure, or say it is unknown and open at the first one."""
        if run_key:
            self.counts_arrived({run_key: ids}, False)
        if run_key and failure_id in ids:
            self.me.go_to(Target(run_key, failure_id))
            return
        self.notify(f"Unknown failure id: {one_line(failure_id, 200)}; opening at the first failure.",
                    title="--failure", severity="warning", markup=False)
        self.seek(Selection(), 1, list(self.me.runs_by_key))

    def prefetch_next(self) -> None:
        """A failure is on screen: read the next run's files while the reviewer reads this one."""
        app = self.me
        here = app.selection
        try:
            order = app.navigator.order
        except NoMatches:  # the app is closing: its widgets are gone
            return
        result = step_failure(order, app.failure_ids.get, here, 1)
        for _ in range(len(app.failure_ids.get(here.run_key) or ())):  # past this run's other failures
            if not isinstance(result, Target) or result.run_key != here.run_key:
                break
            result = step_failure(order, app.failure_ids.get, Selection(result.run_key, result.failure_id), 1)
        if isinstance(result, Target) and result.run_key != here.run_key and result != self._prefetched:
            self._prefetched = result
            self.prefetch(result)

    @work(thread=True, exclusive=True, group="prefetch")
    def prefetch(self, target: Target) -> None:
        """Read into the store's caches what showing ``target`` needs (worker thread).

        Checks, transcript, brief, the file and the grader output the panes will open: ``j``
        then finds them read and parsed, and the next failure is on screen in one paint.
        """
        store = self.me.store
        run = self.me.runs_by_key.get(target.run_key)
        if run is None:
            return
        try:
            store.grader_checks(run)  # every check, as the Grader pane lists them (failures alone may come from the index)
            store.transcript(run)
            store.brief(run)
            selection = select_failure(run, target.failure_id)
            attempt = run.attempt(selection.attempt)
            for f in attempt.files if attempt is not None else ():
                if f.path == selection.file:
                    store.text(f.ref)
            grader = run.grader(grader_of(target.failure_id))
            if grader is not None and grader.output_ref:
                store.text(grader.output_ref)
        except Exception:  # reading ahead must never fail anything: the panes report what they cannot read
            return

    @work(thread=True, exclusive=True, group="detail")
    def load_detail(self, run_key: str) -> None:
        """Load the current run's checks, failures and transcript (worker thread)."""
        run = self.me.runs_by_key.get(run_key)
        if run is None:
            return
        try:
            graders = tuple(GraderView(g.grader, g.checks, g.error) for g in self.me.store.grader_checks(run))
            failures = tuple(self.me.store.failures(run))
        except Exception as exc:
            graders = (GraderView("grader", (), f"cannot read the checks: {exc}"),)
            failures = ()
        transcript = self.me.store.transcript(run)
        detail = RunDetail(run, graders, failures, transcript.turns, transcript.error)
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self.detail_loaded, detail)

    def detail_loaded(self, detail: RunDetail) -> None:
        """Take a run's details if it is still current; finish the selection with them."""
        key = detail.run.key
        if key != self.me.selection.run_key:
            return
        ids = tuple(f.id for f in detail.failures)
        if self.me.failure_ids.get(key) != ids:
            self.counts_arrived({key: ids}, False)
        self.me.detail = detail
        if self.me.want_first == key:
            self.me.want_first = ""
            self.me.select(select_failure(detail.run, ids[0] if ids else ""))
        else:
            self.me.select(self.me.selection)

    @work(thread=True, exclusive=True, group="tally", description="recount totals")
    def tally_in_worker(self, order: list[str]) -> None:
        """Recount a big list's totals (worker thread)."""
        counted = tally(order, self.me.failure_ids, self.me.labels.labelled)
        self.call_from_thread(self.tally_done, order, counted)

    def tally_done(self, order: list[str], counted: Tally) -> None:
        """Take fresh totals if the list is still the same."""
        if order is self.me.navigator.order and self.me._tally is None:
            self.me._tally = counted
            self.me.refresh_status()

