"""``R``: re-score the current failure with its proposed repair, from the review screen.

:class:`RescoreFlow` (the review screen owns one) runs the steps of
:class:`~reviewer.review.rescoring.Rescoring` in thread workers that report by message to the
screen: what would run (then :class:`~reviewer.ui.dialogs.rescore.RescoreDialog` asks, or says
why not), the run itself (the strip above the status line shows its progress; ``R`` again or
escape cancels it; the screen stays live), the result (a notification, the Grader pane's re-score
section, the note's pre-fill), and the latest record of each failure opened.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any, Callable

from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import get_current_worker

from reviewer.model.label import Verdict
from reviewer.review.outcome import Outcome, saying
from reviewer.review.rescoring import Finished, Observed, Plan, Refusal, Rescoring, Shown, read_observed
from reviewer.review.session import ReviewSession
from reviewer.ui.bindings import BY_ID, key_label
from reviewer.ui.dialogs.rescore import RescoreDialog
from reviewer.ui.widgets.rescore_strip import RescoreStrip
from reviewer.ui.widgets.workspace import Workspace

TICK_SECONDS = 0.25


class RescoreMessage(Message, bubble=False):
    """What a re-score worker reports to the review screen."""


class Planned(RescoreMessage):
    """What a re-score would run, or why it cannot."""

    def __init__(self, plan: Plan | Refusal) -> None:
        super().__init__()
        self.plan = plan


class Progressed(RescoreMessage):
    """The running re-score reached a phase."""

    def __init__(self, failure_id: str, phase: str, fraction: float) -> None:
        super().__init__()
        self.failure_id, self.phase, self.fraction = failure_id, phase, fraction

    def can_replace(self, message: Message) -> bool:
        """Only the latest phase matters."""
        return isinstance(message, Progressed)


class Done(RescoreMessage):
    """The re-score ended (ran, failed or was cancelled)."""

    def __init__(self, finished: Finished) -> None:
        super().__init__()
        self.finished = finished


class RecordRead(RescoreMessage):
    """A failure's latest recorded re-score (None: there is none)."""

    def __init__(self, failure_id: str, shown: Shown | None, observed: Observed | None = None) -> None:
        super().__init__()
        self.failure_id, self.shown, self.observed = failure_id, shown, observed


def cancelled() -> bool:
    """The current worker was cancelled (the app is closing, or a newer request)."""
    return get_current_worker().is_cancelled


class RescoreFlow:
    """The review screen's re-scores: keys, workers, the strip, the Grader pane's section, the note.

    Its workers report to ``screen`` (the review screen hands the messages back to :meth:`take`);
    ``act`` hands an outcome to the app; it draws into the panes' ``workspace`` and the ``strip``."""

    def __init__(self, screen: Screen[Any], session: ReviewSession, act: Callable[[Outcome], None],
                 workspace: Workspace, strip: RescoreStrip, rescoring: Rescoring | None = None) -> None:
        self.screen = screen
        self.session = session
        self.act = act
        self.workspace = workspace
        self.strip = strip
        self.rescoring = rescoring or Rescoring()
        self.clock: Timer | None = None

    def start(self, name: str, work: Callable[..., None], *args: object) -> None:
        """Run ``work`` in a thread worker; it posts its message to the screen."""
        self.screen.run_worker(partial(work, *args), name=name, group=name, thread=True, exclusive=True,
                               exit_on_error=False, description=name)

    # ---- keys ----------------------------------------------------------------------------------------

    def key(self) -> None:
        """``R``: ask to re-score the current failure; while one runs, cancel it."""
        if self.rescoring.running is not None:
            self.cancel()
            return
        fid = self.session.selection.failure_id
        if not fid:
            self.act(saying("No failure selected: open a failing check to re-score it.", bell=True))
            return
        self.start("rescore-plan", self.planning, fid)

    def cancel(self) -> None:
        """escape: cancel the running re-score (nothing happens when none runs)."""
        if self.rescoring.running is not None:
            self.act(self.rescoring.cancel())
            self.tick()

    # ---- workers -------------------------------------------------------------------------------------

    def planning(self, failure_id: str) -> None:
        """Worker: what a re-score would run."""
        try:
            plan = self.rescoring.prepare(self.session, failure_id, cancelled)
        except Exception as exc:  # noqa: BLE001 - the evidence could not be read: said, never a traceback
            plan = Refusal(failure_id, f"The evidence could not be read: {type(exc).__name__}: {exc}")
        if not cancelled():
            self.screen.post_message(Planned(plan))

    def running(self, plan: Plan) -> None:
        """Worker: the re-score itself (the sandbox is killed when the stop flag is set)."""
        running = self.rescoring.running
        if running is None:
            return
        post = self.screen.post_message

        def progress(phase: str, fraction: float) -> None:
            post(Progressed(plan.failure_id, phase, fraction))

        post(Done(self.rescoring.run(self.session, plan, running.stop, cancelled, progress)))

    def reading(self, failure_id: str) -> None:
        """Worker: the latest record of a failure."""
        shown = self.rescoring.read_record(self.session.store.root, failure_id)
        observed = read_observed(self.session.store.root, failure_id) if not cancelled() else None
        if not cancelled():
            self.screen.post_message(RecordRead(failure_id, shown, observed))

    # ---- what the workers reported -------------------------------------------------------------------

    def take(self, message: RescoreMessage) -> None:
        """Hand a worker's report on."""
        if isinstance(message, Planned):
            self.planned(message.plan)
        elif isinstance(message, Progressed):
            self.rescoring.progressed(message.failure_id, message.phase, message.fraction)
            self.tick()
        elif isinstance(message, Done):
            if self.clock is not None:
                self.clock.stop()
                self.clock = None
            observed = not message.finished.error and not message.finished.cancelled
            if observed:  # the program was observed: the evidence and the observation are read anew
                self.workspace.evidence.waiting(self.workspace.evidence.failure_id)
                self.rescoring.forget_observations()
            self.strip.done()
            self.act(self.rescoring.finish(message.finished))
            self.draw()
            if observed:
                self.read_record(self.session.selection.failure_id)
        elif isinstance(message, RecordRead):
            self.rescoring.recorded(message.failure_id, message.shown, message.observed)
            self.draw()

    def planned(self, plan: Plan | Refusal) -> None:
        """Ask before running (or say why not), unless the reviewer has moved on."""
        if plan.failure_id and plan.failure_id != self.session.selection.failure_id:
            return
        self.screen.app.push_screen(RescoreDialog(plan), lambda yes: self.begin(plan) if yes else None)

    def begin(self, plan: Plan | Refusal) -> None:
        """The reviewer confirmed: run it in a worker, with progress on the strip."""
        if not isinstance(plan, Plan) or self.rescoring.running is not None:
            return
        self.rescoring.begin(plan)
        self.start("rescore", self.running, plan)
        self.clock = self.screen.set_interval(TICK_SECONDS, self.tick)
        self.tick()

    # ---- drawing -------------------------------------------------------------------------------------

    def tick(self) -> None:
        """Redraw the strip (progress and elapsed time)."""
        running = self.rescoring.running
        strip = self.strip
        if running is None:
            strip.done()
            return
        keys = f"{key_label(self.screen.app, BY_ID['cancel-rescore'].binding)}/" \
               f"{key_label(self.screen.app, BY_ID['rescore'].binding)}"
        check = running.plan.failure_id.partition("#")[2].partition(":")[2]
        subject = check.rpartition("::")[2] or running.plan.failure_id
        strip.running(subject, running.phase, running.fraction, time.monotonic() - running.started, keys)

    def read_record(self, failure_id: str) -> None:
        """The failure's re-score record, read when not known yet."""
        if self.rescoring.wants_record(failure_id):
            self.start("rescore-record", self.reading, failure_id)

    def draw(self) -> None:
        """The Grader pane's re-score section and the Evidence strip's line for the failure on screen."""
        fid = self.session.selection.failure_id
        shown = self.rescoring.shown_for(fid) if fid else None
        self.workspace.grader.show_rescored(shown)
        self.workspace.grader.show_observed(self.rescoring.observed_for(fid) if fid else None)
        self.workspace.evidence.rescored(fid, shown.strip_line if shown is not None else "")

    def label(self, verdict: Verdict, what: str) -> Outcome:
        """``s``/``c``: label the failure; after a flip its note (when it has none) becomes the re-score's."""
        fid = self.session.selection.failure_id
        out = self.session.label(verdict, what)
        note = self.rescoring.label_note(fid, self.session.labeller.annotation(fid)[0]) if fid else ""
        return out.then(self.session.note(fid, note)) if note else out

    def note(self, failure_id: str, note: str) -> str:
        """The note dialog's text, with the re-score added where it is new to the note."""
        return self.rescoring.note_for(failure_id, note)
