"""Helpers for the UI tests: build an app, let workers settle, press keys, run async tests."""

from __future__ import annotations

import asyncio
import functools
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable

from textual.pilot import Pilot
from textual.worker import WorkerState

from reviewer.store.sessions.store import SessionStore
from reviewer.ui.app import ReviewApp
from reviewer.ui.launch import build_app
from reviewer.ui.widgets.warning_bar import WarningBar


@dataclass(frozen=True)
class Note:
    """A notification the app showed."""

    message: str
    title: str = ""
    severity: str = "information"


def make_app(folder: Path, **kwargs: Any) -> ReviewApp:
    """An app on a folder, recording every notification it shows in ``app.notes``."""
    return recording(build_app(SessionStore(folder), **kwargs))


def recording(app: ReviewApp) -> ReviewApp:
    """Record the app's notifications in ``app.notes`` (a list of :class:`Note`)."""
    notes: list[Note] = []
    shown = app.notify

    def notify(message: str, *args: Any, **kwargs: Any) -> None:
        notes.append(Note(str(message), kwargs.get("title") or "", kwargs.get("severity") or "information"))
        shown(message, *args, **kwargs)

    app.notes = notes  # type: ignore[attr-defined]
    app.notify = notify  # type: ignore[method-assign]
    return app


def warning_bar(app: ReviewApp) -> WarningBar | None:
    """The warning bar while it shows."""
    bars = app.review_screen.query(WarningBar)
    return bars.first() if bars else None


async def refreshed(app: ReviewApp, timeout: float = 30) -> None:
    """Until every ``call_after_refresh`` asked before now has run (they run in order, after the
    next frame): the app starts a view's evidence, staleness and prefetch that way."""
    done = asyncio.Event()
    app.call_after_refresh(done.set)
    await asyncio.wait_for(done.wait(), timeout)


async def settle(app: ReviewApp, pilot: Pilot[Any], rounds: int = 6) -> None:
    """Let workers finish and their results land (workers may start more workers, some once a
    frame is painted).

    Waits on worker states rather than ``wait_for_complete``, which refuses a worker created
    but not started yet.
    """
    busy = (WorkerState.PENDING, WorkerState.RUNNING)
    for _ in range(rounds):
        await pilot.pause()
        await refreshed(app)
        deadline = time.monotonic() + 60
        while any(worker.state in busy for worker in app.workers):
            if time.monotonic() > deadline:
                raise TimeoutError(f"workers still busy: {list(app.workers)}")
            await asyncio.sleep(0.01)
    await pilot.pause()


async def until(app: ReviewApp, pilot: Pilot[Any], condition: Callable[[], object], timeout: float = 30,
                what: str = "the condition", settled: bool = True) -> float:
    """Let the app run until ``condition()`` holds, then settle (``settled=False``: without waiting
    for every worker, for a condition met while one still runs); the seconds it all took."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            raise TimeoutError(f"{what} did not hold within {timeout} s")
        await pilot.pause()
        await asyncio.sleep(0.01)
    if settled:
        await settle(app, pilot)
    return time.monotonic() - start


def palette_offers(app: ReviewApp, text: str) -> bool:
    """The command palette is open and its highlighted command's prompt contains ``text``."""
    from textual.command import CommandList, CommandPalette

    screen = app.screen
    if not isinstance(screen, CommandPalette):
        return False
    commands = screen.query_one(CommandList)
    if commands.highlighted is None:
        return False
    prompt = commands.get_option_at_index(commands.highlighted).prompt
    return text.lower() in getattr(prompt, "plain", str(prompt)).lower()


async def press(app: ReviewApp, pilot: Pilot[Any], *keys: str) -> None:
    """Press keys one by one, settling after each."""
    for key in keys:
        await pilot.press(key)
        await settle(app, pilot, 3)


def sync(test: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """Run an async Pilot test with asyncio (no async pytest plugin needed)."""

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return wrapper
