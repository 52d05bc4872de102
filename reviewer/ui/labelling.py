"""The labelling keys: every decision is saved before the screen moves on.

``s``/``c`` label the current failure, ``space`` defers it, ``x`` clears, ``u``/``ctrl+z``
undo, ``n`` edits the note and ``t`` the tags. The save itself is one small atomic write on
the UI thread (the evidence hash it needs is computed ahead in a worker when the failure is
shown), so what the reviewer sees next is always what is on disk. When a save fails, the
decision stays in memory, the status line says so and the app retries every few seconds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, cast

from textual import work
from textual.app import App
from textual.worker import get_current_worker

from reviewer.model.label import Verdict
from reviewer.store.labeller import SaveFailed, UnknownFailure
from reviewer.ui.render import one_line
from reviewer.ui.screens.annotate import NoteScreen, TagsScreen
from reviewer.ui.state import Selection, Target, Unknown, next_matching

if TYPE_CHECKING:
    from reviewer.ui.app import ReviewApp

RETRY_SECONDS = 5.0


class LabellingActions(App[int]):
    """The labelling keys' actions and the workers around them."""

    @property
    def me_(self) -> "ReviewApp":
        """This app, typed."""
        return cast("ReviewApp", self)

    # ---- saving ----------------------------------------------------------------------------

    def save(self, what: str, change: Callable[[], object]) -> bool:
        """Run one labelling change; report a failed save (the change is kept in memory)."""
        try:
            change()
        except UnknownFailure as exc:
            self.notify(one_line(str(exc), 300), title=what, severity="error", markup=False)
            return False
        except SaveFailed as exc:
            self.notify(
                f"Not saved yet: {one_line(str(exc), 300)}. The decision is kept and saved as soon as "
                "the file can be written.",
                title=f"{what}: not saved", severity="error", timeout=15, markup=False,
            )
            self.me_.labels_changed()
            self.ensure_retry()
            return True
        self.report_restored()
        self.me_.labels_changed()
        return True

    def report_restored(self) -> None:
        """Say so when a save wrote back decisions of this session that an outside change lost."""
        restored = self.me_.labeller.labels.take_restored()
        if restored:
            self.notify(
                f"{len(restored)} decision(s) made in this session had gone from the labels file (a git "
                f"checkout, stash or pull while the app was open?) and were written back: "
                f"{one_line(', '.join(restored), 300)}",
                title="Labels written back", severity="warning", timeout=20, markup=False,
            )

    def ensure_retry(self) -> None:
        """Retry unsaved decisions every few seconds until they are on disk."""
        if getattr(self, "_retry_timer", None) is None:
            self._retry_timer = self.set_interval(RETRY_SECONDS, self.retry_unsaved)

    def retry_unsaved(self) -> None:
        """Try again to write decisions a fault kept in memory."""
        labels = self.me_.labeller.labels
        if not labels.pending_count():
            return
        errors = labels.retry()
        if not errors:
            self.notify("Every decision kept in memory is now saved.", title="Saved", markup=False)
            self.report_restored()
            self.me_.labels_changed()

    def current_id(self) -> str:
        """The current failure id, or "" (with a bell) when there is none."""
        fid = self.me_.selection.failure_id
        if not fid:
            self.bell()
        return fid

    # ---- the keys --------------------------------------------------------------------------

    def decide(self, verdict: Verdict, what: str) -> None:
        """Label the current failure and move on to the next one this reviewer has not labelled."""
        fid = self.current_id()
        if fid and self.save(what, lambda: self.me_.labeller.decide(fid, verdict)):
            self.me_.labels.forget(fid)
            if self.me_.settings.auto_advance:
                self.advance()

    def action_label_specification(self) -> None:
        """``s``: the checker demanded something the brief never stated."""
        self.decide(Verdict.SPECIFICATION, "Specification")

    def action_label_capability(self) -> None:
        """``c``: the model really got it wrong."""
        self.decide(Verdict.CAPABILITY, "Capability")

    def action_defer(self) -> None:
        """``space``: unsure; skip it for now (it shows as deferred and counts as unlabelled)."""
        self.decide(Verdict.DEFERRED, "Defer")

    def action_clear_label(self) -> None:
        """``x``: remove the current failure's label."""
        fid = self.current_id()
        if fid:
            self.save("Clear label", lambda: self.me_.labeller.clear(fid))
            self.me_.labels.forget(fid)

    def action_undo(self) -> None:
        """``u`` / ``ctrl+z``: undo the last labelling change, and show the failure it touched."""
        labeller = self.me_.labeller
        if not labeller.undo_stack:
            self.notify("Nothing to undo.", markup=False)
            return
        touched = labeller.undo_stack[-1]
        if self.save("Undo", labeller.undo):
            for session, run, check, _ in touched:
                self.me_.labels.forget(f"{session}/{run}#{check}")
            session, run, check, _ = touched[0]
            self.me_.go_to(Target(f"{session}/{run}", f"{session}/{run}#{check}"))
            if len(touched) > 1:
                self.notify(f"Restored {len(touched)} labels.", markup=False)

    def action_note(self) -> None:
        """``n``: edit the note saved with the label."""
        fid = self.current_id()
        if not fid:
            return
        old = self.me_.labels.label(fid)

        def done(note: str | None) -> None:
            if note is not None and note != (old.note if old else ""):
                self.save("Note", lambda: self.me_.labeller.annotate(fid, note=note))
                self.me_.labels.forget(fid)

        self.push_screen(NoteScreen(fid, old.note if old else ""), done)

    def action_tags(self) -> None:
        """``t``: tag the failure with defect classes from the folder's vocabulary."""
        fid = self.current_id()
        if not fid:
            return
        old = self.me_.labels.label(fid)

        def done(tags: tuple[str, ...] | None) -> None:
            if tags is not None and tags != (old.tags if old else ()):
                self.save("Tags", lambda: self.me_.labeller.annotate(fid, tags=tags))
                self.me_.labels.forget(fid)

        self.push_screen(TagsScreen(fid, self.me_.vocabulary, old.tags if old else ()), done)

    # ---- moving on -------------------------------------------------------------------------

    def unlabelled(self, failure_id: str) -> bool:
        """Not labelled by this reviewer (deferred counts as labelled here: it was looked at)."""
        return self.me_.labels.label(failure_id) is None or self.me_.labels.is_stale(failure_id)

    def advance(self) -> None:
        """Go to the next failure this reviewer has not labelled, across runs."""
        app = self.me_
        result = next_matching(app.navigator.order, app.failure_ids.get, app.selection, self.unlabelled)
        if isinstance(result, Target):
            app.go_to(result)
        elif isinstance(result, Unknown):
            self.seek_unlabelled(app.selection, list(app.navigator.order))
        else:
            self.notify("Every failure in this list is labelled.", title="Done", markup=False)

    @work(thread=True, exclusive=True, group="seek", description="seek an unlabelled failure")
    def seek_unlabelled(self, current: Selection, order: list[str]) -> None:
        """Find the next unlabelled failure, counting runs on the way (worker thread)."""
        app = self.me_
        found: dict[str, tuple[str, ...]] = {}

        def lookup(key: str) -> tuple[str, ...]:
            ids = app.failure_ids.get(key)
            if ids is None:
                ids = found.get(key)
            if ids is None:
                run = app.runs_by_key.get(key)
                ids = found[key] = app.failures_of(run) if run is not None else ()
            return ids

        result = next_matching(order, lookup, current, self.unlabelled)
        if get_current_worker().is_cancelled:
            return
        if result is None and not current.run_key:
            self.call_from_thread(self.notify, "Every failure is labelled; opening at the first one.", markup=False)
            self.call_from_thread(app.counts_arrived, found, False)
            self.call_from_thread(app.seek, current, 1, order)
            return
        self.call_from_thread(app.seek_done, current, result, found)

    @work(thread=True, exclusive=True, group="evidence")
    def prefetch_evidence(self, run_key: str, failure_id: str) -> None:
        """Hash the evidence of the shown failure ahead of a label, and check its label (worker)."""
        app = self.me_
        try:
            run, failure = app.labeller.find(failure_id)
        except UnknownFailure:
            return
        was = app.labels.is_stale(failure_id)
        state = app.labels.check(run, failure)
        if state.stale != was and not get_current_worker().is_cancelled:
            self.call_from_thread(app.labels_changed)

    @work(thread=True, exclusive=True, group="labels")
    def check_labels(self) -> None:
        """Check every label of this reviewer for staleness (worker thread)."""
        if self.me_.labels.warm():
            self.call_from_thread(self.me_.labels_changed)

    def labels_loaded(self, problems: list[str], redirected: str) -> None:
        """Say which labels files are read only, and where labels go when the folder is not writable."""
        for p in problems:
            self.notify(one_line(p, 400), title="Labels file not writable", severity="error", timeout=20, markup=False)
        if redirected:
            self.notify(f"This folder is not writable; your labels are saved in {one_line(redirected, 300)}",
                        title="Labels", severity="warning", timeout=15, markup=False)
        self.me_.labels_changed()
        if getattr(self, "_watch_timer", None) is None:
            self._watch_timer = self.set_interval(RETRY_SECONDS, self.watch_labels)

    def watch_labels(self) -> None:
        """Take in outside changes to this reviewer's labels files (git pull or checkout, another
        instance); decisions of this session that such a change lost are written back."""
        changed, errors = self.me_.labeller.labels.resync()
        for error in errors:
            self.notify(one_line(error, 400), title="Labels file changed outside the app", severity="error",
                        timeout=20, markup=False)
        if changed:
            self.report_restored()
            self.me_.labels_changed()
            self.check_labels()
