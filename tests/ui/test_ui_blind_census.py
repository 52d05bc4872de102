"""Blind means blind on the screens: with other reviewers' labels on disk and blind mode on, nothing
the app shows is derived from them (no name, note, verdict, count or share).

One app tours every screen, dialog and pane (the review screen with its panes, run list, check
list, status line, footer, search, find and tab mode; help, load errors, note, tags, clusters and
their confirmation, statistics, label history, the command palette, the name question) and
collects every composed cell and every notification. Two checks run on what it saw:

- traces: the other reviewers' names, their notes and their own tag are nowhere (the name
  question may name them: it asks who is labelling among the names already in the folder);
- a twin: the same tour of the same folder without the other reviewers' labels shows the same
  text, stop by stop, but for the line that says other verdicts are hidden. A count, share or
  verdict derived from them (a cluster's "4 cap", a statistics line) would differ.

With blind mode off the same census finds their names, notes and counts, so it can fail. Every
Screen subclass in ``reviewer.ui`` is visited here or listed as exempt with a reason: a new screen
fails the last test until it is added.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import pkgutil
import re
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from textual.screen import ModalScreen, Screen
from textual.widgets import Input
from textual.worker import WorkerState
from uihelp import make_app, refreshed, sync
from uikit import basic_folder

import reviewer.ui
from reviewer.model.check import split_failure_id
from reviewer.model.label import Verdict
from reviewer.model.prediction import Prediction
from reviewer.store.labels import Labeller, LabelStore
from reviewer.store.predictions import save_predictions
from reviewer.store.sessions.store import SessionStore
from reviewer.store.settings.config import Settings

F1 = "s1/roman-go--model-a#heldout:TestToRoman"
MINE = "s2/connected--model-c#oracle:connected"
"""The one failure alice has decided before the tour (the tour never opens it: once she has decided
a failure, the others' verdicts on it may show)."""
OTHERS = {
    "bobzilla": (Verdict.CAPABILITY, "bobzilla-secret-note", "bobzilla-only-tag"),
    "carolyne": (Verdict.SPECIFICATION, "carolyne-secret-note", ""),
}
JUDGE = ("judgebot", "judgebot-secret-rationale")
"""A judge (``reviewer judge``) with a prediction on every failure but the one alice decided, in both
folders: its name and its rationale show nowhere in blind mode (a judge's verdict on a failure stays
hidden until the reviewer decides it), and with blind mode off they show."""
TRACES = ("bobzilla", "carolyne", "secret-note", "only-tag", *JUDGE)
"""What the other reviewers left: their names, their notes, a tag only they used (no screen shows
another reviewer's tags even with blind mode off: that trace guards the tag picker and the rest);
and what the judge said."""
SHOWN_WHEN_NOT_BLIND = (*TRACES[:3], *JUDGE)
SIZE = (160, 48)

TOUR: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("name question", (), "NameDialog"),
    ("review", ("enter",), "ReviewScreen"),
    ("evidence", ("v",), "ReviewScreen"),
    ("next failure", ("j",), "ReviewScreen"),
    ("grader maximised", ("k", "3", "m"), "ReviewScreen"),
    ("transcript, no run list", ("m", "4", "ctrl+b"), "ReviewScreen"),
    ("search", ("ctrl+b", "slash", "r", "o", "m"), "ReviewScreen"),
    ("filter: unlabelled", ("escape", "F", "F"), "ReviewScreen"),
    ("find", ("F", "F", "ctrl+f", "I"), "ReviewScreen"),
    ("copied", ("escape", "escape", "y"), "ReviewScreen"),
    ("help", ("question_mark",), "HelpScreen"),
    ("load errors", ("escape", "E"), "ErrorsScreen"),
    ("note", ("escape", "n"), "NoteDialog"),
    ("tags", ("escape", "t"), "TagsDialog"),
    ("clusters", ("escape", "C"), "ClustersScreen"),
    ("cluster confirmation", ("s",), "ConfirmDialog"),
    ("statistics", ("n", "escape", "S"), "StatsScreen"),
    ("history", ("escape", "H"), "HistoryScreen"),
    ("palette", ("escape", "ctrl+p", "l", "a", "b"), "CommandPalette"),
    ("deferred", ("escape", "space"), "ReviewScreen"),
    ("committed", ("ctrl+g",), "ReviewScreen"),
    ("judges: doubts first", ("P",), "ReviewScreen"),
    ("judges: the next walk", ("P",), "ReviewScreen"),
    ("across models", ("a",), "AcrossScreen"),
    ("task matrix", ("escape", "M"), "MatrixScreen"),
    ("matrix: every task", ("t",), "MatrixScreen"),
    ("re-score", ("escape", "R"), "RescoreDialog"),
)
"""Stops of the tour: a name, the keys pressed to get there, the screen it must be on."""
EXEMPT = {
    "AdjudicateDialog": "for after: adjudication settles the reviewers' verdicts, so it shows them (like "
                        "`reviewer adjudicate`)",
    "GuidesScreen": "the package's own guides (reviewer/docs): no recorded text, label or verdict reaches it",
    "GuideScreen": "one of the package's own guides: no recorded text, label or verdict reaches it",
}
"""Screens of reviewer.ui the tour does not visit, and why. Keys left out for the same reason:
``r`` (the reviewer asks to see the others' verdicts), ``D`` (the disagreements walk shows every
verdict, like ``reviewer failures --disagreements``) and ``A``."""
ALLOWED = {"NameDialog": ("bobzilla", "carolyne")}
"""Traces a screen may show, and why: the name question names the reviewers already in the folder,
so that someone who labelled here before under another name can pick it."""
WAITS: dict[str, Any] = {
    "search": lambda app: app.session.folder.listing.search == "rom",  # the search box's debounce
    "deferred": lambda app: app.quiet_timer is None,  # the re-reading of labels after a change
}
"""Stops that wait for a timer to have fired, and how to tell it has."""
HIDDEN_LINE = "others:"
"""The start of the one line the twin tour lacks (the check list says other verdicts are hidden)."""
HIDDEN_TEXT = "others: their verdicts hidden until you label this \u00b7 r shows"
"""That line in full (a narrow pane wraps it: its pieces are left out of the comparison too)."""
JUDGES_HIDDEN_TEXT = "judges: their predictions hidden until you label this \u00b7 r shows"
"""The line saying the judges' predictions are hidden: both tours show it, but the line above it
(others hidden) can bring a scroll bar that wraps it elsewhere; its pieces are left out too."""


BOXES = re.compile("[\u2500-\u259f]+")
"""Box lines, block elements (scroll bars, the cursor)."""
HASH = re.compile(r"\b[0-9a-f]{7,40}\b")
DATE = re.compile(r"\b\d{4}-\d\d-\d\d( \d\d:\d\d)?\b")
ANSWERED = "Reviewer: Labelling as alice"
"""The notification after the name question (the twin, without others, is not asked)."""


def git(repo: Path, *args: str) -> None:
    """Plain git in ``repo``."""
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})


def census_folder(root: Path, others: bool) -> Path:
    """The basic folder in a git repository: alice has decided one failure; a judge has predicted every
    other one; with ``others``, two other reviewers have labelled every failure, with notes and a tag;
    everything committed."""
    repo = root / "repo"
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Test Person")
    git(repo, "config", "user.email", "test@example.invalid")
    folder = basic_folder(repo / "sessions")
    store = SessionStore(folder)
    store.scan()
    failures = [f.id for run in store.runs for f in store.failures(run)]
    Labeller(store, LabelStore(folder, "alice")).decide(MINE, Verdict.SPECIFICATION)
    judged = [Prediction(*split_failure_id(fid), JUDGE[0], verdict, 0.37, JUDGE[1], "2026-12-01T10:00:00Z")
              for n, fid in enumerate(f for f in failures if f != MINE)
              for verdict in [Verdict.SPECIFICATION if n % 2 else Verdict.CAPABILITY]]
    save_predictions(folder, JUDGE[0], judged)
    if others:
        for name, (verdict, note, tag) in OTHERS.items():
            labeller = Labeller(store, LabelStore(folder, name))
            for fid in failures if name == "bobzilla" else failures[::2]:
                labeller.decide(fid, verdict, note=note, tags=(tag,) if tag else ())
    git(repo, "add", "-A")
    git(repo, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--no-verify", "-m", "labels")
    return folder


@dataclass
class Seen:
    """What one tour showed: each stop's screen text, the screens it was on, every notification."""

    stops: dict[str, str] = field(default_factory=dict)
    screens: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def screen_text(app: Any) -> str:
    """Every composed cell of the current screen; of a modal screen, only its own boxes (the screen
    behind it was read at the stop before, and what shows of it around a box depends on the layout)."""
    screen = app.screen
    rows = ["".join(seg.text for seg in strip) for strip in screen._compositor.render_strips()]
    if not isinstance(screen, ModalScreen):
        return "\n".join(rows)
    boxes = [child.region for child in screen.children if child.display]
    return "\n".join(rows[y][box.x:box.right] for box in boxes for y in range(box.y, min(box.bottom, len(rows))))


async def press(app: Any, pilot: Any, key: str) -> None:
    """One key, as Pilot sends it, waiting until the screen has handled it (not for the process to
    go idle, as Pilot does: workers keep it busy, and a shared machine made that 0.4 s a key)."""
    import unicodedata

    from textual import events
    from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key

    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
    except KeyError:
        char = key if len(key) == 1 else None
    event = events.Key(key, char)
    event.set_sender(app)
    app._driver.send_message(event)
    for _ in range(2):
        await asyncio.sleep(0)
        await pilot._wait_for_screen()


async def quiet(app: Any, pilot: Any, rounds: int = 3) -> None:
    """Let workers finish and what they posted land (workers may start more), without waiting for
    the process to go idle (see :func:`press`)."""
    busy = (WorkerState.PENDING, WorkerState.RUNNING)
    for _ in range(rounds):
        await pilot._wait_for_screen()
        await refreshed(app)  # what a painted view starts (its evidence, staleness, read-ahead)
        await asyncio.sleep(0.01)
        deadline = time.monotonic() + 60
        while any(worker.state in busy for worker in app.workers):
            if time.monotonic() > deadline:
                raise TimeoutError(f"workers still busy: {list(app.workers)}")
            await asyncio.sleep(0.01)
    await pilot._wait_for_screen()
    await refreshed(app)  # once more: a view that landed in the last round starts its work after its frame
    await until_true(lambda: not any(worker.state in busy for worker in app.workers), "idle workers", 60)
    await pilot._wait_for_screen()
    app.screen._on_timer_update()


OPENS_INPUT = {"slash", "ctrl+f"}
"""Keys that open a text box (the run search, the find bar)."""


async def until_true(condition: Any, what: str, timeout: float = 30) -> None:
    """Until ``condition()`` holds (a ``TimeoutError`` naming ``what`` after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} did not come within {timeout} s")
        await asyncio.sleep(0.01)


async def tour(folder: Path, settings: Settings) -> Seen:
    """Run the tour on one folder; the name question is answered ("alice") when it comes."""
    seen = Seen()
    app = make_app(folder, settings=settings, start_failure=F1)
    async with app.run_test(size=SIZE, notifications=False) as pilot:  # toasts are read from the recorder
        await quiet(app, pilot, 4)
        for name, keys, _ in TOUR:
            asked = type(app.screen).__name__ == "NameDialog"
            if name == "name question" and not asked:
                continue  # nobody else has labelled: nothing to ask
            if name == "review" and asked:
                app.screen.query_one(Input).value = "alice"
            for key in keys if name != "review" or asked else ():
                await press(app, pilot, key)
                if key in OPENS_INPUT:  # its box is made on first use: type once it has the focus
                    await until_true(lambda: isinstance(app.focused, Input), f"a text box after {key!r}")
            await quiet(app, pilot)
            if name in WAITS:
                await until_true(partial(WAITS[name], app), f"the timer of the stop {name!r}")
                await quiet(app, pilot, 1)
            seen.stops[name] = screen_text(app)
            seen.screens[name] = type(app.screen).__name__
        seen.notes = [f"{n.title}: {n.message}" for n in app.notes]  # type: ignore[attr-defined]
    return seen


def leaks(seen: Seen) -> list[str]:
    """``stop: trace`` for every trace of another reviewer found where it may not be."""
    found = []
    for stop, text in [*seen.stops.items(), *(("notifications", n) for n in seen.notes)]:
        allowed = ALLOWED.get(seen.screens.get(stop, ""), ())
        found += [f"{stop}: {t}" for t in TRACES if t in text.lower() and t not in allowed]
    return found


def pieces(text: str) -> Counter[str]:
    """The text of a screen as pieces between box lines and scroll bars (so that a pane one row
    shorter or a list one row longer moves nothing else), commit hashes and dates blanked (the
    twin's repository has its own); the line saying other verdicts are hidden left out."""
    out: Counter[str] = Counter()
    for line in text.splitlines():
        for piece in BOXES.split(line):
            piece = DATE.sub("DATE", HASH.sub("HASH", piece.strip()))
            if piece and HIDDEN_LINE not in piece and piece not in HIDDEN_TEXT and piece not in JUDGES_HIDDEN_TEXT:
                out[piece] += 1
    return out


def differences(seen: Seen, twin: Seen) -> list[str]:
    """What a stop showed that the twin tour (no other reviewers) did not show at the same stop."""
    out = []
    for stop, text in seen.stops.items():
        if stop in twin.stops:
            out += [f"{stop}: {piece!r}" for piece in pieces(text) - pieces(twin.stops[stop])]
    notes = Counter(DATE.sub("DATE", HASH.sub("HASH", n)) for n in seen.notes if not n.startswith(ANSWERED))
    twins = Counter(DATE.sub("DATE", HASH.sub("HASH", n)) for n in twin.notes)
    out += [f"notification: {n!r}" for n in notes - twins]
    return out


@sync
async def test_blind_screens_show_nothing_of_other_reviewers_and_blind_off_does(tmp_path: Path) -> None:
    folder, twin_folder = census_folder(tmp_path / "with", True), census_folder(tmp_path / "twin", False)
    seen = await tour(folder, Settings(blind=True))
    twin = await tour(twin_folder, Settings(blind=True, reviewer="alice"))
    for name, _, screen in TOUR:
        assert seen.screens[name] == screen, f"the stop {name!r} is on {seen.screens[name]}, not {screen}"
    assert leaks(seen) == []
    assert differences(seen, twin) == []
    hidden = {p for text in seen.stops.values() for ln in text.splitlines() for p in BOXES.split(ln) if HIDDEN_LINE in p}
    assert hidden and not any(ch.isdigit() for p in hidden for ch in p), hidden  # said, and not counted
    assert "NameDialog" in ALLOWED and any(t in seen.stops["name question"].lower() for t in ALLOWED["NameDialog"])

    # With blind mode off, the same census finds the others: their names, notes and tag, and counts.
    shown = await tour(folder, Settings(blind=False))
    found = leaks(shown)
    for trace in SHOWN_WHEN_NOT_BLIND:
        assert any(f.endswith(trace) for f in found), (trace, found)
    diff = differences(shown, twin)
    for stop in ("review", "clusters", "statistics", "history"):
        assert any(d.startswith(f"{stop}:") for d in diff), (stop, diff)
    judge_seen = [f for f in found if f.endswith(JUDGE)]  # (the statistics' judges table is below the screen's fold)
    assert any(f.startswith("review:") for f in judge_seen) and any(f.startswith("judges: ") for f in judge_seen), found


def ui_screens() -> set[str]:
    """Every Screen subclass defined in reviewer.ui (every module imported first)."""
    for info in pkgutil.walk_packages(reviewer.ui.__path__, "reviewer.ui."):
        importlib.import_module(info.name)
    found: set[str] = set()
    todo = [Screen]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("reviewer.ui."):
                found.add(sub.__name__)
    return found


def test_every_screen_of_the_app_is_visited_or_exempt() -> None:
    visited = {screen for _, _, screen in TOUR}
    assert "ReviewScreen" in ui_screens() and "HelpScreen" in ui_screens()  # the enumeration works
    missing = ui_screens() - visited - set(EXEMPT)
    assert missing == set(), f"add these screens to the blind census (TOUR) or to EXEMPT with a reason: {sorted(missing)}"


def test_history_hides_the_others_until_decided_or_revealed(tmp_path: Path) -> None:
    from reviewer.review.analyses import Analyses

    folder = census_folder(tmp_path, True)
    store = SessionStore(folder)
    store.scan()
    revealed: set[str] = set()
    analyses = Analyses(store, Labeller(store, LabelStore(folder, "alice")), blind=True, revealed=revealed)
    assert analyses.history_blinded(F1) and analyses.history(F1) == []
    assert {"alice", "bobzilla"} <= {e.reviewer for e in analyses.history(MINE)}  # decided: everyone's
    revealed.add(F1)  # r
    assert {e.reviewer for e in analyses.history(F1)} == {"bobzilla", "carolyne"}
    seeing = Analyses(store, Labeller(store, LabelStore(folder, "alice")), blind=False)
    assert not seeing.history_blinded(F1) and len(seeing.history(F1)) == 2
