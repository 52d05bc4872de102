"""A SWE-bench evaluation of one instance as a grader with recorded checks.

SWE-bench writes ``logs/run_evaluation/<run_id>/<model>/<instance_id>/`` holding
``report.json`` (``{instance_id: {resolved, patch_successfully_applied, tests_status:
{FAIL_TO_PASS: {success, failure}, PASS_TO_PASS: {...}, FAIL_TO_FAIL, PASS_TO_FAIL}}}``),
``test_output.txt`` and ``eval.sh``. Each FAIL_TO_PASS and PASS_TO_PASS test is a check keyed
by its test id (failure -> fail, success -> pass); a patch that did not apply, or no patch,
is one failing check ``patch``. FAIL_TO_FAIL / PASS_TO_FAIL lists are not graded by SWE-bench
and are kept as metadata. ``test_output.txt`` is the grader output, ``eval.sh`` its source.
The folder given may be the instance folder itself or any folder above it. Its files are read
relative to it without following links; a linked ``test_output.txt`` or ``eval.sh`` is not
copied, and the import says so.
"""

from __future__ import annotations

import os
from dataclasses import field
from pathlib import Path
from typing import Any

from reviewer.model.records import record
from reviewer.store.logs.ids import as_text, table_at
from reviewer.store.logs.sources import (
    TEXT_CAP,
    LinkRefused,
    open_folder,
    parse_json,
    read_inside,
)
from reviewer.store.logs.spec import CheckSpec, GraderSpec, ImportFailed, NotFormat

GRADED = ("FAIL_TO_PASS", "PASS_TO_PASS")
UNGRADED = ("FAIL_TO_FAIL", "PASS_TO_FAIL")
MAX_DEPTH = 8
WHY = {
    "FAIL_TO_PASS": "a test the fix must make pass (FAIL_TO_PASS)",
    "PASS_TO_PASS": "a test that passed before the patch and must still pass (PASS_TO_PASS)",
}


@record(frozen=False, slots=False)
class Evaluation:
    """What SWE-bench said about one instance (``warnings``: files of the folder that were refused)."""

    grader: GraderSpec
    resolved: bool
    metadata: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def report_folders(root: Path) -> dict[str, str]:
    """Every folder below ``root`` holding a report.json, by folder name -> path relative to ``root`` (links not followed)."""
    found: dict[str, str] = {}
    for folder, dirs, names, _fd in os.fwalk(root, follow_symlinks=False):
        rel = os.path.relpath(folder, root).replace(os.sep, "/")
        depth = 0 if rel == "." else rel.count("/") + 1
        dirs[:] = sorted(dirs) if depth < MAX_DEPTH else []
        name = Path(folder).name
        if rel != "." and "report.json" in names and name not in found:
            found[name] = rel
    return found


class SweBench:
    """An evaluation folder, searched once, looked up per instance; its files are read relative to it, never through a link."""

    def __init__(self, root: Path) -> None:
        if not root.is_dir():
            raise ImportFailed(f"{root}: not a folder (give the SWE-bench evaluation folder)")
        self.root = root
        self.fd = open_folder(root)
        self.folders = report_folders(root)

    def close(self) -> None:
        """Let go of the folder."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def path(self, rel: str, name: str) -> str:
        """A file of the evaluation as shown in messages."""
        return str(self.root / name) if rel == "." else str(self.root / rel / name)

    def read(self, rel: str, name: str) -> bytes:
        """A file of the evaluation folder (``rel`` a folder inside it)."""
        inner = name if rel == "." else f"{rel}/{name}"
        return read_inside(self.fd, inner, self.path(rel, name), TEXT_CAP)

    def report(self, rel: str) -> dict[str, Any]:
        """A parsed report.json."""
        try:
            doc = parse_json(self.read(rel, "report.json"), "report.json")
        except NotFormat as exc:
            raise ImportFailed(f"{self.path(rel, 'report.json')}: not a SWE-bench report ({exc})") from None
        if not isinstance(doc, dict):
            raise ImportFailed(f"{self.path(rel, 'report.json')}: not a SWE-bench report (not a JSON object)")
        return doc

    def find(self, ids: list[str]) -> tuple[str, dict[str, Any]] | None:
        """The folder (relative) and report entry of the first id found, or None."""
        for instance in ids:
            rel = self.folders.get(instance)
            if rel is not None:
                entry = self.report(rel).get(instance)
                if isinstance(entry, dict):
                    return rel, entry
        if "report.json" in os.listdir(self.fd):
            doc = self.report(".")
            for instance in ids:
                if isinstance(doc.get(instance), dict):
                    return ".", doc[instance]
        return None

    def optional(self, rel: str, name: str, warnings: list[str]) -> bytes | None:
        """A file that may be missing; a link or other refused file is a warning, never read."""
        try:
            return self.read(rel, name)
        except LinkRefused as exc:
            warnings.append(f"{exc}: not copied into the session")
            return None
        except ImportFailed as exc:
            if "no such file" not in str(exc):
                warnings.append(f"{exc}: not copied into the session")
            return None

    def evaluate(self, ids: list[str], attempt: int) -> Evaluation | None:
        """The evaluation of an instance (any of ``ids``), or None when the folder has none."""
        hit = self.find(ids)
        if hit is None:
            return None
        rel, entry = hit
        warnings: list[str] = []
        raw = self.optional(rel, "test_output.txt", warnings)
        output = raw.decode("utf-8", "replace").removeprefix("\ufeff") if raw is not None else ""
        sources = {}
        script = self.optional(rel, "eval.sh", warnings)
        if script is not None:
            sources["eval.sh"] = script
        if not output:
            output = "(no readable test_output.txt in the evaluation folder)\n" if warnings else "(no test_output.txt in the evaluation folder)\n"
        checks = report_checks(entry)
        grader = GraderSpec(
            name="swebench",
            output=output,
            attempt=attempt,
            command="SWE-bench evaluation (eval.sh)",
            checks=checks,
            sources=sources,
        )
        status = table_at(entry, "tests_status")
        meta: dict[str, Any] = {k: v for k, v in entry.items() if k != "tests_status"}
        meta.update({f"swebench_{k}": status.get(k) for k in UNGRADED if status.get(k)})
        meta["swebench_folder"] = self.root.name if rel == "." else rel.rpartition("/")[2]
        if warnings:
            meta["swebench_refused"] = warnings
        return Evaluation(grader, entry.get("resolved") is True, {"swebench": meta}, warnings)


def report_checks(entry: dict[str, Any]) -> list[CheckSpec]:
    """Checks from one report entry (see the module docstring)."""
    checks: list[CheckSpec] = []
    if entry.get("patch_is_None") or entry.get("patch_exists") is False:
        checks.append(CheckSpec("patch", "fail", message="no patch was submitted"))
    elif entry.get("patch_successfully_applied") is False:
        checks.append(CheckSpec("patch", "fail", message="the patch did not apply (patch_successfully_applied = false)"))
    status = entry.get("tests_status")
    if not isinstance(status, dict):
        return checks
    for group in GRADED:
        lists = status.get(group)
        if not isinstance(lists, dict):
            continue
        for word, verdict in (("failure", "fail"), ("success", "pass")):
            tests = lists.get(word)
            for test in tests if isinstance(tests, list) else []:
                name = as_text(test)
                message = f"{WHY[group]}: {'failed' if verdict == 'fail' else 'passed'}"
                checks.append(CheckSpec(name or "test", verdict, message=message))
    return checks
