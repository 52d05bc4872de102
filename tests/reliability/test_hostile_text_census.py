"""The fast case of hostile_text_census: every payload, every pane, nothing reaches the terminal.

The census's detectors are proven first on output that does leak, so their silence on the app
means something.
"""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path

from censuskit import terminal_leaks
from scriptload import load_script
from textual.app import App, ComposeResult
from textual.content import Content
from textual.widgets import Static

census = load_script(Path(__file__).with_name("hostile_text_census.py"))


def test_the_byte_scanner_finds_every_kind_of_leak() -> None:
    frame = b"\x1b[1;1H\x1b[38;5;1mok\x1b[0m"
    own = b"\x1b[?1049h" + frame + b"\x1b[2;1H\x07\x1b]22;pointer\x07\x1b[3;1Hend\x1b[?1049l"
    assert terminal_leaks(own) == []
    assert terminal_leaks(frame + b"\x07\x07" + frame) == []  # two keys that moved nothing: the app's two bells
    copied = b"\x1b]52;c;" + base64.b64encode("id\nmessage \u241b]0;x".encode()) + b"\x07"
    assert terminal_leaks(frame + copied + frame, copied=True) == []
    assert terminal_leaks(frame + copied + frame) != []  # a copy only counts as the app's own when asked
    hostile = {
        b"\x1b]0;PWNED\x07": "escape",
        b"\x1b]8;;https://x\x1b\\": "escape",
        b"\x1b]52;c;" + base64.b64encode(b"\x1b]0;x\x07") + b"\x07": "escape",
        b"\x1b[2J": "escape",
        b"\x1b[?1049l": "escape",
        b"\xc2\x9b2J": "raw 0x9b",
        b"\x9b": "not UTF-8",
        b"a\x00b": "raw 0x0",
        b"ab\x07": "raw 0x7",
        b"\tpanic: x": "raw 0x9",
        "\u202eevil".encode(): "RIGHT-TO-LEFT OVERRIDE",
        "a\u200bb".encode(): "ZERO WIDTH SPACE",
    }
    for payload, what in hostile.items():
        leaks = terminal_leaks(frame + payload + frame, copied=True)
        assert any(what in text for _, text in leaks), (payload, leaks)


class Unsafe(App[None]):
    """What the census must catch: markup parsed from recorded text, and raw escapes."""

    def compose(self) -> ComposeResult:
        """A markup link and raw escapes, as an unsafe widget would show them."""
        yield Static("\u00a7P00\u00a7 [@click=app.bell]click me[/]")
        yield Static(Content("\u00a7P01\u00a7 \x1b]0;PWNED\x07 \u202e"))


def test_the_cell_scanner_finds_live_links_and_raw_escapes() -> None:
    async def run() -> tuple[object, list[tuple[int, int]], list[str]]:
        app = Unsafe()
        fired: list[str] = []
        async with app.run_test(size=(80, 10)) as pilot:
            found = census.CellCensus()
            targets = census.scan(app, found)
            original = app.run_action

            async def record(action, default_namespace=None, namespaces=None):  # type: ignore[no-untyped-def]
                fired.append(str(action))
                return await original(action, default_namespace, namespaces)

            app.run_action = record  # type: ignore[method-assign]
            for x, y in targets:
                await pilot.click(offset=(x, y))
                await pilot.pause()
        return found, targets, fired

    found, targets, fired = asyncio.run(run())
    assert found.payloads == {0, 1} and found.widgets == {"Static"}  # type: ignore[attr-defined]
    assert any("click me" in link for link in found.links)  # type: ignore[attr-defined]
    assert {"Static: raw 0x1b", "Static: raw RIGHT-TO-LEFT OVERRIDE"} <= found.leaks  # type: ignore[attr-defined]
    assert "app.bell" in fired


def test_hostile_text_reaches_no_terminal_and_runs_no_action() -> None:
    figures = census.measure(big_line=1_000_000, fast=True, step=0.25)
    report = "\n".join(figures.details)
    assert figures.payloads == 16
    assert figures.shown_in_terminal == figures.shown_in_cells == 16, report  # every payload was on screen
    assert figures.widgets >= 10, report  # navigator, brief, code, grader, transcript, screens, toasts
    assert (figures.leaks, figures.actions_fired, figures.live_links, figures.title_changes) == (0, 0, 0, 0), report
    assert (figures.crashes, figures.hangs) == (0, 0), report
