"""Whether a repair re-expresses only what the brief left unstated.

Seed 003's instrument repairs only the notation the checker demanded without publishing it. A
repair of something the brief does state proves nothing for the specification: a program that
printed ``result=`` where the brief says "the checker reads `value`", or saved its files in a
folder where the brief says "in this folder", broke a stated demand, and a re-score that passes
once it is renamed or moved shows only that the model ignored the brief: evidence for
capability. And a ``map-value`` from one of the checker's own answers onto another (``no`` to
``yes`` under a yes/no key) is no repair of notation at all: it changes the answer.

:class:`Guard` judges one repair against the brief (keys, vocabulary, separators and shapes,
limits and folders it names) and the checker's own words. Pure.
"""

from __future__ import annotations

import re

from reviewer.analysis.reading.brief import BriefIndex, Stated, brief_index
from reviewer.model.records import record
from reviewer.model.repair import Repair, RepairKind, describe_repair

LIMIT_WORDS = {
    "int-max-str-digits": re.compile(r"int_max_str_digits|INTMAXSTRDIGITS|4,?300[- ]digit|digit limit|integer string conversion", re.IGNORECASE),
    "recursion": re.compile(r"recursion (?:limit|depth)|setrecursionlimit|maximum recursion", re.IGNORECASE),
}
FOLDER_WORDS = re.compile(
    r"\b(?:in|into|under|to|inside) (?:this|the current|the same|the workspace'?s?|the top[- ]level|the root|the working) "
    r"(?:folder|directory|workspace)\b|\bat the (?:top|root) of the (?:workspace|folder|repository|directory)\b"
    r"|\bin the workspace\b|\bsave (?:it|them|the files?) (?:in|under|to) `", re.IGNORECASE)
"""A brief saying where the files go."""
SHAPE_SEPARATORS = {"comma-list": ",", "space-list": " ", "semicolon-list": ";", "pipe-list": "|"}


@record
class Judged:
    """A repair with what the guard found.

    Attributes:
        repair: the repair.
        stated: why it changes what the brief states ("" when it does not): a flip it makes is
            evidence for capability, never for the specification.
        refused: why it is not a repair of notation at all ("" when it is); it is never run.
    """

    repair: Repair
    stated: str = ""
    refused: str = ""

    @property
    def notation_only(self) -> bool:
        """True when the repair re-expresses only what the brief left unstated."""
        return not self.stated and not self.refused

    def describe(self) -> str:
        """``key result->value: changes what the brief states (line 6: ...)`` for people."""
        why = self.refused or self.stated
        return f"{describe_repair(self.repair)}: {why}" if why else describe_repair(self.repair)


class Guard:
    """The brief's stated demands and the checker's own answers, for judging repairs.

    Args:
        brief: the brief's text (None when it could not be read: then nothing counts as stated,
            and the strip says the brief is missing).
        answers: the words the checker itself expects (its compared literals, its expected values).
    """

    def __init__(self, brief: str | None, answers: frozenset[str] = frozenset(),
                 printed: frozenset[str] = frozenset()) -> None:
        self.index: BriefIndex | None = brief_index(brief) if brief is not None else None
        self.answers = answers
        self.printed = printed
        """Keys the program printed (anywhere it was seen)."""

    def judge(self, repair: Repair, together: tuple[Repair, ...] = ()) -> Judged:
        """What the guard finds of one repair (applied ``together`` with others)."""
        kind, a = repair.kind, repair.args
        if kind is RepairKind.MAP_VALUE and a[1] in self.answers:
            return Judged(repair, refused=f"{a[1]!r} is one of the checker's own answers: mapping it onto {a[2]!r} "
                                          "changes the answer, not its notation")
        return Judged(repair, stated=self.stated(repair, together))

    def stated(self, repair: Repair, together: tuple[Repair, ...] = ()) -> str:
        """Why the repair changes what the brief states ("" when it does not)."""
        index, kind, a = self.index, repair.kind, repair.args
        if index is None:
            return ""
        if kind is RepairKind.RENAME_KEY:
            room = any(o.kind is RepairKind.RENAME_KEY and o.args[1] == a[0] for o in together)
            hit = index.key(a[1])
            if hit.stated is not Stated.UNSTATED and a[1] not in self.printed and not room:
                return f"the brief states the key the checker reads, {a[1]} (line {hit.line}), and the program did not print it"
            if index.names_key(a[0]) and not room:
                return f"the brief names {a[0]} as a key of its own (line {index.find(a[0]).line})"
            return ""
        if kind is RepairKind.MAP_VALUE:
            at = self.quoted(a[2])
            return f"the brief states the value {a[2]!r} (line {at})" if at else ""
        if kind is RepairKind.SEPARATOR:
            sep = index.separator(a[2])
            return f"the brief states the separator {a[2]!r} (line {sep.line})" if sep.stated is Stated.VERBATIM else ""
        if kind is RepairKind.RESERIALISE:
            joiner = SHAPE_SEPARATORS.get(a[1])
            shape = index.separator(joiner) if joiner else None
            return f"the brief states how {a[0]} is written (line {shape.line})" if shape and shape.stated is Stated.VERBATIM else ""
        if kind is RepairKind.LIFT_LIMIT:
            pattern = LIMIT_WORDS.get(a[0])
            for i, line in enumerate(index.lines):
                if pattern and pattern.search(line):
                    return f"the brief names the {a[0]} limit (line {i + 1})"
            return ""
        if kind is RepairKind.GRADE_WHERE_SAVED:
            for i, line in enumerate(index.lines):
                if FOLDER_WORDS.search(line):
                    return f"the brief says where the files go (line {i + 1}: {line.strip()[:80]})"
            return ""
        return ""

    def quoted(self, value: str) -> int:
        """The line (1-based) where the brief gives ``value`` in quotes, or as a word of a code span
        (``yes``, ``valid=yes``, ``yes/no``); 0 when none."""
        assert self.index is not None
        pattern = re.compile(r"[`'\"\u201c]" + re.escape(value) + r"[`'\"\u201d]")
        word = re.compile(r"(?<![\w.])" + re.escape(value) + r"(?![\w])")
        for i, line in enumerate(self.index.lines):
            if pattern.search(line) or any(word.search(s) for s in self.index.spans[i]):
                return i + 1
        return 0
