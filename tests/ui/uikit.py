"""Small sessions folders in the documented format, written for the UI tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

HOSTILE = "[@click=app.quit]CLICK[/] [/b] \x1b]0;PWNED\x07"
"""A string that would run an action, crash the markup parser or retitle the terminal."""
HOSTILE_SHOWN = "[@click=app.quit]CLICK[/]"
"""The part of HOSTILE that must appear literally on screen."""


@dataclass
class Spec:
    """A run to write."""

    id: str
    task: str = "roman-go"
    model: str = "model-a"
    outcome: str = "fail"
    brief: str = "# Roman numerals\n\nWrite `roman.go` in package roman. See [docs](https://example.com).\n"
    attempts: list[dict[str, str]] = field(default_factory=lambda: [{"roman.go": "package roman\n"}])
    checks: list[dict[str, str]] = field(default_factory=list)
    output: str = ""
    turns: list[dict[str, Any]] = field(default_factory=list)
    grader: str = "heldout"
    command: str = "go test -v ./..."
    expected_dir: str = ""


def write_toml(path: Path, doc: dict[str, Any]) -> None:
    """Write a TOML file, creating folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(tomli_w.dumps(doc).encode())


def write_session(root: Path, session: str, specs: list[Spec]) -> None:
    """One session folder with its runs."""
    write_toml(root / session / "session.toml", {"format": 1, "session": {"harness": "UiKit"}})
    for spec in specs:
        rdir = root / session / "runs" / spec.id
        rdir.mkdir(parents=True, exist_ok=True)
        (rdir / "brief.md").write_text(spec.brief)
        for n, files in enumerate(spec.attempts, start=1):
            for path, text in files.items():
                target = rdir / "attempts" / str(n) / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text)
        (rdir / "grader").mkdir(exist_ok=True)
        (rdir / "grader" / "out.txt").write_text(spec.output)
        grader: dict[str, Any] = {
            "name": spec.grader,
            "command": spec.command,
            "exit_status": 0 if spec.outcome == "pass" else 1,
            "output": "grader/out.txt",
            "check": spec.checks or [{"key": "TestAll", "status": "pass" if spec.outcome == "pass" else "fail"}],
        }
        turns = spec.turns or [{"role": "user", "text": "Write roman.go"}, {"role": "assistant", "text": "done", "attempt": 1}]
        write_toml(rdir / "transcript.toml", {"format": 1, "turn": turns})
        run = {"task": spec.task, "model": spec.model, "access": "local", "outcome": spec.outcome,
               "brief": "brief.md", "transcript": "transcript.toml", "expected_dir": spec.expected_dir}
        write_toml(rdir / "run.toml", {"format": 1, "run": run, "attempt": [{"files": sorted(a)} for a in spec.attempts],
                                       "grader": [grader]})


ROMAN_OUTPUT = (
    "=== RUN   TestToRoman\n"
    "    roman_test.go:21: ToRoman(4) = \"IIII\", want \"IV\"\n"
    "\x1b[31m--- FAIL: TestToRoman (0.00s)\x1b[0m\n"
    "=== RUN   TestFromRoman\n"
    "\x1b[32m--- PASS: TestFromRoman (0.00s)\x1b[0m\n"
    "=== RUN   TestRoundTrip\n"
    "    roman_test.go:40: round trip of 3999 failed\n"
    "\x1b[31m--- FAIL: TestRoundTrip (0.00s)\x1b[0m\n"
    "FAIL\n"
)

ROMAN_TURNS = [
    {"role": "user", "text": "In this folder, write roman.go in package roman."},
    {"role": "assistant", "text": "I wrote roman.go and a test.", "attempt": 1,
     "tool_call": [{"name": "write_file", "arguments": "{\"path\": \"roman.go\"}", "output": "ok"}]},
    {"role": "harness", "text": "tests fail: carry on", "nudge": True},
    {"role": "assistant", "text": "I moved it to roman/roman.go.", "attempt": 2},
    {"role": "harness", "text": "roman.go not found in the workspace: carry on", "nudge": True},
    {"role": "assistant", "text": "Back at the root.", "attempt": 3},
]


def basic_folder(root: Path) -> Path:
    """Two sessions, five runs, six failures; one run has three attempts and a nudging transcript."""
    roman_a = Spec(
        "roman-go--model-a",
        attempts=[
            {"roman.go": "package roman\n\nfunc ToRoman(n int) string {\n\treturn \"\"\n}\n",
             "roman_test.go": "package roman\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n"},
            {"roman/roman.go": "package roman\n\nfunc ToRoman(n int) string {\n\treturn \"I\"\n}\n"},
            {"roman.go": "package roman\n\nfunc ToRoman(n int) string {\n\treturn \"IIII\"\n}\n"},
        ],
        checks=[
            {"key": "TestToRoman", "status": "fail", "message": "ToRoman(4) = \"IIII\", want \"IV\""},
            {"key": "TestFromRoman", "status": "pass"},
            {"key": "TestRoundTrip", "status": "fail", "message": "round trip of 3999 failed"},
            {"key": "TestSlow", "status": "skip"},
        ],
        output=ROMAN_OUTPUT,
        turns=ROMAN_TURNS,
    )
    roman_b = Spec("roman-go--model-b", model="model-b", outcome="pass",
                   checks=[{"key": "TestToRoman", "status": "pass"}], output="ok  \troman\t0.01s\n")
    write_session(root, "s1", [roman_a, roman_b])
    conn = dict(task="connected", grader="oracle", command="python oracle.py", brief="# Connected\n\nPrint yes or no.\n")
    write_session(root, "s2", [
        Spec("connected--model-a", **conn, attempts=[{"main.py": "print('yes')\n"}], checks=[
            {"key": "connected", "status": "fail", "message": "expected connected=yes, got connected=true"},
            {"key": "path", "status": "error", "message": "KeyError: 'path'"},
        ], output="connected: FAIL expected yes got true\npath: ERROR KeyError\n"),
        Spec("connected--model-b", **conn, model="model-b", outcome="pass", attempts=[{"main.py": "print('yes')\n"}],
             checks=[{"key": "connected", "status": "pass"}], output="connected: ok\n"),
        Spec("connected--model-c", **conn, model="model-c", attempts=[{"main.py": "print(1)\n"}],
             checks=[{"key": "connected", "status": "fail", "message": "printed 1"}, {"key": "edges", "status": "fail"}],
             output="connected: FAIL printed 1\nedges: FAIL\n"),
    ])
    return root


def hostile_folder(root: Path) -> Path:
    """Every string a run can carry starts with HOSTILE."""
    h = HOSTILE
    spec = Spec(
        "evil",
        task=h + "task",
        model=h + "model",
        brief=(h + "\n\n# " + h + "\n\n[" + h + "](javascript:alert) text \u202e reversed\n\n"
               "```\n" + h + "\n```\n\n```" + h + "\ncode\n```\n\n<b onclick=x>" + h + "</b>\n"),
        attempts=[{h + "file.py": h + "\nprint('\x1b[2J')\n", "ok.py": "x = 1\n"},
                  {h + "file.py": h + "\nprint(2)\n"}],
        checks=[{"key": h + "check", "name": h + "name", "status": "fail", "message": h + "message"},
                {"key": "plain", "status": "error", "message": h}],
        output=h + "\n\x1b[31m" + h + "red\x1b[0m\n\x9b2J\x1b]52;c;aGVsbG8=\x07\n",
        turns=[{"role": "user", "text": h + "turn"},
               {"role": "assistant", "text": h, "attempt": 1,
                "tool_call": [{"name": h, "arguments": h, "output": h}]},
               {"role": "harness", "text": h, "nudge": True}],
        command=h + "command",
    )
    write_session(root, "evil-session", [spec])
    return root


def big_folder(root: Path) -> Path:
    """One run with a 20,000-line file and a 10 MB single-line grader output."""
    lines = "\n".join(f"def f{i}(x):  # line {i}\n    return x + {i}" for i in range(10_000)) + "\n"
    spec = Spec("big", attempts=[{"big.py": lines}],
                checks=[{"key": "huge", "status": "fail", "message": "too big"}],
                output="x" * 10_000_000)
    write_session(root, "big-session", [spec])
    return root


class MemoryStore:
    """A stand-in for SessionStore with many runs held in memory (the store Protocol, no disk)."""

    def __init__(self, count: int) -> None:
        from reviewer.model import Attempt, AttemptFile, Check, CheckStatus, GraderRecord, Run
        from reviewer.store.sessions.scan import Corpus
        from reviewer.store.sessions.store import LRU

        self.root = Path("/nonexistent")
        self.index = None
        self.evidence_contexts = LRU(8)
        runs = []
        for i in range(count):
            failing = i % 3 != 0
            checks = (Check("TestA", "TestA", CheckStatus.FAIL if failing else CheckStatus.PASS, "boom"),)
            runs.append(Run(
                f"s{i // 10_000}", f"run-{i:06d}", f"task-{(i // 100) % 100}", f"model-{i % 7}",
                outcome="fail" if failing else "pass",
                attempts=(Attempt(1, (AttemptFile("a.py", "a.py"),)),),
                graders=(GraderRecord("g", 1, checks=checks),),
            ))
        self.corpus = Corpus(root=self.root, runs=runs)
        self.by_key = {r.key: r for r in runs}

    @property
    def runs(self):  # type: ignore[no-untyped-def]
        """Every run."""
        return self.corpus.runs

    @property
    def errors(self):  # type: ignore[no-untyped-def]
        """Nothing failed to load."""
        return []

    def run(self, key):  # type: ignore[no-untyped-def]
        """A run by key."""
        return self.by_key.get(key)

    def scan(self):  # type: ignore[no-untyped-def]
        """The in-memory corpus."""
        return self.corpus

    def refresh(self):  # type: ignore[no-untyped-def]
        """Nothing changes."""
        from reviewer.store.sessions.store import Changes

        return Changes([], [], [])

    def save_index(self):  # type: ignore[no-untyped-def]
        """No index."""
        return False

    def grader_checks(self, run):  # type: ignore[no-untyped-def]
        """Recorded checks."""
        from reviewer.store.sessions.store import GraderChecks

        return tuple(GraderChecks(g.name, g.checks or ()) for g in run.graders)

    def failures(self, run):  # type: ignore[no-untyped-def]
        """Failing checks."""
        from reviewer.model import Failure, check_id

        return [Failure(run.failure_id(check_id(g.name, c.key)), run.key, g.name, c)
                for g in run.graders for c in (g.checks or ()) if c.failing]

    def transcript(self, run):  # type: ignore[no-untyped-def]
        """No transcript."""
        from reviewer.store.sessions.store import Transcript

        return Transcript()

    def text(self, ref):  # type: ignore[no-untyped-def]
        """Every file is one line."""
        from reviewer.store.fs.untrusted import TextBlob

        return TextBlob("x = 1\n", 6)

    def brief(self, run):  # type: ignore[no-untyped-def]
        """A one-line brief."""
        return self.text("brief")
