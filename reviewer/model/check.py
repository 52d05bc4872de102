"""Checks: one verdict of a grader on one thing it tested, and the ids that name failures."""

from __future__ import annotations

import enum

from reviewer.model.records import record


class CheckStatus(str, enum.Enum):
    """What a grader said about one check."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    SKIP = "skip"

    @classmethod
    def parse(cls, value: str) -> "CheckStatus":
        """Read a status word; raises ValueError for anything else."""
        return cls(value.strip().lower())


FAILING_STATUSES = frozenset({CheckStatus.FAIL, CheckStatus.ERROR})

OUTPUT_FORMATS: tuple[str, ...] = ("go-test-json", "go-test-v", "pytest", "junit", "candidate", "golden", "fallback")
"""The grader-output formats the parsers read (``reviewer.parsers``)."""


@record
class Check:
    """One check of a grader.

    Attributes:
        key: stable within one grader output: the test id (``TestA/sub``, a pytest node id,
            ``build``, ``test 3`` ...). Re-parsing the same output gives the same keys.
        name: what to show; usually the key.
        status: pass, fail, error or skip.
        message: the check's own output (the failure text), may be long.
        location: ``file:line`` when the grader said where, else "".
    """

    key: str
    name: str
    status: CheckStatus
    message: str = ""
    location: str = ""

    @property
    def failing(self) -> bool:
        """True for fail and error."""
        return self.status in FAILING_STATUSES


def check_id(grader: str, key: str) -> str:
    """The check id within a run: ``<grader>:<key>``."""
    return f"{grader}:{key}"


def failure_id(session: str, run: str, check: str) -> str:
    """The global failure id: ``<session>/<run>#<check id>``.

    Session and run ids are folder names, which never hold ``/`` or ``#``.
    """
    return f"{session}/{run}#{check}"


def split_failure_id(value: str) -> tuple[str, str, str]:
    """Split a global failure id into (session, run, check id); ValueError when malformed."""
    head, sep, check = value.partition("#")
    session, slash, run = head.partition("/")
    if not sep or not slash or not session or not run or not check or "/" in run:
        raise ValueError(f"not a failure id (want SESSION/RUN#GRADER:CHECK): {value!r}")
    return session, run, check


def dedupe_keys(checks: list[Check]) -> list[Check]:
    """Give repeated keys a ``#2``, ``#3`` suffix in order, so every key in a list is unique."""
    seen: dict[str, int] = {}
    out: list[Check] = []
    for c in checks:
        n = seen.get(c.key, 0) + 1
        seen[c.key] = n
        if n == 1:
            out.append(c)
        else:
            out.append(Check(f"{c.key}#{n}", c.name, c.status, c.message, c.location))
    return out
