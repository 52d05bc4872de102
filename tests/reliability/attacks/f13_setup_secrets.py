"""Finding 13 (finding 3 of the 'promises under attack' pass): ``[grader.rerun] setup =
["../../../.git", "../../../other-s"]`` resolved inside the sessions folder and was accepted; the
grader printed the remote's URL with its token and another reviewer's blind note, both saved in
``<session>/rescores/<reviewer>.toml`` (a file meant to be shared) and shown.

The fixture is a real git repository (the sessions folder is its top, its ``origin`` an HTTPS URL
holding a fake token) with two sessions: ``s1``, whose run ``r1`` stages ``.git`` and the other
session as its setup, and ``other-s``, whose ``labels/bob.toml`` holds bob's blind note. ``s1``'s own
``labels/bob.toml`` holds another note, and ``s1/graders/notes`` is a link to ``s1/labels``:
run ``r2`` stages that link as its setup (lexically inside its session). The grader prints every
file it was given, then grades the program.

Live: with the code before the fix (``REVIEWER_BEFORE_FIX_PYTHON`` names its Python), its
``reviewer rescore`` of ``r1`` and ``r2`` saves the token and both notes in the record. Otherwise
the attack's reference: the old check of setup paths (lexical only, kept here verbatim) accepts
them, and the staging as it was (a reader with no session to hold it to) copies the token and the
notes into the workspace the grader runs in.

Contained: this tree's ``reviewer check`` reports ``r1``'s setup (exit 1), ``reviewer rescore``
refuses ``r1`` and ``r2`` (exit 1 each: the link is refused once followed), and no secret is in any
record or anything printed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from attacks import Outcome

FINDING = 13
TITLE = "setup = ['../../../.git', '../../../other-s'] staged git's token and another reviewer's blind note for the grader to print"
TOKEN = "ghp_FAKEtoken0123456789abcdefREDTEAM"
NOTE = "BLIND-NOTE-bob-thinks-the-checker-is-wrong"
OWN_NOTE = "BLIND-NOTE-bob-on-s1"
SECRETS = (TOKEN, NOTE, OWN_NOTE)
REPAIR = "map-value:ok:true:yes"
BEFORE_FIX = "REVIEWER_BEFORE_FIX_PYTHON"
CHECKER = """import os, subprocess, sys
for top, dirs, files in os.walk("."):
    dirs.sort()
    for name in sorted(files):
        path = os.path.join(top, name)
        if name == "config" or "labels" in path or name.endswith(".toml"):
            print("GIVEN", path, open(path, errors="replace").read())
out = subprocess.run([sys.executable, "prog.py"], check=False, capture_output=True, text=True).stdout
sys.exit(0 if out == "ok=yes\\n" else 1)
"""


def labels(reviewer: str, run: str, note: str) -> str:
    """A labels file of ``reviewer`` with one labelled failure and a note."""
    return (f'format = 1\nreviewer = "{reviewer}"\n\n[[label]]\nrun = "{run}"\ncheck = "heldout:TestToRoman"\n'
            f'verdict = "specification"\nnote = "{note}"\n')


def build(root: Path) -> Path:
    """The sessions repository described above, committed."""
    from gitkit import commit_all, git, init_repo
    from rescorekit import synthetic
    from sessionkit import RunSpec, write_session

    init_repo(root)
    git(root, "remote", "add", "origin", f"https://reviewer-bot:{TOKEN}@git.example.invalid/corpus.git")
    synthetic(root, {"prog.py": "print('ok=true')\n"}, CHECKER,
              {"program": "prog.py", "setup": ["../../../.git", "../../../other-s"]}, run_id="r1")
    synthetic(root, {"prog.py": "print('ok=true')\n"}, CHECKER, {"program": "prog.py", "setup": ["../../graders/notes"]},
              run_id="r2")
    write_session(root, "other-s", [RunSpec("o1")])
    (root / "other-s" / "labels").mkdir()
    (root / "other-s" / "labels" / "bob.toml").write_text(labels("bob", "o1", NOTE))
    (root / "s1" / "labels").mkdir()
    (root / "s1" / "labels" / "bob.toml").write_text(labels("bob", "r1", OWN_NOTE))
    (root / "s1" / "graders" / "notes").symlink_to("../labels")
    commit_all(root, "sessions")
    return root


def reviewer(python: str, *args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """The command line of the reviewer ``python`` imports."""
    env = {**os.environ, **{f"XDG_{k}_HOME": str(home / k.lower()) for k in ("CONFIG", "DATA", "CACHE")}}
    return subprocess.run([python, "-m", "reviewer.cli", *args], capture_output=True, text=True, timeout=300,
                          check=False, env=env, cwd=home)


def rescore(python: str, root: Path, run: str, home: Path) -> subprocess.CompletedProcess[str]:
    """``reviewer rescore`` of the run's failure, as reviewer ``red``."""
    return reviewer(python, "rescore", str(root), "--failure", f"s1/{run}#check:run", "--repair", REPAIR,
                    "--reviewer", "red", "--json", home=home)


def saved(root: Path, home: Path) -> str:
    """Every re-score record written (in the folder and in the per-user data folder), as text."""
    paths = [*root.glob("*/rescores/*.toml"), *(home / "data").rglob("rescores/*.toml")]
    return "".join(p.read_text(errors="replace") for p in sorted(paths))


def secrets_in(text: str) -> int:
    """How many of the secrets ``text`` holds."""
    return sum(secret in text for secret in SECRETS)


def old_refs(run_dir: str, values: tuple[str, ...]) -> tuple[str, ...]:
    """``reviewer.store.runs.rerun.refs`` before the fix: manifest-relative paths as sessions-root
    refs, checked lexically against the root only (its ``Defect`` became a ValueError here)."""
    from reviewer.store.fs.untrusted import Unreadable, lexically_inside

    out = []
    for v in values:
        try:
            out.append(lexically_inside(run_dir, v))
        except Unreadable as exc:
            raise ValueError(f"{v!r}: {exc}") from None
    return tuple(out)


def reference(root: Path) -> tuple[bool, str]:
    """Whether the old check accepts ``r1``'s and ``r2``'s setup, and what the staging as it was
    put in the grader's workspace for each."""
    from reviewer.rescore.layout import fresh_staging
    from reviewer.rescore.stage import Reader, lay_setup

    r1 = old_refs("s1/runs/r1", ("../../../.git", "../../../other-s"))
    r2 = old_refs("s1/runs/r2", ("../../graders/notes",))
    given = []
    for refs in (r1, r2):
        with fresh_staging() as staging:
            lay_setup(Reader(root), staging, refs)  # the old Reader: no session to hold a path to
            given += [p.read_text(errors="replace") for p in sorted((staging / "ws").rglob("*"))
                      if p.is_file() and p.name in ("config", "bob.toml")]
    return r1 == (".git", "other-s") and r2 == ("s1/graders/notes",), "".join(given)


def check(work: Path) -> Outcome:
    """The staged secrets with the code as it was, then this tree refusing the setup."""
    tests = Path(__file__).resolve().parents[2]
    sys.path[:0] = [str(tests / "rescore"), str(tests / "git"), str(tests)]
    home = work / "home"
    home.mkdir()

    before = os.environ.get(BEFORE_FIX)
    if before:
        old_root = build(work / "old" / "sessions")
        olds = [rescore(before, old_root, run, home) for run in ("r1", "r2")]
        old_text = saved(old_root, home) + "".join(o.stdout + o.stderr for o in olds)
        which_old = f"the code before the fix ({BEFORE_FIX})"
        old_saved = secrets_in(saved(old_root, home))
        accepted = all(o.returncode == 0 for o in olds)
    else:
        accepted, old_text = reference(build(work / "old" / "sessions"))
        which_old = "the reference (the old lexical check and staging)"
        old_saved = 0
    old_secrets = secrets_in(old_text)
    live = accepted and old_secrets == len(SECRETS)

    root = build(work / "new" / "sessions")
    checked = reviewer(sys.executable, "check", str(root), home=home)
    refused = rescore(sys.executable, root, "r1", home)
    linked = rescore(sys.executable, root, "r2", home)
    records = saved(root, home)
    printed = checked.stdout + checked.stderr + refused.stdout + refused.stderr + linked.stdout + linked.stderr
    leaked = secrets_in(records) + secrets_in(printed)
    check_text = checked.stdout + checked.stderr
    contained = (checked.returncode == 1 and ".git" in check_text and "setup" in check_text
                 and refused.returncode == 1 and linked.returncode == 1 and "labels" in linked.stdout + linked.stderr
                 and not records and leaked == 0)

    def said(text: str, word: str) -> str:
        return next((line.strip()[:220] for line in text.splitlines() if word in line), "(nothing)")

    detail = "\n".join([
        f"{which_old}: r1's and r2's setup accepted: {accepted}; secrets reaching the grader's "
        f"{'record and output' if before else 'workspace'}: {old_secrets} of {len(SECRETS)} (token: {TOKEN in old_text}, "
        f"other session's note: {NOTE in old_text}, s1's note through the link: {OWN_NOTE in old_text})",
        f"this tree: reviewer check exit {checked.returncode}: {said(check_text, '.git')}",
        f"reviewer rescore r1: exit {refused.returncode}: {said(refused.stdout + refused.stderr, 'setup')}",
        f"reviewer rescore r2 (setup through a link into labels/): exit {linked.returncode}: "
        f"{said(linked.stdout + linked.stderr, 'labels')}",
        f"records written: {bool(records)}; secrets in records and output: {leaked}",
    ])
    figures = {"old": which_old.split(" (")[0], "old_secrets_reached": old_secrets, "old_secrets_saved": old_saved,
               "check_exit": checked.returncode, "rescore_exit": refused.returncode, "linked_rescore_exit": linked.returncode,
               "secrets_leaked": leaked}
    return Outcome(contained, live, detail, figures)
