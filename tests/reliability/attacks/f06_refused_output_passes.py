"""Finding 6: a grader output reviewer refuses to parse becomes a passing check, so a real failure never reaches triage.

Three outputs, each recorded for a run whose grader exited 0 and holding a real failure:

- JUnit XML with a DOCTYPE (refused: entity bombs), its ``<failure>`` plain to see once the
  DOCTYPE line is gone (live: the refusal happens, and the document without it fails a test);
- ``go test -v`` output over the 32 MiB read cap, the failing test after the cap (live: the
  ``--- FAIL`` line lies past the cap);
- JUnit XML written as UTF-16 (undecodable as UTF-8: NUL bytes everywhere), failing a test
  (live: decoded as UTF-16 it fails one).

Contained: each run has a failing ``unreadable grader output`` check whose message gives the
reason, ``reviewer check`` lists each one (exit 1), and ``reviewer import junit`` of the DOCTYPE
file records the run as ``fail``, never ``pass``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from attacks import Outcome

FINDING = 6
TITLE = "a refused or unreadable grader output (DOCTYPE, over the cap, undecodable) falls back to a passing check"
JUNIT = ('<?xml version="1.0"?>\n{doctype}<testsuite name="t" tests="2" failures="1">\n'
         '<testcase classname="roman" name="test_ok"/>\n'
         '<testcase classname="roman" name="test_four"><failure message="IIII != IV">assert to_roman(4) == "IV"'
         '</failure></testcase>\n</testsuite>\n')
DOCTYPE = '<!DOCTYPE testsuite [<!ENTITY x "x">]>\n'


def outputs() -> dict[str, tuple[bytes, str]]:
    """The three grader outputs: (bytes, declared format)."""
    from reviewer.store.fs.untrusted import TEXT_CAP

    line = b"=== RUN   TestPass\n--- PASS: TestPass (0.00s)\n"
    passing = line * (TEXT_CAP // len(line) + 1)
    go = b"=== RUN   TestFirst\n--- PASS: TestFirst (0.00s)\n" + passing + \
        b"=== RUN   TestLast\n    last_test.go:9: got IIII, want IV\n--- FAIL: TestLast (0.00s)\nFAIL\n"
    return {"doctype": (JUNIT.format(doctype=DOCTYPE).encode(), "junit"), "overcap": (go, "go-test-v"),
            "utf16": (JUNIT.format(doctype="").replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-16"?>')
                      .encode("utf-16"), "junit")}


def live(name: str, data: bytes) -> bool:
    """Without reviewer's fix the output holds a failure that its refusal hides."""
    from reviewer.parsers import junit, parse_output
    from reviewer.store.fs.untrusted import TEXT_CAP

    if name == "doctype":
        try:
            junit.parse(data.decode())
            return False
        except junit.UnsafeXML:
            pass
        return any(c.failing for c in parse_output(data.decode().replace(DOCTYPE, ""), "junit"))
    if name == "overcap":
        return data.find(b"--- FAIL") > TEXT_CAP and b"--- FAIL" not in data[:TEXT_CAP]
    return b"\x00" in data[:100] and any(c.failing for c in parse_output(data.decode("utf-16"), "junit"))


def check(work: Path) -> Outcome:
    """Record the three runs, then look through the store, ``reviewer check`` and ``reviewer import``."""
    from gitkit import cli
    from sessionkit import RunSpec, write_session

    from reviewer.store.sessions.store import SessionStore

    root = work / "sessions"
    cases = outputs()
    runs = [RunSpec(name, outcome="pass", checks=[], extra_run={}) for name in cases]
    write_session(root, "s", runs)
    import tomli
    import tomli_w

    lives = {}
    for name, (data, fmt) in cases.items():
        rdir = root / "s" / "runs" / name
        (rdir / "grader" / "heldout.out").write_bytes(data)
        doc = tomli.loads((rdir / "run.toml").read_text())
        doc["grader"][0].pop("check", None)
        doc["grader"][0]["exit_status"] = 0
        doc["grader"][0]["format"] = fmt
        (rdir / "run.toml").write_bytes(tomli_w.dumps(doc).encode())
        lives[name] = live(name, data)
    store = SessionStore(root)
    store.scan()
    seen = {}
    for run in store.corpus.runs:
        unreadable = [f for f in store.failures(run) if f.check.name == "unreadable grader output"]
        seen[run.id] = unreadable[0].check.message.splitlines()[0][:100] if unreadable else ""
    checked = cli("check", str(root))
    listed = {name: name in checked.stdout and "cannot be parsed" in checked.stdout for name in cases}
    imported = import_outcome(work, cases["doctype"][0])
    ok = all(seen.get(n) for n in cases) and checked.returncode == 1 and all(listed.values()) and imported == "fail"
    detail = ("; ".join(f"{n}: live {lives[n]}, unreadable check {'shown: ' + repr(seen.get(n)) if seen.get(n) else 'MISSING'}, "
                        f"listed by check {listed[n]}" for n in cases) + f"; import junit of the DOCTYPE file: outcome {imported}")
    return Outcome(ok, all(lives.values()), detail, {"outputs": len(cases), "unreadable_checks": sum(map(bool, seen.values())),
                                                     "import_outcome_fail": imported == "fail"})


def import_outcome(work: Path, data: bytes) -> str:
    """``reviewer import junit`` of the DOCTYPE file: the imported run's outcome."""
    import tomli
    from gitkit import REPO_ROOT

    code = work / "code"
    code.mkdir()
    (code / "roman.py").write_text("def to_roman(n):\n    return 'I' * n\n")
    out = work / "report.xml"
    out.write_bytes(data)
    into = work / "imported"
    done = subprocess.run([sys.executable, "-m", "reviewer.cli", "import", "junit", str(code), "--grader-output", str(out),
                           "--exit-status", "0", "--into", str(into)], capture_output=True, text=True, cwd=REPO_ROOT,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)}, timeout=120, check=False)
    manifests = list(into.glob("*/runs/*/run.toml"))
    if done.returncode != 0 or not manifests:
        return f"import failed: {done.stderr.strip()[:100]}"
    return str(tomli.loads(manifests[0].read_text())["run"]["outcome"])
