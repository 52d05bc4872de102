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
