"""Notation: reduce a value as a grader printed it to a form where notation no longer matters.

Two values that differ only in case, boolean vocabulary (``yes``/``true``/``1``/``on``),
whitespace, list separators (``,`` ``;`` ``->`` ``-`` space), quoting, decimal precision, key names
or field order reduce to the same :class:`Canon`. Everything here is pure and fast; nothing is
evaluated (no ``eval``/``literal_eval``): values are tokenised as text.
"""

from __future__ import annotations

import json
import re

from reviewer.model.records import record

TRUE_WORDS = frozenset({"yes", "true", "1", "on"})
FALSE_WORDS = frozenset({"no", "false", "0", "off"})
NULL_WORDS = frozenset({"none", "null", "nil"})
QUOTES = "\"'`"
MAX_VALUE = 20_000

NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")
KV_KEY = re.compile(r"""(?:^|(?<=[\s,;{(\[]))["']?([A-Za-z_][\w.-]{0,63})["']?\s*[=:](?![=:/])\s*""")
WRAPPED = re.compile(r"^(?:map|[A-Za-z_][\w.]*)?[\[{(](.*)[\]})]$", re.DOTALL)
ARROWS = ("->", "=>", "→")
WORD_DASH = re.compile(r"(?<=[A-Za-z0-9])-(?=[A-Za-z0-9])")
SEPARATORS = re.compile(r"[,;|]")
BRACKETS = re.compile(r"[\[\](){}]")
CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


ESCAPES = re.compile(r"\\([nt\\'\"])")
ESCAPED = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"'}


def strip_quotes(value: str) -> str:
    """The value without one pair of matching outer quotes (``"x"``, ``'x'``, `` `x` ``), with
    the escapes a repr or a Go ``%q`` adds (``\\n``, ``\\'``) turned back into characters."""
    v = value.strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in QUOTES:
        inner = v[1:-1]
    elif len(v) >= 3 and v[0] in "bru" and v[1] == v[-1] and v[1] in "\"'":
        inner = v[2:-1]
    else:
        return v
    return ESCAPES.sub(lambda m: ESCAPED[m.group(1)], inner) if "\\" in inner else inner


def is_number(value: str) -> bool:
    """True for a plain decimal number (``12``, ``-0.5``, ``1e3``)."""
    return bool(NUMBER.match(value.strip()))


def decimals(value: str) -> int:
    """How many digits a plain number has after its decimal point (0 without one)."""
    v = value.strip().lower()
    if "e" in v or "." not in v:
        return 0
    return len(v.split(".", 1)[1])


def has_digit(value: str) -> bool:
    """True when the value carries a digit (a value bound to an input, shown by its shape)."""
    return any(ch.isdigit() for ch in value)


def words(text: str) -> list[str]:
    """Lower-case words, camelCase and snake_case split, plurals made singular."""
    text = CAMEL.sub(" ", text)
    return [singular(w) for w in re.findall(r"[a-z0-9]+", text.lower())]


def singular(word: str) -> str:
    """A crude singular: ``edges`` -> ``edge``, ``entries`` -> ``entry``, ``boxes`` -> ``box``."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ses", "xes", "ches", "shes", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@record
class Token:
    """One scalar after normalisation: kind (bool, null, num, str) and its value."""

    kind: str
    value: object


@record
class Canon:
    """A normalised value: an ordered key=value set, or a sequence of scalar tokens.

    Attributes:
        pairs: (key, raw value) in the order printed, when the value is a key=value set.
        tokens: the scalar tokens, when it is not.
    """

    pairs: tuple[tuple[str, str], ...] | None = None
    tokens: tuple[Token, ...] = ()


def scalar(raw: str) -> Token:
    """One token: booleans, nulls and numbers by meaning, text by its lower-case form."""
    v = strip_quotes(raw).strip()
    low = v.lower()
    if low in TRUE_WORDS:
        return Token("bool", True)
    if low in FALSE_WORDS:
        return Token("bool", False)
    if low in NULL_WORDS:
        return Token("null", None)
    if NUMBER.match(low):
        try:
            return Token("num", float(low))
        except (ValueError, OverflowError):
            pass
    return Token("str", low)


def split_tokens(value: str) -> list[str]:
    """Split a value on every list notation: separators, arrows, word dashes, brackets, spaces."""
    v = value
    for arrow in ARROWS:
        if arrow in v:
            v = v.replace(arrow, " ")
    v = WORD_DASH.sub(" ", v)
    v = SEPARATORS.sub(" ", v)
    v = BRACKETS.sub(" ", v)
    return [strip_quotes(t) for t in v.split() if strip_quotes(t)]


def kv_pairs(value: str) -> tuple[tuple[str, str], ...] | None:
    """The value as (key, value) pairs when the whole of it is ``k=v`` / ``k: v`` items."""
    v = value.strip()
    m = WRAPPED.match(v)
    if m:
        v = m.group(1).strip()
    matches = list(KV_KEY.finditer(v))
    if not matches or v[: matches[0].start()].strip(" ,;"):
        return None
    out = []
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(v)
        item = v[m.end() : end].strip().rstrip(",;").strip()
        out.append((m.group(1), item))
    return tuple(out)


def json_pairs(value: str) -> tuple[tuple[str, str], ...] | None:
    """A JSON object as (key, value-as-text) pairs, or None."""
    v = value.strip()
    if not (v.startswith("{") and v.endswith("}")) or len(v) > MAX_VALUE:
        return None
    try:
        doc = json.loads(v)
    except (ValueError, RecursionError):
        return None
    if not isinstance(doc, dict):
        return None
    return tuple((str(k), x if isinstance(x, str) else json.dumps(x)) for k, x in doc.items())


def canon(value: str) -> Canon:
    """The normalised form of a value as printed."""
    v = value[:MAX_VALUE].strip()
    inner = strip_quotes(v)
    pairs = json_pairs(inner) or kv_pairs(inner)
    if pairs:
        return Canon(pairs=pairs)
    return Canon(tokens=tuple(scalar(t) for t in split_tokens(inner)))


def key_form(key: str) -> str:
    """A key with case and ``_``/``-``/``.`` differences removed."""
    return "".join(words(key))


def tokens_of_scalar(raw: str) -> tuple[Token, ...]:
    """The scalar tokens of one value (never parsed as a key=value set)."""
    return tuple(scalar(t) for t in split_tokens(strip_quotes(raw)))
