"""Importer for mini-swe-agent trajectories (``*.traj.json``).

The current format is ``{info{exit_status, submission, model_stats, config, mini_version},
messages[], trajectory_format: "mini-swe-agent-1" | "mini-swe-agent-1.1"}``; early files (and
mini-swe-agent's own test data) are a bare list of messages. One run per file: run id and task
= the file name without ``.traj.json``.

- brief: the first user message;
- code: ``info.submission`` as ``patch.diff`` (for a bare list: the output of the final
  ``echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`` command; empty when there is none);
- transcript: the messages; an assistant's bash command (``extra.actions`` or its
  ``mswea_bash_command`` / ``bash`` block, or a tool call) is a tool call whose output is the
  observation that followed; an ``exit`` message is a harness turn;
- no grader (a trajectory holds no test results): outcome ``unknown``, ``exit_status`` and the
  rest of ``info`` kept as metadata.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from reviewer.model.wording import count
from reviewer.store.logs.chat import (
    arguments_text,
    call_name_args,
    content_text,
    extras,
    mark_last,
    role_of,
    tool_calls_of,
)
from reviewer.store.logs.ids import as_text, safe_id
from reviewer.store.logs.sources import TrajectoryFolder, parse_trajectory, read_source
from reviewer.store.logs.spec import (
    AttemptSpec,
    ImportedSession,
    Job,
    LogFormat,
    NotFormat,
    RunSpec,
    ToolCallSpec,
    TurnSpec,
)

COMMAND = re.compile(r"```(?:mswea_bash_command|bash|sh)[ \t]*\n(.*?)\n?```", re.DOTALL)
SUBMIT = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"
MEMBERS = {"messages": 5_000}
"""What a trajectory too big to parse whole keeps (as an Inspect sample's messages)."""


def load_mini(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    """(info, messages, what was left out) of a trajectory file; NotFormat when the file is not one."""
    return mini_doc(read_source(path))


def mini_doc(data: bytes) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    """(info, messages, what was left out) of a trajectory's bytes, parsed within the budget;
    NotFormat when they are not one."""
    doc, cuts = parse_trajectory(data, "the trajectory", MEMBERS)
    if isinstance(doc, list):
        messages = doc
        info: Any = {}
    elif isinstance(doc, dict):
        if isinstance(doc.get("history"), list) or isinstance(doc.get("attempts"), list):
            raise NotFormat("looks like a SWE-agent trajectory; use the swe-agent format")
        if not isinstance(doc.get("messages"), list):
            raise NotFormat("no `messages` list")
        messages = doc["messages"]
        info = doc.get("info", {})
    else:
        raise NotFormat("neither a JSON object nor a list of messages")
    if not messages or not all(isinstance(m, dict) and "role" in m for m in messages):
        raise NotFormat("`messages` must be a non-empty list of {role, content} objects")
    return (info if isinstance(info, dict) else {}), messages, cuts


def extra_of(message: dict[str, Any]) -> dict[str, Any]:
    """A message's ``extra`` table."""
    extra = message.get("extra")
    return extra if isinstance(extra, dict) else {}


def commands(message: dict[str, Any]) -> list[ToolCallSpec]:
    """The commands an assistant message asked to run."""
    calls = []
    for c in tool_calls_of(message):
        name, args = call_name_args(c)
        calls.append(ToolCallSpec(name or "tool", arguments_text(args)))
    if calls:
        return calls
    actions = extra_of(message).get("actions")
    if isinstance(actions, list) and actions:
        return [ToolCallSpec("bash", as_text(a.get("command")) if isinstance(a, dict) else as_text(a)) for a in actions]
    found = COMMAND.findall(content_text(message.get("content")))
    return [ToolCallSpec("bash", found[0])] if found else []


def message_turns(messages: list[dict[str, Any]]) -> list[TurnSpec]:
    """Turns; observations become the output of the command before them."""
    turns: list[TurnSpec] = []
    pending: list[ToolCallSpec] = []
    for m in messages:
        role_word = as_text(m.get("role"))
        text = content_text(m.get("content"))
        role = "harness" if role_word == "exit" else role_of(role_word)
        if pending and role in ("user", "tool"):
            call = pending.pop(0)
            call.output = text
            continue
        pending = []
        turn = TurnSpec(role, text)
        if role == "assistant":
            turn.tool_calls = commands(m)
            pending = list(turn.tool_calls)
        turns.append(turn)
    return turns


def submission_of(info: dict[str, Any], messages: list[dict[str, Any]]) -> str:
    """The submitted patch: ``info.submission``, an exit message's, or the submit command's output."""
    if as_text(info.get("submission")).strip():
        return as_text(info.get("submission"))
    for m in reversed(messages):
        if as_text(extra_of(m).get("submission")).strip():
            return as_text(extra_of(m).get("submission"))
    if len(messages) >= 2 and messages[-1].get("role") == "user":
        before = messages[-2]
        if before.get("role") == "assistant" and SUBMIT in content_text(before.get("content")):
            return content_text(messages[-1].get("content"))
    return ""


def model_name(info: dict[str, Any]) -> str:
    """The model from ``info.config.model``, when recorded."""
    config = info.get("config")
    model = config.get("model") if isinstance(config, dict) else None
    if isinstance(model, dict):
        return as_text(model.get("model_name") or model.get("name")) or "unknown"
    return "unknown"


def stem_of(path: Path) -> str:
    """The file name without ``.traj.json`` (the run id and default task)."""
    return path.name[: -len(".traj.json")] if path.name.endswith(".traj.json") else path.stem


def mini_run(path: Path, info: dict[str, Any], messages: list[dict[str, Any]], model: str | None,
             cuts: list[str] | None = None) -> RunSpec:
    """One run for one trajectory file; ``cuts``: what reading it left out (shown in the run)."""
    stem = stem_of(path)
    task = as_text(info.get("instance_id")) or stem
    patch = submission_of(info, messages)
    exit_status = as_text(info.get("exit_status")) or as_text(extra_of(messages[-1]).get("exit_status"))
    note = "" if patch.strip() else f"no submission (exit status {exit_status or 'unknown'})"
    turns = message_turns(messages)
    mark_last(turns, 1)
    if cuts:
        turns.append(TurnSpec("harness", "[transcript cut: the trajectory is too large to read whole; " + "; ".join(cuts) + "]"))
    brief = next((content_text(m.get("content")) for m in messages if m.get("role") == "user"), "")
    metadata: dict[str, Any] = {
        "trajectory_file": path.name,
        "info": {k: v for k, v in info.items() if k != "submission"} or None,
        "exit_status": exit_status or None,
        "message_extras": extras(messages, frozenset({"role", "content"})),
    }
    if cuts:
        metadata["import_cuts"] = cuts
    return RunSpec(
        id=safe_id(stem),
        task=task,
        model=model or model_name(info),
        source=path.name,
        brief=brief,
        attempts=[AttemptSpec({"patch.diff": patch.encode("utf-8", "replace")}, note)],
        turns=turns,
        metadata=metadata,
    )


def mini_unit(model: str | None, source: str) -> RunSpec:
    """The run of one trajectory file (read when the writer asks for it, maybe in a worker)."""
    path = Path(source)
    try:
        info, messages, cuts = load_mini(path)
    except NotFormat as exc:
        raise exc.about(path) from None
    run = mini_run(path, info, messages, model, cuts)
    run.harness_version = as_text(info.get("mini_version"))
    return run


def read_in_place(unit: str, data: bytes) -> RunSpec:
    """The run of one trajectory file of a folder read in place (``unit``: its path in the folder)."""
    path = Path(unit)
    info, messages, cuts = mini_doc(data)
    run = mini_run(path, info, messages, None, cuts)
    run.harness_version = as_text(info.get("mini_version"))
    return run


def open_in_place(path: Path) -> TrajectoryFolder:
    """A folder of trajectories read where it lies."""
    return TrajectoryFolder(path, IN_PLACE, read_in_place, lambda unit: safe_id(stem_of(Path(unit))))


IN_PLACE = LogFormat("mini-swe-agent", "mini-swe-agent", "folder", (".traj.json",), open_in_place)
"""mini-swe-agent trajectory folders read in place (see :mod:`reviewer.store.logs.registry`)."""


def import_mini_swe(paths: list[Path], name: str | None, model: str | None = None) -> ImportedSession:
    """One session with one run per trajectory file, read as the writer streams them."""
    session = ImportedSession(name=name or "", format="mini-swe-agent", harness="mini-swe-agent")
    session.sources = [p.name for p in paths]
    if not session.name and paths:
        session.name = safe_id(f"mini-swe-agent-{safe_id(stem_of(paths[0]))}", "mini-swe-agent")
    session.jobs.append(Job(mini_unit, model, [str(p) for p in paths]))
    session.notes = f"Imported from {count(len(paths), 'mini-swe-agent trajectory file')}; trajectories hold no test results."
    return session
