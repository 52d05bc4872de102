"""Feed every widget that shows recorded text every hostile payload; count what gets through.

    python tests/reliability/hostile_text_census.py [--json] [--big-line N] [--fast]

One generated folder carries every payload of :mod:`censuskit` (markup with ``@click`` actions
for every app action, ``[link=...]``, ``[/b]``, ``[TODO]``, ANSI SGR, OSC 0 / 8 / 52, CSI 2J,
C1 ``\\x9b``, NUL, bidi overrides, zero-width characters, a 10 MB line) in every field, and in
the labels of this reviewer and another (notes, tags, the reviewer's name) and the folder's tag
vocabulary. Two passes tour the app over it with the same keys (every pane, attempt, file,
diff, find, search, copy, load errors, help, note, tags, other reviewers' labels, clusters,
statistics, adjudication, history, palette, show-more), after walking ``j`` through every failure (a
check's message is shown under it while it is the current failure):

- in a pseudo-terminal, the real ``python -m reviewer.cli`` at 200x50: every byte it writes is
  captured and parsed; any escape sequence other than Textual's own styling, cursor moves and
  start/exit modes, or any raw control/C1/bidi/invisible character, is a leak;
- in process, with Pilot: every composed cell is scanned for the same characters and for live
  links, and every cell showing recorded text is clicked once; an action that runs, a URL
  opened, a labels file written or the app ending is counted;

and a third runs the app in tmux and compares the pane title before and after.

Figures: payloads, shown_in_terminal and shown_in_cells (payloads whose marker was seen),
widgets (that showed recorded text), leaks, actions_fired, live_links (markup links in
recorded text), inert_links (clickable links the Brief drew from Markdown; it now draws a link
as its text and address, nothing clickable, so this stays 0), title_changes, crashes, hangs.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from censuskit import (  # noqa: E402
    MARKER,
    REVIEWER,
    Figures,
    Payload,
    cell_leaks,
    first_failure,
    label_digest,
    payloads,
    write_census_folder,
)
from censusterm import SIZE, terminal_pass, title_pass  # noqa: E402

TOUR = [
    "j", "k", "l", "l", "l", "h", "right_square_bracket", "left_square_bracket", "f", "f", "d", "d",
    "tab", "e", "tab", "e", "tab", "e", "tab", "e", "m", "m", "tab",
    "ctrl+f", "P", "0", "enter", "escape", "escape", "slash", "P", "escape",
    "y", "E", "escape", "question_mark", "escape", "n", "escape", "t", "escape",
    "r", "v", "v", "C", "escape", "S", "escape", "D", "escape", "A", "escape", "H", "r", "a", "escape", "M", "escape",
    "ctrl+p", "escape",
]
"""Keys that visit every place recorded text is shown, on the current run."""
FAST_TOUR = [
    "l", "right_square_bracket", "f", "d", "tab", "e", "y", "E", "escape", "n", "escape", "t", "escape",
    "r", "C", "escape", "S", "escape", "A", "escape", "r", "a", "escape", "M", "escape",
    "ctrl+f", "P", "escape", "escape", "slash", "P", "escape", "J", "e",
]
"""A shorter tour for CI: every pane and screen once."""


def walk(items: list[Payload]) -> list[str]:
    """``j`` through every failure of the payload run and back: the Grader pane shows the message
    (and the verdicts beneath it) of the current failure only, one payload at a time."""
    checks = sum(1 for p in items if p.name != "long-line")
    return ["j"] * (checks - 1) + ["k"] * (checks - 1)
BIG_TOUR = ["J", "e", "tab", "e", "tab", "e", "tab", "e", "f", "d", "l", "K"]
"""The same on the next run (the long line), then back."""
LAST = ["F", "F", "F", "F"]
"""The run list's filters, last (a filter may hide the other run)."""


# ---- pass 2: in process, every composed cell -----------------------------------------------


@dataclass
class CellCensus:
    """What the composed screens showed."""

    payloads: set[int] = field(default_factory=set)
    widgets: set[str] = field(default_factory=set)
    leaks: set[str] = field(default_factory=set)
    links: set[str] = field(default_factory=set)
    inert: set[str] = field(default_factory=set)
    """Links of the Brief's Markdown: shown, and a click only says they are not opened."""
    clicked: set[tuple[str, int]] = field(default_factory=set)
    """(widget, row) pairs already clicked: each is clicked once per tour."""


def describe(widget: Any) -> str:
    """``Class#id`` of a widget (ids made from recorded text, like Markdown heading slugs, left out)."""
    wid = widget.id or ""
    if not wid or len(wid) > 30 or wid.startswith("heading-"):
        return type(widget).__name__
    return f"{type(widget).__name__}#{wid}"


def scan(app: Any, census: CellCensus) -> list[tuple[int, int]]:
    """Scan the current screen's composed cells; returns cells worth a click (not clicked yet)."""
    from rich.cells import cell_len
    from textual.screen import Screen

    screen = app.screen
    targets: list[tuple[int, int]] = []
    # The composed cells with their styles (links, @click meta): Textual has no public API for them.
    for y, strip in enumerate(screen._compositor.render_strips()):
        x = 0
        row_text, xs = [], []
        for seg in strip:
            text, style = seg.text, seg.style
            if text:
                try:
                    owner = describe(screen.get_widget_at(x, y)[0])
                except Exception:  # noqa: BLE001 - no widget under a cell
                    owner = "?"
                for name in cell_leaks(text):
                    census.leaks.add(f"{owner}: raw {name}")
                meta = style.meta if style is not None and style.meta else {}
                live = (style is not None and style.link) or any(str(k).startswith("@") for k in meta)
                what = f"{owner}: {text[:40]!r} {style.link or dict(meta)!r}"[:200] if live else ""
                if live and owner.startswith("Markdown") and str(meta.get("@click", "")).startswith("link("):
                    census.inert.add(what)
                    targets.append((x, y))
                elif live and not owner.startswith("ScrollBar"):  # scroll bars' own @mouse.down
                    census.links.add(what)
                    targets.append((x, y))
                    census.clicked.discard((owner, y))
            for ch in text:
                row_text.append(ch)
                xs.append(x)
                x += cell_len(ch)
        line = "".join(row_text)
        for m in MARKER.finditer(line):
            cx = xs[m.start()]
            census.payloads.add(int(m.group(1)))
            try:
                widget = screen.get_widget_at(cx, y)[0]
            except Exception:  # noqa: BLE001 - no widget under the cell
                continue
            if isinstance(widget, Screen):
                continue  # the dimmed screen behind a modal one
            owner = describe(widget)
            census.widgets.add(owner)
            if (owner, y) not in census.clicked:
                census.clicked.add((owner, y))
                targets.append((min(cx + 5, SIZE[0] - 1), y))
    return list(dict.fromkeys(targets))


def census_app_class() -> type:
    """ReviewApp recording every action run while the census clicks recorded text."""
    from reviewer.ui.app import ReviewApp

    class CensusApp(ReviewApp):
        """The app, with a note of actions run by clicks."""

        CSS_PATH = str(Path(inspect.getfile(ReviewApp)).with_name("app.tcss"))

        clicking = False
        fired: list[str] = []

        async def run_action(self, action: Any, default_namespace: Any = None, namespaces: Any = None) -> bool:
            """Run the action, noting it when a click on recorded text ran it."""
            inert = isinstance(action, str) and action.startswith("link(") and type(default_namespace).__module__.startswith(
                "textual.widgets._markdown")
            if self.clicking and not inert:
                self.fired.append(str(action))
            return await super().run_action(action, default_namespace, namespaces)

        def open_url(self, url: str, *, new_tab: bool = True) -> None:
            """Never open anything: note that something asked to."""
            self.fired.append(f"open_url({url!r})")

    return CensusApp


async def cell_pass(root: Path, start: str, keys: list[str], figures: Figures, clicks_per_step: int,
                    walk_keys: int = 0) -> CellCensus:
    """Tour the app with Pilot, scanning every screen and clicking recorded text (not during the first
    ``walk_keys`` keys: a click on a check makes it the current failure, which would break the walk)."""
    sys.path.insert(0, str(HERE.parent / "ui"))
    from uihelp import settle

    from reviewer.store.sessions.store import SessionStore
    from reviewer.ui.launch import build_app

    census = CellCensus()
    app = build_app(SessionStore(root), reviewer=REVIEWER, start_failure=start, app_class=census_app_class())
    app.fired = []
    before = label_digest(root)
    try:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await settle(app, pilot)
            for step, key in enumerate(["", *keys]):
                if key:
                    await pilot.press(key)
                    await settle(app, pilot, 3)
                targets = scan(app, census)[:0 if step <= walk_keys else clicks_per_step]
                screen = app.screen
                for x, y in targets:
                    if app.screen is not screen or app.return_code is not None:
                        break
                    app.clicking = True
                    try:
                        await pilot.click(offset=(x, y))
                    finally:
                        app.clicking = False
                    await pilot.pause()
                if targets:
                    await settle(app, pilot, 2)
                if app.return_code is not None:
                    break
            ended = app.return_code is not None
    except TimeoutError as exc:
        figures.hangs += 1
        figures.details.append(f"cells: {exc}")
        return census
    except Exception as exc:  # noqa: BLE001 - this is what the figure counts
        figures.crashes += 1
        figures.details.append(f"cells: {type(exc).__name__}: {exc}")
        return census
    if ended:
        figures.actions_fired += 1
        figures.details.append("cells: the app ended during the tour")
    if label_digest(root) != before:
        figures.actions_fired += 1
        figures.details.append("cells: a labels file was written")
    figures.actions_fired += len(app.fired)
    figures.details += [f"cells: a click ran {a!r}" for a in app.fired]
    return census


# ---- the census ----------------------------------------------------------------------------


def measure(big_line: int = 10_000_000, fast: bool = False, step: float = 0.35) -> Figures:
    """Build the folder, run both passes, add up the figures."""
    items: list[Payload] = payloads(big_line)
    figures = Figures(payloads=len(items))
    walked = walk(items)
    keys = walked + (FAST_TOUR if fast else TOUR + (BIG_TOUR if big_line else []) + LAST)
    with tempfile.TemporaryDirectory() as tmp:
        root = write_census_folder(Path(tmp) / "sessions", items)
        start = first_failure(items)
        side = [Figures(), Figures()]
        with ThreadPoolExecutor(2) as pool:  # the terminal passes wait on a subprocess: run them beside
            done = [pool.submit(terminal_pass, root, start, keys, side[0], step),
                    pool.submit(title_pass, root, start, side[1])]
            census = asyncio.run(cell_pass(root, start, keys, figures, 6 if fast else 12, len(walked)))
            for future in done:
                future.result()
        for other in side:
            for name, value in other.public().items():
                setattr(figures, name, getattr(figures, name) + value)
            figures.details += other.details
    figures.widgets = len(census.widgets)
    figures.shown_in_cells = len(census.payloads)
    figures.leaks += len(census.leaks)
    figures.live_links = len(census.links)
    figures.inert_links = len(census.inert)
    figures.details += [f"cells: {leak}" for leak in sorted(census.leaks)]
    figures.details += [f"cells: live link {link}" for link in sorted(census.links)]
    figures.details.append("widgets showing recorded text: " + ", ".join(sorted(census.widgets)))
    unseen = [items[i].name for i in range(len(items)) if i not in census.payloads]
    if unseen:
        figures.details.append("payloads never seen on screen: " + ", ".join(unseen))
    return figures


def main() -> int:
    """Command line."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--big-line", type=int, default=10_000_000, help="characters of the long line (0: none)")
    p.add_argument("--fast", action="store_true", help="a shorter tour (the CI case)")
    p.add_argument("--step", type=float, default=0.35, help="seconds between keys in the terminal pass")
    args = p.parse_args()
    started = time.monotonic()
    figures = measure(args.big_line, args.fast, args.step)
    for line in figures.details:
        print(line, file=sys.stderr)
    if args.json:
        print(json.dumps(figures.public()))
    else:
        for k, v in figures.public().items():
            print(f"{k:>14}: {v}")
        print(f"{'seconds':>14}: {time.monotonic() - started:.1f}")
    bad = figures.leaks + figures.actions_fired + figures.live_links + figures.title_changes + figures.crashes + figures.hangs
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
