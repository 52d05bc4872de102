"""Parser for pytest's terminal output with ``-rA`` (the short test summary of every outcome).

Sections between ``==== NAME ====`` banners: ``ERRORS``, ``FAILURES``, ``PASSES`` hold one
body per test under a ``____ title ____`` banner (the title is the test's name within its
module: ``test_a[1-2]``, ``TestCls.test_m``, ``ERROR at setup of test_a``,
``ERROR collecting test_x.py``). The ``short test summary info`` lists one line per outcome:

- ``PASSED id`` -> pass; ``XPASS id`` -> pass (an unexpected pass is not a failure; a strict
  one is printed by pytest as ``FAILED id`` with ``[XPASS(strict)]``);
- ``FAILED id - msg`` -> fail; ``ERROR id - msg`` -> error;
- ``XFAIL id - reason`` -> skip (an expected failure is not a failure);
- ``SKIPPED [n] file:line: reason`` -> skip with key ``skip:file:line``;
- ``ERROR file.py`` (no ``::``: a collection error) -> error with key ``collect:file.py``.

Keys are node ids (``test_x.py::test_a[1-2]``). The message is the test's section body when
there is one, else the summary message. The location is the traceback's last
``file.py:NN: ...`` line (for skips, the ``file:line`` of the summary line). When the output
has sections but no summary lines, checks come from the section titles instead.
"""

from __future__ import annotations

from collections import deque

from reviewer.model.check import Check, CheckStatus

_WORDS = {
    "PASSED": CheckStatus.PASS,
    "XPASS": CheckStatus.PASS,
    "FAILED": CheckStatus.FAIL,
    "ERROR": CheckStatus.ERROR,
    "SKIPPED": CheckStatus.SKIP,
    "XFAIL": CheckStatus.SKIP,
}
_BODY_SECTIONS = {"ERRORS", "FAILURES", "PASSES", "XPASSES", "XFAILURES"}
_SUMMARY = "short test summary info"
_OUTCOME_WORDS = ("passed", "failed", "error", "errors", "skipped", "xfailed", "xpassed", "no tests ran",
                  "deselected", "warning", "warnings")
_ERROR_PREFIXES = ("ERROR at setup of ", "ERROR at teardown of ", "ERROR at call of ")


def banner(line: str, char: str) -> str | None:
    """The title of a ``=== title ===`` (or ``___ title ___``) line, else None."""
    if len(line) < 5 or line[0] != char or line[-1] != char:
        return None
    left = len(line) - len(line.lstrip(char))
    right = len(line.rstrip(char))
    if right <= left + 1 or line[left] != " " or line[right - 1] != " ":
        return None
    title = line[left + 1:right - 1].strip()
    return title or None


def is_final_summary(line: str) -> bool:
    """``==== 1 failed, 2 passed in 0.12s ====`` (or without the banner)."""
    s = line.strip().strip("=").strip()
    if " in " not in s or not s.endswith("s") or len(s) > 300:
        return False
    return any(w in s for w in _OUTCOME_WORDS) and s.rsplit(" in ", 1)[1].rstrip("s").replace(".", "").isdigit()


def traceback_location(body: list[str]) -> str:
    """``file.py:NN`` of the last ``file.py:NN: something`` line of a traceback body."""
    found = ""
    for line in body:
        if line.startswith("---") and "Captured" in line:
            break
        if ".py:" not in line or line[:1].isspace():
            continue
        path, sep, rest = line.partition(".py:")
        digits = rest.split(":", 1)
        if " " in path or not path or len(digits) < 2 or not digits[0].isdigit() or not digits[1].startswith(" "):
            continue
        found = f"{path}.py:{digits[0]}"
    return found


def _title_of(nodeid: str) -> str:
    """The section title pytest prints for a node id: the part after the module, dotted."""
    _, sep, rest = nodeid.partition("::")
    return rest.replace("::", ".") if sep else nodeid


def _split_id(rest: str) -> tuple[str, str]:
    """``id - message`` -> (id, message), not splitting inside a ``[param - id]``."""
    cut = rest.find(" - ")
    bracket = rest.find("[")
    if 0 <= bracket < cut and "]" not in rest[bracket:cut]:
        close = rest.find("]", cut)
        if close != -1:
            nxt = rest.find(" - ", close)
            cut = nxt if nxt != -1 else -1
            if cut == -1:
                return rest.strip(), ""
    if cut == -1:
        return rest.strip(), ""
    return rest[:cut].strip(), rest[cut + 3:].strip()


class _Bodies:
    """Section bodies by (section kind, title), taken in order when a title repeats."""

    def __init__(self) -> None:
        self.by_title: dict[tuple[str, str], deque[list[str]]] = {}
        self.order: list[tuple[str, str, list[str]]] = []

    def add(self, section: str, title: str) -> list[str]:
        kind, name = section, title
        if section == "ERRORS":
            if title.startswith("ERROR collecting "):
                kind, name = "COLLECT", title[len("ERROR collecting "):].strip()
            else:
                for prefix in _ERROR_PREFIXES:
                    if title.startswith(prefix):
                        name = title[len(prefix):].strip()
        body: list[str] = []
        self.by_title.setdefault((kind, name), deque()).append(body)
        self.order.append((kind, name, body))
        return body

    def take(self, kind: str, name: str) -> list[str] | None:
        queue = self.by_title.get((kind, name))
        return queue.popleft() if queue else None


def _message(body: list[str] | None, fallback: str) -> str:
    if body is None:
        return fallback
    text = "\n".join(body).strip("\n")
    return text or fallback


def _summary_check(word: str, rest: str, bodies: _Bodies) -> Check:
    status = _WORDS[word]
    if word == "SKIPPED" and rest.startswith("["):
        _, _, rest = rest.partition("] ")
        loc, _, reason = rest.partition(": ")
        key = f"skip:{loc.strip()}"
        return Check(key, key, status, reason.strip(), loc.strip())
    nodeid, msg = _split_id(rest)
    if word == "ERROR" and "::" not in nodeid:
        body = bodies.take("COLLECT", nodeid)
        key = f"collect:{nodeid}"
        return Check(key, key, status, _message(body, msg), traceback_location(body or []))
    section = {"FAILED": "FAILURES", "ERROR": "ERRORS", "PASSED": "PASSES", "XPASS": "XPASSES"}.get(word, "")
    body = bodies.take(section, _title_of(nodeid)) if section else None
    location = traceback_location(body) if body is not None and status != CheckStatus.PASS else ""
    return Check(nodeid, nodeid, status, _message(body, msg), location)


def parse(text: str) -> list[Check]:
    """Checks from pytest ``-rA`` output."""
    bodies = _Bodies()
    section = ""
    body: list[str] | None = None
    checks: list[Check] = []
    more: dict[int, list[str]] = {}  # continuation lines of a summary entry (older pytest)
    for line in text.split("\n"):
        title = banner(line, "=") if line.startswith("=") else None
        if title is not None:
            section, body = title, None
            continue
        if section in _BODY_SECTIONS:
            sub = banner(line, "_") if line.startswith("_") else None
            if sub is not None:
                body = bodies.add(section, sub)
            elif body is not None:
                body.append(line)
        elif section == _SUMMARY:
            word, _, rest = line.partition(" ")
            if word in _WORDS and rest.strip():
                checks.append(_summary_check(word, rest.strip(), bodies))
            elif line.startswith("  ") and checks and line.strip():  # older pytest: "  reason: ..."
                more.setdefault(len(checks) - 1, []).append(line.strip())
    for i, lines in more.items():
        c = checks[i]
        checks[i] = Check(c.key, c.name, c.status, "\n".join([c.message, *lines]).strip(), c.location)
    if checks:
        return checks
    return _from_sections(bodies)


def _from_sections(bodies: _Bodies) -> list[Check]:
    """Checks from section titles alone (no summary lines: ``-rA`` missing or output cut)."""
    status_of = {"FAILURES": CheckStatus.FAIL, "ERRORS": CheckStatus.ERROR, "COLLECT": CheckStatus.ERROR,
                 "PASSES": CheckStatus.PASS, "XPASSES": CheckStatus.PASS, "XFAILURES": CheckStatus.SKIP}
    out = []
    for kind, name, body in bodies.order:
        key = f"collect:{name}" if kind == "COLLECT" else name
        status = status_of.get(kind, CheckStatus.FAIL)
        loc = traceback_location(body) if status in (CheckStatus.FAIL, CheckStatus.ERROR) else ""
        out.append(Check(key, key, status, _message(body, ""), loc))
    return out


def looks_like(text: str) -> bool:
    """True for pytest terminal output."""
    if "test session starts" in text[:20_000] or f"= {_SUMMARY} =" in text:
        return True
    for line in reversed(text[-2_000:].split("\n")):
        if line.strip():
            return is_final_summary(line)
    return False
