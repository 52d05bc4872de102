"""The footer: the keys the screen shows (``show=True`` bindings), drawn as one widget.

Textual's ``Footer`` makes a widget per key and builds them all again whenever the bindings
change (five times while the app starts, and on focus moves): about a third of the time the app
took to show its first screen. This bar draws the same line (same layout, same theme variables)
from one text and repaints only when what it shows changed. A key is clicked like a key press
(a disabled one rings the bell); hovering shows its tooltip. On a narrow terminal whole keys are
left off, the least needed first, so the help key and the palette key always stay in sight.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from typing import Callable, Iterable

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App
from textual.binding import ActiveBinding, Binding
from textual.screen import Screen
from textual.widget import Widget

from reviewer.model.records import record


@record(slots=False)
class Item:
    """One clickable key on the bar: columns ``start`` to ``end`` (exclusive)."""

    start: int
    end: int
    key: str
    enabled: bool
    tooltip: str


@record(slots=False)
class Piece:
    """A run of text on the bar and how it is styled ("key", "description", "separator" or "")."""

    text: str
    kind: str = ""
    key: int = -1
    """The index of the :class:`Item` this piece belongs to, -1 for none."""


Shown = tuple[tuple[Binding, bool, str], ...]
"""What the bar shows: each binding with whether it is enabled and its tooltip."""


def shown_bindings(active: Iterable[ActiveBinding]) -> Shown:
    """The bindings to show: the app's and the screen's in their order, then those of the focused
    widget (the keys of the current context: the run list's, a find's) after them."""
    shown = [b for b in active if b.binding.show]
    general = [b for b in shown if isinstance(b.node, (App, Screen))]
    context = [b for b in shown if not isinstance(b.node, (App, Screen))]
    return tuple((b.binding, b.enabled, b.tooltip) for b in general + context)


def lay_out(shown: Shown, display: Callable[[Binding], str],
            palette: tuple[Binding, bool, str] | None = None) -> tuple[list[Piece], list[Piece], list[Item]]:
    """The bar's left pieces, right pieces (the command palette key) and keys, as Textual's Footer
    lays them out: `` key description `` for each action, and for a group of actions (bindings
    sharing a ``Binding.Group``) the keys side by side (touching in a compact group) followed by
    the group's description.

    Item columns of the right pieces are counted from the start of the right part.
    """
    by_action: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
    for binding, enabled, tooltip in shown:
        by_action[binding.action].append((binding, enabled, tooltip))
    left: list[Piece] = []
    items: list[Item] = []
    column = 0

    def add(text: str, kind: str = "", item: Item | None = None) -> None:
        nonlocal column
        if item is not None:
            items.append(item)
        left.append(Piece(text, kind, len(items) - 1 if item is not None else -1))
        column += len(text)

    for group, actions in groupby(by_action.values(), lambda entries: entries[0][0].group):
        firsts = [entries[0] for entries in actions]
        if group is not None and len(firsts) > 1:
            add(" ")
            for n, (binding, enabled, tooltip) in enumerate(firsts):
                if n and not group.compact:  # a compact group's keys touch: "sc label"
                    add(" ")
                text = display(binding)
                add(text, "key", Item(column, column + len(text), binding.key, enabled, tooltip or binding.description))
            add(" ")
            add(f"{group.description} ", "description")
            continue
        for binding, enabled, tooltip in firsts:
            text = f" {display(binding)} "
            label = f"{binding.description} "
            item = Item(column, column + len(text) + len(label), binding.key, enabled, tooltip or binding.tooltip)
            add(text, "key", item)
            left.append(Piece(label, "description", len(items) - 1))
            column += len(label)
    right: list[Piece] = []
    if palette is not None:
        binding, enabled, tooltip = palette
        text, label = display(binding), f" {binding.description} "
        items.append(Item(1, 1 + len(text) + len(label), binding.key, enabled,
                          tooltip or binding.tooltip or binding.description))
        right = [Piece("\u258f", "separator"), Piece(text, "key", len(items) - 1),
                 Piece(label, "description", len(items) - 1)]
    return left, right, items


FIRST_TO_GO = ("rescore", "quit", "defer", "note", "dismiss-warning")
"""Binding ids left off first when the bar is too narrow for every key (then the last keys go):
the palette key on the right and the help key stay."""
KEEP = ("help",)


def fit(shown: Shown, display: Callable[[Binding], str], palette: tuple[Binding, bool, str] | None,
        width: int) -> tuple[list[Piece], list[Piece], list[Item]]:
    """:func:`lay_out` for ``width`` columns: whole keys are left off (:data:`FIRST_TO_GO` first, then
    from the end, never :data:`KEEP`) until the rest fits beside the palette key."""
    left, right, items = lay_out(shown, display, palette)
    room = width - sum(len(p.text) for p in right)
    kept = list(shown)
    while sum(len(p.text) for p in left) > room and kept:
        droppable = [n for n, (b, _, _) in enumerate(kept) if (b.id or "") not in KEEP]
        if not droppable:
            break
        order = {name: rank for rank, name in enumerate(FIRST_TO_GO)}
        first = min(droppable, key=lambda n: (order.get(kept[n][0].id or "", len(order)), -n))
        del kept[first]
        left, right, items = lay_out(tuple(kept), display, palette)
    return left, right, items


class KeyBar(Widget, can_focus=False):
    """The footer line of the review screen."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"keybar--key", "keybar--description", "keybar--separator", "keybar--hover"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        width: 1fr;
        color: $footer-foreground;
        background: $footer-background;
        text-wrap: nowrap;
        .keybar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .keybar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .keybar--separator {
            color: $foreground 20%;
        }
        .keybar--hover {
            background: $block-hover-background;
        }
    }
    """

    def __init__(self, id: str = "keybar") -> None:
        super().__init__(id=id)
        self.shown: Shown | None = None
        self.palette: tuple[Binding, bool, str] | None = None
        self.left: list[Piece] = []
        self.right: list[Piece] = []
        self.items: list[Item] = []
        self.hover = -1

    def on_mount(self) -> None:
        """Follow the screen's bindings."""
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.call_after_refresh(self.update_keys)

    def on_unmount(self) -> None:
        """Stop following them."""
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """The focus or an action's availability changed: show the keys now active."""
        if self.is_attached and screen is self.screen:
            self.update_keys()

    def update_keys(self) -> None:
        """Lay the bar out again, and repaint it, only when what it shows changed."""
        active = self.screen.active_bindings
        shown = shown_bindings(active.values())
        palette = None
        if self.app.ENABLE_COMMAND_PALETTE:
            found = active.get(self.app.COMMAND_PALETTE_BINDING)
            if found is not None:
                palette = (found.binding, found.enabled, found.tooltip)
        if shown == self.shown and palette == self.palette:
            return
        self.shown, self.palette = shown, palette
        self.lay_out()

    def lay_out(self) -> None:
        """The bar for the shown keys at the current width; repaint."""
        self.left, self.right, self.items = fit(self.shown or (), self.app.get_key_display, self.palette,
                                                self.size.width or self.app.size.width)
        self.hover = -1
        self.refresh()

    def on_resize(self) -> None:
        """Another width may hold more or fewer keys."""
        if self.shown is not None:
            self.lay_out()

    def right_start(self) -> int:
        """The column the right part (the palette key) starts at."""
        return max(sum(len(p.text) for p in self.left), self.size.width - sum(len(p.text) for p in self.right))

    def item_at(self, x: int) -> int:
        """The index of the key at column ``x``, -1 for none."""
        start = self.right_start()
        for n, item in enumerate(self.items):
            offset = start if self.right and n == len(self.items) - 1 and self.palette is not None else 0
            if item.start + offset <= x < item.end + offset:
                return n
        return -1

    def render(self) -> Text:
        """The line: keys on the left, the palette key on the right."""
        styles = {kind: self.get_component_rich_style(f"keybar--{kind}") for kind in ("key", "description", "separator")}
        hover = self.get_component_rich_style("keybar--hover")
        dim = Style(dim=True)
        text = Text(no_wrap=True, overflow="crop", end="")
        width = 0
        for piece in self.left:
            text.append(piece.text, self.piece_style(piece, styles, hover, dim))
            width += len(piece.text)
        if self.right:
            pad = self.right_start() - width
            text.append(" " * pad)
            for piece in self.right:
                text.append(piece.text, self.piece_style(piece, styles, hover, dim))
        return text

    def piece_style(self, piece: Piece, styles: dict[str, Style], hover: Style, dim: Style) -> Style:
        """A piece's style: its kind's, dim when its key is disabled, highlighted under the mouse."""
        style = styles.get(piece.kind, Style())
        if piece.key >= 0:
            if not self.items[piece.key].enabled:
                style += dim
            if piece.key == self.hover:
                style += hover
        return style

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """Highlight the key under the mouse and show its tooltip."""
        self.set_hover(self.item_at(event.x))

    def on_leave(self, _event: events.Leave) -> None:
        """No key is under the mouse any more."""
        self.set_hover(-1)

    def set_hover(self, index: int) -> None:
        """Highlight one key (-1: none)."""
        if index == self.hover:
            return
        self.hover = index
        self.tooltip = self.items[index].tooltip or None if index >= 0 else None
        self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """A click on a key presses it (a disabled key rings the bell)."""
        index = self.item_at(event.x)
        if index < 0:
            return
        event.stop()
        item = self.items[index]
        if item.enabled:
            self.app.simulate_key(item.key.split(",")[0].strip())
        else:
            self.app.bell()
