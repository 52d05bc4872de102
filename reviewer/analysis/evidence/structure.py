"""Near misses from structure: the checker's keys and words paired one to one with the
program's, by the shape of the values, never by how the names are spelled.

A checker that reads ``mults`` from a program that printed ``steps`` has nothing in the two
names to go by; what it has is structure. The keys the checker reads that the program never
printed are paired with the keys the program printed that the checker never reads (leaving out
keys the brief names, which have a meaning of their own, and keys whose values only echo the
program's input): a pair is made only when it is forced, one key on each side whose values are of
the kind the other reads (a number, a list, a word). A vocabulary is paired the same way: the
words the program printed under a key the checker reads, with the checker's own words for that
key, one to one (from what the failure texts show the checker expected where the program printed
what, else from notation, else by elimination), and never a word the checker itself answers
with. Pure; bounded by the sizes of its inputs.
"""

from __future__ import annotations

import re

from reviewer.analysis.evidence.keys import KeyUse
from reviewer.analysis.reading.notation import is_number, scalar, strip_quotes

WORD = re.compile(r"^[A-Za-z_][\w-]{0,63}$")
LIST_SEPARATORS = ("->", "=>", "\u2192", ",", ";", "|", " ")
MAX_KEYS = 200
MAX_VALUES = 500


def shape_of(value: str) -> str:
    """``number``, ``list``, ``word`` or ``text``: what kind of value a printed one is."""
    v = strip_quotes(value).strip()
    if not v:
        return "text"
    if is_number(v):
        return "number"
    body = v[1:-1] if v[:1] in "[(" and v[-1:] in "])" else v
    for sep in LIST_SEPARATORS:
        items = [x for x in (body.split() if sep == " " else body.split(sep)) if x.strip()]
        if len(items) >= 2:
            return "list"
    if v != body:
        return "list"
    return "word" if WORD.match(v) else "text"


def wanted_shape(use: KeyUse, words: set[str]) -> str:
    """The kind of value the checker reads under a key: from how its source uses the value (a
    number, a list it splits), else ``word`` when it compares it with words, else ``any``."""
    if use.number:
        return "number"
    if use.split:
        return "list"
    return "word" if words else "any"


def fits(wanted: str, values: list[str]) -> bool:
    """True when printed values are of the kind the checker reads."""
    values = [v for v in values[:MAX_VALUES] if strip_quotes(v).strip()]  # nothing printed fits any kind
    if not values:
        return False
    if wanted == "any":
        return True
    shapes = [shape_of(v) for v in values]
    if wanted == "list":  # a list of one item (a walk of one node) is still a list
        return shapes.count("list") * 2 >= len(shapes) and all(s in ("list", "word", "number") for s in shapes)
    return all(s == wanted for s in shapes)


def pair_keys(missing: dict[str, str], extra: dict[str, list[str]]) -> dict[str, str]:
    """Forced one-to-one pairs {checker's key: program's key}: a missing key is paired with an
    extra one when that is the only extra key of the kind it reads still free, and no other
    missing key could take it. ``missing``: the checker's keys never printed, each with the kind
    it reads; ``extra``: the program's keys the checker never reads, each with its values."""
    if len(missing) > MAX_KEYS or len(extra) > MAX_KEYS:
        return {}
    fitting = {m: {e for e, values in extra.items() if fits(shape, values)} for m, shape in missing.items()}
    pairs: dict[str, str] = {}
    changed = True
    while changed:
        changed = False
        taken = set(pairs.values())
        for m in missing:
            if m in pairs:
                continue
            free = fitting[m] - taken
            if len(free) != 1:
                continue
            e = next(iter(free))
            if any(e in fitting[o] for o in missing if o != m and o not in pairs):
                continue
            pairs[m] = e
            taken.add(e)
            changed = True
    return pairs


def echoes(values: list[str], inputs: list[set[str]]) -> bool:
    """True when every value of a key is one of the tokens of the input of the run that printed it
    (``a=2 b=10`` for the input ``2 10``): an echo of the input, not a computed result."""
    if not values or len(values) != len(inputs):
        return False
    return all(strip_quotes(v) in tokens for v, tokens in zip(values, inputs))


def word_of(value: str) -> str:
    """A printed value as a word of a vocabulary ("" when it is not a word)."""
    v = strip_quotes(value).strip()
    return v if WORD.match(v) and not is_number(v) else ""


def vocabulary_pairs(printed: list[str], checker: set[str], seen: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """One-to-one pairs (program's word, checker's word) under one key.

    ``printed``: the values the program printed under the key; ``checker``: the words the
    checker compares that key's value with; ``seen``: (expected, printed) pairs the failure texts
    show. A word the checker itself answers with is never paired (it is an answer, not a
    notation); a pair comes from what was seen, else from notation (``true`` for ``yes``), else by
    elimination when one word is left on each side. Empty when the values are not words, or the
    pairing is not one to one."""
    words = [word_of(v) for v in printed[:MAX_VALUES]]
    if not words or not all(words) or not checker:
        return []
    own = sorted(set(words) - checker)
    if not own:
        return []
    pairs: dict[str, str] = {}
    for expected, actual in seen:
        e, a = strip_quotes(expected).strip(), strip_quotes(actual).strip()
        if a in own and e in checker:
            if pairs.get(a, e) != e:
                return []
            pairs[a] = e
    for a in own:
        if a not in pairs:
            same = [e for e in sorted(checker) if scalar(e) == scalar(a) and e != a]
            if len(same) == 1:
                pairs[a] = same[0]
    left = [a for a in own if a not in pairs]
    free = sorted(checker - set(pairs.values()) - set(words))
    if len(left) == 1 and len(free) == 1:
        pairs[left[0]] = free[0]
    targets = list(pairs.values())
    if len(set(targets)) != len(targets):
        return []
    return sorted(pairs.items())


def aligned_vocabulary(expected: list[str], actual: list[str]) -> list[tuple[str, str]]:
    """Two lists the same length whose words map one to one, position by position
    (``['applied', 'rejected', 'applied']`` for ``[True, False, True]``): the pairs (printed,
    expected) of a vocabulary, or [] when the lists differ otherwise (a word mapped two ways, two
    words onto one, a value that is not a word, no word that differs), or are not a vocabulary's
    (every expected value different, as computed results are, unless the printed ones are booleans)."""
    if len(expected) < 2 or len(expected) != len(actual) or len(expected) > MAX_VALUES:
        return []
    bools = {"true", "false", "none", "null", "nil"}
    if len(set(expected)) == len(expected) and not all(strip_quotes(a).strip().lower() in bools for a in actual):
        return []  # every value different: computed results (numerals), not the words of a vocabulary
    pairs: dict[str, str] = {}
    for e, a in zip(expected, actual):
        e, a = strip_quotes(e).strip(), strip_quotes(a).strip()
        if not (WORD.match(e) and WORD.match(a)) or is_number(e) or is_number(a):
            return []
        if pairs.get(a, e) != e:
            return []
        pairs[a] = e
    if len(set(pairs.values())) != len(pairs) or all(a == e for a, e in pairs.items()):
        return []
    return sorted((a, e) for a, e in pairs.items() if a != e)
