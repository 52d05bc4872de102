"""A re-score drawn for the Grader pane: its title, every check before and after, the re-scored output.

Every string from the record or the sandbox is untrusted: check keys go through ``one_line`` and
the output through :func:`~reviewer.ui.render.lines.ansi_lines` (the one sanitiser, SGR colours kept).
"""

from __future__ import annotations

from textual.content import Content

from reviewer.model.sanitize import one_line
from reviewer.review.rescoring import FAILING, Shown
from reviewer.ui.render.lines import LINE_CAP, Prepared, ansi_lines

WORD_STYLES = {"pass": "$text-success", "fail": "$text-error", "error": "$text-error", "missing": "$text-warning"}


def title(shown: Shown) -> Content:
    """``re-scored with key steps->mults  3/9 -> 9/9  (bo, 2026-…)``: clearly not the recorded output."""
    who = ", ".join(x for x in (one_line(shown.reviewer, 40), one_line(shown.at, 24)) if x)
    change = shown.summary.partition(" with ")[0]
    state = "" if shown.reproduced else "  control already passes: no evidence"
    return Content.assemble(("\u21bb ", "bold $text-accent"), (one_line(shown.title, 160), "bold $text-accent"),
                            "  ", (one_line(change, 40), "bold"), (state, "$text-warning"),
                            (f"  ({who})" if who else "", "$text-muted"))


def word(status: str) -> tuple[str, str]:
    """A status, styled."""
    return one_line(status, 12), WORD_STYLES.get(status, "$text-muted")


def rows(shown: Shown) -> list[Content]:
    """One line per check: recorded -> control -> repaired, the flips and breaks marked."""
    check = shown.failure_id.partition("#")[2].partition(":")[2]
    out = [Content.styled("recorded -> control run -> with the repair", "$text-muted")]
    for key, recorded, before, after in shown.rows:
        mark: tuple[str, str] = ("", "")
        if recorded in FAILING and before in FAILING and after == "pass":
            mark = ("  flipped", "bold $text-success")
        elif recorded == "pass" and after != "pass":
            mark = ("  broken by the repair", "bold $text-error")
        here = ("  \u25c0", "bold $text-primary") if key == check else ("", "")
        out.append(Content.assemble(word(recorded), " -> ", word(before), " -> ", word(after), "  ",
                                    one_line(key, 160), mark, here))
    return out


def rescored_lines(shown: Shown, cap: int = LINE_CAP) -> tuple[list[Content], int]:
    """The section's lines (checks, then the repaired run's output) and their width."""
    lines = rows(shown)
    lines.append(Content(""))
    lines.append(Content.styled("output of the run with the repair:", "$text-muted"))
    prepared: Prepared = ansi_lines(shown.output, cap)
    lines += list(prepared.lines) if shown.output else [Content.styled("(no output recorded)", "$text-muted")]
    width = max([prepared.width, *(line.cell_length for line in lines[:len(shown.rows) + 3])])
    return lines, width
