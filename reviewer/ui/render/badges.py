"""Small styled pieces several widgets share: verdict badges, reviewers' verdicts, status parts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

from textual.content import Content

from reviewer.model.label import Label
from reviewer.model.sanitize import one_line
from reviewer.review.outcome import Part
from reviewer.review.reviewers import Others

if TYPE_CHECKING:
    from reviewer.store.git import RunCommit

VERDICT_BADGES = {
    "specification": ("\u25c6 specification", "bold $verdict-specification"),
    "capability": ("\u25b2 capability", "bold $verdict-capability"),
    "deferred": ("\u2026 deferred", "$text-muted"),
    "stale": ("\u27f3 stale: evidence changed", "$text-error"),
}
STYLE_WORDS = {
    "muted": "$text-muted", "accent": "$text-accent", "warning": "$text-warning", "error": "$text-error",
    "success": "$text-success", "primary": "$text-primary", "secondary": "$text-secondary",
}
INDENT = "    "
Piece = Content | tuple[str, str] | str


def verdict_badge(verdict: str, symbols: Mapping[str, str] | None = None) -> tuple[str, str]:
    """A verdict as symbol and word (never colour alone); ``symbols``: the theme's, by verdict."""
    text, style = VERDICT_BADGES.get(verdict, (verdict, ""))
    if symbols and verdict in symbols:
        text = f"{symbols[verdict]} {verdict}"
    return text, style


def style_of(words: str) -> str:
    """A session style (``bold warning``) as a Textual style (``bold $text-warning``)."""
    return " ".join(STYLE_WORDS.get(word, word) for word in words.split())


def parts_content(parts: Sequence[Part]) -> Content:
    """Status parts as one line (their texts are plain, never markup)."""
    return Content.assemble(*((text, style_of(style)) if style else text for text, style in parts))


def label_parts(lab: Label, who: str, symbols: Mapping[str, str] | None = None) -> list[Piece]:
    """``bob: ▲ capability — note``."""
    parts: list[Piece] = [(f"{one_line(who, 120)}: ", "bold"), verdict_badge(lab.verdict.value, symbols)]
    if lab.note:
        parts += [" \u2014 ", one_line(lab.note, 160)]
    return parts


def others_lines(others: Others, symbols: Mapping[str, str] | None = None) -> list[Content]:
    """Lines under the current failure: the others' verdicts (or that they are hidden), the final."""
    if others.everyone:
        lines = [Content.assemble(INDENT, *label_parts(lab, f"{lab.reviewer} (you)" if lab.reviewer == others.me
                                                       else lab.reviewer, symbols)) for lab in others.shown]
        return lines + final_lines(others.final, symbols)
    if others.hidden or others.final_hidden:
        what = "their verdicts" if others.hidden else "a final verdict"  # no count: blind mode shows none
        return [Content.styled(f"{INDENT}others: {what} hidden until you label this \u00b7 r shows", "$text-muted")]
    lines = [Content.assemble(INDENT, ("others  " if n == 0 else "        ", "$text-muted"),
                              *label_parts(lab, lab.reviewer, symbols))
             for n, lab in enumerate(lab for lab in others.shown if lab.reviewer != others.me)]
    return lines + final_lines(others.final, symbols)


def final_lines(final: Label | None, symbols: Mapping[str, str] | None = None) -> list[Content]:
    """``final: ◆ specification (adjudicated by X: note)``."""
    if final is None:
        return []
    parts: list[Piece] = [INDENT, ("final: ", "bold"), verdict_badge(final.verdict.value, symbols)]
    if final.note:
        parts += [" (", one_line(final.note, 200), ")"]
    return [Content.assemble(*parts)]


def commit_line(rc: RunCommit) -> Content:
    """``abc1234 2026-11-02 alice · changed since`` for a run's border."""
    if not rc.committed:
        return Content.styled(" not committed ", "$text-warning")
    parts: list[Piece] = [" ", (rc.short, "bold"), f" {rc.date[:10]} ", one_line(rc.author, 40)]
    if rc.changed_since:
        parts += [" \u00b7 ", ("changed since", "bold $text-warning")]
    return Content.assemble(*parts, " ")
