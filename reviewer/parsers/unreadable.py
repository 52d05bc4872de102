"""The check a grader output becomes when it cannot be parsed safely: failing, never a pass.

A JUnit file with a DOCTYPE is refused (entity bombs), malformed XML or JSON cannot be parsed, a
file is over the read cap or binary. Falling back to one whole-output check would let the exit
status (or a guess over the text) decide, and a refused file with a real failure in it could
pass. Instead the grader gets one check ``unreadable:output`` with status ``error``, named
``unreadable grader output``, whose message starts with the reason (``reviewer check`` lists it).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from reviewer.model.check import Check, CheckStatus
from reviewer.parsers.text import tail

KEY = "unreadable:output"
NAME = "unreadable grader output"
SHOWN_TAIL = 4_000
LEAD = "the grader output cannot be parsed: "


def unreadable(reason: str, body: str = "") -> Check:
    """The failing check for an output that could not be parsed; ``body``'s tail is shown under the reason."""
    message = LEAD + " ".join(reason.split())
    if body.strip():
        message += f"\n\nits last lines:\n{tail(body.strip(chr(10)), SHOWN_TAIL)}"
    return Check(KEY, NAME, CheckStatus.ERROR, message, "")


def reason(check: Check) -> str:
    """The reason an ``unreadable`` check gives (its message's first line, without the lead)."""
    return check.message.split("\n", 1)[0].removeprefix(LEAD)


def reason_of(fmt: str, exc: BaseException) -> str:
    """Why a parser refused or failed, in words."""
    from reviewer.parsers.junit import UnsafeXML

    if isinstance(exc, UnsafeXML):
        return f"{fmt}: it declares a DOCTYPE or ENTITY, refused (entity expansion can exhaust memory)"
    if isinstance(exc, ET.ParseError):
        return f"{fmt}: not well-formed XML ({exc})"
    if isinstance(exc, RecursionError):
        return f"{fmt}: nested too deeply to read"
    if isinstance(exc, MemoryError):
        return f"{fmt}: too large to parse"
    if isinstance(exc, ValueError):
        return f"{fmt}: {str(exc)[:200] or 'not a document of this format'}"
    return f"{fmt}: the parser failed ({type(exc).__name__}: {str(exc)[:160]})"
