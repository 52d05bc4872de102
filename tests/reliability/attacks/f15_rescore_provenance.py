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

Variant: mallory's received files claim to be ann's (``rescores/mallory.toml`` saying
``reviewer = "ann"``). Live: read as before the fix (the reviewer a record counts as is its
``reviewer`` key: :data:`OLD_READING`, this tree's command line with ``record.owner`` as it was; the
code before the fix where ``REVIEWER_BEFORE_FIX_PYTHON`` names one that has ``--rescores-of``), ann's
``stats --rescores-of me`` counts mallory's flips as her own (re-scored 100%, nobody else named) and
so does ``report --rescores-of ann``. Contained: this tree counts each file as its file name's
reviewer and says so for both forged files; ``stats --rescores-of me`` and ``report --rescores-of
me`` count ann's own record only (re-scored figures back to the graded ones), and everyone's
``stats --json`` names mallory.
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
CLI = ("-m", "reviewer.cli")
OLD_READING = ("-c", """
import sys
from reviewer.rescore import record
# read_records before the fix: reviewer = str((doc or {}).get("reviewer", path.stem))
record.owner = lambda doc, path, errors: str(doc.get("reviewer", path.stem))
from reviewer.cli import main
sys.exit(main(sys.argv[1:]))
""")
"""This tree's command line reading a record's reviewer as it was read before the fix."""


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


def reviewer(python: str, *args: str, home: Path, entry: tuple[str, ...] = CLI) -> subprocess.CompletedProcess[str]:
    """The command line of the reviewer ``python`` imports (started as ``entry`` says), as ``ann``
    (``--final``: everyone's verdicts)."""
    env = {**os.environ, "COLUMNS": "160",
           **{f"XDG_{k}_HOME": str(home / k.lower()) for k in ("CONFIG", "DATA", "CACHE")}}
    me = [] if "--final" in args else ["--reviewer", ME]
    return subprocess.run([python, *entry, *args, *me], capture_output=True, text=True,
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


def model_rates(page: str, model: str) -> dict[str, float]:
    """A report's pass rates of ``model`` (as graded, corrected, re-scored), by field."""
    found = re.findall(rf'data-group="models" data-name="{re.escape(model)}" data-field="(\w+)" data-value="([^"]*)"', page)
    return {field: float(value) for field, value in found if value}


def forged_variant(work: Path) -> dict[str, Any]:
    """mallory's files saying they are ann's: counted as before the fix, then by this tree."""
    home = work / "forged-home"
    home.mkdir()
    root = build(work / "forged")
    for grading, checks in FAILING.items():
        (root / grading.split("/")[0] / "rescores" / f"{FORGER}.toml").write_bytes(
            tomli_w.dumps(record(ME, grading, checks, "pass")).encode())
    before = os.environ.get(BEFORE_FIX)
    has_scope = bool(before) and "--rescores-of" in reviewer(before, "stats", "--help", home=home).stdout
    python, entry = (before, CLI) if before and has_scope else (sys.executable, OLD_READING)
    seen: dict[str, Any] = {"which_old": f"the code before the fix ({BEFORE_FIX})" if python != sys.executable
                            else "the reference (the reviewer key read as before the fix)"}
    for name, (py, how) in {"old": (python, entry), "new": (sys.executable, CLI)}.items():
        mine = reviewer(py, "stats", str(root), "--rescores-of", "me", "--json", home=home, entry=how)
        everyone = reviewer(py, "stats", str(root), "--json", home=home, entry=how)
        page_file = work / f"forged-{name}.html"
        scope = "me" if name == "new" else ME  # before the fix, report did not resolve `me`
        report = reviewer(py, "report", str(root), "-o", str(page_file), "--rescores-of", scope, home=home, entry=how)
        page = page_file.read_text() if report.returncode == 0 else ""
        mine_json = json.loads(mine.stdout or "{}")
        seen[name] = {"mine": mine_json.get("overall", {}), "mine_counted": mine_json.get("rescores_counted", {}),
                      "everyone_counted": json.loads(everyone.stdout or "{}").get("rescores_counted", {}),
                      "warned": mine.stderr.count(f"says it is {ME}'s re-score record"),
                      "report_warned": report.stderr.count(f"says it is {ME}'s re-score record"),
                      "report_exit": report.returncode, "report_scope": scope, "report_model_a": model_rates(page, "model-a"),
                      "report_provenance": provenance(page), "forger_named": FORGER in mine.stdout + mine.stderr}
    return seen


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
    forged = forged_variant(work)
    old_forged, new_forged = forged["old"], forged["new"]

    def rescored_over_graded(overall: dict[str, Any]) -> str:
        return f"re-scored {overall.get('rescored_pass_rate')} (graded {overall.get('pass_rate')})"

    live = (live and old_forged["mine_counted"] == {"reviewers": [ME], "only": ME} and not old_forged["forger_named"]
            and old_forged["mine"].get("rescored_pass_rate") == 1.0 and old_forged["mine"].get("pass_rate", 1.0) < 1.0
            and old_forged["report_model_a"].get("rescored_pass_rate") == 1.0)
    contained = (contained and new_forged["mine_counted"] == {"reviewers": [ME], "only": ME}
                 and new_forged["mine"].get("rescored_pass_rate") == new_forged["mine"].get("pass_rate")
                 and new_forged["everyone_counted"] == {"reviewers": [ME, FORGER], "only": ""}
                 and new_forged["warned"] == len(FAILING) and new_forged["report_warned"] == len(FAILING)
                 and new_forged["report_exit"] == 0 and "only your" in new_forged["report_provenance"]
                 and new_forged["report_model_a"].get("rescored_pass_rate") == new_forged["report_model_a"].get("pass_rate"))
    detail = "\n".join([
        f"{which_old}: re-scored {figure(old_text)}%, {FORGER} named: {FORGER in old_text}",
        f"this tree's stats (blind): {blind.strip() or '(nothing said)'}",
        f"this tree's stats --final: re-scored {figure(text)}%; {named.strip() or '(nobody named)'}",
        f"stats --json rescores_counted: {counted}",
        f"stats --rescores-of me: re-scored {figure(mine)}% (graded {round(100 * overall.get('pass_rate', 0))}%), "
        f"rescores_counted {counted_mine}, {FORGER} named: {FORGER in mine}",
        f"report (exit {report.returncode}): {provenance(page) or '(no provenance)'}; with --rescores-of {ME} "
        f"(exit {report_mine.returncode}): {provenance(page_mine) or '(no provenance)'}, {FORGER} named: {FORGER in page_mine}",
        f"{FORGER}'s files saying they are {ME}'s:",
        *(f"  {forged['which_old'] if name == 'old' else 'this tree'}: stats --rescores-of me {rescored_over_graded(seen['mine'])}, "
          f"rescores_counted {seen['mine_counted']}, forged files reported {seen['warned']}; everyone's rescores_counted "
          f"{seen['everyone_counted']}; report --rescores-of {seen['report_scope']} (exit {seen['report_exit']}): model-a "
          f"{rescored_over_graded(seen['report_model_a'])}, forged files reported {seen['report_warned']}; "
          f"{seen['report_provenance'] or '(no provenance)'}"
          for name, seen in (("old", old_forged), ("new", new_forged))),
    ])
    figures = {"old": which_old.split(" (")[0], "old_rescored_percent": figure(old_text), "old_names_forger": FORGER in old_text,
               "rescored_percent": figure(text), "names_forger": FORGER in named, "rescores_counted": counted,
               "mine_rescored_percent": figure(mine), "mine_names_forger": FORGER in mine,
               "report_names_forger": FORGER in provenance(page),
               "forged_old": forged["which_old"].split(" (")[0],
               "forged_old_mine_rescored_rate": old_forged["mine"].get("rescored_pass_rate"),
               "forged_old_mine_counted": old_forged["mine_counted"],
               "forged_old_report_model_a_rescored_rate": old_forged["report_model_a"].get("rescored_pass_rate"),
               "forged_mine_rescored_rate": new_forged["mine"].get("rescored_pass_rate"),
               "forged_mine_graded_rate": new_forged["mine"].get("pass_rate"),
               "forged_everyone_counted": new_forged["everyone_counted"], "forged_files_reported": new_forged["warned"],
               "forged_report_model_a_rescored_rate": new_forged["report_model_a"].get("rescored_pass_rate"),
               "forged_report_model_a_graded_rate": new_forged["report_model_a"].get("pass_rate")}
    return Outcome(contained, live, detail, figures)
