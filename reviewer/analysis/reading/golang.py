"""Demands in Go test source (and, by a window of lines, in any other language), by patterns.

Comments are blanked first (keeping offsets), a test function is found by name and its body by
brace matching, and the helpers it calls in the same file are followed. Nothing is compiled.
"""

from __future__ import annotations

import re
from functools import lru_cache

from reviewer.analysis.reading.found import Found, source_line

FUNC = re.compile(r"(?m)^func[ \t]+(?:\([^)\n]{0,300}\)[ \t]*)?([A-Za-z_]\w{0,100})[ \t]*(?:\[[^\]\n]{0,300}\])?\(")
DECL = re.compile(r"(?m)^\s*(?:type|var|const)\s+([A-Za-z_]\w*)")
SHORT_NAMES = re.compile(r"[A-Za-z_]\w{0,100}(?:[ \t]{0,8},[ \t]{0,8}[A-Za-z_]\w{0,100}){0,16}[ \t]{0,8}$")
PARAMS = re.compile(r"func[ \t]{0,8}(?:\([^)\n]{0,300}\)[ \t]{0,8})?\w{0,100}[ \t]{0,8}\(([^)]{0,2000})\)")
STRING = r'(?<!\\)"[^"\\\n]{0,500}(?:\\.[^"\\\n]{0,500}){0,100}"|`[^`]{0,500}`'
COMPARE = re.compile(rf"(?:==|!=)\s*({STRING})|({STRING})\s*(?:==|!=)")
KEY_INDEX = re.compile(rf"\[\s*({STRING})\s*\]")
KEY_CALL = re.compile(rf"\.(?:Get|Lookup|Value|get)\(\s*({STRING})")
SPLIT = re.compile(rf"(?:strings\.(?:Split|SplitN|SplitAfter|SplitAfterN|Cut)|\.split|\.Split)\(\s*(?:[^,()]*(?:\([^()]*\))?[^,()]*,\s*)?({STRING}|'[^'\n]{{0,20}}')")
FIELDS = re.compile(r"strings\.Fields\(")
LITERAL = re.compile(STRING)
CONTAINS = re.compile(rf"strings\.(?:Contains|HasPrefix|HasSuffix)\([^()\n]{{0,200}}(?:\([^()\n]{{0,200}}\)[^()\n]{{0,80}})?,\s*({STRING})\s*\)")
FILE_NAME = re.compile(r"^[\w./-]{1,120}\.(?:py|go|rs|js|ts|java|c|h|txt|json|csv|toml|ya?ml|md|out|log|xml)$")
IDENT = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*(\(|\{)?")
KEYWORDS = frozenset(
    "break case chan const continue default defer else fallthrough for func go goto if import interface map "
    "package range return select struct switch type var true false nil iota append cap close complex copy delete "
    "imag len make new panic print println real recover min max clear int int8 int16 int32 int64 uint uint8 "
    "uint16 uint32 uint64 uintptr float32 float64 complex64 complex128 string byte rune bool error any "
    "comparable".split()
)
WINDOW = 60


def blank_comments(text: str) -> tuple[str, str]:
    """(code without comments, code without comments and string contents); offsets kept."""
    code = list(text)
    masked = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                code[k] = masked[k] = " "
            i = j
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if text[k] != "\n":
                    code[k] = masked[k] = " "
            i = j
        elif c in "\"'`":
            j = i + 1
            while j < n and text[j] != c and not (c != "`" and text[j] == "\n"):
                j += 2 if text[j] == "\\" and c != "`" else 1
            for k in range(i + 1, min(j, n)):
                if text[k] != "\n":
                    masked[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(code), "".join(masked)


def match_close(masked: str, start: int, open_c: str, close_c: str) -> int:
    """The offset just past the bracket closing the one at ``start`` (len when unclosed)."""
    depth = 0
    for i in range(start, len(masked)):
        if masked[i] == open_c:
            depth += 1
        elif masked[i] == close_c:
            depth -= 1
            if depth == 0:
                return i + 1
    return len(masked)


def functions(masked: str) -> dict[str, tuple[int, int]]:
    """Top-level functions: {name: (body start, body end)}."""
    out: dict[str, tuple[int, int]] = {}
    for m in FUNC.finditer(masked):
        after_params = match_close(masked, m.end() - 1, "(", ")")
        brace = masked.find("{", after_params)
        if brace < 0:
            continue
        out.setdefault(m.group(1), (brace, match_close(masked, brace, "{", "}")))
    return out


def unquote(literal: str) -> str:
    """A Go string literal's text (common escapes only)."""
    if literal.startswith("`"):
        return literal[1:-1]
    body = literal[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


class PatternReader:
    """Collects demands from a stretch of source by patterns."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines()
        self.found: list[Found] = []

    def add(self, kind: str, value: str, offset: int, note: str = "") -> None:
        """Record one demand at an offset."""
        line = self.text.count("\n", 0, offset) + 1
        self.found.append(Found(kind, value, line, source_line(self.lines, line), note=note))

    def read(self, code: str, start: int, end: int) -> None:
        """Literals compared, keys indexed, separators split on, files named."""
        part = code[start:end]
        for m in COMPARE.finditer(part):
            lit = m.group(1) or m.group(2)
            self.add("literal", unquote(lit), start + m.start())
        for m in CONTAINS.finditer(part):
            self.add("literal", unquote(m.group(1)), start + m.start(), "must contain")
        for pattern in (KEY_INDEX, KEY_CALL):
            for m in pattern.finditer(part):
                key = unquote(m.group(1))
                if key:
                    self.add("key", key, start + m.start())
        for m in SPLIT.finditer(part):
            sep = m.group(1)
            self.add("separator", sep[1:-1] if sep.startswith("'") else unquote(sep), start + m.start())
        for m in FIELDS.finditer(part):
            self.add("separator", " ", start + m.start())
        for m in LITERAL.finditer(part):
            value = unquote(m.group(0))
            if FILE_NAME.match(value):
                self.add("file", value, start + m.start())


def short_names(masked: str) -> set[str]:
    """Names declared with ``a, b :=``: read backwards from each ``:=`` within its line (linear:
    each look-back is bounded)."""
    out: set[str] = set()
    i = masked.find(":=")
    while i >= 0:
        line_start = masked.rfind("\n", max(0, i - 400), i) + 1
        window = masked[max(line_start, i - 400) : i]
        m = SHORT_NAMES.search(window[-400:])
        if m:
            out.update(x.strip() for x in m.group(0).split(",") if x.strip())
        i = masked.find(":=", i + 2)
    return out


def defined_names(masked: str, funcs: dict[str, tuple[int, int]]) -> set[str]:
    """Names the file itself declares (functions, types, variables, parameters)."""
    names = set(funcs) | set(DECL.findall(masked))
    names.update(short_names(masked))
    for m in PARAMS.finditer(masked):
        for param in m.group(1).split(","):
            bits = param.split()
            if bits:
                names.add(bits[0])
    for block in re.finditer(r"(?m)^(?:var|const|type)\s*\(([^)]*)\)", masked):
        names.update(re.findall(r"(?m)^\s*([A-Za-z_]\w*)", block.group(1)))
    return names


@lru_cache(maxsize=16)
def go_file(text: str) -> tuple[str, str, dict[str, tuple[int, int]], frozenset[str]]:
    """A Go file read once: code, masked code, its functions and the names it declares."""
    code, masked = blank_comments(text)
    funcs = functions(masked)
    return code, masked, funcs, frozenset(defined_names(masked, funcs))


def go_demands(text: str, name: str) -> list[Found]:
    """Demands of a Go test function and the same-file helpers it calls."""
    code, masked, funcs, defined = go_file(text)
    if name not in funcs:
        return []
    reader = PatternReader(text)
    todo, seen = [name], {name}
    while todo:
        start, end = funcs[todo.pop()]
        reader.read(code, start, end)
        for m in IDENT.finditer(masked, start, end):
            ident, bracket = m.group(1), m.group(2)
            if ident in funcs and ident not in seen:
                seen.add(ident)
                todo.append(ident)
            elif ident in KEYWORDS or ident in defined:
                continue
            elif ident[0].isupper() or bracket == "(":
                if re.match(r"\s*:[^=]", masked[m.end(1) : m.end(1) + 3]):
                    continue
                reader.add("symbol", ident, m.start(1))
    return reader.found


def window_demands(text: str, name: str) -> list[Found]:
    """Demands in the lines after the first mention of a check's name (any language)."""
    code, _ = blank_comments(text) if not text.lstrip().startswith("#") else (text, text)
    m = re.search(r"(?<![\w])" + re.escape(name) + r"(?![\w])", code)
    if not m:
        return []
    end = m.start()
    for _ in range(WINDOW):
        nxt = code.find("\n", end + 1)
        if nxt < 0:
            end = len(code)
            break
        end = nxt
    reader = PatternReader(text)
    reader.read(code, m.start(), end)
    return reader.found
