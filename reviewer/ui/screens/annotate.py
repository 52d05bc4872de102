"""Editing the note and the tags saved with a label."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, SelectionList, Static, TextArea
from textual.widgets.selection_list import Selection

from reviewer.model.sanitize import clean, id_lines, one_line


class NoteScreen(ModalScreen[str | None]):
    """A multi-line note; ctrl+s saves it, escape leaves it as it was."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save note", priority=True),
        Binding("escape", "cancel", "Cancel", priority=True),
    ]

    def __init__(self, failure: str, note: str) -> None:
        super().__init__()
        self.failure = failure
        self.note = note
        self.shown = clean(note).text
        """The note as shown: a recorded note may hold escape or control characters."""

    def compose(self) -> ComposeResult:
        """A title, the editor and the keys."""
        with Vertical(id="note-box", classes="dialog") as box:
            box.border_title = Content("Note")
            yield Static(Content(id_lines(self.failure)), classes="dialog-subject", markup=False)
            yield TextArea(self.shown, id="note-text", soft_wrap=True, show_line_numbers=False)
            yield Static(Content.from_markup("[b]ctrl+s[/b] save  [b]escape[/b] cancel"), classes="dialog-keys")

    def on_mount(self) -> None:
        """Start typing at the end."""
        area = self.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)

    def action_save(self) -> None:
        """Close with the text (the note as it was when it was not edited)."""
        text = self.query_one(TextArea).text
        self.dismiss(self.note if text == self.shown else text.strip())

    def action_cancel(self) -> None:
        """Close without a change."""
        self.dismiss(None)


class TagsScreen(ModalScreen[tuple[str, ...] | None]):
    """Pick tags from the folder's vocabulary; space toggles, enter saves, escape cancels."""

    BINDINGS = [
        Binding("enter", "save", "Save tags", priority=True),
        Binding("escape", "cancel", "Cancel", priority=True),
    ]

    def __init__(self, failure: str, vocabulary: tuple[str, ...], chosen: tuple[str, ...]) -> None:
        super().__init__()
        self.failure = failure
        self.vocabulary = tuple(dict.fromkeys((*vocabulary, *chosen)))
        self.chosen = set(chosen)

    def compose(self) -> ComposeResult:
        """The tag list with the current tags ticked."""
        with Vertical(id="tags-box", classes="dialog") as box:
            box.border_title = Content("Tags")
            yield Static(Content(id_lines(self.failure)), classes="dialog-subject", markup=False)
            yield SelectionList[str](
                *(Selection(Content(one_line(tag, 80)), tag, tag in self.chosen) for tag in self.vocabulary), id="tag-list"
            )
            with Horizontal(classes="dialog-keys"):
                yield Static(Content.from_markup("[b]space[/b] toggle  [b]enter[/b] save  [b]escape[/b] cancel"))
                yield Button("Save", id="tags-save", variant="primary")

    def on_mount(self) -> None:
        """Focus the list."""
        self.query_one(SelectionList).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The Save button."""
        event.stop()
        self.action_save()

    def action_save(self) -> None:
        """Close with the ticked tags, in vocabulary order."""
        picked = set(self.query_one(SelectionList).selected)
        self.dismiss(tuple(t for t in self.vocabulary if t in picked))

    def action_cancel(self) -> None:
        """Close without a change."""
        self.dismiss(None)
