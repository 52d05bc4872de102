"""The message a screen posts after a key acted on the review session: the app reports its outcome."""

from __future__ import annotations

from textual.message import Message

from reviewer.review.outcome import Outcome


class Acted(Message):
    """A key acted on the session; the app says, starts and redraws what the outcome asks for.

    Attributes:
        outcome: what the session answered.
        kind: how to follow a move that needs counting: ``step``, ``unlabelled`` or ``open``.
        step: the direction of a step.
    """

    def __init__(self, outcome: Outcome, kind: str = "step", step: int = 1) -> None:
        super().__init__()
        self.outcome = outcome
        self.kind = kind
        self.step = step
