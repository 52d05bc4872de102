"""The ``?`` screen: every key and what it does, from the binding table, in two clean columns.

Keys on the left, what each does beside them; a description that needs more than one row wraps
under the description, never under the keys. The binding ids a keymap names (``[keys]`` in
config.toml) are a third column only where the screen is wide enough to keep the description
readable beside it; the README's key table always lists them.
"""

from __future__ import annotations

import textwrap
from typing import Any

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from reviewer.ui.bindings import LOCAL_TABLES, TABLE, key_label

CLOSE: list[BindingType] = [
    Binding("escape", "dismiss", "Close", show=False),
    Binding("question_mark", "dismiss", "Close", show=False),
    Binding("q", "dismiss", "Close", show=False),
]
CLOSE_HINT = "escape close"
"""The subtitle of every box that the keys of :data:`CLOSE` close."""
INDENT = 2
KEYS_MAX = 20
"""The key column is as wide as the widest keys, at most this (longer keys take a row of their own)."""
DESCRIPTION_MIN = 90
"""The id column is shown only when the description keeps at least this many columns beside it."""
Section = tuple[str, list[Binding]]


def sections() -> list[Section]:
    """Every binding by help section: the app's, then those of one screen or widget."""
    grouped: dict[str, list[Binding]] = {}
    for e in TABLE:
        grouped.setdefault(e.section, []).append(e.binding)
    local = [(name, [b for b in bindings if isinstance(b, Binding)]) for name, bindings in LOCAL_TABLES]
    return [*grouped.items(), *local]


def help_lines(app: App[Any], width: int) -> list[Content]:
    """The help text laid out for ``width`` columns: a heading per section, a row per binding."""
    table = [(name, [(key_label(app, b), b.tooltip or b.description, b.id or "") for b in bindings])
             for name, bindings in sections()]
    keys_width = min(KEYS_MAX, max(len(keys) for _, rows in table for keys, _, _ in rows)) + 2
    ids_width = max(len(binding_id) for _, rows in table for _, _, binding_id in rows) + 2
    with_ids = width - INDENT - keys_width - ids_width >= DESCRIPTION_MIN
    text_width = max(20, width - INDENT - keys_width - (ids_width if with_ids else 0))
    hang = " " * (INDENT + keys_width)
    out: list[Content] = []
    for name, rows in table:
        out.append(Content.styled(name, "bold underline"))
        for keys, description, binding_id in rows:
            wrapped = textwrap.wrap(description, text_width) or [""]
            first: list[Content | tuple[str, str] | str] = [" " * INDENT]
            if len(keys) > keys_width - 2:  # long keys: a row of their own, the description beneath
                out.append(Content.assemble(" " * INDENT, (keys, "bold $text-accent")))
                first = [hang]
            else:
                first.append((keys.ljust(keys_width), "bold $text-accent"))
            first.append(wrapped[0].ljust(text_width) if with_ids else wrapped[0])
            if with_ids:
                first.append((binding_id, "$text-muted"))
            out.append(Content.assemble(*first))
            out += [Content(hang + row) for row in wrapped[1:]]
        out.append(Content(""))
    if with_ids:
        out.append(Content.styled("The third column is each key's id, for [keys] in config.toml.", "$text-muted"))
    out.append(Content.styled("g lists the guides (reviewer help TOPIC prints them in a shell).", "$text-muted"))
    out.append(Content.styled("ctrl+p opens the command palette; escape closes this screen.", "$text-muted"))
    return out


class HelpText(Static):
    """The help text, laid out again for its width whenever that changes."""

    def on_resize(self, event: events.Resize) -> None:
        """Lay the columns out for the new width."""
        self.update(Content("\n").join(help_lines(self.app, event.size.width)))


class HelpScreen(ModalScreen[None]):
    """Every binding of the app, grouped as in the table; ``g`` lists the guides."""

    BINDINGS = [*CLOSE, Binding("g", "guides", "Guides", show=False)]

    def action_guides(self) -> None:
        """The guides shipped with the package, over this screen."""
        from reviewer.ui.screens.guides import GuidesScreen

        self.app.push_screen(GuidesScreen())

    def compose(self) -> ComposeResult:
        """A titled box; its text is laid out for its width when it gets one."""
        first = help_lines(self.app, max(40, min(156, self.app.size.width * 96 // 100) - 6))
        with Vertical(id="help-box") as box:
            box.border_title = Content("Keys")
            box.border_subtitle = Content(f"g guides · {CLOSE_HINT}")
            with VerticalScroll(id="help-scroll"):
                yield HelpText(Content("\n").join(first), id="help-text", markup=False)
