"""Finding 22: ATIF trajectories whose steps take gigabytes to parse, or number a million.

A Harbor job folder made here holds three trials:

- the bomb: a trajectory whose ``steps`` are 200 MiB of ``{},{},...`` (70 million empty steps;
  a plain parse builds a dict per step, gigabytes of Python objects);
- the long one: 1,000,000 ordinary steps (user, agent with a tool call and its observation);
- an ordinary trial beside them.

Live: parsing the bomb the plain way (``json.loads`` of the file, as Harbor's own validator and
Inspect Scout's ``atif()`` source do through pydantic) does not fit in 1 GiB (a child under a 1
GiB address-space limit fails). Contained: ``reviewer import atif`` of the folder, measured in a
child process (``RUSAGE_CHILDREN`` peak RSS), stays under 1 GiB, exits 0, imports all three
trials, and says in both cut runs' transcripts that steps were left out.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from attacks import Outcome
from attacks.f07_import_bombs import RSS_LIMIT, SAFETY_AS, limit_memory, measured, reviewer_cmd

FINDING = 22
TITLE = "an ATIF trajectory of 200 MiB of empty steps, and one of a million steps, in a Harbor job folder"
BOMB_BYTES = 200 << 20
MILLION = 1_000_000
SESSION = "atif-bomb"

PLAIN_PARSE = "import json, sys; json.load(open(sys.argv[1], encoding='utf-8')); print('parsed')"
HEAD = {"schema_version": "ATIF-v1.7", "session_id": "bomb", "agent": {"name": "terminus-2", "version": "2.0.0", "model_name": "m"}}


def trial(job: Path, name: str) -> Path:
    """The ``agent/`` folder of a new trial, with a verifier reward of 0."""
    agent = job / name / "agent"
    agent.mkdir(parents=True)
    (job / name / "verifier").mkdir()
    (job / name / "verifier" / "reward.txt").write_text("0\n")
    return agent


def write_bomb(path: Path) -> None:
    """``steps``: 200 MiB of ``{},``."""
    with open(path, "wb") as out:
        out.write(json.dumps(HEAD)[:-1].encode() + b', "steps": [{"step_id": 1, "source": "user", "message": "Build it."}')
        block = b",{}" * (1 << 18)
        for _ in range(BOMB_BYTES // len(block)):
            out.write(block)
        out.write(b"]}")


def write_million(path: Path) -> None:
    """1,000,000 steps: a user step, then agent steps with a tool call and its observation."""
    with open(path, "wb") as out:
        out.write(json.dumps(HEAD)[:-1].encode() + b', "steps": [{"step_id": 1, "source": "user", "message": "Count to a million."}')
        for start in range(2, MILLION + 1, 10_000):
            out.write(b"".join(
                b',{"step_id": %d, "source": "agent", "message": "step %d", "tool_calls": [{"tool_call_id": "c%d", '
                b'"function_name": "bash", "arguments": {"command": "echo %d"}}], "observation": {"results": '
                b'[{"source_call_id": "c%d", "content": "%d"}]}}' % (i, i, i, i, i, i) for i in range(start, min(start + 10_000, MILLION + 1))))
        out.write(b"]}")


def ordinary(path: Path) -> None:
    """A small trajectory."""
    steps = [{"step_id": 1, "source": "user", "message": "Say hi."},
             {"step_id": 2, "source": "agent", "message": "hi", "tool_calls": [{"tool_call_id": "a", "function_name": "Write",
                                                                               "arguments": {"file_path": "hi.txt", "content": "hi\n"}}]}]
    path.write_text(json.dumps({**HEAD, "steps": steps}))


def first_turns(into: Path, run: str) -> str:
    """The start of a run's transcript (where a cut is said)."""
    path = into / SESSION / "runs" / run / "transcript.toml"
    return path.read_text()[:4000] if path.exists() else ""


def check(work: Path) -> Outcome:
    """Build the job, show the plain parse explode, import the job in a measured child."""
    job = work / "job"
    bomb = trial(job, "bomb__Aa1") / "trajectory.json"
    write_bomb(bomb)
    write_million(trial(job, "million__Bb2") / "trajectory.json")
    ordinary(trial(job, "hi__Cc3") / "trajectory.json")
    figures: dict[str, Any] = {"bomb_mb": round(bomb.stat().st_size / 2**20),
                               "million_mb": round((job / "million__Bb2" / "agent" / "trajectory.json").stat().st_size / 2**20)}
    started = time.monotonic()
    plain = subprocess.run([sys.executable, "-c", PLAIN_PARSE, str(bomb)], check=False, capture_output=True, text=True,
                           timeout=600, preexec_fn=limit_memory)
    live = plain.returncode != 0 and "MemoryError" in plain.stderr
    figures["plain_parse_fails_under_1gb"] = live
    figures["plain_parse_seconds"] = round(time.monotonic() - started, 1)
    into = work / "sessions"
    code, peak, seconds, out = measured(reviewer_cmd("import", "atif", str(job), "--into", str(into), "--session", SESSION), SAFETY_AS)
    figures.update({"import_exit": code, "import_peak_rss_mb": round(peak / 2**20), "import_seconds": seconds})
    runs = sorted(p.name for p in (into / SESSION / "runs").iterdir()) if (into / SESSION / "runs").is_dir() else []
    cut = {run: "transcript cut" in first_turns(into, run) and "steps: the first" in first_turns(into, run) for run in ("bomb__Aa1", "million__Bb2")}
    contained = code == 0 and peak < RSS_LIMIT and runs == ["bomb__Aa1", "hi__Cc3", "million__Bb2"] and all(cut.values())
    detail = (f"plain json.load of the bomb under a 1 GiB limit: exit {plain.returncode} {plain.stderr.strip()[-120:]}\n"
              f"import: exit {code}, peak {peak / 2**20:.0f} MiB, {seconds:.1f} s, runs {runs}, cut said: {cut}; {out[-400:]}")
    return Outcome(contained, live, detail, figures)
