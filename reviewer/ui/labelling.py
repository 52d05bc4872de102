"""Where labels plug into the screen (issue 3/9 fills these in).

The screen asks a :class:`LabelSource` how far each run is labelled (navigator progress,
status line, the "unlabelled" filter) and what verdict a failure has (check list). The
labelling keys route to the action methods of :class:`LabellingActions`; until labelling
exists they only say so.
"""

from __future__ import annotations

from typing import Protocol

from textual.app import App

PENDING = "labelling arrives in 3/9"


class LabelSource(Protocol):
    """What the screen needs to know about labels."""

    def labelled(self, run_key: str) -> int:
        """How many failures of the run carry a label."""
        ...

    def verdict(self, failure_id: str) -> str:
        """The failure's label ("specification", "capability", ...) or "" when none."""
        ...


class NoLabels:
    """The label source used until labelling exists: nothing is labelled."""

    def labelled(self, run_key: str) -> int:
        """Always 0."""
        return 0

    def verdict(self, failure_id: str) -> str:
        """Always ""."""
        return ""


class LabellingActions(App[int]):
    """The labelling keys' actions. Each one is a stub the owner replaces in 3/9.

    After changing a label, call ``self.labels_changed()`` (defined on the app) so the
    navigator, the check list and the status line repaint.
    """

    def labelling_pending(self, what: str) -> None:
        """Say that a labelling key is not wired up yet."""
        self.notify(f"{what}: {PENDING}", title="Not yet", markup=False)

    def action_label_specification(self) -> None:
        """``s``: label the current failure "specification"."""
        self.labelling_pending("Specification")

    def action_label_capability(self) -> None:
        """``c``: label the current failure "capability"."""
        self.labelling_pending("Capability")

    def action_clear_label(self) -> None:
        """``x``: remove the current failure's label."""
        self.labelling_pending("Clear label")

    def action_undo(self) -> None:
        """``u`` / ``ctrl+z``: undo the last labelling change."""
        self.labelling_pending("Undo")

    def action_note(self) -> None:
        """``n``: write a note on the current failure."""
        self.labelling_pending("Note")

    def action_tags(self) -> None:
        """``t``: tag the current failure."""
        self.labelling_pending("Tags")

    def action_defer(self) -> None:
        """``space``: skip the current failure for now."""
        self.labelling_pending("Defer")
