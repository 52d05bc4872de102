#!/usr/bin/env python3
"""A deterministic judge speaking reviewer's judge protocol (stdlib only): the tests run it as a real
subprocess, and the README shows it as the smallest judge there is.

    reviewer judge sessions --name script --command "python tests/judges/script_judge.py"

It reads one failure document on its stdin and answers from the evidence alone, by a rule of its
own (not the Evidence strip's): specification when the check demanded something the brief does
not state (``evidence.counts.unstated`` above 0) or a near miss of notation was found, capability
otherwise; abstains when there is no evidence. Its confidence is 0.9 with a near miss, 0.6
without. The same document always gives the same answer.

``--mode MODE`` makes it misbehave instead, for the reliability tests: ``huge`` (an answer of
``--size`` bytes), ``malformed`` (not JSON), ``escapes`` (a rationale of terminal escape
sequences), ``hang`` (never answers), ``die`` (SIGKILLs itself), ``stderr`` (writes to stderr
forever), ``linger`` (answers, and leaves a helper holding its stdout), ``deep`` (nested
brackets), ``unread`` (answers without reading its stdin), ``exit3`` (answers, then exits 3);
with ``--only TEXT`` only on failures whose id holds TEXT.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time


def decide(doc: dict) -> dict:
    """The rule (see the module)."""
    ev = doc.get("evidence")
    if not isinstance(ev, dict):
        return {"version": 1, "verdict": "abstain", "rationale": "no evidence to go on"}
    unstated = int(ev.get("counts", {}).get("unstated", 0))
    near = len(ev.get("near_misses", []))
    verdict = "specification" if unstated or near else "capability"
    why = f"{unstated} demands not stated in the brief, {near} near misses of notation"
    return {"version": 1, "verdict": verdict, "confidence": 0.9 if near else 0.6, "rationale": why,
            "judge_version": "script-judge 1"}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="honest")
    parser.add_argument("--size", type=int, default=4 << 20)
    parser.add_argument("--tag", default="", help="ignored: names the process, for tests that look for it")
    parser.add_argument("--only", default="", help="misbehave only on failures whose id holds this text (honest on the rest)")
    args = parser.parse_args()
    mode = args.mode
    if mode == "unread":
        sys.stdout.write(json.dumps({"verdict": "capability"}))
        return 0
    doc = json.loads(sys.stdin.read())
    if args.only and args.only not in doc.get("failure", {}).get("id", ""):
        mode = "honest"
    if mode == "honest":
        sys.stdout.write(json.dumps(decide(doc)) + "\n")
    elif mode == "huge":
        sys.stdout.write('{"verdict": "capability", "rationale": "' + "x" * args.size + '"}')
    elif mode == "malformed":
        sys.stdout.write('{"verdict": "specification", confidence: high')
    elif mode == "escapes":
        evil = "\x1b]0;pwned-title\x07\x1b[2J\x1b]52;c;cHduZWQ=\x07\x9b31m\u202egnp.exe"
        sys.stdout.write(json.dumps({"verdict": "specification", "confidence": 0.5, "rationale": evil}))
    elif mode == "hang":
        time.sleep(3600)
    elif mode == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    elif mode == "stderr":
        block = "noise " * 1000 + "\n"
        while True:
            sys.stderr.write(block)
    elif mode == "linger":
        sys.stdout.write(json.dumps({"verdict": "capability", "rationale": "lingering"}))
        sys.stdout.flush()
        if os.fork() == 0:  # the helper keeps the judge's stdout open long after the judge is gone
            time.sleep(3600)
            os._exit(0)
    elif mode == "deep":
        sys.stdout.write("[" * 100_000 + "]" * 100_000)
    elif mode == "exit3":
        sys.stdout.write(json.dumps(decide(doc)))
        return 3
    else:
        print(f"unknown mode {mode}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
