"""An app that has ended leaves nothing running and nothing held (the benchmark and the tests
open many apps in one process; a kept worker thread kept its whole app)."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
import weakref
from pathlib import Path

from uihelp import make_app, settle

from reviewer.ui.app import ReviewApp
from reviewer.ui.widgets.chrome import NavigatorPanel


def test_an_ended_app_is_freed_and_its_worker_threads_end(basic: Path) -> None:
    before = {t.ident for t in threading.enumerate()}

    def pool_threads() -> int:
        return sum(1 for t in threading.enumerate() if t.ident not in before and t.name.startswith("reviewer-worker-"))

    async def review() -> weakref.ref[ReviewApp]:
        app = make_app(basic)
        async with app.run_test(size=(160, 45)) as pilot:
            await settle(app, pilot)
            await pilot.press("j", "j", "J")
            await settle(app, pilot)
            assert pool_threads(), "the app runs its workers in its own threads"
        return weakref.ref(app)

    # Checked once its event loop has ended, as a second open in one process meets it: while the
    # loop runs, its pending callbacks still hold contexts that name the app.
    ended = asyncio.run(review())
    deadline = time.monotonic() + 10
    while pool_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pool_threads() == 0
    gc.collect()
    assert ended() is None


def test_counts_and_rows_that_arrive_as_the_app_closes_draw_nothing(basic: Path) -> None:
    # a count or a rebuilt list posted by a worker can be handled after the screen's widgets
    # are gone (seen in the benchmark's warm open: NoMatches for the run list's panel)
    async def review() -> ReviewApp:
        app = make_app(basic)
        async with app.run_test(size=(160, 45)) as pilot:
            await settle(app, pilot)
            assert app.review_screen.query(NavigatorPanel)
        return app

    app = asyncio.run(review())
    screen = app.review_screen
    assert not screen.query(NavigatorPanel)  # the widgets are gone
    screen.counts_changed()
    screen.list_rebuilt()


def test_panes_and_the_evidence_strip_draw_before_they_are_mounted_and_after_they_are_gone(basic: Path) -> None:
    # a view or evidence handled before the panes were composed, or as the app closed, looked its
    # text view up and found none: NoMatches for 'TextView' on EvidencePanel, '.pane-header' on BriefPane
    from textual.content import Content

    from reviewer.ui.widgets.brief import BriefPane
    from reviewer.ui.widgets.code import CodePane
    from reviewer.ui.widgets.evidence import EvidencePanel
    from reviewer.ui.widgets.grader import GraderPane
    from reviewer.ui.widgets.transcript import TranscriptPane

    def draw(panes: list) -> None:  # type: ignore[type-arg]
        evidence, *others = panes
        evidence.waiting("s1/r#g:TestA")
        evidence.show("s1/r#g:TestA", None, "no brief")
        for pane in others:
            pane.set_header(Content("header"))
            pane.set_banner(["a warning"])
            pane.focus_target()
        assert evidence.view.plain_lines() == ["the evidence could not be computed: no brief"]

    async def review() -> None:
        app = make_app(basic)
        async with app.run_test(size=(160, 45)) as pilot:
            await settle(app, pilot)
            unmounted = [EvidencePanel(), BriefPane(), CodePane(), GraderPane(), TranscriptPane()]
            draw(unmounted)  # made, never mounted
            workspace = app.review_screen.workspace
            mounted = [workspace.evidence, workspace.brief, workspace.code, workspace.grader, workspace.transcript]
            await workspace.remove()
            draw(mounted)  # mounted, then removed: a late result as the app closes

    asyncio.run(review())
