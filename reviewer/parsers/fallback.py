"""The fallback parser: the whole grader output as one check.

Used when the format is unknown, when a format parser finds nothing, and when a parser fails.
The check has key ``run``; its status comes from the exit status when known (non-zero: fail),
else from a guess over the text (:func:`looks_failed`); its message is the tail of the output
(at most :data:`~reviewer.parsers.text.MESSAGE_CAP` characters), escapes stripped.
"""

from __future__ import annotations

import re

from reviewer.model.check import Check, CheckStatus
from reviewer.parsers.text import MESSAGE_CAP, clean, tail

KEY = "run"

# Literal alternatives: the regex engine skips ahead on their first characters.
_STRONG = re.compile(
    r"FAIL|ERROR|Traceback \(most recent call last\)|panic: |Error:|Exception:|error:|error\[|fatal:|Fatal:"
    r"|fatal error|Segmentation fault|exit (?:status|code) [1-9]|timed out|Timed out|Aborted"
)
_WORD = re.compile(r"(?:failed|failures|errors)\b")
_BENIGN_BEFORE = ("0 ", "no ", "No ")
_SCAN = 200_000


def _benign(chunk: str, i: int) -> bool:
    """True when the word at ``i`` follows a lone ``0 `` or ``no `` (``0 failed``, ``no errors``)."""
    for word in _BENIGN_BEFORE:
        j = i - len(word)
        if j >= 0 and chunk.startswith(word, j) and (j == 0 or not chunk[j - 1].isalnum()):
            return True
    return False


def _weak_failure(chunk: str) -> bool:
    """``failed``/``failures``/``errors`` as a word, not after ``0 `` or ``no ``."""
    for n, m in enumerate(_WORD.finditer(chunk)):
        if n >= 200:
            return True
        i = m.start()
        if (i and chunk[i - 1].isalnum()) or _benign(chunk, i):
            continue
        return True
    return False


def looks_failed(text: str) -> bool:
    """Guess whether output reports a failure (used only when no exit status is known).

    Looks at the first and last 200k characters for failure words (``FAIL``, ``ERROR``,
    ``Traceback``, ``panic:``, ``SomethingError:``, ``error:``, ``failed`` not after ``0``/``no``...).
    """
    chunks = [text] if len(text) <= 2 * _SCAN else [text[:_SCAN], text[-_SCAN:]]
    return any(_STRONG.search(c) is not None or _weak_failure(c) for c in chunks)


def parse(text: str, exit_status: int | None = None) -> list[Check]:
    """One ``run`` check for the whole output."""
    try:
        body = clean(text)
    except Exception:  # noqa: BLE001 - the last resort must not fail
        body = str(text)
    return parse_clean(body, exit_status)


def parse_clean(body: str, exit_status: int | None = None) -> list[Check]:
    """:func:`parse` for text that :func:`~reviewer.parsers.text.clean` has seen already."""
    if exit_status is not None:
        failed = exit_status != 0
    else:
        try:
            failed = looks_failed(body)
        except Exception:  # noqa: BLE001
            failed = bool(body.strip())
    status = CheckStatus.FAIL if failed else CheckStatus.PASS
    return [Check(KEY, KEY, status, tail(body.strip("\n"), MESSAGE_CAP), "")]
