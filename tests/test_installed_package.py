"""Labelling the bundled corpus from a real (non-editable) install writes nothing under site-packages.

The project is built into a wheel and installed with pip into a fresh virtualenv, as a user
would; the dependencies come from the test environment (a path line in a ``.pth`` file, so no
download). The virtualenv is the user's own and writable: the labels must still go to
``$XDG_DATA_HOME/reviewer/labels/``, because a reinstall deletes whatever is inside the package.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import tomli_w
from sessionkit import WRITTEN_BY_REVIEWERS

REPO = Path(__file__).resolve().parent.parent


def files_under(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file below a folder (byte-code caches left out) with its size and mtime."""
    out = {}
    for path in folder.rglob("*"):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        st = path.stat()
        out[str(path.relative_to(folder))] = (st.st_size, st.st_mtime_ns)
    return out


def build_venv(tmp_path: Path) -> tuple[Path, Path]:
    """A virtualenv with the project installed from a wheel; its python and its site-packages."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    for name in ("reviewer", "sessions", "themes"):  # reviewers' files are left out of the corpus only
        written = WRITTEN_BY_REVIEWERS if name == "sessions" else ()
        shutil.copytree(REPO / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", *written))
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(src)],
                           capture_output=True, text=True, check=False, timeout=600)
    assert built.returncode == 0, built.stderr[-2000:]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    [wheel] = wheels.glob("reviewer-*.whl")
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
                          capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "test-dependencies.pth").write_text(str(Path(tomli_w.__file__).resolve().parent.parent) + "\n")
    return python, site


def test_labelling_the_bundled_corpus_writes_nothing_inside_the_installed_package(tmp_path: Path) -> None:
    python, site = build_venv(tmp_path)
    data, home, work = tmp_path / "data", tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()  # no ./sessions here: the bundled corpus is the default
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "XDG_", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), XDG_DATA_HOME=str(data), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), GIT_CONFIG_GLOBAL=os.devnull)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(python), "-m", "reviewer.cli", *args], capture_output=True, text=True, check=False,
                              cwd=work, env=env, timeout=300)

    where = subprocess.run([str(python), "-c", "import reviewer; print(reviewer.__file__)"], capture_output=True,
                           text=True, cwd=work, env=env, check=True).stdout.strip()
    assert Path(where).is_relative_to(site), where  # the installed copy, not the checkout
    package = site / "reviewer"
    assert os.access(package / "examples", os.W_OK)  # the user's own venv: writable, and still off limits
    shipped = {str(p.relative_to(site).parent) for p in package.rglob("__init__.py")}
    ours = {str(p.relative_to(REPO).parent) for p in (REPO / "reviewer").rglob("__init__.py")}
    assert ours <= shipped, f"packages missing from the wheel: {sorted(ours - shipped)}"
    assert (package / "themes" / "reviewer-dark.toml").is_file() and any((package / "examples").glob("*/runs/*/run.toml"))
    before = files_under(package)
    listed = run("failures", "--json")
    assert listed.returncode == 0, listed.stderr
    first = json.loads(listed.stdout)[0]["id"]
    done = run("label", "--failure", first, "--verdict", "specification", "--reviewer", "alice",
               "--note", "from an installed package", "--new-tag", "installed-check")
    assert done.returncode == 0, done.stderr
    assert files_under(package) == before, "something was written inside the installed package"
    session, run_id = first.split("#")[0].split("/")
    saved = data / "reviewer" / "labels" / "reviewer-examples" / session / "labels" / "alice" / f"{run_id}.toml"
    assert saved.is_file() and "from an installed package" in saved.read_text()
    assert f"saved in {saved}" in done.stdout and "inside the installed reviewer package" in done.stdout
    assert "installed-check" in (data / "reviewer" / "labels" / "reviewer-examples" / "tags.toml").read_text()
    again = run("failures", "--json", "--reviewer", "alice")
    assert [r["verdict"] for r in json.loads(again.stdout) if r["id"] == first] == ["specification"]
    # the Quick start from a source checkout: `reviewer sessions` opens the checkout's copy of the
    # corpus, whose labels go where the installed corpus's go (the checkout's tests read it as git has it)
    checkout = tmp_path / "src"
    before = files_under(checkout / "sessions")
    second = json.loads(listed.stdout)[1]["id"]
    done = subprocess.run([str(python), "-m", "reviewer.cli", "label", "sessions", "--failure", second, "--verdict",
                           "capability", "--reviewer", "alice"], capture_output=True, text=True, check=False,
                          cwd=checkout, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert files_under(checkout / "sessions") == before, "the label was written into the checkout's corpus"
    second_session, second_run = second.split("#")[0].split("/")
    saved = data / "reviewer" / "labels" / "reviewer-examples" / second_session / "labels" / "alice" / f"{second_run}.toml"
    assert second.partition("#")[2] in saved.read_text()
