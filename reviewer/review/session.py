"""The review session: everything the reviewer is doing, without a screen.

:class:`ReviewSession` owns the runs, the failures counted so far, the run list, the selection,
the walk, the reviewer's decisions, the other reviewers' labels, git and blind mode. Its API is
synchronous. Methods named ``read_*``, :meth:`view`, :meth:`carry_out` and :meth:`evidence` read
the disk and are meant for worker threads (they only read the session's state); every other method
runs on the app's thread, takes what a worker found (``take_*``, :meth:`arrive`) or acts for a key,
and answers with an :class:`~reviewer.review.outcome.Outcome`. A move is answered with one
:class:`~reviewer.review.moving.moves.MoveRequest` (:meth:`request`), carried out in one go and taken back
in one place (:mod:`reviewer.review.moving.moves`). The app and the headless commands both go through it,
so they can never disagree.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from reviewer.model import Failure, Run
from reviewer.model.label import Verdict
from reviewer.model.sanitize import one_line
from reviewer.review.analyses import Analyses
from reviewer.review.decisions import Decisions
from reviewer.review.gitstate import GitState
from reviewer.review.judging import JudgeWalks
from reviewer.review.moving import opening
from reviewer.review.moving.moves import Arrival, MoveRequest, count_toward
from reviewer.review.moving.walking import EVERY_FAILURE, Walking
from reviewer.review.moving.walks import ListedRuns
from reviewer.review.outcome import NOTHING, Outcome, Part, Work, asking_for, saying
from reviewer.review.reviewers import Reviewers
from reviewer.review.runlist.folder import Folder, Scan
from reviewer.review.runlist.rows import Rows
from reviewer.review.selection import (
    End,
    Move,
    NeedsCounting,
    Selection,
    Target,
    Toward,
    at_turn,
    select_failure,
    step_attempt,
    step_file,
    step_run,
    step_turn,
    turn_for_attempt,
)
from reviewer.review.status import Totals, status_parts
from reviewer.review.team import Team
from reviewer.review.view import FailureView, Marks, read_view
from reviewer.store.labels import Labeller, LabelStore, UnknownFailure
from reviewer.store.sessions.protocol import Store
from reviewer.store.sessions.store import LRU
from reviewer.store.settings.identity import Identity, Source, remember_name, tab_name

if TYPE_CHECKING:
    from reviewer.analysis.clusters import ClusterPlan
    from reviewer.analysis.evidence.engine import Evidence


class ReviewSession:
    """One reviewer's pass over a sessions folder."""

    def __init__(self, store: Store, labeller: Labeller, *, auto_advance: bool = True, blind: bool = True,
                 start_failure: str = "", vocabulary: tuple[str, ...] = (), identity: Identity | None = None) -> None:
        self.store = store
        self.identity = identity or Identity(labeller.labels.reviewer, Source.FLAG)
        """Who is labelling, and where the name came from (shown on the status line)."""
        self.vocabulary = vocabulary
        """The folder's tags (``t`` picks from them)."""
        self.reviewers = Reviewers(labeller.labels.reviewer, blind)
        self.analyses = Analyses(store, labeller, blind, self.reviewers.revealed)
        self.decisions = Decisions(labeller)
        self.git = GitState()
        self.walking = Walking()
        self.team = Team(store, labeller, self.reviewers, self.git, self.walking)
        self.judges = JudgeWalks(self.reviewers, self.walking, lambda fid: self.decisions.label(fid),
                                 lambda fid: self.decisions.decided(fid), lambda: self.folder.listing.order)
        """``P``: the walks the judges' predictions steer."""
        self.folder = Folder(store, labeller)
        self.auto_advance = auto_advance
        self.start_failure = start_failure
        self.selection = Selection()
        self.shown: FailureView | None = None
        """The view on screen (the last one taken)."""
        self.totals = Totals()
        self.evidence_cache = LRU(256)
        self.prefetched: Target | None = None
        self.heading: MoveRequest | None = None
        """The move under way: its request, until its arrival is taken (an older one's is not)."""
        self.once_listed: Callable[[], Outcome] | None = None
        """What to do once the run list is rebuilt: open the review (after a scan), go to the first
        match (a search submitted with enter)."""

    @property
    def reviewer(self) -> str:
        """Who is labelling."""
        return self.decisions.reviewer

    @property
    def labeller(self) -> Labeller:
        """The labelling flow shared with the headless commands."""
        return self.decisions.labeller

    def labelled(self, run_key: str) -> int:
        """How many of a counted run's failures carry a decided, fresh label."""
        return sum(1 for fid in self.folder.failure_ids.get(run_key, ()) if self.decisions.decided(fid))

    # ---- moving -------------------------------------------------------------------------------

    def listed_runs(self) -> ListedRuns:
        """The run list as the walks see it."""
        return ListedRuns(self.folder.listing.order, self.folder.failure_ids.get, self.folder.runs_by_key.__contains__)

    def step(self, step: int) -> Move:
        """``j``/``k``: the next or previous failure of the current walk."""
        return self.walking.walk.step(self.listed_runs(), self.selection, step)

    def next_unlabelled(self) -> Move:
        """The next failure of the walk this reviewer has not labelled."""
        return self.walking.walk.next_unlabelled(self.listed_runs(), self.selection, self.decisions.unlabelled)

    def start(self) -> Outcome:
        """Where the review opens (:func:`reviewer.review.moving.opening.start`): the asked-for failure,
        else the first unlabelled one."""
        out, settled = opening.start(self.folder, self.listed_runs(), self.decisions.unlabelled, self.start_failure)
        self.start_failure = "" if settled else self.start_failure
        return out

    # ---- carrying out a move (reviewer.review.moving.moves) ---------------------------------------------

    def request(self, move: Move) -> MoveRequest | Outcome:
        """Answer a move with what to read: a target is selected at once (the next key steps from
        it) and its view is read; a move that needs uncounted runs counts them, then the view of where
        it lands is read. A move that went nowhere: what to say (an outcome, nothing to read)."""
        if isinstance(move, End):
            return saying(move.message, bell=move.bell)
        if isinstance(move, Target):
            self.go_to(move)
            request = MoveRequest(self.selection)
        else:
            order = (move.run_key,) if move.toward in (Toward.RUN, Toward.ASKED) else self.folder.listing.order
            request = MoveRequest(self.selection, move, order)
        self.heading = request
        return request

    def reread(self) -> MoveRequest:
        """Read the selection again (a new theme, the selection changed within its run, the run
        changed on disk); while a move to it, or from it, is under way: that move again."""
        heading = self.heading
        if heading is None or heading.asked != self.selection:
            heading = self.heading = MoveRequest(self.selection)
        return heading

    def carry_out(self, request: MoveRequest, cancelled: Callable[[], bool] = lambda: False) -> Arrival:
        """Count what a move needs on its way and read the view where it lands (reads the disk: a
        worker thread, or the app's while the first screen is built; only reads the session's state)."""
        selection: Selection | None = request.asked
        move: Move | None = None
        counted: dict[str, tuple[str, ...]] = {}
        if request.counting is not None:
            walk = self.walking.walk if request.asked.run_key else EVERY_FAILURE
            move, counted = count_toward(self.folder, walk, self.decisions.unlabelled, request.counting,
                                         request.asked, request.order, cancelled)
            asked_failure = request.counting.toward is Toward.ASKED  # the opening is decided again first
            selection = self.landing(move) if isinstance(move, Target) and not asked_failure else None
        view = self.view(selection) if selection is not None and not cancelled() else None
        return Arrival(request, move, counted, view)

    def arrive(self, arrival: Arrival) -> tuple[FailureView | None, Outcome]:
        """Take what a request found: the runs counted on the way (from any request), then, when it
        is still the newest, where the move landed and its view. Returns the view to draw (None:
        nothing new) and what to do next (say why a move went nowhere, follow a failure gone from
        its run, open the review once an asked-for failure's run is counted)."""
        out = self.folder.counted(arrival.counted, {}, False) if arrival.counted else NOTHING
        request = arrival.request
        if request is not self.heading:
            return None, out
        self.heading = None
        counting, move = request.counting, arrival.move
        if counting is not None:
            if counting.toward is Toward.ASKED:
                return None, out.then(self.start())
            if isinstance(move, End):
                if request.asked.run_key:
                    return None, out.then(saying(move.message, bell=move.bell))
                return None, out.then(opening.nothing_to_open(self.folder, self.listed_runs(), counting.toward))
            if isinstance(move, Target):
                self.go_to(move)
        view = self.take_view(arrival.view) if arrival.view is not None else None
        if view is None:  # the run is gone, or the selection is not the one read (the view is read again)
            return None, out.then(asking_for(Work.SELECTION)) if arrival.view is not None else out
        gone = self.vanished(view)
        if gone is not None:
            return None, out.then(Outcome(move=gone))
        if self.folder.listing.unfold_for(view.selection.run_key, view.run):
            out = out.then(asking_for(Work.LIST))  # the run was in a folded group
        return view, out

    def follow_at_once(self, move: Move) -> Outcome:
        """Follow a move in this thread (the headless commands, the tests): the same request,
        carry-out and arrival as the app's worker, on while the arrival leads on (an asked-for
        failure's run counted, a failure gone from its run). What was said and asked for on the way."""
        said = NOTHING
        next_move: Move | None = move
        while next_move is not None:
            request = self.request(next_move)
            if isinstance(request, Outcome):
                return said.then(request)
            _, out = self.arrive(self.carry_out(request))
            said, next_move = said.then(replace(out, move=None)), out.move
        return said

    def landing(self, target: Target) -> Selection | None:
        """The selection a target makes (the file shown kept within the same run, the transcript at
        the attempt's turn); None when its run is gone."""
        run = self.folder.runs_by_key.get(target.run_key)
        if run is None:
            return None
        keep = self.selection.file if self.selection.run_key == target.run_key else ""
        selection = select_failure(run, target.failure_id, keep)
        shown = self.shown
        if shown is not None and shown.run is not None and shown.run.key == run.key:
            selection = replace(selection, turn=turn_for_attempt(shown.turns, selection.attempt))
        return selection

    def go_to(self, target: Target) -> Selection:
        """Select a failure (or a run, failure ""); the file shown is kept within the same run."""
        self.selection = self.landing(target) or self.selection
        return self.selection

    def open_run(self, run_key: str) -> Move:
        """A run picked in the list (or ``J``/``K``): its first failure once its failures are known."""
        if run_key not in self.folder.runs_by_key:
            return End("")
        ids = self.folder.failure_ids.get(run_key)
        if ids is None:
            return NeedsCounting(run_key, Toward.RUN)
        return Target(run_key, ids[0] if ids else "")

    # ---- the folder and the run list -------------------------------------------------------------

    def take_scan(self, scan: Scan, head: bool = False) -> Outcome:
        """The folder was read (``head``: its first runs only, the rest to follow): the list is
        rebuilt, then the review opens (not again after a head that showed a failure)."""
        reopen = not (self.folder.partial and self.selection.failure_id)
        out = self.folder.take_head(scan) if head else self.folder.take_scan(scan)
        self.once_listed = self.start if reopen else None
        return out

    def take_list(self, generation: int, rows: Rows, order: list[str]) -> Outcome | None:
        """The run list's rows, built for a request (None: a newer rebuild was asked for); then what
        was waiting for the list (the opening, a search's first match)."""
        if not self.folder.listing.take(generation, rows, order):
            return None
        self.totals.changed()
        after, self.once_listed = self.once_listed, None
        return after() if after is not None else NOTHING

    def search(self, text: str, submitted: bool = False) -> Outcome:
        """The run search changed; ``submitted`` (enter): then open the first match's failure."""
        listing = self.folder.listing
        changed = text != listing.search
        listing.search = text
        if submitted:
            self.once_listed = self.open_first_listed
        if changed:
            return asking_for(Work.LIST)
        after, self.once_listed = self.once_listed, None
        return after() if submitted and after is not None else NOTHING

    def open_first_listed(self) -> Outcome:
        """The first listed run at its first failure (nothing when no run is listed)."""
        order = self.folder.listing.order
        return Outcome(move=self.open_run(order[0])) if order else NOTHING

    def step_run(self, step: int) -> Move:
        """``J``/``K``."""
        key = step_run(self.folder.listing.order, self.selection.run_key, step)
        return End("No more runs in this direction.") if key is None else self.open_run(key)

    def current_run(self) -> Run | None:
        """The run on screen."""
        return self.folder.runs_by_key.get(self.selection.run_key)

    def reselect(self, change: Callable[[Selection, Run], Selection]) -> bool:
        """Apply a change to the selection within the current run; False when nothing changed."""
        run = self.current_run()
        if run is None:
            return False
        moved = change(self.selection, run)
        if moved == self.selection:
            return False
        self.selection = moved
        return True

    def step_attempt(self, step: int) -> bool:
        """``]``/``[``; the transcript follows to the turn that produced the attempt."""
        turns = self.shown.turns if self.shown is not None else ()

        def change(sel: Selection, run: Run) -> Selection:
            moved = step_attempt(sel, run, step)
            turn = turn_for_attempt(turns, moved.attempt)
            return replace(moved, turn=turn) if moved != sel and turn is not None else moved
        return self.reselect(change)

    def step_turn(self, step: int) -> bool:
        """``l``/``h``: step the transcript; the Code pane follows."""
        turns = self.shown.turns if self.shown is not None else ()
        return self.reselect(lambda sel, run: step_turn(sel, run, turns, step))

    def pick_turn(self, index: int) -> bool:
        """A transcript line was clicked."""
        turns = self.shown.turns if self.shown is not None else ()
        return 0 <= index < len(turns) and self.reselect(lambda sel, run: at_turn(sel, run, turns, index))

    def next_file(self) -> bool:
        """``f``."""
        return self.reselect(step_file)

    def pick_file(self, path: str) -> bool:
        """A file name was clicked."""
        return self.reselect(lambda sel, run: replace(sel, file=path))

    def toggle_diff(self) -> bool:
        """``d``."""
        return bool(self.selection.file) and self.reselect(lambda sel, run: replace(sel, diff=not sel.diff))

    def pick_check(self, grader: str, key: str, failing: bool) -> Move | None:
        """A check was clicked: a failing one becomes current, another is found in the output."""
        run = self.current_run()
        if run is None:
            return None
        if failing:
            return Target(run.key, run.failure_id(f"{grader}:{key}"))
        self.selection = replace(self.selection, failure_id="", picked=f"{grader}:{key}") if not \
            self.selection.failure_id else replace(self.selection, picked=f"{grader}:{key}")
        return None

    # ---- the view ------------------------------------------------------------------------------

    def marks(self, run: Run, failure_ids: tuple[str, ...], selection: Selection) -> Marks:
        """The label-dependent part of a view (no disk reads)."""
        verdicts = {fid: v for fid in failure_ids if (v := self.decisions.verdict(fid))}
        fid = selection.failure_id
        mine = self.decisions.label(fid) if fid else None
        everyone = self.walking.disagreements
        return Marks(verdicts, mine, verdicts.get(fid) == "stale", self.reviewers.others(fid, mine, everyone),
                     self.reviewers.judges(fid, mine, everyone))

    def view(self, selection: Selection) -> FailureView | None:
        """Read what the panes show for a selection (reads the disk); None when its run is gone."""
        run = self.folder.runs_by_key.get(selection.run_key)
        if run is None:
            return None
        ids = self.folder.failure_ids.get(run.key, ())
        provenance = self.git.provenance.get(run.key) if self.git.on else None
        return read_view(self.store, run, selection, self.marks(run, ids, selection), provenance)

    def take_view(self, view: FailureView) -> FailureView | None:
        """Keep a view read for the current selection; None when the reviewer moved on meanwhile."""
        asked, now = view.selection, self.selection
        if replace(asked, turn=None) != replace(now, turn=None) or (now.turn is not None and asked.turn != now.turn):
            return None
        if view.run is not None:
            self.folder.take_counts({view.run.key: view.failure_ids})
        if now.turn is None and view.turns:
            self.selection = replace(now, turn=turn_for_attempt(view.turns, now.attempt))
        view = replace(view, selection=self.selection)
        view = replace(view, marks=self.marks(view.run, view.failure_ids, self.selection)) if view.run else view
        self.shown = view
        return view

    def vanished(self, view: FailureView) -> Target | None:
        """Where to go when the failure on screen is gone from its run (re-recorded): its first failure."""
        if view.run is None or not view.selection.failure_id or view.failure is not None:
            return None
        ids = view.failure_ids
        return Target(view.run.key, ids[0] if ids else "")

    def relabel(self) -> FailureView | None:
        """The view on screen with its labels as they are now (after a decision)."""
        view = self.shown
        if view is None or view.run is None:
            return view
        self.shown = replace(view, marks=self.marks(view.run, view.failure_ids, view.selection))
        return self.shown

    def read_ahead(self) -> MoveRequest | None:
        """The next failure in another run, to read while the reviewer reads this one (once each):
        carried out like a move, its view only fills the caches."""
        here, listed = self.selection, self.listed_runs()
        move = self.walking.walk.step(listed, here, 1)
        for _ in range(len(self.folder.failure_ids.get(here.run_key) or ())):  # past this run's other failures
            if not isinstance(move, Target) or move.run_key != here.run_key:
                break
            move = self.walking.walk.step(listed, Selection(move.run_key, move.failure_id), 1)
        run = self.folder.runs_by_key.get(move.run_key) if isinstance(move, Target) else None
        if run is None or run.key == here.run_key or not isinstance(move, Target) or move == self.prefetched:
            return None
        self.prefetched = move
        return MoveRequest(select_failure(run, move.failure_id))

    def current_failure(self) -> Failure | None:
        """The failure on screen."""
        view = self.shown
        return view.failure if view is not None and view.selection.failure_id == self.selection.failure_id else None

    def evidence(self, failure_id: str, cancelled: Callable[[], bool] = lambda: False) -> Evidence:
        """The checker-versus-brief evidence of a failure (worker thread; remembered)."""
        from reviewer.analysis.evidence.engine import evidence_for  # after the first screen: its patterns take a while

        hit = self.evidence_cache.get(failure_id)
        if hit is not None:
            return hit  # type: ignore[return-value]
        run, failure = self.labeller.find(failure_id)
        found = evidence_for(self.store, run, failure, cancel=cancelled)
        self.evidence_cache.put(failure_id, found)
        return found

    def forget_evidence(self) -> None:
        """Drop the remembered evidence: a re-score observed a program, so it is read again."""
        self.evidence_cache.clear()

    def cached_evidence(self, failure_id: str) -> Evidence | None:
        """The evidence of a failure when it was computed already."""
        hit = self.evidence_cache.get(failure_id)
        return hit  # type: ignore[return-value]

    # ---- decisions -----------------------------------------------------------------------------

    def label(self, verdict: Verdict, what: str) -> Outcome:
        """``s``/``c``/``space``: label the current failure, then move on (auto-advance)."""
        fid = self.selection.failure_id
        if not fid:
            return saying("No failure selected.", bell=True)
        out = self.decisions.decide(fid, verdict, what)
        if self.auto_advance and not any(n.severity == "error" and not out.retry for n in out.notices):
            out = out.then(Outcome(move=self.next_unlabelled()))
        return out

    def clear(self) -> Outcome:
        """``x``."""
        fid = self.selection.failure_id
        return self.decisions.clear(fid) if fid else saying("No failure selected.", bell=True)

    def undo(self) -> Outcome:
        """``u``: undo the last change and show the failure it touched."""
        out, touched = self.decisions.undo()
        if touched:
            out = out.then(Outcome(move=Target(touched[0].partition("#")[0], touched[0])))
        return out

    def note(self, failure_id: str, note: str) -> Outcome:
        """Save a note on a failure (``n``): kept with its label, or alone (no verdict invented)."""
        return NOTHING if note == self.labeller.annotation(failure_id)[0] else self.decisions.note(failure_id, note)

    def set_tags(self, failure_id: str, tags: tuple[str, ...]) -> Outcome:
        """Save a failure's tags (``t``)."""
        return NOTHING if tags == self.labeller.annotation(failure_id)[1] else self.decisions.tags(failure_id, tags)

    def label_cluster(self, plan: ClusterPlan) -> Outcome:
        """Label a whole cluster (one undoable change)."""
        return self.decisions.label_cluster(plan)

    def known(self, failure_id: str) -> bool:
        """The id names a failure of the folder."""
        try:
            self.labeller.find(failure_id)
        except UnknownFailure:
            return False
        return True

    # ---- git ----------------------------------------------------------------------------------

    def choose_name(self, name: str, remember: bool = True) -> Outcome:
        """The reviewer answered who is labelling: label as that name (remembered in config.toml, or for this tab)."""
        name = name.strip()
        if not name or (name == self.reviewer and remember):
            return NOTHING
        identity, problem = remember_name(name) if remember else tab_name(name)
        labeller = Labeller(self.store, LabelStore(self.store.root, name))
        labeller.labels.index = self.store.index
        problems = labeller.labels.load(sorted({run.session for run in self.folder.runs}))
        self.identity = identity or Identity(name, Source.FLAG)
        self.decisions = Decisions(labeller)
        self.reviewers.me = name
        self.folder.labeller = self.analyses.labeller = self.team.labeller = labeller
        before, self.folder.label_errors = self.folder.label_errors, problems
        self.folder.load_errors = [*(e for e in self.folder.load_errors if e not in before), *problems]
        out = saying(f"Labelling as {self.identity.describe()}.", "Reviewer")
        for text in ([problem] if problem else []) + [f"{e.path}: {e.reason}" for e in problems]:
            out = out.then(saying(one_line(text, 300), "Reviewer", "warning"))
        return out.then(Outcome(labels_changed=True, work=frozenset({Work.LIST})))

    def may_commit(self) -> Outcome | None:
        """Why this reviewer's labels cannot be committed now; None when they can (a commit starts)."""
        return self.git.begin_commit(self.decisions.pending())

    def commit(self) -> Outcome:
        """``ctrl+g``: commit this reviewer's label files (in a worker), or say why not."""
        return self.may_commit() or asking_for(Work.COMMIT)

    # ---- status --------------------------------------------------------------------------------

    def status(self) -> tuple[list[Part], bool]:
        """The status line's parts, and whether a worker should recount the totals (big lists)."""
        counts, recount = self.totals.get(self.folder.listing.order, self.folder.failure_ids, self.labelled)
        return status_parts(self, counts), recount
