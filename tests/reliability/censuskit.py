"""The hostile-text census's material: the payloads, a folder carrying them everywhere, scanners.

Every payload is placed, behind a marker ``§Pnn§``, in every field of a recorded run that can
hold text (the ids cannot: a run folder named after the payloads becomes a load error, which
is shown too). :func:`terminal_leaks` reads what the app wrote to a real terminal and reports
every escape sequence or control character that is not the app's own styling;
:func:`cell_leaks` does the same for the cells Textual composed, before they reach the driver.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from reviewer.ui.bindings import TABLE

SESSION = "census"
RUN = "all-payloads"
BIG_RUN = "big-line"
REVIEWER = "census-reviewer"
TEXTUAL_ACTIONS = (
    "quit", "bell", "command_palette", "screenshot", "toggle_dark", "suspend_process", "focus_next",
    "back", "pop_screen", "show_help_panel", "change_theme", "simulate_key('q')", "push_screen('help')",
    "notify('PWNED')", "switch_mode('x')",
)


@dataclass(frozen=True, slots=True)
class Payload:
    """One hostile string and the name it is reported under."""

    name: str
    text: str


def every_action() -> list[str]:
    """Every action the app binds, plus Textual's own app actions."""
    ours = [e.binding.action for e in TABLE]
    return list(dict.fromkeys([*ours, *TEXTUAL_ACTIONS]))


def markup_actions() -> str:
    """A ``[@click=app.ACTION]`` link (and mouse-down/up handlers) for every app action."""
    parts = [f"[@click={a if a.startswith('screen.') else 'app.' + a}]C{i}[/]" for i, a in enumerate(every_action())]
    parts += ["[@mouse.down=app.quit]D[/]", "[@mouse.up=app.label_specification]U[/]",
              "[@click=screen.dismiss]S[/]", "[on click=app.quit]O[/]"]
    return " ".join(parts)


def payloads(big_line: int = 10_000_000) -> list[Payload]:
    """The payload list of the census (``big_line`` characters for the long line; 0 leaves it out)."""
    found = [
        Payload("markup-actions", markup_actions()),
        Payload("link", "[link=https://evil.example/?q=PWNED]link[/link] [link='javascript:alert(1)']js[/]"),
        Payload("close-tag", "[/b] [/] [/link]"),
        Payload("todo", "[TODO] Q3 [b]bold[/b] [red]red[/red]"),
        Payload("ansi-sgr", "\x1b[31mred\x1b[0m \x1b[1;4;5;7mblink\x1b[m \x1b[38;2;1;2;3mrgb\x1b[0m"),
        Payload("osc0", "\x1b]0;PWNED-TITLE\x07 \x1b]2;PWNED-TITLE\x1b\\"),
        Payload("osc8", "\x1b]8;id=x;javascript:alert('PWNED')//\x1b]0;PWNED\x07\x1b\\click\x1b]8;;\x1b\\"),
        Payload("osc52", "\x1b]52;c;UFdORUQ=\x07"),
        Payload("csi-2j", "\x1b[2J\x1b[H\x1b[3J\x1b[?1049l\x1bc"),
        Payload("c1", "\x9b2J \x9b31m \x9d0;PWNED\x9c \x90q\x9c \x85"),
        Payload("nul", "a\x00b\x00\x00c"),
        Payload("bidi", "if \u202eadmin\u202c \u2066x\u2069 \u200f\u061c"),
        Payload("zero-width", "a\u200bb\u200cc\u200dd\u2060e\ufefff\u00ad"),
        Payload("controls", "bell\x07 back\x08 vt\x0b ff\x0c cr\r del\x7f dcs\x1bP+q\x1b\\ apc\x1b_x\x1b\\"),
        Payload("tabs", "\tpanic: x [recovered]\n\t\tpanic: y\tinner\ttabs\t"),
    ]
    if big_line:
        found.append(Payload("long-line", "L" * big_line))
    return found


def marker(i: int) -> str:
    """The visible tag in front of payload ``i``."""
    return f"\u00a7P{i:02d}\u00a7"


def joined(items: list[Payload], skip_long: bool = True) -> str:
    """Every payload behind its marker, one per line."""
    return "\n".join(marker(i) + p.text for i, p in enumerate(items) if not (skip_long and p.name == "long-line"))


def one_line(items: list[Payload]) -> str:
    """Every (short) payload behind its marker, on one line."""
    return " ".join(marker(i) + p.text.replace("\n", " ") for i, p in enumerate(items) if p.name != "long-line")


def file_name(i: int, p: Payload) -> str:
    """A file name carrying a payload (no '/', backslash or NUL; at most 200 bytes)."""
    name = marker(i) + p.text.replace("/", "\u2215").replace("\\", "\u29f5").replace("\x00", "")
    raw = name.encode("utf-8", "surrogateescape")[:200]
    return raw.decode("utf-8", "ignore") + ".py"


def grader_name(items: list[Payload]) -> str:
    """The grader's name: the payloads without the characters a name may not hold."""
    return re.sub(r"[#/:\n]", "", one_line(items))[:300] or "g"


def first_failure(items: list[Payload]) -> str:
    """The id of the census run's first failure (the app opens there)."""
    return f"{SESSION}/{RUN}#{grader_name(items)}:{marker(0)}{items[0].text[:2000]}"


def write_toml(path: Path, doc: dict[str, Any]) -> None:
    """Write a TOML file, creating folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(tomli_w.dumps(doc).encode("utf-8"))


def write_run(rdir: Path, items: list[Payload], long_text: str) -> None:
    """A run whose every text field carries the payloads."""
    text, line = joined(items), one_line(items)
    names = [file_name(i, p) for i, p in enumerate(items) if p.name != "long-line"]
    (rdir / "attempts" / "1").mkdir(parents=True, exist_ok=True)
    (rdir / "attempts" / "2").mkdir(parents=True, exist_ok=True)
    for n in names:
        (rdir / "attempts" / "1" / n).write_text(text + "\n" + long_text + "\n", encoding="utf-8")
        (rdir / "attempts" / "2" / n).write_text(text + "\nchanged\n", encoding="utf-8")
    (rdir / "brief.md").write_text(f"# {line}\n\n{text}\n\n```\n{text}\n```\n\n{long_text}\n", encoding="utf-8")
    (rdir / "grader").mkdir(exist_ok=True)
    (rdir / "grader" / "out.txt").write_text(f"{text}\n{long_text}\n--- FAIL: x\n", encoding="utf-8")
    grader = grader_name(items)
    checks = [{"key": marker(i) + p.text[:2000], "name": marker(i) + p.text[:2000], "status": "fail",
               "message": marker(i) + p.text[:5000], "location": marker(i) + p.text[:200]}
              for i, p in enumerate(items) if p.name != "long-line"]
    turns = [
        {"role": "user", "text": text},
        {"role": "assistant", "text": text, "attempt": 1,
         "tool_call": [{"name": line[:500], "arguments": text, "output": text}]},
        {"role": "harness", "text": text, "nudge": True},
        {"role": "tool", "text": text},
        {"role": "assistant", "text": line, "attempt": 2},
    ]
    write_toml(rdir / "transcript.toml", {"format": 1, "turn": turns})
    run = {"task": line, "model": line, "access": "local", "outcome": "fail", "brief": "brief.md",
           "transcript": "transcript.toml", "expected_dir": "", "metadata": {"notes": text, line[:200]: text}}
    graders = [{"name": grader, "command": line, "cwd": line[:200], "exit_status": 1, "output": "grader/out.txt",
                "check": checks}]
    write_toml(rdir / "run.toml", {"format": 1, "run": run,
                                   "attempt": [{"files": sorted(names), "note": text}, {"files": sorted(names)}],
                                   "grader": graders})


def write_big_run(rdir: Path, items: list[Payload]) -> None:
    """A plain run whose brief, code and grader output hold the long line."""
    long_text = next((marker(i) + p.text for i, p in enumerate(items) if p.name == "long-line"), "")
    (rdir / "attempts" / "1").mkdir(parents=True, exist_ok=True)
    (rdir / "attempts" / "1" / "big.py").write_text(long_text + "\n", encoding="utf-8")
    (rdir / "brief.md").write_text("# big\n\n" + long_text + "\n", encoding="utf-8")
    (rdir / "grader").mkdir(exist_ok=True)
    (rdir / "grader" / "out.txt").write_text(long_text + "\n", encoding="utf-8")
    write_toml(rdir / "transcript.toml", {"format": 1, "turn": [{"role": "user", "text": "big"}]})
    run = {"task": "\u00ffbig", "model": "\u00ffbig", "access": "local", "outcome": "fail", "brief": "brief.md",
           "transcript": "transcript.toml"}
    write_toml(rdir / "run.toml", {"format": 1, "run": run, "attempt": [{"files": ["big.py"]}],
                                   "grader": [{"name": "g", "exit_status": 1, "output": "grader/out.txt",
                                               "check": [{"key": "huge", "status": "fail", "message": "big"}]}]})


def write_census_folder(root: Path, items: list[Payload]) -> Path:
    """The census folder: one run with every payload everywhere, the long line, labels, tags, errors."""
    text, line = joined(items), one_line(items)
    sdir = root / SESSION
    write_toml(sdir / "session.toml", {"format": 1, "session": {
        "harness": line, "harness_version": line[:100], "started": line[:50], "models": [line], "notes": text}})
    write_run(sdir / "runs" / RUN, items, "")
    if any(p.name == "long-line" for p in items):
        write_big_run(sdir / "runs" / BIG_RUN, items)
    # ids cannot hold payloads: a run folder named after them is a load error, shown with its name
    bad = sdir / "runs" / file_name(0, items[min(5, len(items) - 1)])
    write_toml(bad / "run.toml", {"format": 1, "run": {"task": line}})
    write_toml(sdir / "runs" / "broken" / "run.toml", {"format": 1, "run": {"task": line, "outcome": line}})
    (sdir / "runs" / "not-toml").mkdir(parents=True, exist_ok=True)
    (sdir / "runs" / "not-toml" / "run.toml").write_text(f"format = 1\n{line} = [\n", encoding="utf-8")
    write_toml(root / "tags.toml", {"tags": [marker(i) + p.text[:50] for i, p in enumerate(items)
                                             if p.name != "long-line"] + ["plain-tag"]})
    labels = [{"run": RUN, "check": f"{grader_name(items)}:{marker(i) + p.text[:2000]}",
               "verdict": "deferred", "note": text, "tags": [marker(i) + p.text[:50]], "labelled_at": "2026-01-01T00:00:00Z",
               "evidence": line[:100]} for i, p in enumerate(items) if p.name != "long-line"]
    write_toml(sdir / "labels" / f"{REVIEWER}.toml", {"format": 1, "reviewer": REVIEWER, "session": SESSION, "label": labels})
    write_toml(sdir / "labels" / "other.toml", {"format": 1, "reviewer": line, "session": SESSION, "label": [
        {**lab, "verdict": "capability", "note": text} for lab in labels]})
    return root


@dataclass
class Figures:
    """What the census counted."""

    payloads: int = 0
    shown_in_terminal: int = 0
    shown_in_cells: int = 0
    widgets: int = 0
    leaks: int = 0
    actions_fired: int = 0
    live_links: int = 0
    inert_links: int = 0
    title_changes: int = 0
    crashes: int = 0
    hangs: int = 0
    details: list[str] = field(default_factory=list)

    def public(self) -> dict[str, int]:
        """The figures without the details."""
        return {k: v for k, v in self.__dict__.items() if k != "details"}


def label_digest(root: Path) -> str:
    """A hash of every labels file (names and bytes), to prove nothing was written."""
    h = hashlib.sha256()
    for p in sorted(root.rglob("labels/**/*")):
        h.update(str(p.relative_to(root)).encode("utf-8", "surrogateescape"))
        h.update(p.read_bytes() if p.is_file() else b"")
    return h.hexdigest()


# ---- what reached the terminal -------------------------------------------------------------

ESCAPE = re.compile(
    rb"\x1b(?:\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]"  # CSI
    rb"|\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    rb"|[PX^_][^\x1b]*\x1b\\"  # DCS, SOS, PM, APC
    rb"|[\x20-\x2f]*[\x30-\x7e]"  # two-byte and nF escapes
    rb"|$)"
)
SGR = re.compile(rb"\x1b\[[0-9;:]*m\Z")
CUP = re.compile(rb"\x1b\[\d+;\d+H\Z")
OWN_MODES = {
    b"\x1b[?1049h", b"\x1b[?1049l", b"\x1b[?25l", b"\x1b[?25h", b"\x1b[?7l", b"\x1b[?7h",
    b"\x1b[?1000h", b"\x1b[?1000l", b"\x1b[?1003h", b"\x1b[?1003l", b"\x1b[?1015h", b"\x1b[?1015l",
    b"\x1b[?1006h", b"\x1b[?1006l", b"\x1b[?1004h", b"\x1b[?1004l", b"\x1b[?2004h", b"\x1b[?2004l",
    b"\x1b[>25u", b"\x1b[<u", b"\x1b[?2026$p", b"\x1b[?2048$p", b"\x1b[?2026h", b"\x1b[?2026l",
}
"""What Textual itself writes at start-up and exit (modes, the keyboard protocol, mouse pointer)."""
POINTER = re.compile(rb"\x1b\]22;[a-z-]{1,20}\x07\Z")
"""Textual sets the mouse pointer's shape (OSC 22) at start-up and as the pointer moves."""
CLIPBOARD = re.compile(rb"\x1b\]52;c;([A-Za-z0-9+/=]*)\x07\Z")
INVISIBLE = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
                "\u200b\u200c\u200d\u2060\ufeff\u00ad")


def bad_char(ch: str) -> bool:
    """A control, C1, bidi or invisible character: never shown raw."""
    o = ord(ch)
    return (o < 0x20 and ch not in "\r\n") or 0x7F <= o < 0xA0 or ch in INVISIBLE


def clipboard_ok(seq: bytes) -> bool:
    """An OSC 52 copy (the ``y`` key) whose text is sanitised."""
    import base64
    import binascii

    m = CLIPBOARD.match(seq)
    if not m:
        return False
    try:
        text = base64.b64decode(m.group(1), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return False
    return not any(bad_char(ch) for ch in text if ch != "\n")


def terminal_leaks(data: bytes, copied: bool = False) -> list[tuple[int, str]]:
    """Every escape sequence or raw control character in the output that is not the app's own.

    Allowed: SGR styling and cursor positioning anywhere; Textual's own mode switches and
    queries before the first frame and after the last; bells on their own between frames (the
    app's own ``bell()``); an OSC 52 clipboard write of sanitised text when ``copied``. Everything else is a leak, as is a C1 byte, a bidi or invisible
    character, or bytes that are not UTF-8. Returns (byte offset or -1, what) pairs.
    """
    leaks: list[tuple[int, str]] = []
    frames = [m.start() for m in ESCAPE.finditer(data) if CUP.match(m.group())]
    first, last = (frames[0], frames[-1]) if frames else (len(data), -1)
    pos = 0
    spans: list[tuple[int, bytes]] = []
    for m in ESCAPE.finditer(data):
        spans.append((pos, data[pos : m.start()]))
        pos = m.end()
        seq = m.group()
        if SGR.match(seq) or CUP.match(seq) or POINTER.match(seq):
            continue
        if seq in OWN_MODES and (m.start() < first or m.start() > last):
            continue
        if copied and clipboard_ok(seq):
            continue
        leaks.append((m.start(), f"escape {seq[:80]!r}"))
    spans.append((pos, data[pos:]))
    seen: set[str] = set()
    for at, raw in spans:
        if raw and not raw.strip(b"\x07"):
            continue  # the app's own bell, written between frames (two keys that move nothing: two bells)
        decoded = raw.decode("utf-8", "replace")
        for ch in decoded:
            if (ch == "\ufffd" or bad_char(ch)) and ch not in seen:
                seen.add(ch)
                what = "bytes that are not UTF-8 (raw C1?)" if ch == "\ufffd" else f"raw {unicodedata.name(ch, hex(ord(ch)))}"
                leaks.append((at, f"{what} in {raw[:60]!r}"))
    return leaks


# ---- what Textual composed -----------------------------------------------------------------

MARKER = re.compile("\u00a7P(\\d\\d)\u00a7")


def cell_leaks(text: str) -> list[str]:
    """Control, C1, bidi and invisible characters in composed cell text."""
    return [unicodedata.name(ch, hex(ord(ch))) for ch in sorted(set(text)) if bad_char(ch) or ch in "\r\n\t"]
