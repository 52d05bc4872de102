"""One demand found in a grader's source, shared by the Python and the pattern readers."""

from __future__ import annotations

from reviewer.model.records import record


@record
class Found:
    """One thing the grader's source demands.

    Attributes:
        kind: literal, key, symbol, file, error or separator.
        value: the demanded text.
        line: 1-based line in the source.
        context: that source line, stripped and capped.
        input_text: the literal also occurs in the check's input data (a node name, a word
            of an input text), so it is bound to the input rather than a demand of form.
        note: how it is demanded, when it is not plain equality (``must contain``).
    """

    kind: str
    value: str
    line: int
    context: str
    input_text: bool = False
    note: str = ""


def source_line(lines: list[str], number: int) -> str:
    """A source line for display (stripped, capped)."""
    return lines[number - 1].strip()[:160] if 0 < number <= len(lines) else ""
