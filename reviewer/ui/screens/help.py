"""The ``?`` screen: every key, from the binding table, with its id."""

from __future__ import annotations

from typing import Any

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


def rows(app: App[Any], section: str, bindings: list[BindingType]) -> list[Content]:
    """A section heading and one line per binding: keys, description, id, tooltip."""
    out = [Content.styled(section, "bold underline")]
    for b in bindings:
        if not isinstance(b, Binding):
            continue
        keys = key_label(app, b)
        out.append(Content.assemble(
            (f"  {keys:<12}", "bold $text-accent"), (f"{b.description:<18}", ""), (f" {b.id or '':<22}", "$text-muted"),
            (f" {b.tooltip}", "$text-muted"),
        ))
    return out


class HelpScreen(ModalScreen[None]):
    """Every binding of the app, grouped as in the table."""

    BINDINGS = CLOSE

    def compose(self) -> ComposeResult:
        """One block of lines per section."""
        sections: dict[str, list[BindingType]] = {}
        for e in TABLE:
            sections.setdefault(e.section, []).append(e.binding)
        lines: list[Content] = []
        for name, bindings in [*sections.items(), *LOCAL_TABLES]:
            lines += rows(self.app, name, list(bindings))
            lines.append(Content(""))
        lines.append(Content.styled("ctrl+p opens the command palette; escape closes this screen.", "$text-muted"))
        with Vertical(id="help-box") as box:
            box.border_title = Content("Keys")
            with VerticalScroll(id="help-scroll"):
                yield Static(Content("\n").join(lines), id="help-text", markup=False)
