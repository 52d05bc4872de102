"""The evidence of one failure as display lines: the :class:`~reviewer.analysis.evidence.strip.EvidenceReport`
that ``reviewer show`` prints, coloured by each line's tone.

Pure (safe in a worker thread). The report's texts are already sanitised and go into a
``Content`` as plain text, never markup. Nothing here sets a label.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

if TYPE_CHECKING:
    from reviewer.analysis.evidence.engine import Evidence

TONES = {"good": "$text-success", "warn": "$text-warning", "bad": "$text-error", "muted": "$text-muted", "accent": "$text-accent"}
"""Theme variable for each tone of a report line (a symbol always says the same in words)."""


def summary(ev: Evidence) -> str:
    """``5 demands · 4 stated · 1 not stated · near-miss`` (for the panel's title)."""
    from reviewer.analysis.evidence.strip import summary as report_summary

    return report_summary(ev)


def evidence_lines(ev: Evidence) -> list[Content]:
    """The panel's lines: exactly the report ``reviewer show`` prints, styled by tone."""
    from reviewer.analysis.evidence.strip import evidence_report

    return [Content.styled(item.text, TONES.get(item.tone, "$text-muted")) for item in evidence_report(ev).items]
