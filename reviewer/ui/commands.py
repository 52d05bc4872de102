"""The command palette's commands, built from the binding table so palette and keys agree."""

from __future__ import annotations

from functools import partial
from typing import Awaitable, Callable

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from reviewer.ui.bindings import PALETTE_NAMES, PANE_BINDINGS, TABLE, key_label

Run = Callable[[], Awaitable[object]]


class BindingCommands(Provider):
    """Every action of the binding table, and of the panes on screen, named by its description and
    current keys."""

    def commands(self) -> list[tuple[str, Run, str]]:
        """(name, what to run, help) for each binding, with the keys as the app has them now; a pane's
        own keys only while that pane is on the screen and its action is available there."""
        out: list[tuple[str, Run, str]] = []
        for e in TABLE:
            b = e.binding
            if b.action == "quit":
                continue
            name = f"{PALETTE_NAMES.get(b.id or '', b.description)} ({key_label(self.app, b)})"
            out.append((name, partial(self.app.run_action, b.action), b.tooltip))
        for selector, bindings in PANE_BINDINGS:
            pane = self.screen.query_one_optional(selector)
            if pane is None:
                continue
            for own in bindings:
                if isinstance(own, Binding) and pane.check_action(own.action, ()):
                    name = f"{PALETTE_NAMES.get(own.id or '', own.description)} ({key_label(self.app, own)})"
                    out.append((name, partial(pane.run_action, own.action), own.tooltip))
        return out

    async def discover(self) -> Hits:
        """All commands, in table order."""
        for name, run, help_text in self.commands():
            yield DiscoveryHit(Content(name), run, help=help_text)

    async def search(self, query: str) -> Hits:
        """Commands whose name matches the query."""
        matcher = self.matcher(query)
        for name, run, help_text in self.commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), run, help=help_text)
