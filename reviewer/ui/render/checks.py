"""The Grader pane's check list, and where the raw output shows a check."""

from __future__ import annotations

import re
from typing import Mapping

from textual.content import Content

from reviewer.model import Check, CheckStatus, check_id
from reviewer.model.records import record
from reviewer.model.sanitize import clean, one_line
from reviewer.model.wording import count
from reviewer.review.view import FailureView
from reviewer.ui.render.badges import Piece, others_lines, verdict_badge
from reviewer.ui.render.judges import judge_lines

STATUS_SYMBOLS = {
    CheckStatus.PASS: ("\u2713", "$text-success"),
    CheckStatus.FAIL: ("\u2717", "$text-error"),
    CheckStatus.ERROR: ("!", "$text-warning"),
    CheckStatus.SKIP: ("\u2013", "$text-muted"),
}
MESSAGE_LINES = 6


@record
class CheckList:
    """The check list's lines, the (grader, key) behind each line, and the current failure's line."""

    lines: list[Content]
    rows: list[tuple[str, str]]
    marked: int | None
    last: int | None = None
    """The last line under the current failure (its message, the other reviewers' verdicts)."""


def message_lines(check: Check) -> list[str]:
    """The first lines of a check's message, sanitised, for under its row (a tab between words shows
    as ``→``: a checker may tell it from spaces, so the reviewer must too)."""
    text = clean(check.message[:20_000], mark_tabs=True).text.rstrip("\n")
    if not text:
        return []
    lines = [line[:300] for line in text.split("\n")]
    if len(lines) > MESSAGE_LINES:
        lines = lines[:MESSAGE_LINES] + [f"\u2026 {count(len(lines) - MESSAGE_LINES, 'more line')}"]
    return lines


def check_list(view: FailureView, symbols: Mapping[str, str] | None = None) -> CheckList:
    """Every grader's checks with their status and verdict; the current failure marked, its message, the
    other reviewers' verdicts and the judges' predictions beneath it."""
    lines: list[Content] = []
    rows: list[tuple[str, str]] = []
    marked: int | None = None
    run = view.run
    if run is None:
        return CheckList([Content.styled("no run selected", "$text-muted")], [("", "")], None)
    fid_now = view.selection.failure_id
    for gc in view.graders:
        if len(view.graders) > 1:
            lines.append(Content.styled(f"\u25be {one_line(gc.grader, 60)}", "bold $text-secondary"))
            rows.append((gc.grader, ""))
        if gc.error:
            lines.append(Content.styled(f"  \u26a0 {one_line(gc.error, 200)}", "$text-error"))
            rows.append((gc.grader, ""))
        for check in gc.checks:
            fid = run.failure_id(check_id(gc.grader, check.key))
            current = check.failing and fid == fid_now
            symbol, style = STATUS_SYMBOLS[check.status]
            parts: list[Piece] = [(symbol, style), " ", one_line(check.name, 160)]
            verdict = view.marks.verdicts.get(fid, "") if check.failing else ""
            if verdict:
                parts += ["  ", verdict_badge(verdict, symbols)]
            if current:
                parts += ["  ", ("\u25c0", "bold $text-primary")]
                marked = len(lines)
            lines.append(Content.assemble(*parts))
            rows.append((gc.grader, check.key))
            if current:
                extra = [Content.styled(f"    {text}", "$text-muted") for text in message_lines(check)]
                extra += others_lines(view.marks.others, symbols) + judge_lines(view.marks.judges, symbols)
                lines += extra
                rows += [(gc.grader, check.key)] * len(extra)
    if not lines:
        return CheckList([Content.styled("no checks recorded", "$text-muted")], [("", "")], None)
    last = None if marked is None else marked + sum(1 for r in rows[marked + 1:] if r == rows[marked])
    return CheckList(lines, rows, marked, last)


def locate(lines: list[str], check: Check) -> tuple[int, int] | None:
    """Where the output best shows a check: (line, column).

    In order: a line holding a line of its message; a failing line naming its key; any line
    naming its key; for keys made of parts (``case:check``, ``file::test``), the first line
    naming the last part after a line naming the first.
    """
    message = [ln.strip() for ln in clean(check.message[:20_000]).text.split("\n") if len(ln.strip()) >= 8]
    key = clean(check.key).text
    for wanted in message[:5]:
        for i, line in enumerate(lines):
            if wanted in line:
                return i, line.index(wanted)
    naming = [i for i, line in enumerate(lines) if key and key in line]
    for i in naming:
        if any(word in lines[i] for word in ("FAIL", "ERROR", "fail", "error", "Error")):
            return i, lines[i].index(key)
    if naming:
        return naming[0], lines[naming[0]].index(key)
    parts = [p for p in re.split(r"[:/#\s]+", key) if len(p) >= 2]
    if len(parts) >= 2:
        start = next((i for i, line in enumerate(lines) if parts[0] in line), None)
        if start is not None:
            found = next((i for i in range(start, min(len(lines), start + 400)) if parts[-1] in lines[i]), None)
            return (found, lines[found].index(parts[-1])) if found is not None else (start, lines[start].index(parts[0]))
    return None
