"""Linear-time reading of recorded lines: tokens that keep quoted strings and bracket groups
whole, assertion and expected/actual shapes, and the cooperative cancel check.

Recorded text is hostile: a grader output can hold thousands of crafted lines. Everything here
runs in time linear in its input (one pass, no backtracking regular expression), so a line of
``'x = ' * 240`` costs what its length costs. Callers that loop over lines poll :func:`poll`
so a worker can stop within a line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from reviewer.model.records import record

Cancel = Callable[[], bool]
"""A cancel check: returns True when the caller wants the work stopped."""

QUOTES = "\"'`"
OPEN = "([{"
CLOSE = ")]}"
QUOTE_STARTS = frozenset(" \t([{,=:;!<>")
STRING_PREFIXES = frozenset("bruf")


class Cancelled(Exception):
    """The cancel check said stop; the work was abandoned part way."""


def poll(cancel: Cancel | None) -> None:
    """Raise :class:`Cancelled` when ``cancel`` says so (cheap enough to call once a line)."""
    if cancel is not None and cancel():
        raise Cancelled()


class Tok(NamedTuple):
    """A token of a line: its text and where it starts and ends.

    Attributes:
        text: the token as written.
        start: offset of its first character in the line.
        end: offset just past its last character.
        quoted: the whole token is one quoted string (``'a'``, ``"a b"``, `` `a` ``).
        group: the whole token is one bracket group (``[1, 2]``, ``{'a': 1}``, ``(1, 2)``).
        commas: a ``,`` or ``;`` occurs in it outside a quoted string.
    """

    text: str
    start: int
    end: int
    quoted: bool = False
    group: bool = False
    commas: bool = False


PIECE = re.compile(
    r"""(?P<q>(?:(?<=[\s(\[{,=:;!<>])|^)[bruf]{0,2}(?:"[^"\\\n]*(?:\\.[^"\\\n]*)*"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'|`[^`\n]*`))"""
    r"""|(?P<s>\s+)|(?P<w>[^\s()\[\]{}"'`]+)|(?P<b>.)""",
    re.DOTALL,
)
"""Pieces of a line: a quoted string where one may start, whitespace, a run of plain
characters, or one other character. Each alternative is linear (the quoted ones unrolled,
and a failing quote can only fail once per quote character: see :func:`tokens`)."""
SPECIAL = re.compile(r"[\"'`()\[\]{}]")


def tokens(s: str, brackets: bool = True) -> list[Tok]:
    """Whitespace-separated tokens; quoted strings and (balanced) bracket groups stay whole.

    A quote opens a string only at the start of a token (or after ``(``, ``=``, ``,``...), so
    an apostrophe inside a word is a plain character. The scan is linear in the line."""
    if not SPECIAL.search(s):
        return [Tok(m.group(), m.start(), m.end(), False, False, "," in m.group() or ";" in m.group())
                for m in PLAIN.finditer(s)]
    out: list[Tok] = []
    start = -1
    depth = 0
    commas = False
    pieces = 0
    quoted_piece = False
    for m in PIECE.finditer(s):
        kind = m.lastgroup
        if kind == "s" and depth == 0:
            if start >= 0:
                out.append(make_tok(s, start, m.start(), quoted_piece and pieces == 1, commas))
                start, commas, pieces = -1, False, 0
            continue
        if start < 0:
            start, quoted_piece = m.start(), False
        pieces += 1
        if kind == "q":
            quoted_piece = pieces == 1
        elif kind == "w":
            commas = commas or (depth == 0 and ("," in m.group() or ";" in m.group()))
        elif kind == "b" and brackets:
            c = m.group()
            if c in OPEN:
                depth += 1
            elif c in CLOSE and depth:
                depth -= 1
    if start >= 0:
        out.append(make_tok(s, start, len(s), quoted_piece and pieces == 1, commas))
    if brackets and depth:
        return tokens(s, brackets=False)
    return out


PLAIN = re.compile(r"\S+")


def make_tok(s: str, start: int, end: int, quoted: bool, commas: bool) -> Tok:
    """A token, noting whether it is one quoted string or one bracket group."""
    text = s[start:end]
    group = len(text) >= 2 and text[0] in OPEN and text[-1] == CLOSE[OPEN.index(text[0])]
    return Tok(text, start, end, quoted, group, commas)


def quote_end(s: str, i: int, dead: set[str]) -> int:
    """The offset of the quote closing the one at ``i`` (``-1`` when it never closes).

    A quote character that failed to close once never closes later in the same line (the scan
    after it would be the same), so ``dead`` remembers it and the line stays linear."""
    q = s[i]
    if q in dead:
        return -1
    j, n = i + 1, len(s)
    while j < n:
        c = s[j]
        if c == "\\" and q != "`":
            j += 2
        elif c == q:
            return j
        else:
            j += 1
    dead.add(q)
    return -1


def opens_quote(s: str, i: int) -> bool:
    """A quote at ``i`` starts a string: at the start of a token or after a string prefix."""
    if i == 0 or s[i - 1] in QUOTE_STARTS:
        return True
    return s[i - 1] in STRING_PREFIXES and (i == 1 or s[i - 2] in QUOTE_STARTS)


def top_comma(s: str) -> int:
    """The offset of the first ``,`` outside quotes and brackets (``-1`` when none)."""
    dead: set[str] = set()
    depth = 0
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in QUOTES and opens_quote(s, i):
            j = quote_end(s, i, dead)
            if j >= 0:
                i = j + 1
                continue
        if c in OPEN:
            depth += 1
        elif c in CLOSE and depth:
            depth -= 1
        elif c == "," and depth == 0:
            return i
        i += 1
    return -1


def is_quoted(text: str) -> bool:
    """The whole text is one quoted string."""
    t = text.strip()
    if len(t) < 2 or t[0] not in QUOTES:
        return False
    return quote_end(t, 0, set()) == len(t) - 1


@record
class Assertion:
    """``assert left op right[, message]`` as written (pytest's rewriting or a source line)."""

    left: str
    op: str
    right: str
    message: str = ""


ASSERT_OPS = ("==", "!=", "in", "not")


def assertion(line: str) -> Assertion | None:
    """Read ``[AssertionError: ]assert L op R[, msg]`` (op ``==``, ``!=``, ``in``, ``not in``)."""
    s = line.strip()
    if s.startswith("AssertionError:"):
        s = s[len("AssertionError:") :].lstrip()
    if not s.startswith("assert") or len(s) < 7 or not s[6].isspace():
        return None
    rest = s[7:]
    toks = tokens(rest)
    for k, t in enumerate(toks):
        if k == 0 or t.text not in ASSERT_OPS:
            continue
        op, end = t.text, t.end
        if op == "not":
            if k + 1 >= len(toks) or toks[k + 1].text != "in":
                continue
            op, end = "not in", toks[k + 1].end
        left = rest[: t.start].strip()
        right = rest[end:].strip()
        if not right:
            return None
        cut = top_comma(right)
        message = ""
        if cut >= 0:
            right, message = right[:cut].strip(), right[cut + 1 :].strip()
        return Assertion(left, op, right, message) if left and right else None
    return None


GOT_MARKERS = frozenset({"=", "returned", "returns", "gave", "got", "got:"})
WANT_WORDS = frozenset({"want", "wanted", "expected", "expect", "wants"})
GOT_WORDS = frozenset({"got", "found", "was", "received", "actual", "actually", "is"})


def words_of(toks: list[Tok]) -> list[str]:
    """Each token as a keyword: lower case, one trailing ``:`` removed ("" for long tokens)."""
    out = []
    for t in toks:
        w = t.text
        if len(w) > 12:
            out.append("")
            continue
        out.append(w.lower().removesuffix(":"))
    return out


def comma_counts(toks: list[Tok]) -> list[int]:
    """Prefix counts: ``out[k]`` is how many of the first ``k`` tokens hold a ``,`` or ``;``."""
    out = [0]
    for t in toks:
        out.append(out[-1] + t.commas)
    return out


def trim_end(text: str) -> str:
    """A value without the ``,`` and ``;`` that end it (``"IIII",`` -> ``"IIII"``)."""
    trimmed = text[:-1] if text.endswith((",", ";")) else text
    return trimmed[:-1] if trimmed.endswith((",", ";")) else trimmed


def value_between(line: str, toks: list[Tok], first: int, last: int, counts: list[int]) -> str | None:
    """The value written by tokens ``first..last`` (a trailing ``,``/``;`` dropped), or None when
    it is not one value: several tokens with a ``,`` or ``;`` among them. Constant time but for
    the last token and the answer (``counts`` from :func:`comma_counts`)."""
    if last < first:
        return None
    if first == last:
        t = toks[first]
        if t.quoted or t.group:
            return t.text
        trimmed = trim_end(t.text)
        if is_quoted(trimmed) or make_tok(trimmed, 0, len(trimmed), False, False).group:
            return trimmed
        return None if ("," in trimmed or ";" in trimmed) else (trimmed.strip() or None)
    if counts[last] - counts[first]:
        return None
    if toks[last].commas:
        tail = trim_end(toks[last].text)
        if "," in tail or ";" in tail:
            return None
    return trim_end(line[toks[first].start : toks[last].end]).strip() or None


def got_want(line: str, toks: list[Tok] | None = None) -> tuple[str, str, str] | None:
    """``CALL = GOT, want WANT`` and friends (``returned``, ``gave``, ``got``; ``want``,
    ``expected``, ``should be``): (call, got, want), or None."""
    toks = tokens(line) if toks is None else toks
    words = words_of(toks)
    counts = comma_counts(toks)
    n = len(toks)
    want_at = [-1] * (n + 1)
    for k in range(n - 1, -1, -1):
        kw = words[k]
        is_want = kw in WANT_WORDS or (kw == "should" and k + 1 < n and words[k + 1] == "be")
        want_at[k] = k if is_want else want_at[k + 1]
    for m in range(n):
        if words[m] not in GOT_MARKERS:
            continue
        w = want_at[m + 1]
        if w < 0:
            return None
        skip = 2 if words[w] == "should" else 1
        if w + skip >= n:
            continue
        got = value_between(line, toks, m + 1, w - 1, counts)
        if got is None:
            continue
        want = line[toks[w + skip - 1].end :].strip()
        return line[: toks[m].start].strip(), got, want
    return None


def expected_got(line: str, toks: list[Tok] | None = None) -> tuple[str, str] | None:
    """``expected WANT, got GOT`` (``but got``, ``found``, ``was``, ``received``, ``actual``,
    ``is``): (want, got), or None."""
    toks = tokens(line) if toks is None else toks
    words = words_of(toks)
    counts = comma_counts(toks)
    n = len(toks)
    got_at = [-1] * (n + 1)
    for k in range(n - 1, -1, -1):
        got_at[k] = k if words[k] in GOT_WORDS else got_at[k + 1]
    for e in range(n):
        if words[e] != "expected":
            continue
        g = got_at[e + 2] if e + 2 <= n else -1
        if g < 0:
            return None
        if g >= n - 1:
            continue
        last = g - 2 if words[g - 1] == "but" and g - 2 > e else g - 1
        want = value_between(line, toks, e + 1, last, counts)
        if want is not None:
            return want, line[toks[g].end :].strip()
    return None


def junit(line: str) -> tuple[str, str] | None:
    """JUnit's ``expected:<WANT> but was:<GOT>``: (want, got), or None."""
    i = line.find("expected:")
    while i >= 0:
        j = i + len("expected:")
        rest = line[j:].lstrip()
        if rest.startswith("<"):
            open_at = len(line) - len(rest)
            k = line.find("but was:", open_at)
            while k >= 0:
                want = line[open_at + 1 : k].rstrip()
                if want.endswith(">"):
                    tail = line[k + len("but was:") :].lstrip()
                    close = tail.find(">", 1)
                    if tail.startswith("<") and close > 0:
                        return want[:-1], tail[1:close]
                    return None
                k = line.find("but was:", k + 1)
            return None
        i = line.find("expected:", j)
    return None


def labelled(line: str, labels: tuple[str, ...]) -> str | None:
    """``label: value`` on a line of its own (``expected: 5``), the value stripped, or None."""
    s = line.lstrip()
    low = s.lower()
    for label in labels:
        if low.startswith(label):
            rest = s[len(label) :].lstrip()
            if rest.startswith(":") and rest[1:].strip():
                return rest[1:].strip()
    return None


def quoted_values(text: str) -> list[str]:
    """The quoted strings of a text, in order (``["10 feet", "20 feet"]`` -> both)."""
    dead: set[str] = set()
    out = []
    i, n = 0, len(text)
    while i < n:
        if text[i] in QUOTES:
            j = quote_end(text, i, dead)
            if j >= 0:
                out.append(text[i : j + 1])
                i = j + 1
                continue
        i += 1
    return out
