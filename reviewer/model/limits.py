"""Interpreter limits a correct program can hit on a big input, and the settings that lift them.

CPython refuses to turn an integer of more than 4,300 digits into text (a denial-of-service
guard, lifted by ``PYTHONINTMAXSTRDIGITS=0``) and stops a recursion at 1,000 frames
(``sys.setrecursionlimit``): a program that computed the right answer dies in ``print``, or
deep in a correct recursion, on a limit the brief never mentions. Other runtimes have theirs
(a JavaScript engine's or the JVM's stack, Go's maximum stack). Each is named by what its
error says; only the two Python limits have a repair that lifts them (``lift-limit``). Pure.
"""

from __future__ import annotations

from reviewer.model.records import record


@record
class Limit:
    """One interpreter limit.

    Attributes:
        says: what its error message holds.
        name: the limit's name (``int-max-str-digits``).
        lift: the setting that lifts it, for people.
        repair: the ``lift-limit`` argument that lifts it in a re-score ("" when none does).
        also: a second phrase the message must hold too ("" when the first says enough).
    """

    says: str
    name: str
    lift: str
    repair: str = ""
    also: str = ""

    def matches(self, text: str) -> bool:
        """True when an error message is this limit's."""
        return self.says in text and (not self.also or self.also in text)


LIMITS: tuple[Limit, ...] = (
    Limit("Exceeds the limit", "int-max-str-digits", "PYTHONINTMAXSTRDIGITS=0", "int-max-str-digits",
          "for integer string conversion"),
    Limit("maximum recursion depth exceeded", "recursion-limit",
          "sys.setrecursionlimit() before the program runs (no environment setting exists)", "recursion"),
    Limit("Maximum call stack size exceeded", "node-stack-size", "node --stack-size=N"),
    Limit("java.lang.StackOverflowError", "jvm-stack-size", "java -Xss<size>"),
    Limit("goroutine stack exceeds", "go-max-stack", "debug.SetMaxStack(n)"),
)


def limit_in(text: str) -> Limit | None:
    """The interpreter limit an error message names, or None."""
    for limit in LIMITS:
        if limit.matches(text):
            return limit
    return None
