"""Finding 15 (finding 5 of the 'promises under attack' pass): a received
``rescores/<someone>.toml`` claiming every failure flipped to pass made ``reviewer stats`` and the
report show "re-scored 100%", with nobody named: whose experiments the figure counted was
nowhere to be seen, and there was no way to count only one's own.

The fixture is a sessions folder of two sessions, three failing checks, where ``mallory`` (a
received record, one per session) claims every failing check flipped, and ``ann``, the reviewer
running the commands, has one record of her own in which the check she re-scored still failed.

Live: the re-scored figure of ``reviewer stats`` is 100% and no reviewer is named. With the code
before the fix (``REVIEWER_BEFORE_FIX_PYTHON`` names its Python): its ``reviewer stats``. Otherwise
the attack's reference: the text ``stats_with_rescores`` composed before the fix (kept here
verbatim: the statistics and the repairs table, nothing said of whose records they count).

Contained: this tree's ``reviewer stats`` names ``mallory`` beside the figure, ``stats --json`` says
whose records were counted (``rescores_counted``), ``stats --rescores-of me`` counts ann's own
record only (the figure back to the graded one, mallory named nowhere), and ``reviewer report``
names ``mallory`` beside its re-scored figures, and counts ann's only with ``--rescores-of ann``.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import tomli_w

from attacks import Outcome

FINDING = 15
TITLE = "a received rescores/<someone>.toml claiming every failure flipped made stats and the report say 're-scored 100%', nobody named"
FORGER = "mallory"
ME = "ann"
BEFORE_FIX = "REVIEWER_BEFORE_FIX_PYTHON"
FAILING = {"s1/r1#heldout": [("TestToRoman", "fail"), ("TestFromRoman", "pass")],
           "s2/r3#heldout": [("test_connected", "fail"), ("test_trail", "error")]}
RESCORED = re.compile(r"re-scored (\d+(?:\.\d+)?)%")


def record(reviewer: str, grading: str, checks: list[tuple[str, str]], after: str) -> dict[str, Any]:
    """One ``[[rescore]]`` document of ``reviewer``: every failing check of ``grading`` ``after``."""
    failing = [f"{grading}:{key}" for key, status in checks if status != "pass"]
    return {"format": 1, "reviewer": reviewer, "rescore": [{
        "grading": grading, "failures": failing, "flipped": failing if after == "pass" else [],
        "repairs": ["rename-key:result:value"], "at": "2026-12-01T10:00:00Z", "reproduced": True,
        "summary": "every failing check flipped" if after == "pass" else "still failing",
        "check": [{"key": key, "recorded": status, "before": status, "after": after if status != "pass" else "pass"}
                  for key, status in checks]}]}


def build(root: Path) -> Path:
    """The folder: mallory's forged records in both sessions, ann's honest one in s1."""
    from sessionkit import small_folder

    small_folder(root)
    for grading, checks in FAILING.items():
        session = grading.split("/")[0]
        (root / session / "rescores").mkdir(exist_ok=True)
        (root / session / "rescores" / f"{FORGER}.toml").write_bytes(tomli_w.dumps(record(FORGER, grading, checks, "pass")).encode())
    (root / "s1" / "rescores" / f"{ME}.toml").write_bytes(
        tomli_w.dumps(record(ME, "s1/r1#heldout", FAILING["s1/r1#heldout"], "fail")).encode())
    return root


def reviewer(python: str, *args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """The command line of the reviewer ``python`` imports, as ``ann`` (``--final``: everyone's verdicts)."""
    env = {**os.environ, "COLUMNS": "160",
           **{f"XDG_{k}_HOME": str(home / k.lower()) for k in ("CONFIG", "DATA", "CACHE")}}
    me = [] if "--final" in args else ["--reviewer", ME]
    return subprocess.run([python, "-m", "reviewer.cli", *args, *me], capture_output=True, text=True,
                          timeout=300, check=False, env=env, cwd=home)


def old_stats_text(root: Path) -> str:
    """What ``stats_with_rescores`` composed before the fix, verbatim but for its arguments."""
    from reviewer.analysis.stats.facts import collect
    from reviewer.analysis.stats.rescored import rescored
    from reviewer.analysis.stats.summary import Scope, compute_stats, render_stats
    from reviewer.rescore.tally import render_tally
    from reviewer.store.sessions.store import SessionStore

    store = SessionStore(root, use_index=False)
    store.scan()
    scope = Scope(ME)
    rescores = rescored(store)
    stats = compute_stats(collect(store, only=scope.reviewer, count_passes=True), rescores.repaired, scope)
    text = render_stats(stats, 160)
    if rescores.tally:
        text += "\n" + render_tally(rescores.tally)
    return text


def figure(text: str) -> str | None:
    """The overall re-scored pass rate a stats text shows (None: none)."""
    found = RESCORED.search(text)
    return found.group(1) if found else None


def provenance(page: str) -> str:
    """The report's sentence saying whose re-score records it counts ("" when none)."""
    found = re.search(r"class=provenance>([^<]*)<", page)
    return html.unescape(found.group(1)) if found else ""


def check(work: Path) -> Outcome:
    """The forged figure, unnamed as it was, then named and separable in this tree."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    home = work / "home"
    home.mkdir()
    root = build(work / "sessions")

    before = os.environ.get(BEFORE_FIX)
    if before:
        done = reviewer(before, "stats", str(root), home=home)
        old_text, which_old = done.stdout + done.stderr, f"the code before the fix ({BEFORE_FIX})"
    else:
        old_text, which_old = old_stats_text(root), "the reference (the stats text as composed before the fix)"
    live = figure(old_text) == "100" and FORGER not in old_text

    text = reviewer(sys.executable, "stats", str(root), home=home).stdout
    blind = next((line for line in text.splitlines() if "re-scored figures count" in line), "")
    text = reviewer(sys.executable, "stats", str(root), "--final", home=home).stdout
    as_json = json.loads(reviewer(sys.executable, "stats", str(root), "--json", home=home).stdout or "{}")
    mine = reviewer(sys.executable, "stats", str(root), "--rescores-of", "me", home=home).stdout
    mine_json = json.loads(reviewer(sys.executable, "stats", str(root), "--rescores-of", "me", "--json", home=home).stdout or "{}")
    overall = mine_json.get("overall", {})
    named = next((line for line in text.splitlines() if FORGER in line), "")
    report = reviewer(sys.executable, "report", str(root), "-o", str(work / "all.html"), "--final", home=home)
    report_mine = reviewer(sys.executable, "report", str(root), "-o", str(work / "mine.html"), "--rescores-of", ME, home=home)
    page = (work / "all.html").read_text() if report.returncode == 0 else ""
    page_mine = (work / "mine.html").read_text() if report_mine.returncode == 0 else ""
    counted = as_json.get("rescores_counted", {})
    counted_mine = mine_json.get("rescores_counted", {})
    contained = (
        figure(text) == "100" and "re-scored figures count" in named and ME in named
        and "1 other reviewer" in blind and FORGER not in blind
        and counted == {"reviewers": [ME, FORGER], "only": ""}
        and counted_mine == {"reviewers": [ME], "only": ME} and FORGER not in mine
        and figure(mine) == "50" and overall.get("rescored_pass_rate") == overall.get("pass_rate")
        and FORGER in provenance(page) and provenance(page_mine) != "" and FORGER not in page_mine
    )
    detail = "\n".join([
        f"{which_old}: re-scored {figure(old_text)}%, {FORGER} named: {FORGER in old_text}",
        f"this tree's stats (blind): {blind.strip() or '(nothing said)'}",
        f"this tree's stats --final: re-scored {figure(text)}%; {named.strip() or '(nobody named)'}",
        f"stats --json rescores_counted: {counted}",
        f"stats --rescores-of me: re-scored {figure(mine)}% (graded {round(100 * overall.get('pass_rate', 0))}%), "
        f"rescores_counted {counted_mine}, {FORGER} named: {FORGER in mine}",
        f"report (exit {report.returncode}): {provenance(page) or '(no provenance)'}; with --rescores-of {ME} "
        f"(exit {report_mine.returncode}): {provenance(page_mine) or '(no provenance)'}, {FORGER} named: {FORGER in page_mine}",
    ])
    figures = {"old": which_old.split(" (")[0], "old_rescored_percent": figure(old_text), "old_names_forger": FORGER in old_text,
               "rescored_percent": figure(text), "names_forger": FORGER in named, "rescores_counted": counted,
               "mine_rescored_percent": figure(mine), "mine_names_forger": FORGER in mine,
               "report_names_forger": FORGER in provenance(page)}
    return Outcome(contained, live, detail, figures)
