"""Tables of cases in a grader's source: expected values bound to inputs, the same for every check.

A table pairs each input with the one value expected for it (``[(4, "iv"), (9, "ix")]``, Go's
``{4, "IV"}`` rows, ``{4: "iv"}``, a parametrize list). Such values are input-bound whether or
not they hold a digit: a brief states their form, not each of them. Reading them from the whole
grader file, rather than from one check's failure text, makes the classification the same for
every check of the grader. A table whose expected values repeat a few words (``yes``/``no``)
is a vocabulary, not a table of results: it needs :data:`TABLE_VALUES` distinct values.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache

from reviewer.analysis.reading.source import const_str, parse_python

TABLE_VALUES = 4
MAX_ROWS = 10_000
GO_ROW = re.compile(r"\{\s{0,8}-?\d[\w.]{0,30}\s{0,8},\s{0,8}\"((?:[^\"\\\n]|\\.){0,200})\"\s{0,8}\}")


def expected_of(row: ast.AST) -> str | None:
    """The expected value of one ``(input, expected)`` row: a string after a constant input."""
    if not isinstance(row, ast.Tuple) or len(row.elts) != 2:
        return None
    first, second = row.elts
    inputs = first.elts if isinstance(first, ast.Tuple) else [first]
    if not all(isinstance(x, ast.Constant) for x in inputs):
        return None
    return const_str(second)


def call_expectation(node: ast.Compare) -> tuple[str, str] | None:
    """``f(4) == "iv"``: (the function's name, the expected string), or None."""
    if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
        return None
    for call, other in ((node.left, node.comparators[0]), (node.comparators[0], node.left)):
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.args
                and all(isinstance(a, ast.Constant) for a in call.args) and const_str(other) is not None):
            return call.func.id, const_str(other) or ""
    return None


def python_tables(tree: ast.Module) -> set[str]:
    """Expected values of the Python tables of a module: lists of ``(input, expected)`` rows,
    ``{input: expected}`` dicts, and runs of ``f(<constant>) == "expected"`` comparisons (one
    expected value per input, written out as asserts)."""
    out: set[str] = set()
    by_call: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            hit = call_expectation(node)
            if hit is not None:
                by_call.setdefault(hit[0], set()).add(hit[1])
        values: list[str] = []
        if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) >= 2:
            values = [v for v in (expected_of(e) for e in node.elts[:MAX_ROWS]) if v is not None]
            if len(values) != min(len(node.elts), MAX_ROWS):
                values = []
        elif isinstance(node, ast.Dict) and len(node.keys) >= 2 and all(
            isinstance(k, ast.Constant) and not isinstance(k.value, str) for k in node.keys
        ):
            values = [v for v in (const_str(x) for x in node.values) if v is not None]
        if len(set(values)) >= TABLE_VALUES:
            out.update(values)
    for values_of_call in by_call.values():  # with a table beside them, they are more of its rows
        if len(values_of_call | out if out else values_of_call) >= TABLE_VALUES:
            out.update(values_of_call)
    return out


def go_tables(text: str) -> set[str]:
    """Expected strings of Go table rows ``{input number, "expected"}``."""
    values = [m.group(1) for _, m in zip(range(MAX_ROWS), GO_ROW.finditer(text))]
    return set(values) if len(set(values)) >= TABLE_VALUES else set()


@lru_cache(maxsize=64)
def bound_literals(text: str, path: str) -> frozenset[str]:
    """Every value a grader source file's tables bind to an input."""
    if path.endswith(".py"):
        tree = parse_python(text)
        return frozenset(python_tables(tree)) if tree is not None else frozenset()
    if path.endswith(".go"):
        return frozenset(go_tables(text[:1_000_000]))
    return frozenset()
