"""Re-scoring from the review: what would run, the run itself, and what it found (no Textual).

The app's ``R`` re-scores the current failure with the repair its evidence proposes (the same
:func:`~reviewer.analysis.evidence.proposals.propose` and engine as ``reviewer rescore``). Three steps,
each a worker's reading method here and a ``take``-like method on the app's thread:

1. :meth:`Rescoring.prepare` (worker): a :class:`Plan` saying exactly what will run, or a
   :class:`Refusal` (no ``[grader.rerun]``, no proposed repair, no runtime, no sandbox). Nothing
   runs yet.
2. :meth:`Rescoring.run` (worker, after the reviewer confirmed): the control run and the
   repaired run in the bubblewrap sandbox, the record saved
   (``<session>/rescores/<reviewer>.toml``); a :class:`Finished` with a :class:`Shown`.
3. :meth:`Rescoring.finish` (app thread): what to tell, and the result kept for the Grader pane
   and the note.

:meth:`Rescoring.read_record` (worker) reads the latest record of a failure when it is opened.
:class:`Rescoring` owns the re-score state: the one run going on, what is known per failure,
which fresh results were already offered as a note. A re-score is evidence, never a label.
"""

from __future__ import annotations

import threading
import time
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from reviewer.model import Failure, Run
from reviewer.model.observation import Invocation
from reviewer.model.records import record
from reviewer.model.repair import BadRepair, Repair, describe_repair, parse_repair
from reviewer.model.rerun import parse_runtime
from reviewer.model.sanitize import one_line, plain
from reviewer.model.wording import count
from reviewer.review.outcome import NOTHING, Outcome, Work, asking_for, saying
from reviewer.store.labels import UnknownFailure
from reviewer.store.sessions.store import LRU

if TYPE_CHECKING:  # the engine, the runtimes, the sandbox and the record load when first used, not at start
    from reviewer.rescore.engine import Options, Rescore
    from reviewer.rescore.record import Entry
    from reviewer.rescore.sandbox import Tool
    from reviewer.review.session import ReviewSession

Row = tuple[str, str, str, str]
"""One check: (key, recorded, control run, repaired run)."""
FAILING = ("fail", "error")


@record
class Plan:
    """What a confirmed re-score will run (shown in the confirmation, then run as is)."""

    failure_id: str
    run_key: str
    grader: str
    repairs: tuple[Repair, ...]
    command: str
    cwd: str
    program: str
    runtime: str
    time_limit: float
    tool: Tool
    observe: bool = False
    """Only observe the program (the evidence is inconclusive and no repair is proposed)."""
    env: tuple[tuple[str, str], ...] = ()
    """The run's own environment for the grader ([grader.rerun] env)."""
    setup: tuple[str, ...] = ()
    """Files and folders laid at the workspace root first ([grader.rerun] setup)."""
    memory: str = ""
    """How the sandbox bounds memory here."""

    def staged(self) -> list[str]:
        """The lines naming what the run adds to the workspace and environment."""
        out = []
        if self.setup:
            out.append("Setup laid first: " + ", ".join(self.setup))
        if self.env:
            out.append("Environment for the grader: " + " ".join(f"{k}={v}" for k, v in self.env))
        if self.memory:
            out.append(f"Memory: {self.memory}.")
        return out

    def lines(self) -> list[str]:
        """The confirmation's text, a line each, sanitised (the screen shows it without markup)."""
        return [plain(line) for line in self.text()]

    def text(self) -> list[str]:
        """The confirmation's lines as written from the run's data."""
        if self.observe:
            return [
                f"Failure: {self.failure_id}", "",
                "The evidence is inconclusive: nothing recorded shows what the program printed or where it stopped, "
                "and no repair of notation is proposed.",
                "",
                f"Observe {self.program}: run the recorded grader once as recorded, nothing repaired, inside the "
                f"bubblewrap sandbox ({self.tool.version}), and note every run of {self.program} (its arguments, "
                "input, output, and how it ended).",
                f"Grader command: {self.command}   ({'in ' + self.cwd if self.cwd else 'in the attempt' + chr(39) + 's folder'})",
                f"Runtime: {self.runtime}",
                *self.staged(),
                f"No network, the system read-only, a fresh temporary folder the only writable place, at most {self.time_limit:g} s.",
                f"The notes are saved in {self.run_key.partition('/')[0]}/rescores/ and the evidence is read again with them.",
            ]
        out = [f"Failure: {self.failure_id}", ""]
        for r in self.repairs:
            out.append(f"Repair: {describe_repair(r)}" + (f"   ({one_line(r.reason, 160)})" if r.reason else ""))
        where = f"in {self.cwd}" if self.cwd else "in the attempt's folder"
        shim = f"; the repair re-expresses only what {self.program} prints" if self.program else ""
        out += [
            f"Grader command: {self.command}   ({where}{shim})",
            f"Runtime: {self.runtime}",
            *self.staged(),
            "",
            f"The recorded code and the grader run twice inside the bubblewrap sandbox ({self.tool.version}): "
            "once as recorded (the control), once with the repair. No network, the system read-only, a fresh "
            f"temporary folder the only writable place, at most {self.time_limit:g} s a run.",
            f"The result is saved in {self.run_key.partition('/')[0]}/rescores/ as evidence, never as a label.",
        ]
        return out


@record
class Refusal:
    """Why this failure cannot be re-scored here; nothing was run."""

    failure_id: str
    reason: str


@record
class Shown:
    """A re-score of one failure as the Grader pane and the note show it (fresh or from the record)."""

    failure_id: str
    repairs: tuple[str, ...]
    """Each repair for people (``key steps->mults``)."""
    summary: str
    """``3/9 -> 9/9 with key steps->mults``."""
    rows: tuple[Row, ...]
    output: str
    """The repaired run's output."""
    at: str
    reviewer: str
    flipped: bool
    reproduced: bool
    fresh: bool = False
    """Run in this app just now (not read from the record)."""
    notes: tuple[str, ...] = ()
    saved: str = ""
    """The record file it was saved in ("" when read back, or when saving failed)."""

    @property
    def title(self) -> str:
        """``re-scored with key steps->mults``."""
        return "re-scored with " + (", ".join(self.repairs) or "no repair")

    @property
    def note(self) -> str:
        """The note to pre-fill when labelling after this re-score (sanitised: it is saved as written)."""
        return plain(f"re-scored in the sandbox: {self.summary}")

    @property
    def strip_line(self) -> str:
        """The Evidence strip's line: ``↻ re-scored: 3/9 -> 9/9 with key steps->mults`` and who, when."""
        flipped = "flipped to pass" if self.flipped else "still failing"
        return plain(f"\u21bb re-scored ({flipped}): {self.summary or self.title}  \u00b7  {self.reviewer} {self.at}")

    def counts(self) -> tuple[int, int, int]:
        """(checks flipped fail -> pass, still failing with the repair, passing checks the repair broke)."""
        flipped = sum(1 for _, r, b, a in self.rows if r in FAILING and b in FAILING and a == "pass")
        failing = sum(1 for _, r, _, a in self.rows if r != "pass" and a != "pass")
        broken = sum(1 for _, r, _, a in self.rows if r == "pass" and a != "pass")
        return flipped, failing, broken


@record
class Finished:
    """A re-score ended: ``shown`` when it ran, else ``error`` (or ``cancelled``)."""

    failure_id: str
    shown: Shown | None = None
    error: str = ""
    cancelled: bool = False
    unsaved: str = ""
    """Why the record could not be saved ("" when it was)."""
    observed: str = ""
    """What an observation saw (``7 runs of fast_expt.py observed``); "" for a re-score."""


@record(frozen=False, slots=False)
class Running:
    """The one re-score going on."""

    plan: Plan
    started: float = field(default_factory=time.monotonic)
    phase: str = "starting the sandbox"
    fraction: float = 0.0
    stop: threading.Event = field(default_factory=threading.Event)


def shown_from(r: Rescore, reviewer: str, saved: str) -> Shown:
    """A fresh result as shown."""
    return Shown(r.failure, tuple(describe_repair(x) for x in r.repairs), r.summary(),
                 tuple((c.key, c.recorded, c.before, c.after) for c in r.checks), r.output_after, r.at, reviewer,
                 r.flipped, r.reproduced, True, r.notes, saved)


@record
class Observed:
    """The latest observation of a failure's grading, as the Grader pane shows it: the runs of the
    program the failing check made (every run when the grader did not say which check made each).

    Attributes:
        failure_id: the failure it is shown for.
        summary: ``5 runs of roman.py observed, 2 ended with an error``.
        at: when it was observed.
        reviewer: whose record it was read from.
        runs: the runs of this check.
        of_all: how many runs the whole grading made.
        stopped: why the sandbox stopped the grader ("" when it ended by itself).
    """

    failure_id: str
    summary: str
    at: str
    reviewer: str
    runs: tuple[Invocation, ...]
    of_all: int
    stopped: str = ""


def read_observed(root: Path, failure_id: str) -> Observed | None:
    """The latest observation of the failure's grading by any reviewer (None: none, or unreadable)."""
    from reviewer.model.check import split_failure_id
    from reviewer.rescore.record import latest_observation

    try:
        session, run, check = split_failure_id(failure_id)
        grader, _, check_key = check.partition(":")
        seen = latest_observation(root, f"{session}/{run}#{grader}")
    except (OSError, ValueError):
        return None
    if seen is None:
        return None
    return Observed(failure_id, seen.summary(), seen.at, seen.reviewer, seen.for_check(check_key),
                    len(seen.invocations), seen.stopped)


def shown_entry(e: Entry, failure_id: str) -> Shown:
    """A record entry as shown."""
    described = []
    for text in e.repairs:
        try:
            described.append(describe_repair(parse_repair(text)))
        except BadRepair:
            described.append(text)
    return Shown(failure_id, tuple(described), e.summary, e.checks, e.output_after, e.at, e.reviewer,
                 failure_id in e.flipped, e.reproduced)


def shown_path(paths: list[Path], root: Path) -> str:
    """Where a record was saved, relative to the sessions folder when it is inside it."""
    if not paths:
        return ""
    try:
        return str(paths[0].relative_to(root))
    except ValueError:
        return str(paths[0])


class Rescoring:
    """The review's re-scores: the one running, what is known per failure, the notes offered.

    Args:
        options: the engine's options (the Python, the limits).
        sandbox: finds the working sandbox or raises SandboxUnavailable (tests may pass another).
    """

    def __init__(self, options: Options | None = None, sandbox: Callable[[], Tool] | None = None) -> None:
        self.given = options
        self.sandbox = sandbox
        self.running: Running | None = None
        self.known = LRU(256)
        """failure id -> the latest :class:`Shown` (a fresh one wins over the record), or False: none."""
        self.seen = LRU(256)
        """failure id -> the latest :class:`Observed` of its grading, or False: none."""
        self.offered: set[str] = set()
        """Failures whose fresh re-score the note dialog has already offered."""

    @property
    def options(self) -> Options:
        """The engine's options (its defaults unless given)."""
        from reviewer.rescore.engine import Options

        return self.given or Options()

    # ---- worker side: these read (and ``run`` writes the record), never change the state ----------

    def prepare(self, session: ReviewSession, failure_id: str, cancelled: Callable[[], bool]) -> Plan | Refusal:
        """What re-scoring ``failure_id`` with its proposed repair would run, or why it cannot."""
        from reviewer.analysis.evidence.decidable import rerun_missing, runnable
        from reviewer.analysis.evidence.proposals import judged, propose
        from reviewer.rescore.runtime import RuntimeMissing, describe, runtimes
        from reviewer.rescore.sandbox import SandboxUnavailable, require_sandbox

        if not failure_id:
            return Refusal("", "No failure is selected: open a failing check first.")
        try:
            run, failure = session.labeller.find(failure_id)
        except UnknownFailure as exc:
            return Refusal(failure_id, str(exc))
        grader = run.grader(failure.grader)
        rerun = grader.rerun if grader is not None else None
        ev = session.evidence(failure_id, cancelled)
        proposed = propose(ev)
        if rerun is None or rerun.problem:
            return Refusal(failure_id, f"Grader {failure.grader!r} cannot be run again: "
                                       f"{rerun_missing(rerun, bool(proposed))}. Nothing was run.")
        repairs = tuple(r for r in proposed if runnable(rerun, r))
        observe = not repairs and not proposed and bool(rerun.program) and not ev.observed
        if proposed and not repairs:
            return Refusal(failure_id, f"The proposed repair cannot run: {rerun_missing(rerun, True)}. Nothing was run.")
        if not repairs and not observe:
            held = [j.describe() for j in judged(ev) if not j.notation_only]
            why = f" (not proposed: {'; '.join(held)})" if held else ""
            return Refusal(failure_id, "The evidence proposes no repair of notation for this failure (no near miss of "
                                       f"a notation the brief leaves out, interpreter limit or misplaced file){why}, so "
                                       "there is nothing to re-score with"
                                       + ("" if rerun.program else "; and its [grader.rerun] names no program to observe")
                                       + ". `reviewer rescore --repair KIND:ARGS` tries a repair of your own. Nothing was run.")
        try:
            tool = (self.sandbox or require_sandbox)()
        except SandboxUnavailable as exc:
            return Refusal(failure_id, f"Re-scoring is refused: {exc}")
        wanted = parse_runtime(rerun.runtime)
        try:
            runtime = describe(runtimes(wanted, self.options.python), wanted)
        except RuntimeMissing as exc:
            return Refusal(failure_id, f"The grader cannot run here: {exc}. Nothing was run.")
        from reviewer.rescore.sandbox import memory_words

        return Plan(failure_id, run.key, failure.grader, repairs, rerun.command, rerun.cwd, rerun.program, runtime,
                    self.options.wall_seconds or rerun.time_limit, tool, observe, rerun.env, rerun.setup,
                    memory_words(self.options.limits))

    def run(self, session: ReviewSession, plan: Plan, stop: threading.Event, cancelled: Callable[[], bool],
            progress: Callable[[str, float], None]) -> Finished:
        """Re-score as planned (control run and repaired run in the sandbox), then save the record."""
        from reviewer.rescore.engine import NotRerunnable
        from reviewer.rescore.sandbox import Cancelled, SandboxUnavailable

        if plan.observe:
            return self.observed(session, plan, lambda: stop.is_set() or cancelled(), progress)
        try:
            run, failure = session.labeller.find(plan.failure_id)
            result = self.rescored(session, run, failure, plan, lambda: stop.is_set() or cancelled(), progress)
        except Cancelled:
            return Finished(plan.failure_id, cancelled=True)
        except (UnknownFailure, NotRerunnable, SandboxUnavailable) as exc:
            return Finished(plan.failure_id, error=str(exc))
        except Exception as exc:  # noqa: BLE001 - shown to the reviewer, never a traceback
            return Finished(plan.failure_id, error=f"{type(exc).__name__}: {exc}")
        from reviewer.rescore.record import RecordUnsafe, save

        try:
            paths = save(Path(session.store.root), session.reviewer, [result])
        except (RecordUnsafe, OSError) as exc:
            return Finished(plan.failure_id, shown_from(result, session.reviewer, ""), unsaved=str(exc))
        session.forget_evidence()  # the control run observed the program: the evidence is read again
        return Finished(plan.failure_id, shown_from(result, session.reviewer, shown_path(paths, Path(session.store.root))))

    def observed(self, session: ReviewSession, plan: Plan, cancel: Callable[[], bool],
                 progress: Callable[[str, float], None]) -> Finished:
        """Observe the program (the grader run once as recorded, in the sandbox), then save the notes."""
        from reviewer.rescore.engine import NotRerunnable, observe_grader
        from reviewer.rescore.record import RecordUnsafe, save_observations
        from reviewer.rescore.sandbox import Cancelled, SandboxUnavailable

        try:
            run, _failure = session.labeller.find(plan.failure_id)
            seen = observe_grader(session.store, run, plan.grader, options=self.options, tool=plan.tool, cancel=cancel,
                                  progress=progress)
        except Cancelled:
            return Finished(plan.failure_id, cancelled=True)
        except (UnknownFailure, NotRerunnable, SandboxUnavailable) as exc:
            return Finished(plan.failure_id, error=str(exc))
        except Exception as exc:  # noqa: BLE001 - shown to the reviewer, never a traceback
            return Finished(plan.failure_id, error=f"{type(exc).__name__}: {exc}")
        try:
            paths = save_observations(Path(session.store.root), session.reviewer, [seen])
        except (RecordUnsafe, OSError) as exc:
            return Finished(plan.failure_id, observed=seen.summary(), unsaved=str(exc))
        session.forget_evidence()
        return Finished(plan.failure_id, observed=f"{seen.summary()}; saved in {shown_path(paths, Path(session.store.root))}")

    def rescored(self, session: ReviewSession, run: Run, failure: Failure, plan: Plan, cancel: Callable[[], bool],
                 progress: Callable[[str, float], None]) -> Rescore:
        """The engine's result for one failure."""
        from reviewer.rescore.engine import rescore_grader

        return rescore_grader(session.store, run, failure.grader, plan.repairs, [failure], options=self.options,
                              tool=plan.tool, cancel=cancel, progress=progress)[0]

    def read_record(self, root: Path, failure_id: str) -> Shown | None:
        """The latest recorded re-score of a failure by any reviewer (None: none, or unreadable)."""
        from reviewer.rescore.record import latest_for

        try:
            entry = latest_for(root, failure_id)
        except (OSError, ValueError):
            return None
        return shown_entry(entry, failure_id) if entry is not None else None

    # ---- the app's thread -------------------------------------------------------------------------

    def begin(self, plan: Plan) -> Running:
        """The reviewer confirmed: the re-score is running."""
        self.running = Running(plan)
        return self.running

    def progressed(self, failure_id: str, phase: str, fraction: float) -> None:
        """The engine reached a phase."""
        if self.running is not None and self.running.plan.failure_id == failure_id:
            self.running.phase, self.running.fraction = phase, fraction

    def cancel(self) -> Outcome:
        """Stop the running re-score (its sandbox is killed)."""
        if self.running is None:
            return NOTHING
        self.running.stop.set()
        self.running.phase = "cancelling"
        return saying("Cancelling the re-score: its sandbox is being stopped.", "Re-score", timeout=3)

    def finish(self, done: Finished) -> Outcome:
        """A re-score ended: keep its result, say what it found."""
        if self.running is not None and self.running.plan.failure_id == done.failure_id:
            self.running = None
        if done.cancelled:
            return saying("Re-score cancelled: nothing was recorded.", "Re-score", "warning", 6)
        if done.observed:
            out = saying(plain(f"Observed: {done.observed}. The evidence now reads what the program printed."),
                       "Observed", "information", 12).then(asking_for(Work.VIEW))
            return out.then(saying(plain(f"The notes were not saved: {done.unsaved}"), "Observe", "error", 20)) \
                if done.unsaved else out
        if done.shown is None:
            return saying(plain(f"The re-score could not run: {done.error}"), "Re-score failed", "error", 20)
        self.known.put(done.failure_id, done.shown)
        self.offered.discard(done.failure_id)
        out = saying(summary_text(done.shown), "Re-scored", "information" if done.shown.reproduced else "warning", 15)
        out = out.then(asking_for(Work.VIEW))  # the control run observed the program: the evidence is read again
        if done.unsaved:
            out = out.then(saying(plain(f"The re-score was not saved: {done.unsaved}"), "Re-score", "error", 20))
        return out

    def recorded(self, failure_id: str, shown: Shown | None, observed: Observed | None = None) -> None:
        """A failure's record and latest observation were read (a fresh result of this app is not
        replaced by the record)."""
        current = self.known.get(failure_id)
        if not (isinstance(current, Shown) and current.fresh):
            self.known.put(failure_id, shown if shown is not None else False)
        self.seen.put(failure_id, observed if observed is not None else False)

    def wants_record(self, failure_id: str) -> bool:
        """True when a failure's record or observation was not read yet."""
        return bool(failure_id) and (self.known.get(failure_id) is None or self.seen.get(failure_id) is None)

    def observed_for(self, failure_id: str) -> Observed | None:
        """The observation to show for a failure, if any."""
        found = self.seen.get(failure_id)
        return found if isinstance(found, Observed) else None

    def forget_observations(self) -> None:
        """The program was just observed (an observation, or a re-score's control run): every
        failure's observation is read again when next shown."""
        self.seen = LRU(256)

    def shown_for(self, failure_id: str) -> Shown | None:
        """The re-score to show for a failure, if any."""
        found = self.known.get(failure_id)
        return found if isinstance(found, Shown) else None

    def label_note(self, failure_id: str, note: str) -> str:
        """The note to save with a label made after this app's re-score flipped the check: the
        re-score's, once, and only when the failure has no note yet ("" otherwise)."""
        shown = self.shown_for(failure_id)
        if shown is None or not shown.fresh or not shown.flipped or note.strip() or failure_id in self.offered:
            return ""
        self.offered.add(failure_id)
        return shown.note

    def note_for(self, failure_id: str, note: str) -> str:
        """The note dialog's text: the reviewer's note, with the re-score's added when it is new to it."""
        shown = self.shown_for(failure_id)
        if shown is None or not shown.summary or shown.note in note:
            return note
        if shown.fresh and failure_id not in self.offered:
            self.offered.add(failure_id)
            return f"{note.rstrip()}\n{shown.note}" if note.strip() else shown.note
        return note if note.strip() else shown.note


def summary_text(shown: Shown) -> str:
    """The notification after a re-score: the summary, what changed, where it was saved."""
    from reviewer.rescore.engine import MISSING

    flipped, failing, broken = shown.counts()
    check = shown.failure_id.partition("#")[2].partition(":")[2]
    mine = next((r for r in shown.rows if r[0] == check), None)
    parts = [shown.summary + "."]
    if not shown.reproduced:
        parts.append("The control run already passes this check: the re-score is no evidence either way.")
    elif mine is not None:
        parts.append(f"This check: {mine[1]} -> {mine[3]}" + (" (flipped by notation alone)." if shown.flipped else "."))
    parts.append(f"{count(flipped, 'check')} flipped fail -> pass, {failing} still failing"
                 + (f", {count(broken, 'passing check')} broken by the repair." if broken else "."))
    if any(r[3] == MISSING for r in shown.rows):
        parts.append("Some checks are missing from the repaired output.")
    parts += list(shown.notes[:2])
    if shown.saved:
        parts.append(f"Saved in {shown.saved}.")
    parts.append("Grader pane: the re-scored output; n: a note with it.")
    return plain(" ".join(parts))
