"""The guides from the app's help: ``g`` on the ``?`` screen lists them, ``enter`` opens one.

The pages are the package's own (``reviewer/docs``, the same text ``reviewer help TOPIC``
prints), never recorded text, so they are drawn as Markdown.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import MarkdownViewer, OptionList
from textual.widgets.option_list import Option

from reviewer.docs import Topic, topics

CLOSE: list[BindingType] = [Binding("escape", "dismiss", "Close", show=False),
                            Binding("q", "dismiss", "Close", show=False)]


class GuidesScreen(ModalScreen[None]):
    """Every guide by title and summary; ``enter`` or a click opens one."""

    BINDINGS = CLOSE

    def compose(self) -> ComposeResult:
        """A titled box holding the list of guides."""
        self.guides = topics()
        with Vertical(id="guides-box") as box:
            box.border_title = Content("Guides")
            box.border_subtitle = Content("enter open · escape close · reviewer help TOPIC in a shell")
            yield OptionList(*[Option(Content.assemble((t.title, "bold"), "  ", (t.summary, "$text-muted")), id=t.name)
                               for t in self.guides], id="guides-list", markup=False)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Open the guide chosen."""
        chosen = next((t for t in self.guides if t.name == event.option.id), None)
        if chosen is not None:
            self.app.push_screen(GuideScreen(chosen))


class GuideScreen(ModalScreen[None]):
    """One guide, as Markdown, scrolled with the usual keys."""

    BINDINGS = CLOSE

    def __init__(self, topic: Topic) -> None:
        super().__init__()
        self.topic = topic

    def compose(self) -> ComposeResult:
        """The page in a titled box."""
        with Vertical(id="guide-box") as box:
            box.border_title = Content(self.topic.title)
            box.border_subtitle = Content(f"escape back · reviewer help {self.topic.name}")
            yield MarkdownViewer(self.topic.path.read_text(encoding="utf-8"), show_table_of_contents=False,
                                 open_links=False, id="guide-text")
