"""Run one candidate implementation against the hidden tests; print a JSON verdict.

Usage: python candidate_runner.py CANDIDATE.py FUNCTION

Prints {"passed": N, "total": M, "errors": [...]} where each error is
"test <i>: wrong answer <repr>", "test <i>: <Exception>: <message>", or a single
"load: <Exception>: <message>" when the candidate does not load or lacks the function.
Exit status 0 when every test passed, 1 otherwise. Not a sandbox: the candidate runs with
this process's permissions (the harness runs it in a throwaway container).
"""

import json
import sys
from pathlib import Path

TESTS = {
    "percent_change": [
        ((50, 75), 50.0),
        ((200, 150), -25.0),
        ((0, 10), None),
        ((3, 4), 33.33),
        ((80, 80), 0.0),
        ((40, 10), -75.0),
        ((8, 9), 12.5),
    ],
}


def run_candidate(source: str, func_name: str, tests: list) -> dict:
    verdict = {"passed": 0, "total": len(tests), "errors": []}
    namespace: dict = {}
    try:
        exec(compile(source, "<candidate>", "exec"), namespace)
        func = namespace[func_name]
    except Exception as exc:  # anything the candidate does must not stop the ranking
        verdict["errors"] = [f"load: {type(exc).__name__}: {exc}"]
        return verdict
    for index, (args, expected) in enumerate(tests):
        try:
            got = func(*args)
        except Exception as exc:
            verdict["errors"].append(f"test {index}: {type(exc).__name__}: {exc}")
            continue
        if got == expected:
            verdict["passed"] += 1
        else:
            verdict["errors"].append(f"test {index}: wrong answer {got!r}")
    return verdict


def main() -> int:
    candidate, func_name = sys.argv[1], sys.argv[2]
    verdict = run_candidate(Path(candidate).read_text(), func_name, TESTS[func_name])
    print(json.dumps(verdict))
    return 0 if verdict["passed"] == verdict["total"] else 1


if __name__ == "__main__":
    sys.exit(main())
