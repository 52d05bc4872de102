"""Notation near-misses: the expected and the actual value differ only in how they are written.

A pair is flagged when the two raw values differ and their normalised forms
(:mod:`reviewer.analysis.reading.notation`) are equal. The notations told apart: ``case``,
``vocabulary`` (``yes``/``true``/``1``/``on``, ``none``/``null``), ``whitespace``,
``separator``, ``quoting``, ``number format`` (``1`` vs ``1.0``), ``precision`` (more decimals
than the expected value, equal once rounded), ``key renamed`` and ``field order``. A near-miss
is a hint for the reviewer, never a verdict.
"""

from __future__ import annotations

import re

from reviewer.analysis.reading.notation import (
    QUOTES,
    Token,
    canon,
    decimals,
    is_number,
    key_form,
    split_tokens,
    strip_quotes,
)
from reviewer.analysis.reading.pairs import Pair, pairs_from_message
from reviewer.analysis.reading.scan import quoted_values
from reviewer.model.records import record

MAX_TOKENS = 200
MAX_PROSE = 20_000
MAX_PAIRS = 200
PROSE_PUNCT = ".,!?:;()[]\"'`*_"
SKELETON = re.compile(r"[A-Za-z0-9_.+\u00c0-\uffff]+")


@record
class NearMiss:
    """An expected and an actual value equal but for notation.

    Attributes:
        expected: the expected value as printed.
        actual: the actual value as printed.
        notations: how they differ (``case``, ``vocabulary: true for yes``, ``key renamed:
            trail for path`` ...), in a stable order.
        line: the failure-text line the pair came from.
        kind: the main difference: ``renamed-key``, ``vocabulary``, ``separator``, ``shape``,
            ``case``, ``precision``, ``quoting``, ``number format``, ``field order``.
        check: the check id (``grader:key``) it was read for ("" when not known).
        wanted_key: the key the check reads ("" when the value is not under a key).
        wanted: what the check wants: the expected value, the separator it splits on
            (``separator``), or the kind of value it reads (``shape``); "" when unknown.
        found_key: the key the output holds it under ("" when not under a key).
        found: what the output holds instead: the printed value, or the separator it used.
        towards: the notation the check demanded is one the brief does not state, so the miss
            is evidence towards specification; False when the brief states it (the program
            ignored the brief).
        why: where the brief states it, when it does (``brief line 11``).
        rejoin: for a renamed key whose list is also joined another way, (the separator the
            program used, the one the check splits on); () otherwise.
    """

    expected: str
    actual: str
    notations: tuple[str, ...]
    line: str = ""
    kind: str = ""
    check: str = ""
    wanted_key: str = ""
    wanted: str = ""
    found_key: str = ""
    found: str = ""
    towards: bool = True
    why: str = ""
    rejoin: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line: ``expected 'yes' | actual 'true' | vocabulary: true for yes``."""
        return f"expected {self.expected} | actual {self.actual} | {', '.join(self.notations)}"


def kind_of(notations: tuple[str, ...]) -> str:
    """The main difference among a near-miss's notations."""
    order = ("key renamed", "vocabulary", "separator", "whitespace", "precision", "case", "key case", "quoting", "number format", "field order")
    for name in order:
        if any(n.startswith(name) for n in notations):
            return {"key renamed": "renamed-key", "whitespace": "separator", "key case": "case"}.get(name, name)
    return notations[0].split(":", 1)[0] if notations else ""


def token_match(e: Token, a: Token, e_raw: str, a_raw: str) -> list[str] | None:
    """How two tokens differ in notation ([] when not at all), or None when they really differ."""
    e_text, a_text = strip_quotes(e_raw), strip_quotes(a_raw)
    if e == a:
        notes = []
        if e.kind in ("bool", "null") and e_text.lower() != a_text.lower():
            notes.append(f"vocabulary: {a_text} for {e_text}")
        elif e.kind == "num" and e_text != a_text:
            notes.append("number format")
        elif e_text != a_text and e_text.lower() == a_text.lower():
            notes.append("case")
        return notes
    if e.kind == "num" and a.kind == "num" and is_number(e_text) and is_number(a_text):
        places = decimals(e_text)
        if places and decimals(a_text) > places and round(float(a_text), places) == float(e_text):
            return [f"precision: {decimals(a_text)} decimals for {places}"]
        expected, actual = float(e_text), float(a_text)
        if expected != actual and abs(actual - expected) <= 1e-9 * max(1.0, abs(expected)):
            return ["precision: a floating-point rounding error where an exact value is expected"]
    return None


def skeleton(value: str) -> str:
    """What is left of a value once its words and numbers are taken out: its separators."""
    return SKELETON.sub("x", strip_quotes(value).strip())


def layout_notes(e_raw: str, a_raw: str) -> list[str]:
    """Differences in quoting, separators and whitespace between two raw values."""
    notes = []
    e_q = {c for c in e_raw.strip()[:1] + e_raw.strip()[-1:] if c in QUOTES}
    a_q = {c for c in a_raw.strip()[:1] + a_raw.strip()[-1:] if c in QUOTES}
    if e_q != a_q:
        notes.append("quoting")
    e_s, a_s = skeleton(e_raw), skeleton(a_raw)
    if e_s != a_s:
        if re.sub(r"\s+", " ", e_s) == re.sub(r"\s+", " ", a_s):
            notes.append("whitespace")
        else:
            notes.append("separator")
    return notes


def quoted_items(value: str) -> list[str] | None:
    """The items of a bracketed sequence of quoted strings (``('4,', '4')``), else None."""
    v = value.strip()
    if len(v) < 2 or v[0] not in "([{" or v[-1] != ")]}"["([{".index(v[0])]:
        return None
    items = quoted_values(v[1:-1])
    rest = v[1:-1]
    for item in items:
        rest = rest.replace(item, "", 1)
    return items if items and not rest.strip(" ,;") else None


def match_items(e_items: list[str], a_items: list[str]) -> list[str] | None:
    """Notation differences between two sequences of quoted items, item by item."""
    notes: list[str] = []
    for e, a in zip(e_items, a_items):
        if strip_quotes(e) == strip_quotes(a):
            continue
        found = match_sequence(e, a)
        if found is None:
            return None
        notes.extend(n for n in found if n not in notes)
    return notes


def match_sequence(e_raw: str, a_raw: str) -> list[str] | None:
    """Notation differences between two plain (not key=value) values, or None."""
    e_items, a_items = quoted_items(e_raw), quoted_items(a_raw)
    if e_items is not None and a_items is not None and len(e_items) == len(a_items) > 1:
        return match_items(e_items, a_items)
    e_tok, a_tok = split_tokens(strip_quotes(e_raw)), split_tokens(strip_quotes(a_raw))
    if len(e_tok) != len(a_tok) or not e_tok or len(e_tok) > MAX_PROSE:
        return None
    e_can, a_can = canon(e_raw).tokens, canon(a_raw).tokens
    if len(e_can) != len(e_tok) or len(a_can) != len(a_tok):
        return None
    notes: list[str] = []
    for et, at, er, ar in zip(e_can, a_can, e_tok, a_tok):
        found = token_match(et, at, er, ar)
        if found is None:
            return None
        notes.extend(n for n in found if n not in notes)
    notes.extend(n for n in layout_notes(e_raw, a_raw) if n not in notes)
    return notes


def match_pairs(e_pairs: tuple[tuple[str, str], ...], a_pairs: tuple[tuple[str, str], ...]) -> list[str] | None:
    """Notation differences between two key=value sets (the actual may hold more keys).

    An expected key absent from the actual set is *renamed* when exactly one printed key the
    expectation does not name carries an equal value."""
    if len(e_pairs) > MAX_PAIRS or len(a_pairs) > MAX_PAIRS:
        return None
    notes: list[str] = []
    by_key = {key_form(k): (i, k, v) for i, (k, v) in enumerate(a_pairs)}
    expected_keys = {key_form(k) for k, _ in e_pairs}
    used: list[int] = []
    for ek, ev in e_pairs:
        hit = by_key.get(key_form(ek))
        if hit is not None and hit[0] not in used:
            i, ak, av = hit
            found = value_notes(ev, av)
            if found is None:
                return None
            if ak != ek:
                found.append("key case")
        else:
            candidates = []
            for j, (ak, av) in enumerate(a_pairs):
                if j in used or key_form(ak) in expected_keys:
                    continue
                notes_j = value_notes(ev, av)
                if notes_j is not None:
                    candidates.append((j, ak, notes_j))
            if len(candidates) != 1:  # no printed value matches, or several do: not a rename
                return None
            i, ak, found = candidates[0]
            found.append(f"key renamed: {ak} for {ek}")
        used.append(i)
        notes.extend(n for n in found if n not in notes)
    if len(used) > 1 and used != sorted(used):
        notes.append("field order")
    return notes


def value_notes(e_raw: str, a_raw: str) -> list[str] | None:
    """Differences of one value of a key=value set ([] when written the same)."""
    if strip_quotes(e_raw) == strip_quotes(a_raw):
        return []
    return match_sequence(e_raw, a_raw)


def prose_tokens(text: str) -> list[str]:
    """Words of prose for a containment check, edge punctuation removed."""
    return [t.strip(PROSE_PUNCT) for t in split_tokens(text) if t.strip(PROSE_PUNCT)]


def first_token(raw: str) -> Token:
    """The normalised token of one word of prose."""
    toks = canon(raw).tokens
    return toks[0] if toks else Token("str", raw.lower())


def match_contained(e_raw: str, a_raw: str) -> list[str] | None:
    """Notation differences when the expected value should occur inside the actual text."""
    e_tok = prose_tokens(strip_quotes(e_raw))[:MAX_TOKENS]
    a_tok = prose_tokens(strip_quotes(a_raw))[:MAX_PROSE]
    n = len(e_tok)
    if not n or n > len(a_tok):
        return None
    e_can = [first_token(t) for t in e_tok]
    a_can = [first_token(t) for t in a_tok]
    for start in range(len(a_tok) - n + 1):
        notes: list[str] = []
        for i in range(n):
            found = token_match(e_can[i], a_can[start + i], e_tok[i], a_tok[start + i])
            if found is None:
                break
            notes.extend(x for x in found if x not in notes)
        else:
            return notes or ["separator"]
    return None


def near_miss(expected: str, actual: str, relation: str = "equal", line: str = "") -> NearMiss | None:
    """A near-miss when the two values differ only in notation, else None."""
    e, a = expected.strip(), actual.strip()
    if not strip_quotes(e) or not strip_quotes(a) or e == a:
        return None
    if relation == "lead":
        words = prose_tokens(strip_quotes(a))
        n = len(prose_tokens(strip_quotes(e)))
        notes = match_sequence(e, " ".join(words[:n])) if n and len(words) >= n else None
        return NearMiss(e, a, tuple(notes), line, kind=kind_of(tuple(notes)), wanted=strip_quotes(e), found=strip_quotes(a)) if notes else None
    if relation == "contains":
        ce = canon(e)
        if ce.pairs is not None:
            ca = canon(a)
            notes = match_pairs(ce.pairs, ca.pairs) if ca.pairs is not None else None
        elif strip_quotes(e) in strip_quotes(a):
            return None
        else:
            notes = match_contained(e, a)
    else:
        ce, ca = canon(e), canon(a)
        if ce.pairs is not None and ca.pairs is not None:
            notes = match_pairs(ce.pairs, ca.pairs)
        elif ce.pairs is None and ca.pairs is None:
            notes = match_sequence(e, a)
        else:
            notes = None
    if not notes:
        return None
    return NearMiss(e, a, tuple(notes), line, kind=kind_of(tuple(notes)), wanted=strip_quotes(e), found=strip_quotes(a))


def near_misses(pairs: tuple[Pair, ...] | list[Pair]) -> tuple[NearMiss, ...]:
    """The near-misses among expected/actual pairs."""
    out = []
    seen: set[tuple[str, str]] = set()
    for p in pairs:
        if p.cut:
            continue
        nm = near_miss(p.expected, p.actual, p.relation, p.line)
        key = (strip_quotes(p.expected), strip_quotes(p.actual))
        if nm is not None and key not in seen:
            seen.add(key)
            out.append(nm)
    return tuple(out)


def near_misses_in(message: str) -> tuple[NearMiss, ...]:
    """The near-misses a failure text shows."""
    return near_misses(pairs_from_message(message))
