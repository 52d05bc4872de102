"""The runtimes a re-score offers inside the sandbox: which interpreter, where it lives, its version.

Python is always there (the program shim needs it): by default the interpreter running
reviewer, or the one ``--python`` / ``REVIEWER_RESCORE_PYTHON`` names; it must have what the
grader imports (pytest for the example corpus). It is reached inside as ``python`` and
``python3`` on PATH through a wrapper that starts it by its own path, so a virtual
environment stays one. Go is the ``go`` on PATH. Each is shown read-only at the path it has on
this machine. Finding them runs only the trusted interpreter and toolchain, never recorded code.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys

from reviewer.model.records import record
from reviewer.model.rerun import Runtime, version_tuple
from reviewer.rescore.sandbox import INSIDE, Bind

PYTHON_ENV = "REVIEWER_RESCORE_PYTHON"
PROBE = "import json, sys; print(json.dumps([sys.prefix, sys.base_prefix, sys.executable, sys.version.split()[0]]))"


class RuntimeMissing(Exception):
    """The runtime a grader needs is not here, or too old."""


@record
class Found:
    """One runtime found: its version, the folders to show, what goes on PATH and in the environment."""

    name: str
    version: str
    binds: tuple[Bind, ...]
    path: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    executable: str = ""


def shown(paths: list[str]) -> tuple[Bind, ...]:
    """Binds for folders outside ``/usr`` (already shown), dropping any inside another."""
    real = sorted({os.path.realpath(p) for p in paths if p} | {os.path.abspath(p) for p in paths if p})
    keep: list[str] = []
    for p in real:
        if p == "/usr" or p.startswith("/usr/") or not os.path.isdir(p):
            continue
        if any(p == k or p.startswith(k + "/") for k in keep):
            continue
        keep.append(p)
    return tuple(Bind(p, p) for p in keep)


@functools.lru_cache(maxsize=8)
def find_python(executable: str) -> Found:
    """The Python at ``executable``: its prefixes and version."""
    try:
        out = subprocess.run([executable, "-I", "-c", PROBE], check=False, capture_output=True, text=True, timeout=30,
                             env={"PATH": "/usr/bin:/bin"})
        prefix, base, exe, version = json.loads(out.stdout)
    except (OSError, subprocess.SubprocessError, ValueError, TypeError) as exc:
        raise RuntimeMissing(f"the Python for re-scores ({executable}) does not start: {exc}") from None
    folders = [prefix, base, os.path.dirname(os.path.realpath(exe)), os.path.dirname(os.path.realpath(executable))]
    return Found("python", version, shown(folders), (f"{INSIDE}/in/bin",), executable=os.path.abspath(executable))


def python_executable(explicit: str | None = None) -> str:
    """The interpreter re-scores use: ``explicit``, else $REVIEWER_RESCORE_PYTHON, else this one."""
    chosen = explicit or os.environ.get(PYTHON_ENV) or sys.executable
    if os.sep not in chosen:
        chosen = shutil.which(chosen) or chosen
    return chosen


@functools.lru_cache(maxsize=8)
def find_go(search_path: str) -> Found:
    """The ``go`` on PATH: GOROOT and version."""
    go = shutil.which("go", path=search_path)
    if not go:
        raise RuntimeMissing("the grader needs Go and `go` is not on PATH (Debian: apt-get install golang-go)")
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "GOTOOLCHAIN": "local", "GOTELEMETRY": "off"}
    try:
        root = subprocess.run([go, "env", "GOROOT"], check=False, capture_output=True, text=True, timeout=30, env=env).stdout.strip()
        version = subprocess.run([go, "env", "GOVERSION"], check=False, capture_output=True, text=True, timeout=30, env=env).stdout.strip()
    except (OSError, subprocess.SubprocessError) as exc:
        raise RuntimeMissing(f"`go` does not start: {exc}") from None
    if not root:
        raise RuntimeMissing("`go env GOROOT` says nothing")
    go_env = (("GOROOT", root), ("GOCACHE", f"{INSIDE}/cache/go"), ("GOPATH", f"{INSIDE}/gopath"),
              ("GOFLAGS", "-mod=mod -count=1"), ("GOPROXY", "off"), ("GOTOOLCHAIN", "local"),
              ("GOTELEMETRY", "off"), ("GO111MODULE", "on"), ("CGO_ENABLED", "0"))
    return Found("go", version or "go", shown([root]), (f"{root}/bin",), go_env, go)


def check_version(found: Found, wanted: Runtime) -> None:
    """RuntimeMissing when ``found`` does not meet ``wanted``."""
    if not wanted.allows(version_tuple(found.version)):
        raise RuntimeMissing(f"the grader needs {wanted} and the {found.name} here is {found.version}")


def runtimes(wanted: Runtime | None, python: str | None = None) -> tuple[Found, ...]:
    """Python (always), plus what ``wanted`` names, each checked against its version."""
    py = find_python(python_executable(python))
    found = [py]
    if wanted is not None and wanted.name == "python":
        check_version(py, wanted)
    elif wanted is not None and wanted.name == "go":
        go = find_go(os.environ.get("PATH", ""))
        check_version(go, wanted)
        found.append(go)
    return tuple(found)


def describe(found: tuple[Found, ...], wanted: Runtime | None) -> str:
    """The runtime version for the record: ``python 3.11.7`` or ``go1.19.8`` (versions only, no paths)."""
    if wanted is not None:
        for f in found:
            if f.name == wanted.name:
                return f.version if f.name == "go" else f"python {f.version}"
    return f"system tools (python {found[0].version} for the shim)"
