"""The command palette's commands, built from the binding table so palette and keys agree."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from reviewer.ui.bindings import PALETTE_NAMES, TABLE, key_label


class BindingCommands(Provider):
    """Every action of the binding table, named by its description and current keys."""

    def commands(self) -> list[tuple[str, str, str]]:
        """(name, action, help) for each binding, with the keys as the app has them now."""
        out = []
        for e in TABLE:
            b = e.binding
            if b.action == "quit":
                continue
            name = f"{PALETTE_NAMES.get(b.id or '', b.description)} ({key_label(self.app, b)})"
            out.append((name, b.action, b.tooltip))
        return out

    async def discover(self) -> Hits:
        """All commands, in table order."""
        for name, action, help_text in self.commands():
            yield DiscoveryHit(Content(name), partial(self.app.run_action, action), help=help_text)

    async def search(self, query: str) -> Hits:
        """Commands whose name matches the query."""
        matcher = self.matcher(query)
        for name, action, help_text in self.commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), partial(self.app.run_action, action), help=help_text)
