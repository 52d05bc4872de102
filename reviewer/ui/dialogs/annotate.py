"""Editing the note and the tags saved with a label; adding a tag to the folder's vocabulary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from reviewer.model.sanitize import clean, id_lines, one_line
from reviewer.review.vocabulary import TAG_CAP

if TYPE_CHECKING:
    from reviewer.review.vocabulary import Added


class NoteDialog(ModalScreen[str | None]):
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


MARKS = {True: "[x] ", False: "[ ] "}
"""How a tag shows whether it is set: a mark, not colour alone."""
TAG_KEYS = "[b]space[/b] or click: set / unset  [b]tab[/b] new tag  [b]enter[/b] save  [b]escape[/b] cancel"


class TagList(OptionList):
    """The vocabulary, one tag a row with its mark; space (or a click) sets or unsets a tag."""

    BINDINGS = [Binding("space", "select", "Set / unset", show=False)]


class TagsDialog(ModalScreen[tuple[str, ...] | None]):
    """Pick tags from the folder's vocabulary, or add one to it.

    Each tag shows ``[x]`` when set, ``[ ]`` when not. Space or a click sets and unsets; the box
    below adds a new tag to the folder's vocabulary (saved at once, ticked here); enter saves the
    failure's tags (in the box: adds the tag typed), escape leaves them as they were.
    """

    BINDINGS = [
        Binding("enter", "save", "Save tags", priority=True),
        Binding("escape", "cancel", "Cancel", priority=True),
    ]

    def __init__(self, failure: str, vocabulary: tuple[str, ...], chosen: tuple[str, ...],
                 add: Callable[[str], Added] | None = None) -> None:
        super().__init__()
        self.failure = failure
        self.vocabulary = tuple(dict.fromkeys((*vocabulary, *chosen)))
        self.chosen = set(chosen)
        self.add = add
        """Adds a tag to the folder's vocabulary (None: the box is not offered)."""

    def prompt(self, tag: str) -> Content:
        """One row: the mark, then the tag."""
        return Content.assemble((MARKS[tag in self.chosen], "bold" if tag in self.chosen else ""), Content(one_line(tag, 80)))

    def compose(self) -> ComposeResult:
        """The tag list with the current tags marked, the new tag box, the keys."""
        with Vertical(id="tags-box", classes="dialog") as box:
            box.border_title = Content("Tags")
            yield Static(Content(id_lines(self.failure)), classes="dialog-subject", markup=False)
            yield TagList(*(Option(self.prompt(tag), id=None) for tag in self.vocabulary), id="tag-list")
            if self.add is not None:
                with Horizontal(id="new-tag-row"):
                    yield Input(placeholder="new tag for the folder's vocabulary (enter adds it)", id="new-tag",
                                max_length=TAG_CAP, compact=True)
                    yield Button("Add", id="tags-add", compact=True)
                yield Static(Content(""), id="tags-said", markup=False)
            with Horizontal(classes="dialog-keys"):
                yield Static(Content.from_markup(TAG_KEYS))
                yield Button("Save", id="tags-save", variant="primary")

    def on_mount(self) -> None:
        """Focus the list."""
        self.query_one(TagList).focus()

    @property
    def picked(self) -> tuple[str, ...]:
        """The set tags, in vocabulary order."""
        return tuple(t for t in self.vocabulary if t in self.chosen)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Space or a click on a tag: set or unset it."""
        event.stop()
        tag = self.vocabulary[event.option_index]
        self.chosen.symmetric_difference_update({tag})
        self.query_one(TagList).replace_option_prompt_at_index(event.option_index, self.prompt(tag))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The Save and Add buttons."""
        event.stop()
        if event.button.id == "tags-add":
            self.add_typed()
        else:
            self.dismiss(self.picked)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the new tag box (when the screen's enter did not take it)."""
        event.stop()
        self.add_typed()

    def add_typed(self) -> None:
        """Add the tag typed in the box to the vocabulary, and set it here."""
        box = self.query_one("#new-tag", Input)
        if self.add is None or not box.value.strip():
            return
        added = self.add(box.value)
        said = self.query_one("#tags-said", Static)
        said.update(Content.styled(added.message, "" if added.ok else "$text-error"))
        if not added.ok:
            return
        box.value = ""
        tags = self.query_one(TagList)
        self.chosen.add(added.tag)
        if added.tag in self.vocabulary:
            index = self.vocabulary.index(added.tag)
            tags.replace_option_prompt_at_index(index, self.prompt(added.tag))
        else:
            self.vocabulary = (*self.vocabulary, added.tag)
            tags.add_option(Option(self.prompt(added.tag)))
            index = len(self.vocabulary) - 1
        tags.highlighted = index

    def action_save(self) -> None:
        """Enter: in the new tag box, add the tag typed; elsewhere close with the set tags."""
        if isinstance(self.focused, Input) and self.focused.id == "new-tag" and self.focused.value.strip():
            self.add_typed()
            return
        self.dismiss(self.picked)

    def action_cancel(self) -> None:
        """Close without a change."""
        self.dismiss(None)
