"""The judges' predictions under the current failure in the Grader pane's check list.

``judges  script: ◆ specification 90% — 2 demands not stated ...`` per judge, or, in blind mode
before this reviewer has decided the failure, one line saying they are hidden (no count, no verdict).
Recorded and judge-written text goes through :func:`~reviewer.model.sanitize.one_line`: never markup,
never an escape sequence.
"""

from __future__ import annotations

from typing import Mapping

from textual.content import Content

from reviewer.model.sanitize import one_line
from reviewer.review.reviewers import Judged
from reviewer.ui.render.badges import INDENT, Piece, verdict_badge


def judge_lines(judged: Judged, symbols: Mapping[str, str] | None = None) -> list[Content]:
    """Lines under the current failure: each judge's prediction, or that they are hidden."""
    if judged.hidden:
        return [Content.styled(f"{INDENT}judges: their predictions hidden until you label this \u00b7 r shows", "$text-muted")]
    lines = []
    for n, p in enumerate(judged.shown):
        parts: list[Piece] = [INDENT, ("judges  " if n == 0 else "        ", "$text-muted"), (f"{one_line(p.judge, 60)}: ", "bold")]
        if p.verdict is None:
            parts.append(("abstains", "$text-muted"))
        else:
            parts.append(verdict_badge(p.verdict.value, symbols))
        if p.confidence is not None:
            parts.append((f" {round(p.confidence * 100)}%", "$text-muted"))
        if p.rationale:
            parts += [" \u2014 ", one_line(p.rationale, 160)]
        lines.append(Content.assemble(*parts))
    return lines
