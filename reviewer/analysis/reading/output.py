"""The program's own output as a failure text shows it, and a crash that cut it short.

Oracles over stdout print what the program wrote (``stdout: ...`` lines, pytest's ``Captured
stdout`` sections) and often its stderr (``stderr: ...``, ``Captured stderr``); pytest's
assertion rewriting shows the fields the check read (``assert 'mults' in {'steps': '15'}``).
:func:`program_output` collects those; :func:`find_crash` finds the error that stopped the
program and names a known interpreter limit with the setting that lifts it. Pure and linear
in the text; never runs anything.
"""

from __future__ import annotations

import json
import re

from reviewer.analysis.reading.notation import strip_quotes
from reviewer.analysis.reading.pairs import message_lines
from reviewer.analysis.reading.scan import Cancel, poll
from reviewer.model.limits import LIMITS, limit_in
from reviewer.model.observation import Invocation
from reviewer.model.records import record

STDOUT = re.compile(r"^\s*stdout:\s?(?P<v>.*)$")
STDERR = re.compile(r"^\s*stderr:\s?(?P<v>.*)$")
STDERR_INLINE = re.compile(r"\bstderr:\s*(?P<v>\S.*)$")
INPUT = re.compile(r"^\s*input:")
CAPTURED = re.compile(r"^-+ Captured (?P<what>stdout|stderr|log)")
SECTION = re.compile(r"^[-=_]{3,} ")
READ_DICT = re.compile(r"\bin \{(?P<d>[^{}]{0,4000})\}\s*$")
READ_ITEM = re.compile(r"'(?P<k>[A-Za-z_][\w.-]{0,63})': '(?P<v>[^'\\]{0,4000})'")
ERROR_LINE = re.compile(r"^(?:E\s+)?(?P<e>(?:[A-Za-z_][\w.]{0,80}(?:Error|Exception|Exit|Interrupt)|panic|fatal error)(?::.{0,2000})?)$")
CANDIDATE_ERROR = re.compile(r"^test \d+: (?P<e>[A-Za-z_]\w{0,80}(?:Error|Exception): .{0,2000})$")
GO_PANIC = re.compile(r"^\s*(?P<e>panic: .{0,2000})$")
FRAME = re.compile(r"^\s*File \"(?P<f>[^\"]{1,500})\", line \d+")
NOT_CRASHES = ("AssertionError", "pytest", "Failed")
MAX_OUTPUT = 200_000


@record
class Printed:
    """One ``key=value`` the program printed.

    Attributes:
        key: the key.
        value: the value, up to the next whitespace (or the next joined pair).
        joined: the separator that joined this pair to the one before it in one token
            (``,`` in ``a=1,b=2``), "" when pairs were whitespace-separated.
    """

    key: str
    value: str
    joined: str = ""


@record
class ProgramOutput:
    """What the failure text shows of the program's output.

    Attributes:
        stdout: the captured standard output (runs joined by newlines), None when not shown.
        stderr: the captured standard error ("" when none shown).
        read: the fields the check read, as pytest showed them (``{'steps': '15'}``).
        fields_shown: the failure text shows the fields the check read (``in {}`` too).
    """

    stdout: str | None = None
    stderr: str = ""
    read: tuple[tuple[str, str], ...] = ()
    fields_shown: bool = False

    @property
    def known(self) -> bool:
        """True when the failure text shows the output at all (the fields the check read count,
        an empty set of them too: the program printed none)."""
        return self.stdout is not None or bool(self.read) or self.fields_shown

    def pairs(self) -> list[Printed]:
        """Every ``key=value`` printed (and, when stdout is not shown, the fields read)."""
        out = printed_pairs(self.stdout or "")
        keys = {p.key for p in out}
        out.extend(Printed(k, v) for k, v in self.read if k not in keys)
        return out

    def printed_keys(self) -> list[str]:
        """The keys printed, in order, once each."""
        seen: list[str] = []
        for p in self.pairs():
            if p.key not in seen:
                seen.append(p.key)
        return seen

    def line_values(self, key: str) -> list[str]:
        """The rest of each output line that starts with ``key=`` (a list printed with spaces)."""
        prefix = key + "="
        return [ln[len(prefix) :].strip() for ln in (self.stdout or "").splitlines()[:5000] if ln.startswith(prefix)]

    def has_key(self, key: str) -> bool:
        """True when the output prints ``key=`` (or ``key:``) anywhere."""
        if any(k == key for k, _ in self.read):
            return True
        text = self.stdout or ""
        return re.search(r"(?<![\w.-])" + re.escape(key) + r"\s{0,4}[=:]", text) is not None


KEY = re.compile(r"^[A-Za-z_][\w.-]{0,63}$")
COLON_LINE = re.compile(r"^\s{0,8}(?P<k>[A-Za-z_][\w.-]{0,63}):[ \t]+(?P<v>\S.{0,4000}?)\s*$")
MAX_JSON = 2_000_000


def json_pairs(text: str) -> list[Printed] | None:
    """The top-level fields of an output that is one JSON object, or a JSON object a line
    (values as JSON text, strings bare); None when it is neither."""
    body = text.strip()
    if not body.startswith("{") or len(body) > MAX_JSON:
        return None
    docs = []
    try:
        docs.append(json.loads(body))
    except (ValueError, RecursionError):
        try:
            docs = [json.loads(line) for line in body.splitlines() if line.strip()]
        except (ValueError, RecursionError):
            return None
    out: list[Printed] = []
    for doc in docs:
        if not isinstance(doc, dict):
            return None
        for key, value in doc.items():
            if isinstance(key, str) and KEY.match(key):
                out.append(Printed(key, value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))))
    return out


def printed_pairs(text: str) -> list[Printed]:
    """The fields an output prints: the top-level fields of a JSON object (one document, or one
    a line); ``key: value`` lines; a line that is one ``key=`` field followed by words (``path=A B
    C``); ``key=value`` tokens, whitespace-separated or joined by ``,``/``;``."""
    found = json_pairs(text)
    if found is not None:
        return found
    out: list[Printed] = []
    rest: list[str] = []
    for line in text[:MAX_OUTPUT].splitlines():
        if ":" in line and "=" not in line:
            m = COLON_LINE.match(line)
            if m and not m.group("k").endswith(("Error", "Exception", "Warning")):
                out.append(Printed(m.group("k"), m.group("v")))
                continue
        key, eq, value = line.strip().partition("=")
        if eq and KEY.match(key) and " " in value.strip() and "=" not in value:
            out.append(Printed(key, value.strip()))  # one field, a list printed with spaces: path=A B C
            continue
        rest.append(line)
    for token in "\n".join(rest).split():
        if "=" not in token:
            continue
        key, _, value = token.partition("=")
        if not KEY.match(key):
            continue
        parts = re.split(r"([,;])(?=[A-Za-z_][\w.-]{0,63}=)", token)
        if len(parts) > 1:
            joined = ""
            for i in range(0, len(parts), 2):
                k, _, v = parts[i].partition("=")
                out.append(Printed(k, v, joined))
                joined = parts[i + 1] if i + 1 < len(parts) else ""
            continue
        out.append(Printed(key, value))
    return out


def unquote(value: str) -> str:
    """A value an oracle printed, repr quotes and escapes removed."""
    v = value.strip()
    if v[:1] in "'\"" and v[-1:] == v[:1]:
        return strip_quotes(v)
    return value


def program_output(message: str, cancel: Cancel | None = None) -> ProgramOutput:
    """The stdout, stderr and read fields a failure text shows."""
    stdout: list[str] = []
    stderr: list[str] = []
    read: list[tuple[str, str]] = []
    fields_shown = False
    section = ""
    mode = ""
    for raw in message_lines(message):
        poll(cancel)
        m = CAPTURED.match(raw)
        if m:
            section, mode = m.group("what"), ""
            continue
        if section and SECTION.match(raw):
            section, mode = "", ""
        if section == "log":
            continue
        out, err = STDOUT.match(raw), STDERR.match(raw)
        if out:
            stdout.append(unquote(out.group("v")))
            mode = "stdout"
        elif err:
            stderr.append(unquote(err.group("v")))
            mode = "stderr"
        elif INPUT.match(raw) or not raw.strip():
            mode = ""
        elif section == "stderr":
            stderr.append(raw)
        elif section == "stdout" and mode == "stdout":
            stdout.append(raw)
        elif section == "stdout" and mode == "stderr":
            stderr.append(raw)
        elif section == "stdout":
            stdout.append(raw)
        else:
            inline = STDERR_INLINE.search(raw) if "stderr:" in raw else None
            if inline:
                stderr.append(inline.group("v"))
            d = READ_DICT.search(raw) if " in {" in raw else None
            if d:
                fields_shown = True
                read.extend((i.group("k"), i.group("v")) for i in READ_ITEM.finditer(d.group("d")))
    return ProgramOutput("\n".join(stdout) if stdout else None, "\n".join(stderr), tuple(read), fields_shown)


@record
class Crash:
    """The program stopped early.

    Attributes:
        error: the error line (``ValueError: Exceeds the limit (4300 digits) ...``).
        limit: a known interpreter limit it hit: ``int-max-str-digits``, ``recursion-limit``
            or None.
        lift: how to lift that limit (``PYTHONINTMAXSTRDIGITS=0``), "" when no known limit.
        rescorable: re-running with the limit lifted decides the failure (a known limit).
        partial: the program printed part of its output before it stopped.
        hides: keys the check reads that the output lacks (the crash may have hidden them).
        everywhere: the program fails every check of this grader, so a recursion limit may be
            its own endless loop rather than a limit the brief never stated.
        observed: it was seen in a run a re-score observed, not in the recorded output.
    """

    error: str
    limit: str | None = None
    lift: str = ""
    rescorable: bool = False
    partial: bool = False
    hides: tuple[str, ...] = ()
    everywhere: bool = False
    observed: bool = False

    @property
    def towards(self) -> bool:
        """Evidence towards specification: a known interpreter limit stopped a program that
        works on other inputs (an int-to-str limit always: it stops a computed answer)."""
        if self.limit == "recursion-limit":
            return not self.everywhere
        return self.limit is not None

    def describe(self) -> str:
        """One sentence for the strip."""
        head = "the output stopped early" if self.partial or self.hides else "the program crashed"
        if self.observed:
            head += " (seen when re-run in the sandbox)"
        text = f"{head}: {self.error}"
        if self.hides:
            text += f" (the check reads {', '.join(repr(k) for k in self.hides)}, which never appeared)"
        if self.limit == "int-max-str-digits":
            text += "; that is CPython's 4,300-digit int-to-str limit, lifted by " + self.lift
        elif self.limit == "recursion-limit":
            text += "; that is CPython's recursion limit (1,000 frames), lifted by " + self.lift
        elif self.limit:
            text += f"; that is the interpreter's {self.limit} limit, lifted by {self.lift}"
        if self.limit == "recursion-limit" and self.everywhere:
            text += " (but the program fails every check of this grader: the recursion may be its own loop)"
        if self.rescorable:
            text += "; decidable by re-scoring with the limit lifted"
        return text


def limit_of(error: str) -> tuple[str | None, str]:
    """(limit, how to lift it) for an error line (:mod:`reviewer.model.limits`)."""
    limit = limit_in(error)
    return (limit.name, limit.lift) if limit is not None else (None, "")


def observed_output(runs: tuple[Invocation, ...]) -> ProgramOutput:
    """What the program printed in the runs a re-score observed (their outputs joined)."""
    if not runs:
        return ProgramOutput()
    return ProgramOutput("\n".join(r.stdout.rstrip("\n") for r in runs), "\n".join(r.stderr.rstrip("\n") for r in runs if r.stderr))


def observed_crash(runs: tuple[Invocation, ...]) -> Crash | None:
    """The error that ended the first observed run that did not end well (its last error line,
    or the signal), with a known interpreter limit named; None when every run ended with 0."""
    for r in runs:
        if not r.failed:
            continue
        errors = [m.group("e") for line in r.stderr.splitlines()[-200:]
                  if (m := ERROR_LINE.match(line.strip())) is not None and is_crash_line(m.group("e"))]
        limited = [e for e in errors if limit_of(e)[0]]
        if limited or errors:
            error = (limited or errors)[-1][:400]
        elif r.exit_status is not None and r.exit_status < 0:
            error = f"killed by signal {-r.exit_status}"
        elif r.exit_status is None:
            error = "still running when the grader ended"
        else:
            error = f"exit status {r.exit_status}" + (f": {r.stderr.strip().splitlines()[-1][:300]}" if r.stderr.strip() else "")
        limit, lift = limit_of(error)
        return Crash(error, limit, lift, limit in ("int-max-str-digits", "recursion-limit"), bool(r.stdout.strip()),
                     observed=True)
    return None


def is_crash_line(error: str) -> bool:
    """An error line of the program, not the grader's own assertion."""
    return not error.startswith(NOT_CRASHES)


def find_crash(message: str, output: ProgramOutput, model_files: frozenset[str] = frozenset(), cancel: Cancel | None = None) -> Crash | None:
    """The error that stopped the program: the last error line of its stderr, a Go panic, a
    candidate's exception, an exception raised in the model's own file, or a known
    interpreter limit anywhere in the text; None when the text shows no crash."""
    errors: list[str] = []
    for line in output.stderr.splitlines()[-200:]:
        m = ERROR_LINE.match(line.strip())
        if m and is_crash_line(m.group("e")):
            errors.append(m.group("e"))
    frame = ""
    for raw in message_lines(message):
        poll(cancel)
        line = raw.strip()
        f = FRAME.match(raw)
        if f:
            frame = f.group("f").rsplit("/", 1)[-1]
        limit, _ = limit_of(line) if any(known.says in line for known in LIMITS) else (None, "")
        if limit:
            part = line.rsplit("stderr:", 1)[-1].strip() if "stderr:" in line else line
            m = ERROR_LINE.match(part)
            errors.append(m.group("e") if m else part)
            continue
        m = GO_PANIC.match(raw) if "panic: " in raw else None
        m = m or (CANDIDATE_ERROR.match(line) if line.startswith("test ") else None)
        if m:
            errors.append(m.group("e"))
            continue
        m = ERROR_LINE.match(line) if line.startswith("E ") and frame in model_files else None
        if m and is_crash_line(m.group("e")):
            errors.append(m.group("e"))
    if not errors:
        return None
    limited = [e for e in errors if limit_of(e)[0]]
    error = (limited or errors)[-1][:400]
    limit, lift = limit_of(error)
    partial = bool((output.stdout or "").strip())
    return Crash(error, limit, lift, limit is not None, partial)
