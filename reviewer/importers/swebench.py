"""A SWE-bench evaluation of one instance as a grader with recorded checks.

SWE-bench writes ``logs/run_evaluation/<run_id>/<model>/<instance_id>/`` holding
``report.json`` (``{instance_id: {resolved, patch_successfully_applied, tests_status:
{FAIL_TO_PASS: {success, failure}, PASS_TO_PASS: {...}, FAIL_TO_FAIL, PASS_TO_FAIL}}}``),
``test_output.txt`` and ``eval.sh``. Each FAIL_TO_PASS and PASS_TO_PASS test is a check keyed
by its test id (failure -> fail, success -> pass); a patch that did not apply, or no patch,
is one failing check ``patch``. FAIL_TO_FAIL / PASS_TO_FAIL lists are not graded by SWE-bench
and are kept as metadata. ``test_output.txt`` is the grader output, ``eval.sh`` its source.
The folder given may be the instance folder itself or any folder above it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewer.importers.ids import as_text
from reviewer.importers.sources import TEXT_CAP, parse_json, read_source, read_text_source
from reviewer.importers.spec import CheckSpec, GraderSpec, ImportFailed, NotFormat

GRADED = ("FAIL_TO_PASS", "PASS_TO_PASS")
UNGRADED = ("FAIL_TO_FAIL", "PASS_TO_FAIL")
MAX_DEPTH = 8
WHY = {
    "FAIL_TO_PASS": "a test the fix must make pass (FAIL_TO_PASS)",
    "PASS_TO_PASS": "a test that passed before the patch and must still pass (PASS_TO_PASS)",
}


@dataclass
class Evaluation:
    """What SWE-bench said about one instance."""

    grader: GraderSpec
    resolved: bool
    metadata: dict[str, Any] = field(default_factory=dict)


def report_folders(root: Path) -> dict[str, Path]:
    """Every folder below ``root`` holding a report.json, by folder name (links not followed)."""
    found: dict[str, Path] = {}
    base_depth = len(root.parts)
    for folder, dirs, names in os.walk(root, followlinks=False):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if not os.path.islink(here / d)) if len(here.parts) - base_depth < MAX_DEPTH else []
        if "report.json" in names and here.name not in found:
            found[here.name] = here
    return found


class SweBench:
    """An evaluation folder, searched once, looked up per instance."""

    def __init__(self, root: Path) -> None:
        if not root.is_dir():
            raise ImportFailed(f"{root}: not a folder (give the SWE-bench evaluation folder)")
        self.root = root
        self.folders = report_folders(root)

    def report(self, folder: Path) -> dict[str, Any]:
        """A parsed report.json."""
        path = folder / "report.json"
        try:
            doc = parse_json(read_source(path, TEXT_CAP), "report.json")
        except NotFormat as exc:
            raise ImportFailed(f"{path}: not a SWE-bench report ({exc})") from None
        if not isinstance(doc, dict):
            raise ImportFailed(f"{path}: not a SWE-bench report (not a JSON object)")
        return doc

    def find(self, ids: list[str]) -> tuple[Path, dict[str, Any]] | None:
        """The folder and report entry of the first id found, or None."""
        for instance in ids:
            folder = self.folders.get(instance)
            if folder is not None:
                entry = self.report(folder).get(instance)
                if isinstance(entry, dict):
                    return folder, entry
        if "report.json" in os.listdir(self.root):
            doc = self.report(self.root)
            for instance in ids:
                if isinstance(doc.get(instance), dict):
                    return self.root, doc[instance]
        return None

    def evaluate(self, ids: list[str], attempt: int) -> Evaluation | None:
        """The evaluation of an instance (any of ``ids``), or None when the folder has none."""
        hit = self.find(ids)
        if hit is None:
            return None
        folder, entry = hit
        output = ""
        if (folder / "test_output.txt").is_file():
            output = read_text_source(folder / "test_output.txt")
        sources = {}
        if (folder / "eval.sh").is_file():
            sources["eval.sh"] = read_source(folder / "eval.sh", TEXT_CAP)
        checks = report_checks(entry)
        grader = GraderSpec(
            name="swebench",
            output=output or "(no test_output.txt in the evaluation folder)\n",
            attempt=attempt,
            command="SWE-bench evaluation (eval.sh)",
            checks=checks,
            sources=sources,
        )
        status = entry.get("tests_status") if isinstance(entry.get("tests_status"), dict) else {}
        meta: dict[str, Any] = {k: v for k, v in entry.items() if k != "tests_status"}
        meta.update({f"swebench_{k}": status.get(k) for k in UNGRADED if status.get(k)})
        meta["swebench_folder"] = folder.name
        return Evaluation(grader, entry.get("resolved") is True, {"swebench": meta})


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
