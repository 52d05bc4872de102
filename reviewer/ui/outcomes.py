"""How an outcome of the review session reaches the app: the :class:`SessionAnswered` message a
screen posts after a key acted on the session (the app carries the outcome out), and
:func:`show_toast`, how the app says a notice."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.message import Message

from reviewer.review.outcome import Notice, Outcome


class SessionAnswered(Message):
    """A key or a dialog acted on the session; the app says, starts, redraws and follows what the
    outcome asks for.

    Attributes:
        outcome: what the session answered.
    """

    def __init__(self, outcome: Outcome) -> None:
        super().__init__()
        self.outcome = outcome


def show_toast(app: App[Any], notice: Notice) -> None:
    """One notice as a toast (plain text, never markup), with the bell it asks for."""
    if notice.bell:
        app.bell()
    if notice.message:
        app.notify(notice.message, title=notice.title, severity=notice.severity,  # type: ignore[arg-type]
                   timeout=notice.timeout, markup=False)
