"""``A``: record the final verdict of a failure where reviewers disagree.

The dialog shows every reviewer's verdict and note, offers specification, capability or (when
there is one) clearing the adjudication, and a note. Reviewers' names and notes were written by
other people: they enter the dialog as plain content only.
"""

from __future__ import annotations

from typing import Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, RadioButton, RadioSet, Static

from reviewer.model.label import Label, Verdict
from reviewer.model.sanitize import id_lines, one_line
from reviewer.ui.render.badges import verdict_badge

CLEAR = "clear"
Choice = tuple[Verdict | None, str]
"""What the dialog returns: the verdict (None clears the adjudication) and the note."""


def label_line(lab: Label, who: str | None = None, symbols: Mapping[str, str] | None = None) -> Content:
    """``bob  ▲ capability — note`` (``symbols``: the theme's verdict symbols)."""
    parts: list[Content | tuple[str, str] | str] = [
        (f"{one_line(who if who is not None else lab.reviewer, 120):<20}", "bold"), " ",
        verdict_badge(lab.verdict.value, symbols),
    ]
    if lab.note:
        parts += ["  \u2014 ", (one_line(lab.note, 200), "$text-muted")]
    return Content.assemble(*parts)


class AdjudicateDialog(ModalScreen[Choice | None]):
    """Pick the final verdict and a note; enter (in the note) or ctrl+s saves, escape cancels."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "cancel", "Cancel", priority=True),
    ]

    def __init__(self, failure: str, labels: tuple[Label, ...], final: Label | None,
                 symbols: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.failure = failure
        self.labels = labels
        self.final = final
        self.symbols = symbols

    def compose(self) -> ComposeResult:
        """Subject, the reviewers' verdicts, the choice, the note, the keys."""
        with Vertical(id="adjudicate-box", classes="dialog") as box:
            box.border_title = Content("Adjudicate")
            yield Static(Content(id_lines(self.failure)), classes="dialog-subject", markup=False)
            lines = [label_line(lab, None, self.symbols) for lab in self.labels] or [Content.styled("no reviewer labelled this", "$text-muted")]
            if self.final is not None:
                lines.append(label_line(self.final, "final now", self.symbols))
            yield Static(Content("\n").join(lines), id="adjudicate-labels", markup=False)
            current = self.final.verdict if self.final is not None else None
            with RadioSet(id="adjudicate-choice"):
                yield RadioButton(Content(verdict_badge("specification", self.symbols)[0]), value=current is Verdict.SPECIFICATION,
                                  id="choice-specification")
                yield RadioButton(Content(verdict_badge("capability", self.symbols)[0]), value=current is Verdict.CAPABILITY,
                                  id="choice-capability")
                if self.final is not None:
                    yield RadioButton(Content("clear the adjudication"), id=f"choice-{CLEAR}")
            yield Input(placeholder="note (why this verdict)", id="adjudicate-note")
            yield Static(Content.from_markup(
                "[b]\u2191\u2193[/b] choose  [b]enter[/b] pick / save  [b]tab[/b] note  "
                "[b]ctrl+s[/b] save  [b]escape[/b] cancel"), classes="dialog-keys")

    def on_mount(self) -> None:
        """Start on the choice."""
        self.query_one(RadioSet).focus()

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        """A choice was made: go on to the note."""
        event.stop()
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the note saves."""
        event.stop()
        self.action_save()

    def chosen(self) -> str:
        """The picked choice's name ("" when none)."""
        pressed = self.query_one(RadioSet).pressed_button
        return (pressed.id or "").removeprefix("choice-") if pressed is not None else ""

    def action_save(self) -> None:
        """Close with the choice and note; a bell when nothing is chosen."""
        choice = self.chosen()
        if not choice:
            self.app.bell()
            self.notify("Choose specification or capability first.", markup=False)
            self.query_one(RadioSet).focus()
            return
        note = self.query_one(Input).value.strip()
        self.dismiss((None if choice == CLEAR else Verdict(choice), note))

    def action_cancel(self) -> None:
        """Close without a change."""
        self.dismiss(None)
