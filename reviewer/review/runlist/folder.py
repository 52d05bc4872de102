"""The folder as the review session knows it: the runs that loaded, what did not, and the
failures counted so far (counting reads every run's grader output: it runs in workers, a batch
at a time, and each batch is taken here)."""

from __future__ import annotations

from typing import Mapping

from reviewer.model import LoadError, Run
from reviewer.model.records import record
from reviewer.model.sanitize import one_line
from reviewer.model.wording import count
from reviewer.review.outcome import NOTHING, Outcome, Work, asking_for, saying
from reviewer.review.runlist.listing import RunList
from reviewer.review.runlist.rows import RunFilter
from reviewer.store.labels import Labeller
from reviewer.store.sessions.protocol import Store
from reviewer.store.sessions.scan import Corpus
from reviewer.store.sessions.store import Changes
from reviewer.store.settings.identity import Identity, NameQuestion, name_question


@record
class Scan:
    """What the first scan found (read in a worker)."""

    runs: list[Run]
    errors: list[LoadError]
    label_problems: list[LoadError]
    """This reviewer's labels files that could not be read whole, duplicates, links refused."""
    redirected: str
    question: NameQuestion | None = None
    """Ask who is labelling: the name was guessed and other reviewers have labels here."""


class Folder:
    """The runs of the sessions folder and their failures."""

    def __init__(self, store: Store, labeller: Labeller) -> None:
        self.store = store
        self.labeller = labeller
        self.listing = RunList()
        self.runs: list[Run] = []
        self.runs_by_key: dict[str, Run] = {}
        self.load_errors: list[LoadError] = []
        """What did not load: the folder's files, then this reviewer's labels files' problems (E lists them)."""
        self.label_errors: list[LoadError] = []
        self.scanned = False
        self.partial = False
        """The list holds the folder's first runs only (:meth:`take_head`) until the whole scan comes."""
        self.failure_ids: dict[str, tuple[str, ...]] = {}
        """Failure ids per run key, for the runs counted so far."""
        self.count_errors: dict[str, str] = {}
        self.counting_done = False

    def read_scan(self, identity: Identity | None = None, labels: bool = True) -> Scan:
        """Scan the folder and load this reviewer's labels (worker thread); with the identity in use,
        whether to ask who is labelling. ``labels`` False: a head (:meth:`read_head`) loaded them
        and asked, and the reviewer may be labelling meanwhile."""
        corpus = self.store.scan()
        self.labeller.labels.index = self.store.index
        self.labeller.evidence_cache.clear()
        if not labels:
            return Scan(list(corpus.runs), list(corpus.errors), [], "")
        return self.scan_of(corpus, identity)

    def read_head(self, limit: int, identity: Identity | None = None) -> Scan:
        """The sessions and their first ``limit`` runs by folder name, with this reviewer's labels
        (the app's thread, while the whole folder is read by another process): the first screen of a
        big folder read for the first time. What did not load is said by the whole scan."""
        return self.scan_of(self.store.head(limit), identity, errors=False)

    def scan_of(self, corpus: Corpus, identity: Identity | None, errors: bool = True) -> Scan:
        """A scan of what the store read, with the labels loaded for its sessions."""
        labels = self.labeller.labels
        sessions = sorted(corpus.sessions)
        problems = labels.load(sessions)
        question = name_question(self.store.root, identity, sessions) if identity else None
        return Scan(list(corpus.runs), list(corpus.errors) if errors else [], problems,
                    str(labels.redirected) if labels.redirected else "", question)

    def take_head(self, scan: Scan) -> Outcome:
        """Show the first runs while the whole folder is read; the review may open among them
        (:attr:`partial` until :meth:`take_scan`)."""
        out = self.take_scan(scan)
        self.scanned, self.partial = False, True
        self.listing.more = True
        return out

    def take_scan(self, scan: Scan) -> Outcome:
        """Show the runs; say what did not load, what is wrong with this reviewer's labels files, and where labels go."""
        self.label_errors = list(scan.label_problems)
        self.set_runs(scan.runs, scan.errors)
        self.scanned, self.partial = True, False
        self.listing.more = False
        out = NOTHING
        if scan.errors:
            out = out.then(saying(f"{count(len(scan.errors), 'item')} in the folder did not load (E lists them)",
                                severity="warning"))
        if scan.label_problems:
            first = scan.label_problems[0]
            more = f" (and {len(scan.label_problems) - 1} more: E lists them)" if len(scan.label_problems) > 1 else ""
            out = out.then(saying(one_line(f"{first.path}: {first.reason}", 400) + more, "Your labels files", "error", 20))
        if scan.redirected:
            out = out.then(saying(f"This folder is not writable; your labels are saved in {one_line(scan.redirected, 300)}",
                                "Labels", "warning", 15))
        if not scan.runs:
            out = out.then(saying("No runs in this folder.", severity="warning"))
        return out.then(Outcome(labels_changed=True, work=frozenset({Work.LIST})))

    def set_runs(self, runs: list[Run], errors: list[LoadError]) -> None:
        """The folder's runs (in display order) and what did not load."""
        self.runs = runs
        self.runs_by_key = {r.key: r for r in runs}
        self.load_errors = [*errors, *self.label_errors]
        self.listing.set_runs(runs)

    def take_changes(self, changes: Changes, runs: list[Run], errors: list[LoadError], current: str) -> Outcome:
        """Merge what a live refresh found: the list is rebuilt, new and changed runs counted, and
        the run on screen read again when it changed (the reviewer's place does not move)."""
        self.set_runs(runs, errors)
        for key in [r.key for r in changes.changed] + changes.removed:
            self.failure_ids.pop(key, None)
            self.count_errors.pop(key, None)
        self.counting_done = False
        out = asking_for(Work.LIST, Work.COUNT)
        if current in changes.removed:
            return out.then(saying("The run on screen was removed from the folder.", severity="warning"))
        if current and current in {r.key for r in changes.changed}:
            out = out.then(asking_for(Work.VIEW))
        return out

    def read_failures(self, run: Run) -> tuple[tuple[str, ...], str]:
        """A run's failure ids, and the error when its output could not be parsed (worker thread)."""
        try:
            return tuple(f.id for f in self.store.failures(run)), ""
        except Exception as exc:  # noqa: BLE001 - a parser bug must not stop the count
            return (), str(exc)

    def take_counts(self, counted: Mapping[str, tuple[str, ...]], errors: Mapping[str, str] | None = None,
                    done: bool = False) -> bool:
        """Merge counted runs; True when anything new was learnt."""
        new = {k: v for k, v in counted.items() if self.failure_ids.get(k) != v}
        self.failure_ids.update(new)
        self.count_errors.update(errors or {})
        self.counting_done = self.counting_done or done
        return bool(new) or done

    def counted(self, counted: Mapping[str, tuple[str, ...]], errors: Mapping[str, str], done: bool) -> Outcome:
        """A count's batch: the list's counts repaint (and the list is rebuilt when its filter
        depends on them); the index cache is written when the count is done."""
        if not self.take_counts(counted, errors, done):
            return NOTHING
        work = {Work.COUNTS}
        if self.listing.filter is not RunFilter.ALL:
            work.add(Work.LIST)
        if done:
            work.add(Work.SAVE_INDEX)
        return Outcome(work=frozenset(work))

    def uncounted(self) -> list[Run]:
        """Runs whose failures are not known yet, in list order."""
        return [r for r in self.runs if r.key not in self.failure_ids]
