"""Several reviewers in the app: blind mode, the disagreements mode and adjudication.

Other reviewers' labels are read from the folder in a worker (at start and whenever labels
change). In blind mode (the default, ``blind = true`` in the settings) another reviewer's
verdict on a failure stays hidden until this reviewer has decided it; ``r`` shows it anyway.
``D`` switches to the disagreements mode: ``j``/``k`` step only through failures whose
reviewers gave different verdicts, all verdicts and notes are shown, and ``A`` records the
adjudicated final verdict (``<session>/labels/_adjudicated.toml``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual import work
from textual.content import Content
from textual.timer import Timer
from textual.worker import get_current_worker

from reviewer.model import split_failure_id
from reviewer.model.label import Label
from reviewer.store.adjudication import adjudicate, clear_adjudication
from reviewer.store.agreement import disagreements, read_label_set, visible_others
from reviewer.store.final import read_adjudications
from reviewer.ui.actions import NavigationActions
from reviewer.ui.labelling import LabellingActions
from reviewer.ui.render import one_line
from reviewer.ui.screens.adjudicate import AdjudicateScreen, Choice
from reviewer.ui.state import Target
from reviewer.ui.theming import verdict_symbols
from reviewer.ui.widgets.grader import verdict_badge

if TYPE_CHECKING:
    from reviewer.ui.app import ReviewApp

StatusPart = Content | tuple[str, str] | str
INDENT = "    "
RELOAD_DELAY = 0.3
"""Seconds of quiet after a label change before everyone's labels are read again."""


@dataclass(frozen=True, slots=True)
class ReviewersSnapshot:
    """Every reviewer's labels as read from the folder.

    Attributes:
        labels: each failure's labels by failure id, one per reviewer (deferred included).
        finals: adjudicated verdicts by failure id.
        disagreements: failure ids whose reviewers' decided verdicts differ, in failure order.
        errors: labels files that could not be read.
    """

    labels: dict[str, tuple[Label, ...]] = field(default_factory=dict)
    finals: dict[str, Label] = field(default_factory=dict)
    disagreements: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()


def read_snapshot(root: Path, sessions: list[str]) -> ReviewersSnapshot:
    """Read every reviewer's labels, the adjudications and the disagreements (worker threads)."""
    label_set = read_label_set(root, sessions)
    fid = lambda key: f"{key[0]}/{key[1]}#{key[2]}"  # noqa: E731
    finals = {fid(k): lab for k, lab in read_adjudications(root, sessions).items()}
    found = disagreements(root, sessions, label_set)
    return ReviewersSnapshot({fid(k): labs for k, labs in label_set.by_failure.items()}, finals,
                             tuple(d.failure_id for d in found), label_set.errors)


def label_parts(lab: Label, who: str, symbols: dict[str, str] | None = None) -> list[StatusPart]:
    """``bob: ▲ capability — note`` (``symbols``: the theme's verdict symbols)."""
    parts: list[StatusPart] = [(f"{one_line(who, 24)}: ", "bold"), verdict_badge(lab.verdict.value, symbols)]
    if lab.note:
        parts += [" \u2014 ", one_line(lab.note, 160)]
    return parts


@dataclass
class ReviewersState:
    """The other reviewers' labels as the app holds them, and the disagreements mode."""

    snapshot: ReviewersSnapshot = field(default_factory=ReviewersSnapshot)
    loaded: bool = False
    mode: bool = False
    revealed: set[str] = field(default_factory=set)
    reported: tuple[str, ...] = ()
    timer: Timer | None = None
    want_mode: bool = False
    """``D`` was pressed: enter the disagreements mode once the labels are read again."""


class ReviewersActions(NavigationActions, LabellingActions):
    """Blind mode (``r`` reveals), the disagreements mode (``D``) and adjudication (``A``)."""

    @property
    def rvapp(self) -> "ReviewApp":
        """This app, typed."""
        return cast("ReviewApp", self)

    @property
    def reviewers(self) -> ReviewersState:
        """The reviewers' state (created on first use)."""
        state = self.__dict__.get("_reviewers_state")
        if state is None:
            state = self.__dict__["_reviewers_state"] = ReviewersState()
        return state

    # ---- reading the others' labels ------------------------------------------------------------

    def reviewers_labels_changed(self) -> None:
        """Labels changed (or were loaded): read everyone's labels again after a short quiet spell."""
        state = self.reviewers
        if not self.rvapp.scanned:
            return
        if not state.loaded:  # the first read: at once, or as soon as the first failure is on screen
            self.rvapp.after_first_screen(self.load_reviewers)
            return
        if state.timer is not None:
            state.timer.stop()
        state.timer = self.set_timer(RELOAD_DELAY, self.load_reviewers)

    @work(thread=True, exclusive=True, group="reviewers")
    def load_reviewers(self) -> None:
        """Read every reviewer's labels (worker thread)."""
        app = self.rvapp
        sessions = sorted({run.session for run in app.runs})
        try:
            snapshot = read_snapshot(Path(app.store.root), sessions)
        except Exception as exc:  # the other reviewers' labels are optional: say why they are missing
            snapshot = ReviewersSnapshot(errors=(f"cannot read the other reviewers' labels: {exc}",))
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self.reviewers_loaded, snapshot)

    def reviewers_loaded(self, snapshot: ReviewersSnapshot) -> None:
        """Keep the snapshot; repaint what shows it; enter the disagreements mode when asked."""
        state = self.reviewers
        fid = self.rvapp.selection.failure_id
        before = self.reviewer_lines(fid)
        state.snapshot, state.loaded = snapshot, True
        if snapshot.errors and snapshot.errors != state.reported:
            state.reported = snapshot.errors
            self.notify("Some labels files could not be read: " + one_line("; ".join(snapshot.errors), 400),
                        title="Reviewers", severity="warning", markup=False)
        if state.want_mode:
            state.want_mode = False
            self.enter_disagreements()
        elif self.reviewer_lines(fid) != before:
            self.rvapp.detail = self.rvapp.detail
        self.rvapp.refresh_status()

    def disagreement_ids(self) -> list[str]:
        """Disagreements whose run is in the folder, in failure order."""
        runs = self.rvapp.runs_by_key
        return [f for f in self.reviewers.snapshot.disagreements if f.partition("#")[0] in runs]

    def labels_of(self, failure_id: str) -> tuple[Label, ...]:
        """Every reviewer's label on a failure; this reviewer's as it is now (unsaved included)."""
        me = self.rvapp.reviewer
        others = tuple(lab for lab in self.reviewers.snapshot.labels.get(failure_id, ()) if lab.reviewer != me)
        mine = self.rvapp.labels.label(failure_id)
        return others + ((mine,) if mine is not None else ())

    # ---- what the Grader pane shows under the current failure ------------------------------------

    def reviewer_lines(self, failure_id: str) -> list[Content]:
        """Lines under the current failure: the others' verdicts (or that they are hidden), the final."""
        if not failure_id:
            return []
        app, state = self.rvapp, self.reviewers
        me = app.reviewer
        labs = self.labels_of(failure_id)
        final = state.snapshot.finals.get(failure_id)
        if state.mode:
            lines = [Content.assemble(INDENT, *label_parts(lab, f"{lab.reviewer} (you)" if lab.reviewer == me
                                                           else lab.reviewer, verdict_symbols(self)))
                     for lab in labs]
            return lines + self.final_lines(final)
        shown = visible_others(labs, me, blind=app.settings.blind, revealed=failure_id in state.revealed)
        others = [lab for lab in labs if lab.reviewer != me]
        if shown is None:
            if not others and final is None:
                return []
            count = f"{len(others)} other verdict{'s' if len(others) != 1 else ''}" if others else "a final verdict"
            return [Content.styled(f"{INDENT}others: {count} hidden until you label this \u00b7 r shows",
                                   "$text-muted")]
        lines = []
        for n, lab in enumerate(shown):
            lines.append(Content.assemble(INDENT, ("others  " if n == 0 else "        ", "$text-muted"),
                                          *label_parts(lab, lab.reviewer, verdict_symbols(self))))
        return lines + self.final_lines(final)

    def final_lines(self, final: Label | None) -> list[Content]:
        """``final: ◆ specification (adjudicated by X: note)``."""
        if final is None:
            return []
        parts: list[StatusPart] = [INDENT, ("final: ", "bold"), verdict_badge(final.verdict.value, verdict_symbols(self))]
        if final.note:
            parts += [" (", one_line(final.note, 200), ")"]
        return [Content.assemble(*parts)]

    def reviewers_status_parts(self) -> list[StatusPart]:
        """``disagreements 2 of 5`` in the disagreements mode."""
        if not self.reviewers.mode:
            return []
        ids = self.disagreement_ids()
        fid = self.rvapp.selection.failure_id
        where = f"disagreements {ids.index(fid) + 1} of {len(ids)}" if fid in ids else f"{len(ids)} disagreements"
        settled = sum(1 for f in ids if f in self.reviewers.snapshot.finals)
        parts: list[StatusPart] = ["  \u00b7  ", (where, "bold $text-warning")]
        if settled:
            parts.append((f" ({settled} adjudicated)", "$text-muted"))
        return parts

    def repaint_reviewers(self) -> None:
        """Redraw the check list and the status line."""
        self.rvapp.detail = self.rvapp.detail
        self.rvapp.refresh_status()

    # ---- keys ----------------------------------------------------------------------------------

    def action_reveal_others(self) -> None:
        """``r``: show the other reviewers' verdicts on this failure although it is not labelled yet."""
        fid = self.rvapp.selection.failure_id
        if not fid:
            self.bell()
            return
        others = [lab for lab in self.labels_of(fid) if lab.reviewer != self.rvapp.reviewer]
        if not others and fid not in self.reviewers.snapshot.finals:
            self.notify("No other reviewer has labelled this failure.", markup=False)
            return
        self.reviewers.revealed.add(fid)
        self.repaint_reviewers()

    def action_disagreements(self) -> None:
        """``D``: step only through failures where reviewers disagree (or back to every failure)."""
        state = self.reviewers
        if state.mode:
            state.mode = False
            self.notify("Disagreements mode off: j/k step through every failure.", markup=False, timeout=3)
            self.repaint_reviewers()
            return
        state.want_mode = True
        self.load_reviewers()

    def enter_disagreements(self) -> None:
        """Switch the mode on at the first disagreement (or stay on the current one)."""
        ids = self.disagreement_ids()
        if not ids:
            self.notify("No disagreements: reviewers agree on every failure they both decided.", markup=False)
            self.repaint_reviewers()
            return
        self.reviewers.mode = True
        self.notify(f"{len(ids)} failure(s) where reviewers disagree: j/k step through them, A adjudicates, "
                    "D goes back.", title="Disagreements", markup=False)
        fid = self.rvapp.selection.failure_id
        if fid not in ids:
            self.go_to_failure(ids[0])
        self.repaint_reviewers()

    def go_to_failure(self, failure_id: str) -> None:
        """Select a failure by id."""
        self.rvapp.go_to(Target(failure_id.partition("#")[0], failure_id))

    def step_disagreements(self, step: int) -> None:
        """Go to the next (+1) or previous (-1) disagreement."""
        ids = self.disagreement_ids()
        fid = self.rvapp.selection.failure_id
        index = ids.index(fid) + step if fid in ids else (0 if step > 0 else len(ids) - 1)
        if not 0 <= index < len(ids):
            self.bell()
            self.notify("No more disagreements in this direction.", markup=False)
            return
        self.go_to_failure(ids[index])

    def step_failures(self, step: int) -> None:
        """``j``/``k``: the next or previous disagreement in the disagreements mode, else as usual."""
        if self.reviewers.mode:
            self.step_disagreements(step)
        else:
            super().step_failures(step)

    def advance(self) -> None:
        """After a label: the next disagreement in the disagreements mode, else as usual."""
        if self.reviewers.mode:
            self.step_disagreements(1)
        else:
            super().advance()

    def action_adjudicate(self) -> None:
        """``A``: record the final verdict of the current failure."""
        app = self.rvapp
        fid = app.selection.failure_id
        if not fid:
            self.bell()
            return
        if self.screen is not app.review_screen:
            return
        final = self.reviewers.snapshot.finals.get(fid)
        self.push_screen(AdjudicateScreen(fid, self.labels_of(fid), final, verdict_symbols(self)),
                         lambda choice: self.adjudicated(fid, choice))

    def adjudicated(self, failure_id: str, choice: Choice | None) -> None:
        """Save the dialog's choice (on the UI thread, like every label: one small atomic write)."""
        if choice is None:
            return
        verdict, note = choice
        app = self.rvapp
        session, run, check = split_failure_id(failure_id)
        root = Path(app.store.root)
        try:
            if verdict is None:
                clear_adjudication(root, session, run, check)
                label = None
            else:
                label = adjudicate(root, session, run, check, verdict, note, app.reviewer)
        except Exception as exc:  # LabelsUnsafe, OSError, ValueError: nothing was written
            self.notify(f"Not saved: {one_line(str(exc), 300)}", title="Adjudicate", severity="error",
                        timeout=15, markup=False)
            return
        finals = dict(self.reviewers.snapshot.finals)
        if label is None:
            finals.pop(failure_id, None)
        else:
            finals[failure_id] = label
        snap = self.reviewers.snapshot
        self.reviewers.snapshot = ReviewersSnapshot(snap.labels, finals, snap.disagreements, snap.errors)
        app.git_state.adjudicated.add(session)
        self.notify("Adjudication cleared." if label is None else f"Final verdict: {label.verdict.value}",
                    title="Adjudicate", markup=False)
        self.repaint_reviewers()
        self.load_reviewers()
        app.git_labels_changed()
