"""Finding 10: a folder name with a newline forges ``check``'s problem lines; the caller's ``GIT_*`` variables reach git.

Part one: a run folder named ``x<newline>forged.toml: ...``. Live: the problem the loader reports
holds the raw name, so printing it plainly gives two lines, the second one a forged problem.
Contained: ``reviewer check`` (and ``reviewer list``'s report on stderr) prints exactly one line
per problem, none of them the forged one.

Part two: the environment variables that locate a repository or run a program (``GIT_DIR``,
``GIT_WORK_TREE``, ``GIT_INDEX_FILE``, ``GIT_OBJECT_DIRECTORY``, ``GIT_COMMON_DIR``,
``GIT_CONFIG_PARAMETERS``, ``GIT_SSH_COMMAND``... tests/git/envtraps.py), each proven live with
plain git. Contained: ``reviewer label`` and ``reviewer commit`` run with all of them set, a
logging ``git`` on ``PATH`` sees none of them, the traps write nothing, the victim repository
gets no commit, and the label is committed to the folder's own repository.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from attacks import Outcome

FINDING = 10
TITLE = "a newline in a folder name forges check's output lines; GIT_INDEX_FILE and friends reach git"
FORGED = "forged.toml: this line is forged by a folder name"


def check(work: Path) -> Outcome:
    """Both parts."""
    live1, ok1, detail1, figures = newline_name(work / "names")
    live2, ok2, detail2, env_figures = environment(work / "env")
    return Outcome(ok1 and ok2, live1 and live2, f"{detail1}\n{detail2}", {**figures, **env_figures})


def newline_name(work: Path) -> tuple[bool, bool, str, dict[str, int]]:
    """(live, contained, detail, figures) of the forged line."""
    from gitkit import cli
    from sessionkit import small_folder

    from reviewer.store.check import validate
    from reviewer.store.sessions.store import SessionStore

    root = small_folder(work / "sessions")
    os.makedirs(root / "s1" / "runs" / f"x\n{FORGED}")
    os.makedirs(root / "s2" / "runs" / "tab\tand\rcarriage")
    problems = validate(SessionStore(root))
    live = any(len(f"{p.path}: {p.reason}".splitlines()) > 1 for p in problems)
    checked = cli("check", str(root))
    lines = checked.stdout.splitlines()
    listed = cli("list", str(root))
    err_lines = listed.stderr.splitlines()
    forged = sum(ln.startswith("forged.toml") for ln in lines + err_lines)
    ok = checked.returncode == 1 and len(lines) == len(problems) + 1 and not forged and len(err_lines) >= 2 \
        and all(ln.count(": ") >= 1 for ln in err_lines)
    detail = (f"newline name: plain printing splits a problem: {live}; reviewer check printed {len(lines)} lines for "
              f"{len(problems)} problems + summary, forged lines {forged}")
    return live, ok, detail, {"problems": len(problems), "check_lines": len(lines), "forged_lines": forged}


def environment(work: Path) -> tuple[bool, bool, str, dict[str, int]]:
    """(live, contained, detail, figures) of the environment traps."""
    import envtraps
    from gitkit import REPO_ROOT, git, sessions_repo

    work.mkdir(parents=True)
    root = sessions_repo(work)
    traps, out, victim = envtraps.build(work, root.parent)
    proven = envtraps.prove(traps, out)
    victim_head = git(victim, "rev-parse", "HEAD").strip()
    head = git(root.parent, "rev-parse", "HEAD").strip()
    log = work / "git-calls.log"
    wrapper = envtraps.logging_git(work / "bin", log, traps)
    results = []
    with envtraps.trapped(traps, wrapper):
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
        for args in (["label", str(root), "--failure", "s1/r1#heldout:TestToRoman", "--verdict", "capability",
                      "--reviewer", "alice"], ["commit", str(root), "--reviewer", "alice"]):
            done = subprocess.run([os.sys.executable, "-m", "reviewer.cli", *args], capture_output=True, text=True,
                                  env=env, cwd=REPO_ROOT, timeout=120, check=False)
            results.append(done)
    leaks = envtraps.sprung(out, victim, victim_head, log, traps)
    committed = git(root.parent, "rev-list", "--count", f"{head}..HEAD").strip() == "1" and \
        "labels/alice/r1.toml" in git(root.parent, "show", "--name-only", "--format=", "HEAD")
    ok = not leaks and committed and all(r.returncode == 0 for r in results)
    detail = (f"environment: {len(proven)}/{len(traps)} variables proven live with plain git; through reviewer label "
              f"and commit: leaks {leaks or 0}, label committed to the folder's own repository: {committed}"
              + "".join(f"; exit {r.returncode} {r.stderr.strip()[:100]}" for r in results if r.returncode))
    return len(proven) == len(traps), ok, detail, {"env_traps": len(traps), "env_proven": len(proven),
                                                   "env_leaks": len(leaks)}
