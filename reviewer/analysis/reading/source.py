"""What a grader's own source demands for one check: keys it reads, separators it splits on,
literals it compares with, symbols it calls, files it opens.

Only the failing check's function and the helpers it reaches (in the same file) are read, so
the demands belong to that check. Python is read with :mod:`ast` (parsed, never run); Go and
other languages with patterns over the function body (found by brace matching). A candidate
runner's table of ``(args, expected)`` cases gives the expected value of ``test <i>``.
"""

from __future__ import annotations

import ast
import re
import sys
from functools import lru_cache

from reviewer.analysis.reading import golang
from reviewer.analysis.reading.found import Found, source_line

MAX_SOURCE = 1_000_000
FILE_NAME = re.compile(r"^[\w./-]{1,120}\.(?:py|go|rs|js|ts|java|c|h|cc|cpp|rb|txt|json|csv|tsv|toml|ya?ml|md|out|log|xml|html|ini|cfg)$")
KEY_PREFIX = re.compile(r"^([A-Za-z_][\w.-]{0,63})[=:]$")
IDENT = re.compile(r"^[A-Za-z_]\w{0,63}$")
TEST_LIBS = frozenset({"pytest", "hypothesis", "_pytest", "numpy", "pandas", "requests", "yaml", "toml", "tomli", "tomli_w"})
MAX_FOUND = 500
MAX_INPUT_TEXT = 2_000_000
MAX_SEARCHES = 50
WORD = re.compile(r"^\w+$")
STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) | TEST_LIBS


def check_function(check_key: str) -> tuple[str, str]:
    """(file name hint, function name) of a check key: pytest node ids, Go tests, JUnit ids."""
    key = check_key.split("#", 1)[0]
    if key.startswith(("build:", "package:", "collect:", "skip:")) or key in ("run", "load", "error"):
        return "", ""
    if "::" in key:
        parts = key.split("::")
        file_hint = parts[0] if "." in parts[0].rsplit("/", 1)[-1] else ""
        name = parts[-1].split("[", 1)[0]
        return file_hint.rsplit("/", 1)[-1], name
    name = key.split("/", 1)[0]
    name = name.rsplit(".", 1)[-1]
    name = name.split("[", 1)[0]
    return "", name if IDENT.match(name) else ""


@lru_cache(maxsize=32)
def parse_python(text: str) -> ast.Module | None:
    """The module's syntax tree, or None when it does not parse (never executed)."""
    if len(text) > MAX_SOURCE:
        return None
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def python_functions(tree: ast.Module) -> dict[str, ast.AST]:
    """Module-level functions and ``Class.method`` entries (also by bare method name)."""
    out: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out.setdefault(item.name, item)
                    out[f"{node.name}.{item.name}"] = item
    return out


def reachable(start: ast.AST, funcs: dict[str, ast.AST]) -> list[ast.AST]:
    """The function and every same-file function it names, transitively."""
    seen = [start]
    todo = [start]
    while todo:
        node = todo.pop()
        for sub in ast.walk(node):
            name = sub.id if isinstance(sub, ast.Name) else sub.attr if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "self" else None
            target = funcs.get(name) if name else None
            if target is not None and all(target is not s for s in seen):
                seen.append(target)
                todo.append(target)
    return seen


def imported_names(tree: ast.Module) -> dict[str, str]:
    """Names bound by imports of non-standard modules: {local name: module}."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] not in STDLIB:
                for a in node.names:
                    out[a.asname or a.name] = node.module
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] not in STDLIB:
                    out[a.asname or a.name.split(".")[0]] = a.name
    return out


def skipped_nodes(func: ast.AST) -> set[int]:
    """Nodes that only report (print calls, assert messages, docstrings): not demands."""
    skip: set[int] = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            skip.update(id(n) for n in ast.walk(node))
        elif isinstance(node, ast.Assert) and node.msg is not None:
            skip.update(id(n) for n in ast.walk(node.msg))
        elif isinstance(node, ast.JoinedStr):
            skip.update(id(n) for n in ast.walk(node))
    body = getattr(func, "body", [])
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        skip.add(id(body[0].value))
    return skip


def const_str(node: ast.AST | None) -> str | None:
    """The value of a string constant node, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


class PythonReader:
    """Collects demands from Python functions."""

    def __init__(self, tree: ast.Module, text: str) -> None:
        self.tree = tree
        self.lines = text.splitlines()
        self.imports = imported_names(tree)
        self.found: list[Found] = []

    def add(self, kind: str, value: str, node: ast.AST) -> None:
        """Record one demand at a node's line."""
        line = getattr(node, "lineno", 0)
        self.found.append(Found(kind, value, line, source_line(self.lines, line)))

    def read(self, func: ast.AST) -> None:
        """Every demand in one function."""
        skip = skipped_nodes(func)
        for node in ast.walk(func):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Subscript):
                key = const_str(node.slice)
                if key is not None and key:
                    self.add("key", key, node)
            elif isinstance(node, ast.Call):
                self.call(node)
            elif isinstance(node, ast.Compare):
                self.compare(node)
            elif isinstance(node, ast.Name) and node.id in self.imports:
                self.add("symbol", node.id, node)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in self.imports:
                self.add("symbol", node.attr, node)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                self.constant(node.value, node)

    def constant(self, value: str, node: ast.AST) -> None:
        """A string constant: a file name or a ``key=`` prefix."""
        if FILE_NAME.match(value):
            self.add("file", value, node)
        m = KEY_PREFIX.match(value)
        if m:
            self.add("key", m.group(1), node)

    def call(self, node: ast.Call) -> None:
        """Method calls that read keys, split on separators or expect errors."""
        f = node.func
        first = node.args[0] if node.args else None
        if isinstance(f, ast.Attribute):
            if f.attr in ("get", "pop", "setdefault") and const_str(first):
                self.add("key", const_str(first) or "", node)
            elif f.attr in ("split", "rsplit"):
                sep = const_str(first)
                if first is None or (isinstance(first, ast.Constant) and first.value is None):
                    self.add("separator", " ", node)
                elif sep:
                    self.add("separator", sep, node)
            elif f.attr in ("partition", "rpartition") and const_str(first):
                self.add("separator", const_str(first) or "", node)
            elif f.attr == "raises" and first is not None:
                name = first.id if isinstance(first, ast.Name) else first.attr if isinstance(first, ast.Attribute) else ""
                if name:
                    self.add("error", name, node)
                for kw in node.keywords:
                    if kw.arg == "match" and const_str(kw.value):
                        self.add("error", const_str(kw.value) or "", node)
        if isinstance(f, ast.Name) and f.id in ("getattr", "hasattr") and len(node.args) > 1 and const_str(node.args[1]):
            self.add("symbol", const_str(node.args[1]) or "", node)

    def compare(self, node: ast.Compare) -> None:
        """Comparisons with string constants: literals, and keys tested with ``in``."""
        operands = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, operands, operands[1:]):
            if isinstance(op, (ast.Eq, ast.NotEq)):
                for a, b in ((left, right), (right, left)):
                    value = const_str(a)
                    if value is not None and not isinstance(b, ast.Constant):
                        self.add("literal", value, node)
            elif isinstance(op, (ast.In, ast.NotIn)):
                value = const_str(left)
                if value is not None and not isinstance(right, (ast.Constant, ast.Tuple, ast.List, ast.Set)):
                    self.add("key" if IDENT.match(value) else "literal", value, node)
                elif not isinstance(left, ast.Constant) and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
                    for elt in right.elts:
                        if const_str(elt) is not None:
                            self.add("literal", const_str(elt) or "", node)


def input_texts(tree: ast.Module) -> list[str]:
    """String constants that look like input data (they hold whitespace or newlines)."""
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and ("\n" in n.value or " " in n.value.strip())]


def module_files(tree: ast.Module, names: set[str], reader: PythonReader) -> None:
    """File names in module-level assignments the reached functions use (``PROGRAM = ...``)."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in names for t in node.targets):
            for sub in ast.walk(node.value):
                value = const_str(sub)
                if value and FILE_NAME.match(value):
                    reader.add("file", value, sub)


def python_demands(text: str, func_name: str) -> list[Found]:
    """Demands of a Python check function and its helpers; [] when it cannot be found."""
    tree = parse_python(text)
    if tree is None or not func_name:
        return []
    funcs = python_functions(tree)
    start = funcs.get(func_name)
    if start is None:
        return []
    reader = PythonReader(tree, text)
    used: set[str] = set()
    for func in reachable(start, funcs):
        reader.read(func)
        used.update(n.id for n in ast.walk(func) if isinstance(n, ast.Name))
    module_files(tree, used, reader)
    inputs = InputWords(input_texts(tree))
    return [mark_input(f, inputs) for f in reader.found[:MAX_FOUND]]


class InputWords:
    """The words of a check's input texts, for telling a literal that is a word of the input
    (a node name) from a demand of form; one pass over the inputs, then set look-ups."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.words = set(re.findall(r"\w+", "\x00".join(texts)[:MAX_INPUT_TEXT]))
        self.searches = 0

    def has(self, value: str) -> bool:
        """True when ``value`` occurs in an input as a whole word (or words)."""
        if WORD.match(value):
            return value in self.words
        if self.searches >= MAX_SEARCHES:
            return False
        self.searches += 1
        pattern = re.compile(r"(?<![\w])" + re.escape(value) + r"(?![\w])")
        return any(pattern.search(t) for t in self.texts if t != value)


def mark_input(found: Found, inputs: InputWords) -> Found:
    """Mark a literal that occurs as a word of the check's input texts."""
    if found.kind != "literal" or not found.value.strip():
        return found
    if inputs.has(found.value):
        return Found(found.kind, found.value, found.line, found.context, True)
    return found


def case_expected(text: str, index: int, hints: tuple[str, ...] = ()) -> tuple[str, int] | None:
    """A candidate runner's expected value for ``test <index>`` and how many distinct values
    its table expects: the second item of the ``index``-th ``(args, expected)`` pair of the only
    case table (or the one named by a hint)."""
    tree = parse_python(text)
    if tree is None:
        return None
    tables: list[tuple[str, ast.AST]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if const_str(k) and v is not None and is_case_table(v):
                    tables.append((const_str(k) or "", v))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and is_case_table(node.value):
            tables.append(("", node.value))
    named = [t for name, t in tables if name and name in hints]
    chosen = named[0] if len(named) == 1 else tables[0][1] if len(tables) == 1 else None
    if chosen is None or not 0 <= index < len(chosen.elts):  # type: ignore[attr-defined]
        return None
    values = [ast.get_source_segment(text, e.elts[1]) or "" for e in chosen.elts]  # type: ignore[attr-defined]
    return values[index], len(set(values))


def is_case_table(node: ast.AST | None) -> bool:
    """A list of 2-tuples: (arguments, expected)."""
    return (
        isinstance(node, (ast.List, ast.Tuple))
        and len(node.elts) > 0
        and all(isinstance(e, ast.Tuple) and len(e.elts) == 2 for e in node.elts)
    )


@lru_cache(maxsize=256)
def source_demands(text: str, path: str, check_key: str) -> tuple[Found, ...]:
    """Demands of one check in one grader source file (by its language); cached, since every
    model's run of a task shares the grader."""
    _, name = check_function(check_key)
    if not name or not text:
        return ()
    if path.endswith(".py"):
        found = python_demands(text, name)
        if found or parse_python(text) is not None:
            return tuple(found)
    if path.endswith(".go"):
        return tuple(golang.go_demands(text[:MAX_SOURCE], name))
    return tuple(golang.window_demands(text[:MAX_SOURCE], name))


@lru_cache(maxsize=64)
def grader_reads(text: str, path: str) -> tuple[Found, ...]:
    """Every key and literal the grader's whole source reads or compares with (all its
    functions, not one check's): what the checker as a whole expects of the program's output.
    Python by its syntax tree; other languages by the quoted ``key=`` prefixes and the quoted
    words next to ``==`` (bounded per line)."""
    if not text or len(text) > MAX_SOURCE:
        return ()
    if path.endswith(".py"):
        tree = parse_python(text)
        if tree is not None:
            reader = PythonReader(tree, text)
            for func in python_functions(tree).values():
                reader.read(func)
            return tuple(f for f in reader.found[:MAX_FOUND] if f.kind in ("key", "literal"))
    found: list[Found] = []
    for n, line in enumerate(text.splitlines()[:20_000], 1):
        for m in QUOTED_KEY.finditer(line[:2000]):
            found.append(Found("key", m.group("k"), n, line.strip()[:160]))
        if "==" in line:
            for m in COMPARED_WORD.finditer(line[:2000]):
                found.append(Found("literal", m.group("v") or m.group("w"), n, line.strip()[:160]))
        if len(found) >= MAX_FOUND:
            break
    return tuple(found)


QUOTED_KEY = re.compile(r"""["'`](?P<k>[A-Za-z_][\w.-]{0,63})[=:]["'`]""")
COMPARED_WORD = re.compile(r"""==\s{0,4}["'`](?P<v>[A-Za-z_][\w-]{0,40})["'`]|["'`](?P<w>[A-Za-z_][\w-]{0,40})["'`]\s{0,4}==""")
