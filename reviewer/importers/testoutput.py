"""Importers for a code folder plus raw test output: ``go-test``, ``junit`` and ``pytest``.

The folder holds the files the model wrote; they become attempt 1 at their paths (regular
files only, no links followed, ``.git`` and caches skipped, size caps; what is skipped is
listed in the run metadata). The grader output is copied verbatim into ``grader/grader.out``
with its format set (``go-test-json`` or ``go-test-v`` by what the output holds, ``junit``,
``pytest``); its checks are *not* recorded, the loader derives them with the parsers, so the
failure ids are the parsers' keys (``TestA/sub``, ``build:<pkg>``, a pytest node id,
``classname::name``). The outcome is fail when the parsed output holds a failing check.

``--brief FILE`` is the brief (without it, brief.md says that none was given); ``--task``
defaults to the folder name, ``--model`` to ``unknown``. The transcript is the brief as the
user turn and a harness turn recording where the files were found.
"""

from __future__ import annotations

from pathlib import Path

from reviewer.model.wording import count
from reviewer.parsers import go_test, junit, parse_output, pytest_text
from reviewer.store.logs.ids import safe_id
from reviewer.store.logs.sources import read_code_folder, read_source, read_text_source
from reviewer.store.logs.spec import AttemptSpec, GraderSpec, ImportedSession, NotFormat, RunSpec, TurnSpec

NO_BRIEF = "_No brief was recorded for this run: `reviewer import` was run without `--brief FILE`._\n"
HARNESS = {"go-test": "go test", "junit": "JUnit XML", "pytest": "pytest"}
RUNTIMES = {"go-test": "go", "pytest": "python"}


def rerun_table(fmt: str, command: str, parser: str = "", program: str = "", report: str = "") -> dict[str, str] | None:
    """``[grader.rerun]`` for ``--rerun-command`` (the runtime the format implies, the format its
    output must have, the program the checker runs, the report it writes), or None."""
    if not command:
        return None
    table = {"command": command}
    if fmt in RUNTIMES:
        table["runtime"] = RUNTIMES[fmt]
    if parser:
        table["format"] = parser
    if program:
        table["program"] = program
    if report:
        table["report"] = report
    return table


def output_format(fmt: str, text: str) -> str:
    """The parser format of the grader output; NotFormat when it is not what ``fmt`` claims."""
    if fmt == "go-test":
        if go_test.is_json_stream(text):
            return "go-test-json"
        if go_test.is_verbose(text):
            return "go-test-v"
        raise NotFormat("no `go test -json` events and no `go test -v` lines (=== RUN, --- FAIL, ok/FAIL pkg)")
    if fmt == "junit":
        if junit.looks_like(text):
            return "junit"
        raise NotFormat("no <testsuite> or <testcase> element at the start")
    if fmt == "pytest":
        if pytest_text.looks_like(text):
            return "pytest"
        raise NotFormat("no pytest session header, summary or final `N passed/failed in Xs` line")
    raise NotFormat(f"unknown format {fmt}")


def import_test_output(
    fmt: str,
    folder: Path,
    grader_output: Path,
    *,
    name: str | None = None,
    brief: Path | None = None,
    task: str | None = None,
    model: str | None = None,
    exit_status: int | None = None,
    command: str = "",
    rerun_command: str = "",
    grader_files: list[Path] | tuple[Path, ...] = (),
    program: str = "",
    rerun_report: str = "",
) -> ImportedSession:
    """One session with one run: the folder's files graded by the given output.

    ``grader_files`` are kept with the grader (its ``source``); ``rerun_command`` (with them)
    makes a ``[grader.rerun]`` table so the grading can be re-scored in the sandbox, declaring the
    format its output must have (the recorded output's), ``program`` (a file of the folder the
    checker runs) and ``rerun_report`` (the file the re-run writes its results to). NotFormat
    when ``program`` is not one of the folder's files.
    """
    text = read_text_source(grader_output)
    sources = {f.name: read_source(f) for f in grader_files}
    try:
        parser = output_format(fmt, text)
    except NotFormat as exc:
        raise exc.about(grader_output) from None
    brief_text = read_text_source(brief) if brief is not None else ""
    code = read_code_folder(folder, {p for p in (grader_output, brief, *grader_files) if p is not None})
    if program and program not in code.files:
        raise NotFormat(f"--program {program}: not a file of the code folder (its files: "
                        f"{', '.join(sorted(code.files)[:8]) or 'none'})").about(folder)
    checks = parse_output(text, parser, exit_status=exit_status)
    failing = any(c.failing for c in checks)
    outcome = "fail" if failing else ("pass" if checks else "unknown")
    task_name = task or folder.resolve().name or "task"
    model_name = model or "unknown"
    turns = [TurnSpec("user", brief_text)] if brief_text.strip() else []
    turns.append(TurnSpec("harness", f"{count(len(code.files), 'file')} found in {folder.name or folder}; graded by {grader_output.name}",
                          attempt=1))
    metadata = {
        "code_folder": folder.resolve().name,
        "grader_output_file": grader_output.name,
        "brief_file": brief.name if brief is not None else None,
        "brief_missing": True if brief is None else None,
        "skipped_files": code.skipped or None,
    }
    run = RunSpec(
        id=safe_id(f"{task_name}--{model_name}"),
        task=task_name,
        model=model_name,
        source=f"{folder.resolve().name or 'folder'} (task {task_name}, model {model_name})",
        outcome=outcome,
        brief=brief_text if brief_text.strip() else NO_BRIEF,
        attempts=[AttemptSpec(code.files, "" if code.files else "the folder held no files")],
        graders=[GraderSpec(name="grader", output=text, attempt=1, command=command, exit_status=exit_status, format=parser,
                            sources=sources, rerun=rerun_table(fmt, rerun_command, parser, program, rerun_report))],
        turns=turns,
        metadata=metadata,
    )
    return ImportedSession(
        name=name or safe_id(f"{fmt}-{task_name}", fmt),
        format=fmt,
        harness=HARNESS.get(fmt, fmt),
        notes=f"Imported from the code folder {folder.resolve().name} and the {HARNESS.get(fmt, fmt)} output {grader_output.name}.",
        runs=[run],
        sources=[run.source],
    )
