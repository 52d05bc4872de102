"""The first screen is one paint: when the run list is drawn for the first time, the panes
already hold the first failure (the launcher's scan, the seek and the view are taken before the
screen paints, not each after a worker's message, when a half-done screen would be painted)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from sessionkit import example_corpus, example_corpus_built
from textual import events
from textual.widgets import Static
from uihelp import recording, settle, sync, until
from uikit import Spec, write_session

import reviewer.ui.startup.early_scan as early_scan
import reviewer.ui.startup.first_screen as first_screen
from reviewer.store.sessions.store import SessionStore
from reviewer.ui.launch import app_for, build_session
from reviewer.ui.startup.early_scan import EarlyScan
from reviewer.ui.widgets.chrome import Legend


def watch_rows(app, seen=None) -> list:  # type: ignore[no-untyped-def]
    """What ``seen()`` gave (default: the failure in the panes) each time the run list drew a row."""
    session, runs, drawn = app.session, app.review_screen.run_list, []
    draw = runs.render_line
    what = seen or (lambda: session.shown.selection.failure_id if session.shown else "")

    def watched(y: int):  # type: ignore[no-untyped-def]
        drawn.append(what())
        return draw(y)

    runs.render_line = watched
    return drawn


def opened(folder: Path) -> tuple:  # type: ignore[type-arg]
    """An app as the launcher opens it (the scan begun and done first), and what the panes held at
    each row the run list drew."""
    session, _ = build_session(SessionStore(folder))
    early = EarlyScan(session)
    early.future.result(30)
    app = recording(app_for(session, None, None, [], early=early))
    return app, session, watch_rows(app)


@sync
async def test_the_run_list_is_first_drawn_with_the_first_failure_in_the_panes(basic: Path) -> None:
    app, session, drawn = opened(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await until(app, pilot, lambda: drawn and session.shown is not None, what="the first failure drawn")
        first = session.shown.selection.failure_id if session.shown else ""
        assert first
        assert drawn[0] == first, drawn[:5]  # the first row drawn already had the failure beside it
        await settle(app, pilot)
        assert not app.notes, app.notes


@sync
async def test_a_long_first_seek_is_left_to_a_worker(basic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(first_screen, "SEEK_SECONDS", -1.0)  # the opening move is over its time at once
    app, session, drawn = opened(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await until(app, pilot, lambda: session.shown is not None, what="the first failure, from the worker")
        assert drawn[0] == ""  # the screen was drawn while the worker looked
        await settle(app, pilot)
        assert session.shown is not None and session.shown.selection.failure_id
        assert not app.notes, app.notes


@sync
async def test_the_first_screen_keeps_the_list_at_its_top_when_the_cursor_fits(tmp_path: Path) -> None:
    # the example corpus's first failure's run is below two group headers and a passing run
    if not example_corpus_built():
        pytest.skip("the example corpus is not built")
    app, session, drawn = opened(example_corpus(tmp_path / "sessions"))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(app, pilot, lambda: drawn and session.shown is not None, what="the first failure drawn")
        runs = app.review_screen.run_list
        assert 0 < runs.cursor < runs.scrollable_content_region.height  # below the top, on the first screen
        assert runs.scroll_offset.y == 0  # so the rows above it are not scrolled away (drawn before any layout)


def test_a_folder_with_an_index_cache_is_read_before_the_ui_starts(basic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a warm scan is mostly lstat calls, each letting go of the interpreter: beside the UI's
    # import and start each one waited for the busy thread (10,000 runs: 0.9 s instead of 0.3 s),
    # so it is read at once; a folder without the cache is read in a thread (or by the child)
    import threading

    from reviewer.store.fs import keys as fs_keys

    monkeypatch.setattr(fs_keys, "RACY_NS", 0)  # the folder was written just now

    def scanned_in(session) -> tuple[bool, str, list[str]]:  # type: ignore[no-untyped-def]
        where: list[str] = []
        read = session.folder.read_scan

        def recorded(*args):  # type: ignore[no-untyped-def]
            where.append(threading.current_thread().name)
            return read(*args)

        session.folder.read_scan = recorded
        early = EarlyScan(session)
        done = early.future.done()
        return done, where[0] if where else "", [r.key for r in early.future.result(30).runs]

    cold, _ = build_session(SessionStore(basic))
    done, thread, keys = scanned_in(cold)
    assert thread == "early-scan" and keys
    assert cold.store.save_index()
    warm, _ = build_session(SessionStore(basic))
    done, thread, again = scanned_in(warm)
    assert done and thread == threading.current_thread().name and again == keys
    monkeypatch.setattr(early_scan, "READ_AT_ONCE", 100)  # a cache too big to read before the screen shows:
    big, _ = build_session(SessionStore(basic))  # the first screen reads the first runs, then a thread the rest
    early = EarlyScan(big)
    early.begin()  # as the launcher does once the UI is imported
    assert early.pending() and not early.future.done()
    early.after_head()
    assert [r.key for r in early.future.result(30).runs] == keys and not early.pending()


FIRST_DRAW_PROBE = """
import asyncio, sys
from pathlib import Path
from reviewer.store.sessions.store import SessionStore
from reviewer.ui.launch import app_for, build_session
from reviewer.ui.startup.early_scan import EarlyScan

session, _ = build_session(SessionStore(Path(sys.argv[1])))
early = EarlyScan(session)
early.future.result(30)
app = app_for(session, None, None, [], early=early)
runs, seen = app.review_screen.run_list, []
draw = runs.render_line

def watched(y):
    if not seen:
        seen.append(sorted({m for m in sys.modules if m.startswith(("markdown_it", "pygments.lex"))}))
    return draw(y)

runs.render_line = watched

async def main():
    async with app.run_test(size=(200, 50)) as pilot:
        while not seen or session.shown is None:
            await pilot.pause()

asyncio.run(main())
print(seen[0], session.shown.selection.failure_id)
"""


def test_the_first_screen_is_drawn_before_the_markdown_parser_and_pygments_lexers_load(basic: Path) -> None:
    # together about a twentieth of the open (and the theme's highlight colours, which import the
    # lexers): the first screen is drawn plain without them
    out = subprocess.run([sys.executable, "-c", FIRST_DRAW_PROBE, str(basic)], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert out.returncode == 0, out.stderr[-2000:]
    loaded, failure = out.stdout.split(" ", 1)
    assert loaded == "[]" and failure.strip(), out.stdout


@sync
async def test_the_first_screen_is_plain_and_its_markdown_and_colours_follow_its_paint(basic: Path) -> None:
    app, session, drawn = opened(basic)
    workspace, runs = app.review_screen.workspace, app.review_screen.run_list
    first: list[tuple[object, ...]] = []
    draw = runs.render_line

    def watched(y: int):  # type: ignore[no-untyped-def]
        if not first:  # what the panes held when the first frame was drawn
            brief = workspace.brief
            first.append((brief.drawn and brief.drawn.theme, brief.view.plain_lines()[:1], workspace.code.shown_coloured))
        return draw(y)

    runs.render_line = watched  # type: ignore[method-assign]
    async with app.run_test(size=(200, 50)) as pilot:
        await until(app, pilot, lambda: drawn and session.shown is not None, what="the first failure drawn")
        assert first[0] == (None, ["# Roman numerals"], False)  # the brief's source as it is, the code plain
        assert workspace.brief.drawn is not None and workspace.brief.drawn.theme is not None
        assert workspace.brief.view.plain_lines()[0] == "Roman numerals"  # a heading now
        assert workspace.code.shown_coloured
        assert any(line.spans for line in workspace.code.view.lines)  # Go, in colour
        assert not app.notes, app.notes


class ReadingChild:
    """Stands for the child reading a folder without an index cache (a test worker has threads, so
    no child is forked here). It is done when the test says so (:meth:`finish`), never by the
    clock; ``done_when_waited_for``: as soon as the screen waits for it (a child that finishes
    within the screen's wait)."""

    def __init__(self, done_when_waited_for: bool = False) -> None:
        self.done = threading.Event()
        self.done_when_waited_for = done_when_waited_for
        self.waited_for: list[float] = []

    def finish(self) -> None:
        self.done.set()

    def finished(self, within: float = 0.0) -> bool:
        self.waited_for.append(within)
        if within > 0 and self.done_when_waited_for:
            self.done.set()
        return self.done.is_set()

    def wait(self) -> bool:
        return self.done.wait(60)


@sync
async def test_the_screen_waits_a_little_for_the_launchers_scan_rather_than_paint_without_it(basic: Path) -> None:
    # a folder without an index cache is read by a child on the other core, mostly done as the
    # screen is ready: painting without it cost an empty frame, a worker's hop, then the failure's
    # (a failure asked for may be anywhere: the screen does not open among the first runs)
    session, _ = build_session(SessionStore(basic), start_failure="s2/connected--model-c#oracle:edges")
    child = ReadingChild(done_when_waited_for=True)
    early = EarlyScan(session, child)  # type: ignore[arg-type]
    early.begin()  # as the launcher does once the UI is imported: the child is not done
    assert not early.future.done()
    app, drawn = recording(app_for(session, None, None, [], early=early)), []
    draw = app.review_screen.run_list.render_line

    def watched(y: int):  # type: ignore[no-untyped-def]
        drawn.append(session.shown.selection.failure_id if session.shown else "")
        return draw(y)

    app.review_screen.run_list.render_line = watched  # type: ignore[method-assign]
    async with app.run_test(size=(200, 50)) as pilot:
        await until(app, pilot, lambda: drawn and session.shown is not None, what="the first failure drawn")
        assert drawn[0] == "s2/connected--model-c#oracle:edges", drawn[:5]  # with the failure beside it
        assert first_screen.SCAN_WAIT_SECONDS in child.waited_for  # the screen waited for the child
        assert not [t for t in threading.enumerate() if t.name == "early-scan"]  # read in the app's thread


def headed(folder: Path) -> tuple:  # type: ignore[type-arg]
    """An app whose launcher's child is still reading the folder when the screen is ready (until
    the test calls its ``finish``), the ids beside each row the run list drew, and the child."""
    session, _ = build_session(SessionStore(folder), "alice")
    child = ReadingChild()
    early = EarlyScan(session, child)  # type: ignore[arg-type]
    app = recording(app_for(session, None, None, [], early=early))
    return app, session, watch_rows(app), child


@sync
async def test_a_child_still_reading_leaves_the_first_screen_to_the_folders_first_runs(
        basic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 10,000 runs without an index cache: the child read them for 1.1 s while the screen waited;
    # the first screen now opens among the first runs by name, and the whole list follows
    monkeypatch.setattr(first_screen, "HEAD_RUNS", 1)
    app, session, drawn, child = headed(basic)
    loads = []
    load = session.labeller.labels.load

    def counted(sessions):  # type: ignore[no-untyped-def]
        loads.append(threading.current_thread().name)
        return load(sessions)

    session.labeller.labels.load = counted  # type: ignore[method-assign]
    async with app.run_test(size=(200, 50)) as pilot:
        await until(app, pilot, lambda: drawn and session.shown is not None, what="the first failure drawn",
                    settled=False)  # the scan worker waits for the child
        first = "s1/roman-go--model-a#heldout:TestToRoman"
        assert drawn[0] == first  # the first row drawn had the failure beside it, the child still reading
        assert session.folder.partial and not session.folder.scanned
        assert list(session.folder.runs_by_key) == ["s1/roman-go--model-a"]
        assert "scanning the folder\u2026" in [text for text, _ in session.status()[0]]
        header = app.review_screen.nav_panel.query_one("#nav-header", Static)
        assert "1+ runs" in str(header.content)  # the first runs only, more to come
        await pilot.press("s")  # labelled before the whole list is read: kept, not loaded over
        await until(app, pilot, lambda: session.decisions.verdict(first), what="the label", settled=False)
        assert not session.folder.scanned
        child.finish()
        await until(app, pilot, lambda: session.folder.scanned, what="the whole list")
        await settle(app, pilot)
        assert len(session.folder.runs) == 5 and not session.folder.partial
        assert "5 runs" in str(header.content) and "+" not in str(header.content)
        assert session.decisions.verdict(first) == "specification"
        assert session.shown is not None and session.shown.selection.failure_id != first  # moved on by s, not reopened
        assert loads == [threading.current_thread().name]  # once, with the head, in the app's thread
        assert not app.notes, app.notes


@sync
async def test_a_head_without_a_failure_shows_its_first_run_until_the_whole_list_opens(
        basic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_session(basic, "a0", [Spec("passing", outcome="pass", checks=[{"key": "TestToRoman", "status": "pass"}],
                                     output="ok\n")])
    monkeypatch.setattr(first_screen, "HEAD_RUNS", 1)
    app, session, drawn, child = headed(basic)
    async with app.run_test(size=(200, 50)) as pilot:
        await until(app, pilot, lambda: session.shown is not None, what="the first run drawn", settled=False)
        assert session.shown is not None and session.shown.selection.run_key == "a0/passing"
        assert not session.folder.scanned
        child.finish()
        await until(app, pilot, lambda: session.shown is not None and session.shown.selection.failure_id,
                    what="the first failure, once the whole list is read")
        assert session.shown is not None
        assert session.shown.selection.failure_id == "s1/roman-go--model-a#heldout:TestToRoman"
        await settle(app, pilot)
        assert not [n for n in app.notes if "No failing checks" in str(n)], app.notes


@sync
async def test_the_screen_is_styled_once_before_its_first_frame_and_again_when_asked_later(basic: Path) -> None:
    # Textual styles a screen's widgets as they are mounted, then all of them again as the screen
    # first comes on top: a fifth of the first frame's styling, for the same styles
    app, session, drawn = opened(basic)
    restyled: list[int] = []
    update = app.stylesheet.update_nodes

    def counted(nodes, animate=False):  # type: ignore[no-untyped-def]
        nodes = list(nodes)
        restyled.append(len(nodes))
        return update(nodes, animate)

    app.stylesheet.update_nodes = counted  # type: ignore[method-assign]
    async with app.run_test(size=(200, 50)) as pilot:
        await until(app, pilot, lambda: drawn and session.shown is not None, what="the first failure drawn")
        everything = len(list(app.review_screen.walk_children(with_self=True)))
        # one whole restyle at most: the test driver resizes the mounted screen, which adds its
        # breakpoint class (a terminal's size is known before); the focus restyles a few widgets
        assert sum(count >= everything for count in restyled) <= 1, (restyled, everything)
        restyled.clear()
        app.review_screen.post_message(events.ScreenResume())  # as Textual sends when it must restyle
        await until(app, pilot, lambda: restyled, what="a restyle")
        assert max(restyled) >= everything, (restyled, everything)


@pytest.mark.parametrize(("size", "wide"), [((200, 50), True), ((120, 40), False)])
@sync
async def test_the_first_frame_is_laid_out_for_the_terminals_width(basic: Path, size: tuple[int, int], wide: bool) -> None:
    # Textual sets a screen's breakpoint classes at its first resize, after its first frame: a
    # screen 200 wide was drawn with its four panes in one column, then as the grid
    app, session, _ = opened(basic)
    screen, seen = app.review_screen, []
    draw = screen.run_list.render_line

    def watched(y: int):  # type: ignore[no-untyped-def]
        if not seen:
            tabs = screen.workspace.tabs
            seen.append((screen.has_class("-wide"), screen.has_class("-narrow"), tabs is not None and tabs.is_mounted))
        return draw(y)

    screen.run_list.render_line = watched  # type: ignore[method-assign]
    legends: list[str] = []
    render = Legend.render

    def drawn(self: Legend):  # type: ignore[no-untyped-def]
        legends.append(render(self).plain)
        return legends[-1]

    Legend.render = drawn  # type: ignore[method-assign, assignment]
    try:
        async with app.run_test(size=size) as pilot:
            await until(app, pilot, lambda: seen and session.shown is not None, what="the first frame")
            assert seen[0] == (wide, not wide, not wide)
            width = screen.nav_panel.query_one("#nav-legend", Legend).content_size.width
    finally:
        Legend.render = render  # type: ignore[method-assign]
    # the column legend was drawn at its laid-out width the first time (not made for the panel's
    # width before its layout and drawn again after it)
    assert legends and {len(x) for x in legends} == {width} and legends[0].endswith("done/fail")


@sync
async def test_a_big_index_cache_is_read_after_the_first_runs_are_painted(
        basic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 10,000 runs with a warm cache: 0.48 s to the first screen, more than the first use's head
    from reviewer.store.fs import keys as fs_keys

    monkeypatch.setattr(fs_keys, "RACY_NS", 0)  # the folder was written just now
    cold = SessionStore(basic)
    cold.scan()
    assert cold.save_index()
    monkeypatch.setattr(early_scan, "READ_AT_ONCE", 100)
    monkeypatch.setattr(first_screen, "HEAD_RUNS", 2)
    session, _ = build_session(SessionStore(basic), "alice")
    early = EarlyScan(session)
    early.begin()
    app = recording(app_for(session, None, None, [], early=early))
    drawn = watch_rows(app, lambda: (session.shown.selection.failure_id if session.shown else "",
                                     len(session.folder.runs), early.begun))
    async with app.run_test(size=(200, 50)) as pilot:
        await until(app, pilot, lambda: session.folder.scanned, what="the whole list")
        assert drawn[0] == ("s1/roman-go--model-a#heldout:TestToRoman", 2, False)  # painted before the rest was read
        assert len(session.folder.runs) == 5 and session.store.index is not None
        assert session.shown is not None and session.shown.selection.failure_id == drawn[0][0]
        assert not app.notes, app.notes


@sync
async def test_a_head_where_nothing_loaded_is_left_to_the_whole_scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the first run folder has no run.toml: a head of one run holds none, which is not "no runs"
    root = tmp_path / "sessions"
    write_session(root, "a0", [Spec("b-good")])
    (root / "a0" / "runs" / "a-broken").mkdir()
    monkeypatch.setattr(first_screen, "HEAD_RUNS", 1)
    app, session, drawn, child = headed(root)
    heads = []
    take_head = session.folder.take_head
    session.folder.take_head = lambda scan: heads.append(scan) or take_head(scan)  # type: ignore[method-assign]
    async with app.run_test(size=(200, 50)) as pilot:
        await until(app, pilot, lambda: drawn, what="the first frame", settled=False)
        child.finish()
        await until(app, pilot, lambda: session.shown is not None and session.folder.scanned, what="the first failure")
        assert not heads and drawn[0] == ""  # no head: drawn while the child read, as without one
        assert session.shown is not None and session.shown.selection.run_key == "a0/b-good"
        notes = [str(n) for n in app.notes]
        assert not [n for n in notes if "No runs" in n], notes
        assert len([n for n in notes if "did not load" in n]) == 1, notes


@sync
async def test_a_folder_too_small_for_a_child_opens_among_its_first_runs_and_reads_the_rest_after(
        basic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 1,000 runs without an index cache: no child (it slowed the first screen by 8 %), a head
    monkeypatch.setattr(early_scan, "HEAD_FROM", 5)
    monkeypatch.setattr(first_screen, "HEAD_RUNS", 2)
    session, _ = build_session(SessionStore(basic), "alice")
    early = EarlyScan(session)
    assert early.pending() and not early.begun  # nothing read before the screen
    small, _ = build_session(SessionStore(basic), "alice")
    monkeypatch.setattr(early_scan, "HEAD_FROM", 6)
    assert not EarlyScan(small).pending()  # five runs: read beside the UI's start, as before
    app = recording(app_for(session, None, None, [], early=early))
    drawn = watch_rows(app, lambda: (session.shown.selection.failure_id if session.shown else "",
                                     len(session.folder.runs)))
    async with app.run_test(size=(200, 50)) as pilot:
        await until(app, pilot, lambda: session.folder.scanned, what="the whole list")
        assert drawn[0] == ("s1/roman-go--model-a#heldout:TestToRoman", 2)
        assert len(session.folder.runs) == 5 and not app.notes


def test_quitting_before_the_rest_of_a_head_is_read_leaves_no_worker_waiting_for_it(
        basic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the scan worker waited on the launcher's scan with no end: after a head, the rest is read once
    # the first screen is painted, and a reviewer who quit before kept a thread (or, with the event
    # loop's own executor, the process) waiting for ever
    monkeypatch.setattr(first_screen, "HEAD_RUNS", 1)
    app, session, drawn, child = headed(basic)
    app.first_scan.read_rest = lambda: None  # type: ignore[method-assign]  # quit before it is read
    before = set(threading.enumerate())

    async def review() -> None:
        async with app.run_test(size=(200, 50)) as pilot:
            await until(app, pilot, lambda: drawn and session.shown is not None, what="the head drawn", settled=False)
            assert session.folder.partial and any(w.name == "scan" and not w.is_finished for w in app.workers)

    asyncio.run(review())
    started = [t for t in threading.enumerate() if t not in before and t.name.startswith("reviewer-worker-")]
    for thread in started:
        thread.join(10)
    assert not [t for t in started if t.is_alive()]
    child.finish()
