"""What ``go test -v`` and ``go test -json`` have in common: tests, packages, build failures.

:class:`GoRun` collects tests (by package and name), package results and build failures while
a parser reads its input, and turns them into checks at the end (:meth:`GoRun.checks`):

- every test with a result is a check keyed by its name (``TestA``, ``TestA/two``); when the
  same name occurs in several packages of one output the key is qualified as
  ``<package>.<name>``, the way Go prints functions in stack traces;
- a test that started but never reported a result in a failed package (a timeout, a crash) is
  a failing check holding the output after its start;
- a failing parent with no output of its own says which subtests failed;
- a failed package with no failing test is ``build:<pkg>`` when its build or setup failed,
  else ``package:<pkg>`` (a panic in ``init``/``TestMain``, a timeout outside any test);
- build output with no package result (a block that was cut off, ``found packages``) is
  ``build:<pkg>`` too (``build`` for ``found packages ... in DIR``: never the folder's name).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field

from reviewer.model.check import Check, CheckStatus
from reviewer.model.records import record
from reviewer.parsers.text import find_location, key_part, tail

FRAMING = ("=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "--- FAIL:", "--- PASS:", "--- SKIP:")
RESULT_WORDS = {"--- FAIL:": CheckStatus.FAIL, "--- PASS:": CheckStatus.PASS, "--- SKIP:": CheckStatus.SKIP}
TEST_LOCATION = ("_test.go", ".go")
MAX_DEPTH = 32  # subtest levels a failing test is listed under in its parents' messages
MAX_SHARED = 50  # unfinished tests that get a copy of their package's output (the panic)
BUILD_LOCATION = (".go",)


def normalize_pkg(value: str) -> str:
    """``example.com/x [example.com/x.test]`` -> ``example.com/x``; ``[example.com/x]`` -> ``example.com/x``.

    A GOPATH-mode local package (``_/home/me/roman``) is named by its absolute folder, which
    differs wherever the code is graded (a re-score's sandbox): it becomes "" (``build``)."""
    value = value.strip()
    if value.startswith("[") and value.endswith("]"):
        value = value[1:-1].strip()
    cut = value.find(" [")
    if cut > 0:
        value = value[:cut]
    value = value.strip()
    return "" if value.startswith("_/") else value


def split_result_line(stripped: str) -> tuple[CheckStatus, str] | None:
    """``--- FAIL: TestX/sub (0.00s)`` -> (fail, ``TestX/sub``); None for other lines."""
    for word, status in RESULT_WORDS.items():
        if stripped.startswith(word):
            rest = stripped[len(word):].strip()
            if rest.endswith(")"):
                cut = rest.rfind(" (")
                if cut > 0:
                    rest = rest[:cut]
            return (status, rest.strip()) if rest.strip() else None
    return None


def _looks_like_duration(word: str) -> bool:
    """``0.003s``, ``(cached)``, ``[no`` (of ``[no test files]``)."""
    return word in ("(cached)", "[no") or (word.endswith("s") and word[:-1].replace(".", "").isdigit())


def package_fail_kind(line: str) -> tuple[str, bool] | None:
    """A ``FAIL\\tpkg\\t0.1s`` / ``ok  \\tpkg\\t0.1s`` summary line -> (pkg, failed); None otherwise.

    Go separates the fields with tabs; a line with spaces instead (a log that lost its tabs)
    counts only when a duration follows the package, so ``FAIL something`` printed by a test
    is not taken for a summary. Build and setup failures (``FAIL\\tpkg [build failed]``) are
    not summaries: see :func:`build_fail_pkg`.
    """
    if line.startswith("ok"):
        rest, failed = line[2:], False
    elif line.startswith("FAIL"):
        rest, failed = line[4:], True
        if "[build failed]" in line or "[setup failed]" in line:
            return None
    else:
        return None
    if not rest[:1].isspace():
        return None
    parts = rest.split()
    if not parts:
        return None
    if rest.lstrip(" ").startswith("\t") or (len(parts) >= 2 and _looks_like_duration(parts[1])):
        return parts[0], failed
    return None


def _is_header(rest: str) -> bool:
    """``pkg``, ``pkg [pkg.test]`` or ``[pkg]``: the package part of a ``# `` build header."""
    words = rest.split()
    if len(words) == 1:
        return True
    return len(words) == 2 and words[1].startswith("[") and words[1].endswith("]")


def build_fail_pkg(line: str) -> str | None:
    """``FAIL\\tpkg [build failed]`` / ``[setup failed]`` -> pkg; None otherwise."""
    if line.startswith("FAIL") and ("[build failed]" in line or "[setup failed]" in line):
        return normalize_pkg(line[4:].replace("[build failed]", "").replace("[setup failed]", "")) or None
    return None


def _package_text(p: GoPackage) -> str:
    """A package's own output without the ``FAIL``/``ok`` summary lines."""
    lines = "".join(p.chunks).split("\n")
    return "\n".join(x for x in lines if package_fail_kind(x) is None and x not in ("FAIL", "PASS")).strip("\n")


@record(frozen=False, slots=False)
class GoTest:
    """One test (or subtest) of one package, as far as it was seen."""

    name: str
    package: str
    seq: int
    status: CheckStatus | None = None
    chunks: list[str] = field(default_factory=list)


@record(frozen=False, slots=False)
class GoPackage:
    """What was seen of one package: its own output, whether it failed, why."""

    name: str
    seq: int = 0
    failed: bool = False
    finished: bool = False
    build: bool = False
    failed_build: str = ""
    chunks: list[str] = field(default_factory=list)


class GoRun:
    """Accumulates one go test output; :meth:`checks` turns it into checks."""

    def __init__(self) -> None:
        self.tests: dict[tuple[str, str], GoTest] = {}
        self.packages: dict[str, GoPackage] = {}
        self.build_blocks: dict[str, list[str]] = {}
        self.block_seq: dict[str, int] = {}
        self.block: list[str] | None = None
        self.last_block: str = ""
        self.claimed: set[str] = set()
        self.own_claimed: set[str] = set()
        self.seq = 0

    def _next(self) -> int:
        self.seq += 1
        return self.seq

    def test(self, package: str, name: str) -> GoTest:
        """The test record, created on first sight."""
        t = self.tests.get((package, name))
        if t is None:
            t = self.tests[(package, name)] = GoTest(name, package, self._next())
        return t

    def package(self, name: str) -> GoPackage:
        """The package record, created on first sight."""
        p = self.packages.get(name)
        if p is None:
            p = self.packages[name] = GoPackage(name, self._next())
        return p

    # --- plain build lines (go -v, and go -json before Go 1.24) ---------------------------

    def start_block(self, key: str, first: str) -> None:
        """Start collecting build output under ``key`` (a package, or ``dir:`` for a folder Go names no package of)."""
        lines = self.build_blocks.setdefault(key, [])
        self.block_seq.setdefault(key, self._next())
        lines.append(first)
        self.block = lines
        self.last_block = key

    def end_block(self) -> None:
        """Stop adding lines to the open build block."""
        self.block = None

    def build_line(self, line: str, headers: bool = True) -> bool:
        """Handle a plain line that may belong to a build failure; True when consumed.

        ``headers``: whether a ``# pkg`` line may start a build block here (the ``-v`` reader
        says no while a test is running, so a test printing ``# title`` is left alone).
        """
        if headers and line.startswith("# ") and _is_header(line[2:]):
            self.start_block(normalize_pkg(line[2:]), line)
            return True
        if line.startswith("found packages ") or line.startswith("can't load package"):
            self.start_block("dir:", line)
            self.end_block()
            return True
        pkg = build_fail_pkg(line)
        if pkg is not None:
            self.end_block()
            p = self.package(pkg)
            p.failed = p.finished = p.build = True
            p.chunks.append(line + "\n")
            return True
        if self.block is not None:
            structural = (not line.strip() or line.startswith(("=== ", "--- ", "ok ", "ok\t", "FAIL", "PASS",
                                                                  "?   ", "panic: ", "{")))
            if structural:
                self.end_block()
                return False
            self.block.append(line)
            return True
        return False

    # --- results -------------------------------------------------------------------------

    def _build_message(self, p: GoPackage) -> tuple[str, int]:
        """The compiler lines for a package whose build failed (and the block's sequence)."""
        keys = [k for k in (normalize_pkg(p.failed_build), p.name) if k and k in self.build_blocks]
        lines: list[str] = []
        seq = p.seq
        if keys:
            self.own_claimed.add(keys[0])
        elif self.last_block and self.last_block not in self.own_claimed:
            keys = [self.last_block]  # a dependency's block
            if self.last_block in self.claimed:  # shown in full once; later dependents point there
                first = next((x for x in self.build_blocks[self.last_block][1:2]), "")[:300]
                lines.append(f"build of {self.last_block} failed (its output is shown once, with the"
                             f" first package that needed it){': ' + first if first else ''}")
                keys = []
        for k in keys[:1]:
            self.claimed.add(k)
            lines.extend(self.build_blocks[k])
            seq = min(seq, self.block_seq.get(k, seq))
        own = "".join(p.chunks).strip("\n")
        if own:
            lines.append(own)
        return "\n".join(lines).strip("\n"), seq

    def _settle_unfinished(self) -> None:
        """Tests without a result: pass in a package that passed, else fail (timeout, crash)."""
        unfinished: dict[str, int] = {}
        for (pkg, _), t in self.tests.items():
            if t.status is None:
                unfinished[pkg] = unfinished.get(pkg, 0) + 1
        extras: dict[str, str] = {}
        for (pkg, _), t in self.tests.items():
            if t.status is not None:
                continue
            p = self.packages.get(pkg)
            if p is not None and p.finished and not p.failed:
                t.status = CheckStatus.PASS
                continue
            t.status = CheckStatus.FAIL
            if p is not None and unfinished[pkg] <= MAX_SHARED and pkg not in extras:
                extras[pkg] = tail(_package_text(p))
            extra = extras.get(pkg, "")
            note = "(no result reported: the test was still running when the package stopped)"
            t.chunks.extend(["\n" + extra + "\n" if extra else "", note + "\n"])

    def _qualified(self) -> dict[tuple[str, str], str]:
        """Test keys: the name, or ``<package>.<name>`` when the name is in several packages."""
        by_name: dict[str, set[str]] = {}
        for pkg, name in self.tests:
            by_name.setdefault(name, set()).add(pkg)
        return {(pkg, name): (f"{key_part(pkg)}.{name}" if len(by_name[name]) > 1 and pkg else name)
                for pkg, name in self.tests}

    def checks(self, message_of: Callable[[GoTest], str]) -> list[Check]:
        """All checks, in order of first appearance."""
        keyed = self._qualified()
        out: list[tuple[int, Check]] = []
        failing_tests: dict[str, list[str]] = {}
        self._settle_unfinished()
        below: dict[tuple[str, str], list[str]] = {}  # failing descendants of each test
        for (pkg, name), t in self.tests.items():
            if t.status != CheckStatus.FAIL:
                continue
            failing_tests.setdefault(pkg, []).append(name)
            cut = name.rfind("/")
            for _ in range(MAX_DEPTH):
                if cut <= 0:
                    break
                below.setdefault((pkg, name[:cut]), []).append(name)
                cut = name.rfind("/", 0, cut)
        for (pkg, name), t in self.tests.items():
            message = message_of(t)
            if t.status == CheckStatus.FAIL and not message.strip():
                subs = below.get((pkg, name), [])
                message = "failed subtests: " + ", ".join(subs) if subs else "failed without output"
            location = find_location(message, TEST_LOCATION) if t.status == CheckStatus.FAIL else ""
            key = keyed[(pkg, name)]
            out.append((t.seq, Check(key, key, t.status or CheckStatus.FAIL, message.strip("\n"), location)))
        for name, p in self.packages.items():
            if not p.failed or failing_tests.get(name):
                continue
            if p.build or p.failed_build:
                message, seq = self._build_message(p)
                key = f"build:{name}" if name else "build"
                loc = find_location(message, BUILD_LOCATION)
            else:
                message = _package_text(p)
                key = f"package:{name}" if name else "package"
                seq, loc = p.seq, find_location(message, TEST_LOCATION)
            out.append((seq, Check(key, key, CheckStatus.FAIL, message.strip("\n") or "package failed", loc)))
        for key, lines in self.build_blocks.items():
            if key in self.claimed:
                continue
            name = key if not key.startswith("dir:") else key[4:]
            message = "\n".join(lines)
            check_key = f"build:{name}" if name else "build"
            out.append((self.block_seq[key], Check(check_key, check_key, CheckStatus.FAIL, message,
                                                   find_location(message, BUILD_LOCATION))))
        out.sort(key=lambda pair: pair[0])
        return [c for _, c in out]
