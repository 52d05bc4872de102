"""The dialogs the review screen opens: who is labelling, note, tags, adjudication, history, errors,
help, clusters, stats, across models, the task matrix.

Each takes what it needs from the session, pushes its screen, and hands what the reviewer chose
back to the session; the outcome is posted through the review screen like any key's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

from textual.screen import Screen

from reviewer.model.label import Verdict
from reviewer.model.sanitize import clean, one_line
from reviewer.review.outcome import Outcome, saying
from reviewer.review.session import ReviewSession
from reviewer.ui.screens.review.rescore import RescoreFlow

if TYPE_CHECKING:
    from reviewer.review.naming import NamePrompt

STAYED = saying("", bell=True)


class ReviewDialogs:
    """Opens the review screen's dialogs and does its clipboard copy (the screen owns one; its actions
    call these). ``act`` hands an outcome to the app; ``symbols`` gives the theme's verdict symbols."""

    def __init__(self, screen: Screen[Any], session: ReviewSession, act: Callable[[Outcome], None],
                 rescores: RescoreFlow, symbols: Callable[[], Mapping[str, str]]) -> None:
        self.screen = screen
        self.session = session
        self.act = act
        self.rescores = rescores
        self.symbols = symbols

    def push(self, dialog: Screen[Any], done: Callable[[Any], None] | None = None) -> None:
        """Open a dialog over the review screen; ``done`` gets what it was dismissed with."""
        self.screen.app.push_screen(dialog, done)

    def ask_name(self, ask: NamePrompt) -> None:
        """Who is labelling, asked over the review screen once it is drawn (the first paint may be now)."""
        from reviewer.ui.dialogs.name import NameDialog

        self.screen.app.call_after_refresh(
            self.push, NameDialog(ask.prompt, ask.suggestion, ask.required, ask.problem),
            lambda name: self.act(self.session.choose_name(name, ask.remember)) if name else None)

    def note(self) -> None:
        """``n``: write the note kept with this failure."""
        from reviewer.ui.dialogs.annotate import NoteDialog

        fid = self.session.selection.failure_id
        if not fid:
            self.act(STAYED)
            return
        self.push(NoteDialog(fid, self.rescores.note(fid, self.session.labeller.annotation(fid)[0])),
                  lambda note: None if note is None else self.act(self.session.note(fid, note)))

    def tags(self) -> None:
        """``t``: tag the failure with defect classes from the folder's vocabulary."""
        from reviewer.ui.dialogs.annotate import TagsDialog

        fid = self.session.selection.failure_id
        if not fid:
            self.act(STAYED)
            return
        from reviewer.review.vocabulary import add_to_vocabulary

        self.push(TagsDialog(fid, self.session.vocabulary, self.session.labeller.annotation(fid)[1],
                             lambda tag: add_to_vocabulary(self.session, tag)),
                  lambda tags: None if tags is None else self.act(self.session.set_tags(fid, tags)))

    def adjudicate(self) -> None:
        """``A``: record the final verdict of the current failure."""
        from reviewer.ui.dialogs.adjudicate import AdjudicateDialog
        from reviewer.ui.dialogs.confirm import ConfirmDialog

        fid = self.session.selection.failure_id
        if not fid:
            self.act(STAYED)
            return
        reviewers = self.session.reviewers
        labs = reviewers.labels_of(fid, self.session.decisions.label(fid))

        def done(choice: tuple[Verdict | None, str] | None) -> None:
            if choice is None:
                return
            agreed = self.session.team.unanimous(fid) if choice[0] is not None else ""
            if not agreed:
                self.act(self.session.team.adjudicate(fid, choice[0], choice[1]))
                return
            self.push(ConfirmDialog("Override a unanimous decision?", f"{agreed}; override with a final verdict?"),
                      lambda yes: self.act(self.session.team.adjudicate(fid, choice[0], choice[1], override=True))
                      if yes else None)
        self.push(AdjudicateDialog(fid, labs, reviewers.snapshot.finals.get(fid), self.symbols()), done)

    def show_errors(self) -> None:
        """``E``: list what did not load."""
        from reviewer.ui.screens.errors import ErrorsScreen

        self.push(ErrorsScreen(self.session.folder.load_errors))

    def help(self) -> None:
        """``?``."""
        from reviewer.ui.screens.help import HelpScreen

        self.push(HelpScreen())

    def clusters(self) -> None:
        """``C``: the clusters screen."""
        from reviewer.ui.screens.clusters import ClustersScreen

        self.push(ClustersScreen(self.session))

    def stats(self) -> None:
        """``S``: the statistics screen."""
        from reviewer.ui.screens.stats import StatsScreen

        self.push(StatsScreen(self.session.analyses.stats))

    def across_models(self) -> None:
        """``a``: the current check across models."""
        from reviewer.ui.screens.across import AcrossScreen

        fid = self.session.selection.failure_id
        if not fid:
            self.act(saying("Across models compares a failing check: select one first (j / k).", bell=True))
            return
        self.push(AcrossScreen(self.session, fid, self.symbols()))

    def task_matrix(self) -> None:
        """``M``: the task x model matrix, on the checks of the current task."""
        from reviewer.ui.screens.matrix import MatrixScreen

        run = self.session.current_run()
        self.push(MatrixScreen(self.session, run.task if run is not None else "", self.symbols()))

    def label_history(self) -> None:
        """``H``: the current failure's label history from git."""
        from reviewer.ui.screens.history import HistoryScreen

        fid = self.session.selection.failure_id
        refusal = self.session.git.unavailable("History") if fid else STAYED
        if refusal is not None:
            self.act(refusal)
        else:
            analyses = self.session.analyses
            self.push(HistoryScreen(fid, analyses.history, self.symbols(), analyses.history_blinded(fid)))

    def copy_failure(self) -> None:
        """The current failure's id and message, to the clipboard."""
        failure = self.session.current_failure()
        if failure is None:
            self.act(saying("No failure selected."))
            return
        self.screen.app.copy_to_clipboard(f"{failure.id}\n{clean(failure.check.message).text}")
        self.act(saying(f"Copied {one_line(failure.id, 160)}"))
