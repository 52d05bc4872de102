"""Importer for SWE-agent trajectories (``.traj``), the retry agent's ``attempts[]`` included.

One run per trajectory file: run id and task = the file name without ``.traj`` (the instance).

- brief: the first user message of the history that is not a demonstration;
- code: ``info.submission`` (a unified diff) as ``patch.diff``; with the retry agent each
  entry of ``attempts[]`` is an attempt with its own ``patch.diff``, and the graded attempt is
  ``info.best_attempt_idx + 1``;
- transcript: ``history`` messages (thought and text as the turn, the action as a tool call
  whose output is the observation that followed); ``trajectory`` steps when there is no
  history; each retry attempt opens with a harness turn;
- graders: only with ``--swebench DIR`` (see :mod:`reviewer.store.logs.swebench`); without an
  evaluation a trajectory holds no test results, so the run has no grader and outcome
  ``unknown`` (``exit_status`` is kept as metadata);
- ``info`` (exit status, model stats, edited files ...), ``environment`` and ``replay_config``
  are run metadata.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from reviewer.model.wording import count
from reviewer.store.logs.chat import content_text, extras, mark_last, role_of
from reviewer.store.logs.ids import as_text, list_at, safe_id, table_at
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
from reviewer.store.logs.swebench import SweBench

SHOWN_STEP = frozenset({"thought", "action", "observation", "response"})
SHOWN_MESSAGE = frozenset({"role", "content", "action", "thought", "is_demo", "agent", "message_type"})
MEMBERS = {"trajectory": 5_000, "history": 5_000, "attempts": 100}
"""What a trajectory too big to parse whole keeps."""


def load_traj(path: Path) -> tuple[dict[str, Any], list[str]]:
    """A trajectory document and what was left out of it; NotFormat when the file is not one."""
    return traj_doc(read_source(path))


def traj_doc(data: bytes) -> tuple[dict[str, Any], list[str]]:
    """A trajectory document from its bytes, parsed within the budget, and what was left out;
    NotFormat when they are not one."""
    doc, cuts = parse_trajectory(data, "the trajectory", MEMBERS)
    if not isinstance(doc, dict):
        raise NotFormat("not a JSON object")
    if not any(isinstance(doc.get(k), list) for k in ("trajectory", "history", "attempts")):
        if isinstance(doc.get("messages"), list):
            raise NotFormat("looks like a mini-swe-agent trajectory; use the mini-swe-agent format")
        raise NotFormat("no `trajectory`, `history` or `attempts` list")
    return doc, cuts


def is_demo(message: dict[str, Any]) -> bool:
    """A demonstration message (``is_demo`` true or "True")."""
    return as_text(message.get("is_demo")).lower() == "true"


def first_user(history: list[Any]) -> str:
    """The first user message that is not a demonstration."""
    for m in history:
        if isinstance(m, dict) and m.get("role") == "user" and not is_demo(m):
            return content_text(m.get("content"))
    return ""


def action_call(message: dict[str, Any]) -> ToolCallSpec | None:
    """The action of an assistant message as a tool call."""
    action = as_text(message.get("action")).strip()
    if not action:
        return None
    words = action.split()
    return ToolCallSpec(words[0] if words else "action", action)


def history_turns(history: list[Any]) -> list[TurnSpec]:
    """Turns for a history; an observation becomes the output of the action before it."""
    turns: list[TurnSpec] = []
    pending: ToolCallSpec | None = None
    for m in history:
        if not isinstance(m, dict):
            continue
        role = role_of(m.get("role"))
        text = content_text(m.get("content"))
        if pending is not None and role in ("user", "tool") and not is_demo(m):
            pending.output = text
            pending = None
            continue
        pending = None
        if is_demo(m):
            text = f"[demonstration]\n{text}"
        turn = TurnSpec(role, text)
        if role == "assistant":
            call = action_call(m)
            if call is not None:
                turn.tool_calls.append(call)
                pending = call
        turns.append(turn)
    return turns


def trajectory_turns(steps: list[Any]) -> list[TurnSpec]:
    """Turns for trajectory steps (thought, action, observation), when there is no history."""
    turns = []
    for step in steps:
        if not isinstance(step, dict):
            continue
        text = as_text(step.get("thought") or step.get("response"))
        turn = TurnSpec("assistant", text)
        call = action_call(step)
        if call is not None:
            call.output = as_text(step.get("observation"))
            turn.tool_calls.append(call)
        turns.append(turn)
    return turns


def part_turns(part: dict[str, Any]) -> list[TurnSpec]:
    """Transcript turns of one trajectory (or one retry attempt)."""
    history = list_at(part, "history")
    turns = history_turns(history)
    if not any(t.role == "assistant" for t in turns) and isinstance(part.get("trajectory"), list):
        turns += trajectory_turns(part["trajectory"])
    return turns


def submission_attempt(part: dict[str, Any]) -> AttemptSpec:
    """An attempt holding the submitted patch (empty when nothing was submitted)."""
    info = table_at(part, "info")
    patch = as_text(info.get("submission"))
    note = "" if patch.strip() else f"no submission (exit status {as_text(info.get('exit_status')) or 'unknown'})"
    return AttemptSpec({"patch.diff": patch.encode("utf-8", "replace")}, note)


def replay_config(part: dict[str, Any]) -> dict[str, Any]:
    """The replay config as a dict (the retry agent stores it as JSON text)."""
    value = part.get("replay_config")
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return {}
    return value if isinstance(value, dict) else {}


def model_of(doc: dict[str, Any], parts: list[dict[str, Any]]) -> str:
    """The model name from the replay config, when recorded."""
    for part in [doc, *parts]:
        agent = replay_config(part).get("agent")
        if isinstance(agent, dict):
            model = agent.get("model")
            if isinstance(model, dict) and model.get("name"):
                return as_text(model.get("name"))
            configs = agent.get("agent_configs")
            if isinstance(configs, list) and configs and isinstance(configs[0], dict):
                inner = configs[0].get("model")
                if isinstance(inner, dict) and inner.get("name"):
                    return as_text(inner.get("name"))
    return "unknown"


def problem_text(doc: dict[str, Any], parts: list[dict[str, Any]]) -> str:
    """The problem statement text from the replay config, when the history has no user message."""
    for part in [doc, *parts]:
        problem = replay_config(part).get("problem_statement")
        if isinstance(problem, dict):
            text = as_text(problem.get("text") or problem.get("problem_statement"))
            if text.strip():
                return text
    return ""


def instance_ids(path: Path, doc: dict[str, Any], parts: list[dict[str, Any]]) -> list[str]:
    """Names the instance may go by: the file stem, then the problem statement id."""
    ids = [traj_stem(path)]
    for part in [doc, *parts]:
        problem = replay_config(part).get("problem_statement")
        if isinstance(problem, dict) and problem.get("id") and as_text(problem.get("id")) not in ids:
            ids.append(as_text(problem.get("id")))
    return ids


def traj_run(path: Path, doc: dict[str, Any], swebench: SweBench | None, model: str | None,
             cuts: list[str] | None = None) -> RunSpec:
    """One run for one trajectory file; ``cuts``: what reading it left out (shown in the run)."""
    raw_attempts = list_at(doc, "attempts")
    parts = [a for a in raw_attempts if isinstance(a, dict)] or [doc]
    retry = bool(raw_attempts)
    info = table_at(doc, "info")
    best = info.get("best_attempt_idx")
    graded = best + 1 if isinstance(best, int) and 0 <= best < len(parts) else len(parts)
    attempts, turns = [], []
    for number, part in enumerate(parts, start=1):
        attempts.append(submission_attempt(part))
        if retry:
            turns.append(TurnSpec("harness", f"retry agent: attempt {number} of {len(parts)} (environment reset)"))
        part_turns_ = part_turns(part)
        mark_last(part_turns_, number)
        turns.extend(part_turns_)
    ids = instance_ids(path, doc, parts)
    metadata: dict[str, Any] = {
        "trajectory_file": path.name,
        "info": {k: v for k, v in info.items() if k != "submission"} or None,
        "environment": doc.get("environment"),
        "replay_config": replay_config(doc) or None,
        "instance_ids": ids[1:] or None,
    }
    for number, part in enumerate(parts, start=1):
        prefix = f"attempt_{number}_" if retry else ""
        metadata[f"{prefix}trajectory_step_extras"] = extras(part.get("trajectory"), SHOWN_STEP)
        metadata[f"{prefix}history_message_extras"] = extras(part.get("history"), SHOWN_MESSAGE)
    if retry:
        metadata["best_attempt"] = graded
        metadata["attempt_info"] = [
            {k: v for k, v in table_at(p, "info").items() if k != "submission"}
            for p in parts
        ]
    for key, value in doc.items():
        if key not in ("trajectory", "history", "info", "attempts", "environment", "replay_config") and value not in (None, [], {}):
            metadata[f"traj_{key}"] = value
    brief = next((first_user(p["history"]) for p in parts if isinstance(p.get("history"), list) and first_user(p["history"])), "")
    if not brief.strip():
        brief = problem_text(doc, parts)
    if cuts:
        metadata["import_cuts"] = cuts
        turns.append(TurnSpec("harness", "[transcript cut: the trajectory is too large to read whole; " + "; ".join(cuts) + "]"))
    run = RunSpec(
        id=safe_id(ids[0]),
        task=ids[0],
        model=model or model_of(doc, parts),
        source=path.name,
        brief=brief,
        attempts=attempts,
        turns=turns,
        metadata=metadata,
    )
    if swebench is not None:
        evaluation = swebench.evaluate(ids, graded)
        if evaluation is not None:
            run.graders.append(evaluation.grader)
            run.outcome = "pass" if evaluation.resolved else "fail"
            run.metadata.update(evaluation.metadata)
            run.warnings.extend(evaluation.warnings)
        else:
            run.metadata["swebench"] = f"no evaluation of {ids[0]} in {swebench.root.name}"
    return run


EVALUATIONS: dict[tuple[int, str], SweBench] = {}


def evaluation_folder(root: str) -> SweBench:
    """The SWE-bench folder, searched once per process."""
    key = (os.getpid(), root)
    found = EVALUATIONS.get(key)
    if found is None:
        found = EVALUATIONS[key] = SweBench(Path(root))
    return found


def traj_unit(context: tuple[str | None, str | None], source: str) -> RunSpec:
    """The run of one ``.traj`` file (read when the writer asks for it, maybe in a worker)."""
    swebench_dir, model = context
    path = Path(source)
    try:
        doc, cuts = load_traj(path)
    except NotFormat as exc:
        raise exc.about(path) from None
    return traj_run(path, doc, evaluation_folder(swebench_dir) if swebench_dir is not None else None, model, cuts)


def import_swe_agent(paths: list[Path], name: str | None, swebench_dir: Path | None = None, model: str | None = None) -> ImportedSession:
    """One session with one run per trajectory file, read as the writer streams them."""
    while EVALUATIONS:
        EVALUATIONS.popitem()[1].close()
    if swebench_dir is not None:
        evaluation_folder(str(swebench_dir))  # a folder that is not one is refused before anything is read
    session = ImportedSession(name=name or "", format="swe-agent", harness="SWE-agent")
    session.sources = [p.name for p in paths]
    if not session.name and paths:
        stem = traj_stem(paths[0])
        session.name = safe_id(f"swe-agent-{safe_id(stem)}", "swe-agent")
    context = (str(swebench_dir) if swebench_dir is not None else None, model)
    session.jobs.append(Job(traj_unit, context, [str(p) for p in paths]))
    files = ", ".join(session.sources[:5]) + (" ..." if len(session.sources) > 5 else "")
    session.notes = f"Imported from {count(len(paths), 'SWE-agent trajectory file')}: {files}." + (
        f" Evaluation: SWE-bench results in {swebench_dir.name}." if swebench_dir is not None else " No test evaluation given."
    )
    return session


def read_in_place(unit: str, data: bytes) -> RunSpec:
    """The run of one ``.traj`` file of a folder read in place (no SWE-bench evaluation: import for that)."""
    doc, cuts = traj_doc(data)
    return traj_run(Path(unit), doc, None, None, cuts)


def open_in_place(path: Path) -> TrajectoryFolder:
    """A folder of ``.traj`` files read where it lies."""
    return TrajectoryFolder(path, IN_PLACE, read_in_place, lambda unit: safe_id(traj_stem(Path(unit))))


def traj_stem(path: Path) -> str:
    """The file name without ``.traj`` (the instance, the run id)."""
    return path.name[: -len(".traj")] if path.name.endswith(".traj") else path.stem


IN_PLACE = LogFormat("swe-agent", "SWE-agent", "folder", (".traj",), open_in_place)
"""SWE-agent trajectory folders read in place (see :mod:`reviewer.store.logs.registry`)."""
