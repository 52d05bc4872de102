"""Parser for JUnit XML (pytest ``--junitxml``, go-junit-report, most CI tools).

Every ``testcase`` element anywhere in the document is a check, whatever wraps it: a
``testsuites`` root, several or nested ``testsuite`` elements, or a bare ``testsuite`` root.

- key: ``classname::name`` (``name`` alone when there is no classname);
- status: a ``failure`` child -> fail, ``error`` -> error, ``skipped`` -> skip (pytest writes
  xfail as ``skipped`` too), none -> pass;
- message: the ``message`` attribute and the text of that child, then the test's
  ``system-out`` / ``system-err``;
- location: the traceback's last ``file.py:NN: ...`` line when there is one, else the
  ``file``/``line`` attributes.

Safety: a document that declares a DOCTYPE or an ENTITY is refused (entity expansion bombs);
the caller falls back to the plain-text check.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from reviewer.model.check import Check, CheckStatus
from reviewer.parsers.pytest_text import traceback_location
from reviewer.parsers.text import find_location

_CHILD_STATUS = {"failure": CheckStatus.FAIL, "error": CheckStatus.ERROR, "skipped": CheckStatus.SKIP}


class UnsafeXML(ValueError):
    """The document declares a DOCTYPE or entities; it is not parsed."""


def _local(tag: object) -> str:
    """Tag name without a ``{namespace}``."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def _text_of(el: ET.Element) -> str:
    return "".join(el.itertext())


def _case(tc: ET.Element) -> Check:
    classname = (tc.get("classname") or "").strip()
    name = (tc.get("name") or "").strip() or "?"
    key = f"{classname}::{name}" if classname else name
    status = CheckStatus.PASS
    parts: list[str] = []
    outputs: list[str] = []
    chosen: ET.Element | None = None
    for child in tc:
        tag = _local(child.tag)
        if tag in _CHILD_STATUS:
            if chosen is None or (tag == "failure" and _local(chosen.tag) != "failure"):
                chosen = child
        elif tag in ("system-out", "system-err"):
            text = _text_of(child).strip("\n")
            if text:
                outputs.append(f"--- {tag} ---\n{text}")
    if chosen is not None:
        status = _CHILD_STATUS[_local(chosen.tag)]
        message = (chosen.get("message") or "").strip()
        body = _text_of(chosen).strip("\n")
        if message and message not in body:
            parts.append(message)
        if body:
            parts.append(body)
    parts.extend(outputs)
    text = "\n\n".join(parts)
    location = ""
    if status in (CheckStatus.FAIL, CheckStatus.ERROR):
        location = traceback_location(text.split("\n")) or find_location(text, ("_test.go", ".go"))
    if not location and tc.get("file"):
        line = (tc.get("line") or "").strip()
        location = f"{tc.get('file')}:{line}" if line else str(tc.get("file"))
    return Check(key, key, status, text, location)


def parse(text: str) -> list[Check]:
    """Checks from a JUnit XML document; raises on malformed or unsafe XML."""
    upper = text.upper()
    if "<!DOCTYPE" in upper or "<!ENTITY" in upper:
        raise UnsafeXML("DOCTYPE/ENTITY declarations are not accepted")
    start = text.find("<")
    if start < 0:
        raise ValueError("no XML element")
    body = text[start:]
    if body.startswith("<?xml"):
        end = body.find("?>")
        body = body[end + 2:] if end != -1 else body  # the str is decoded already; drop encoding=
    root = ET.fromstring(body)
    cases = [root] if _local(root.tag) == "testcase" else [el for el in root.iter() if _local(el.tag) == "testcase"]
    return [_case(tc) for tc in cases]


def looks_like(text: str) -> bool:
    """True for a JUnit XML document."""
    head = text.lstrip()[:2_000]
    return head.startswith("<") and ("<testsuite" in head or "<testcase" in head)
