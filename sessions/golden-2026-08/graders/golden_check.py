"""Check answers against a golden set of partial expectations; print the verdict as JSON.

Usage: python golden_check.py CASES.toml ANSWERS.md

ANSWERS.md holds one section per case, headed `## <case id>`; lines starting with
`Sources:` are the citations shown with that answer, the rest is the answer text.
Exit status 0 when every check passed, 1 otherwise.
"""

import json
import re
import sys
import tomllib
from pathlib import Path


def read_answers(text: str) -> dict:
    answers, current = {}, None
    for line in text.splitlines():
        heading = re.match(r"^##\s+(\S+)\s*$", line)
        if heading:
            current = heading.group(1)
            answers[current] = {"text": [], "sources": []}
        elif current is not None:
            key = "sources" if line.startswith("Sources:") else "text"
            answers[current][key].append(line)
    return {
        cid: {"text": "\n".join(a["text"]).strip(), "sources": " ".join(a["sources"])}
        for cid, a in answers.items()
    }


def check_case(case: dict, answer: dict | None) -> list:
    text = answer["text"] if answer else ""
    sources = answer["sources"] if answer else ""
    low = text.lower()
    checks = []

    def add(kind, expect, passed, detail):
        checks.append({"kind": kind, "expect": expect, "passed": passed, "detail": detail})

    for expect in case.get("contains", []):
        options = expect if isinstance(expect, list) else [expect]
        hit = next((o for o in options if o.lower() in low), None)
        add("contains", expect, hit is not None,
            f"found {hit!r}" if hit else f"none of {options!r} in the answer")
    if "notContains" in case:
        bad = [o for o in case["notContains"] if o.lower() in low]
        add("notContains", case["notContains"], not bad,
            f"answer says {bad[0]!r}" if bad else "no refused figure in the answer")
    if "lead" in case:
        first = re.sub(r"[^a-z]", "", (low.split() or [""])[0])
        add("lead", case["lead"], first == case["lead"], f"answer starts with {first!r}")
    if "citesLaw" in case:
        ok = case["citesLaw"] in sources
        add("citesLaw", case["citesLaw"], ok,
            "cited" if ok else f"sources shown: {sources or '(none)'}")
    if answer is None:
        for c in checks:
            c["detail"] = "no answer section for this case"
    return checks


def main() -> int:
    cases = tomllib.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))["case"]
    answers = read_answers(Path(sys.argv[2]).read_text(encoding="utf-8"))
    report = []
    for case in cases:
        answer = answers.get(case["id"])
        report.append({
            "id": case["id"],
            "question": case["question"],
            "answer": answer["text"] if answer else "",
            "checks": check_case(case, answer),
        })
    print(json.dumps({"cases": report}, indent=2, ensure_ascii=False))
    failed = any(not c["passed"] for r in report for c in r["checks"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
