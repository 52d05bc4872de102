"""One repaint per new failure: the screen is held while the four panes load, then painted once.

Moving to another run changes almost every cell of the screen, and a full repaint at 200x50
costs tens of milliseconds. Without a hold the screen would be painted as soon as the first
pane had news (the others still saying "loading…"), and the panes that arrive during that
paint would wait for it: the failure is complete on screen later than it needed to be, after a
flicker. With the hold, painting waits until every pane shows the new selection (each pane
says so with ``Pane.settled``), but never longer than :data:`HOLD_SECONDS`: a slow file
shows "loading…" after that, and the screen is never frozen.

The first paint waits the same way for the first failure, at most :data:`START_HOLD_SECONDS`:
a small folder opens straight onto its first failure (no frames of empty panes drawn while the
folder is read, which would slow the reading down), a big one shows its progress after that.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, cast

from textual.app import App
from textual.timer import Timer

from reviewer.ui.widgets.pane import Pane

if TYPE_CHECKING:
    from reviewer.ui.app import ReviewApp

HOLD_SECONDS = 0.1
"""The longest the screen waits for the panes before it is painted anyway."""
START_HOLD_SECONDS = 0.5
"""At start: the longest the first paint waits for the first failure (then "scanning…" shows)."""
CHECK_SECONDS = 0.002
"""How often a held screen looks whether the panes are all there."""


class PaintHold(App[int]):
    """Hold painting while a new run's panes load (see the module)."""

    _hold: AbstractContextManager[None] | None = None
    _hold_timer: Timer | None = None
    _hold_until = 0.0

    def hold_paint(self, seconds: float = HOLD_SECONDS) -> None:
        """A new run is being put on screen: paint once all four panes have it."""
        if self._hold is not None:
            # a newer selection gets the full time (but the start's deadline is not pushed back)
            self._hold_until = max(self._hold_until, time.monotonic() + seconds)
            return
        if not self.is_running or self.screen is not cast("ReviewApp", self).review_screen:
            return
        self._hold = self.batch_update()
        self._hold.__enter__()
        self._hold_until = time.monotonic() + seconds
        self._hold_timer = self.set_interval(CHECK_SECONDS, self._check_hold, name="paint-hold")

    def _check_hold(self) -> None:
        if self.panes_settled():
            self.release_paint()
            cast("ReviewApp", self).prefetch_next()
        elif time.monotonic() >= self._hold_until:
            self.release_paint()

    def panes_settled(self) -> bool:
        """Every pane shows the current selection (False while the screen has no panes)."""
        app = cast("ReviewApp", self)
        selection = app.selection
        if not selection.run_key and not (app.scanned and not app.runs):
            return False  # the start: the first failure is not chosen yet
        panes = list(app.review_screen.query(Pane))
        return bool(panes) and all(pane.settled(selection) for pane in panes)

    def release_paint(self) -> None:
        """Paint now (and stop waiting)."""
        hold, self._hold = self._hold, None
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        if hold is not None:
            hold.__exit__(None, None, None)
            if not self._batch_count:
                # Ending a batch does not wake the screen: its update timer, paused by a tick
                # that found the batch, waits for the next message. Without this an idle app
                # kept showing the old failure after a key (seen in a real terminal).
                self.screen.check_idle()
