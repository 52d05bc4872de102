"""Counts read as English: one run, two runs; and no "(s)" anywhere the program speaks."""

from __future__ import annotations

import re
import tokenize
from pathlib import Path

from reviewer.model.wording import count, plural

REPO = Path(__file__).resolve().parents[1]


def test_one_is_singular_everything_else_plural() -> None:
    assert count(1, "run") == "1 run"
    assert count(0, "run") == "0 runs"
    assert count(2, "failure") == "2 failures"
    assert count(12_345, "check") == "12,345 checks"
    assert count(1, "match") == "1 match" and count(3, "match") == "3 matches"
    assert count(2, "more line") == "2 more lines"
    assert plural("is", 1) == "is" and plural("is", 2) == "are"
    assert plural("changes", 1, "change") == "changes" and plural("changes", 4, "change") == "change"


def test_no_message_says_s_in_brackets() -> None:
    found = []
    for path in sorted((REPO / "reviewer").rglob("*.py")):
        with path.open("rb") as source:
            for token in tokenize.tokenize(source.readline):
                text = token.string
                if token.type == tokenize.STRING and not text.lstrip("rbfRBF").startswith(('"""', "'''")) \
                        and re.search(r"[a-z]\(s\)", re.sub(r"\{[^{}]*\}", "", text)):  # not an f-string's code
                    found.append(f"{path.relative_to(REPO)}:{token.start[0]}: {text}")
    assert found == [], "\n".join(found)
