"""Importer for ATIF trajectories (Harbor's Agent Trajectory Interchange Format, RFC 0001, v1.0-1.8).

Sources are trajectory files or folders of them (a Harbor job folder: one
``<trial>/agent/trajectory.json`` per trial); reading is :mod:`reviewer.store.logs.atif_log`'s.
One run per trajectory; its continuation segments and subagent trajectories are part of it.

- run id: the Harbor trial folder's name (``<task>__<suffix>``; ``<trial>-<step>`` for a step
  of a multi-step trial), else the path below the source folder without ``.json``; a file
  named ``trajectory.json`` outside a trial takes its folder's name. Ids are stable: the same
  sources give the same ids;
- task: ``result.json``'s ``task_name``, else the trial name before ``__``, else the run id;
- model: ``agent.model_name``, else the model most steps name (``step.model_name``), else the
  trial's ``agent_info.model_info.name``;
- brief: the ``message`` of the first ``source: "user"`` step (the task instruction);
- transcript: one turn per step (``system`` -> system, ``user`` -> user, ``agent`` ->
  assistant with ``reasoning_content`` as a ``<reasoning>`` block before the message); each
  ``tool_calls[]`` entry is a tool call (``function_name``; ``arguments`` shown as code: a
  lone command string or a shell ``[sh, -c, script]`` list as the script itself, anything else
  as JSON) whose output is the ``observation.results[]`` entry with its ``tool_call_id`` as
  ``source_call_id``; a result answering no call is a tool turn of its own. Content parts
  (v1.6+) are their text, an image or audio part a ``[image: path (type)]`` marker (the file is
  never opened). ``is_copied_context`` steps are marked ``[copied context]`` (in a
  continuation segment they repeat earlier steps and are left out, with a harness turn saying
  how many); a ``context_management`` system step is marked with its type and boundary.
  A ``subagent_trajectory_ref`` is followed (``trajectory_id`` in ``subagent_trajectories``,
  v1.7, or a ``trajectory_path`` file beside it): the subagent's steps are turns marked
  ``[subagent NAME]`` between two harness turns, at most three levels deep;
- code (attempt 1): files the tool calls wrote (``path``/``file_path`` with ``content``/
  ``file_text``, then ``str_replace`` / ``old_string``-``new_string`` edits of them);
  edits of files the trajectory never wrote whole as ``edits.diff``; Codex ``apply_patch``
  inputs as ``apply_patch.patch``; a patch in the root ``extra`` (``git_patch``,
  ``model_patch``, ``patch``, ``submission``, ``diff``), or a mini-swe-agent submission (the
  output of its final ``COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`` command), as ``patch.diff``;
  with none of these, the last agent message as ``answer.md``;
- outcome and checks: the RFC has no reward or verifier field. In a Harbor trial folder the
  verifier's rewards (``result.json`` ``verifier_result.rewards``, else
  ``verifier/reward.json`` or ``reward.txt``) are the checks of a ``harbor-verifier`` grader (a
  reward of 1 or more passes, less fails, a value that is not a number is an error) whose
  output is ``verifier/test-stdout.txt`` (and ``test-stderr.txt``); a trial that errored
  (``exception_info``) without rewards is an error run with one error check naming the
  exception. Anywhere else the outcome is ``unknown``, as for the other trajectory importers;
- metadata: ``schema_version``, ``session_id``, ``trajectory_id``, the agent (name, version,
  model, ``extra``; ``tool_definitions`` spill to a file), ``notes``, ``final_metrics``, the
  root ``extra``, step counts and models, per-step ``metrics`` (token id and logprob arrays as
  their lengths), step, tool-call and observation ``extra`` tables, the trial's result
  (task, trial, agent info, rewards, exception, times), fields this reader does not know, and
  what reading left out.
"""

from __future__ import annotations

import json
import os
import stat
from collections import Counter
from pathlib import Path
from typing import Any

from reviewer.model.wording import count
from reviewer.store.logs.atif_log import (
    MAX_DEPTH,
    AtifTrajectory,
    TrialInfo,
    base_of,
    find_trajectories,
    read_trajectory,
    refs_in,
    roots_of,
    shown_name,
)
from reviewer.store.logs.chat import apply_write, mark_last, written_path
from reviewer.store.logs.ids import as_text, list_at, safe_id, table_at
from reviewer.store.logs.mini_swe import SUBMIT
from reviewer.store.logs.sources import LinkRefused, open_folder, open_inside
from reviewer.store.logs.spec import (
    AttemptSpec,
    CheckSpec,
    GraderSpec,
    ImportedSession,
    ImportFailed,
    Job,
    LogFormat,
    RunSpec,
    ToolCallSpec,
    TurnSpec,
    outcome_of,
)
from reviewer.store.logs.tomlsafe import json_text

ROLES = {"system": "system", "user": "user", "agent": "assistant"}
ROOT_FIELDS = frozenset({"schema_version", "session_id", "trajectory_id", "agent", "steps", "notes", "final_metrics",
                         "continued_trajectory_ref", "extra", "subagent_trajectories"})
STEP_FIELDS = frozenset({"step_id", "timestamp", "source", "model_name", "reasoning_effort", "message", "reasoning_content",
                         "tool_calls", "observation", "metrics", "is_copied_context", "llm_call_count", "extra"})
PATCH_KEYS = ("git_patch", "model_patch", "patch", "submission", "diff")
SHELLS = frozenset({"bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/usr/bin/bash", "/bin/zsh"})
TOKEN_ARRAYS = ("prompt_token_ids", "completion_token_ids", "logprobs")
MAX_SHOWN_STEPS = 30_000
GRADER = "harbor-verifier"


def message_text(value: Any) -> str:
    """A ``message`` or observation ``content``: a string, or content parts (v1.6+) as text with
    a marker for each image or audio part (its path is shown, never opened)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return as_text(value)
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        return as_text(value) if not isinstance(value, (dict, list)) else json_text(value)
    parts = []
    for part in value:
        if isinstance(part, str):
            parts.append(as_text(part))
        elif isinstance(part, dict):
            kind = as_text(part.get("type")) or "text"
            if kind == "text":
                parts.append(as_text(part.get("text")) if not isinstance(part.get("text"), (dict, list)) else json_text(part.get("text")))
            else:
                source = table_at(part, "source")
                where = as_text(source.get("path")) if not isinstance(source.get("path"), (dict, list)) else ""
                media = as_text(source.get("media_type")) if not isinstance(source.get("media_type"), (dict, list)) else ""
                parts.append(f"[{kind}: {where or 'no path'}{f' ({media})' if media else ''}]")
        elif part is not None:
            parts.append(json_text(part))
    return "\n\n".join(p for p in parts if p)


def shell_script(value: Any) -> str | None:
    """The script of a ``[bash, -lc, script]`` command list, None for anything else."""
    if (isinstance(value, list) and len(value) == 3 and all(isinstance(v, str) for v in value)
            and value[0] in SHELLS and value[1] in ("-c", "-lc", "-cl")):
        return as_text(value[2])
    return None


def call_arguments(args: Any) -> str:
    """A tool call's arguments as the transcript shows them: a lone string (a command, a patch) as
    itself, a shell command list as its script, anything else as JSON."""
    if args is None:
        return ""
    if isinstance(args, str):
        return as_text(args)
    if not isinstance(args, dict):
        return json_text(args)
    script = shell_script(args.get("command"))
    if script is not None:
        args = {**args, "command": script}
    if len(args) == 1:
        only = next(iter(args.values()))
        if isinstance(only, str):
            return as_text(only)
    return ordered_json(args)


def ordered_json(value: Any) -> str:
    """JSON text in the order the trajectory wrote it (``json_text``, keys sorted, when that fails)."""
    try:
        return as_text(json.dumps(value, ensure_ascii=False))
    except (ValueError, TypeError, RecursionError):
        return json_text(value)


def name_of(doc: dict[str, Any], fallback: str) -> str:
    """A trajectory's agent name (for subagent markers)."""
    name = table_at(doc, "agent").get("name")
    return as_text(name)[:80] if isinstance(name, str) and name.strip() else fallback


class Transcript:
    """Turns built from a trajectory's steps, its continuation segments and its subagents."""

    def __init__(self, found: AtifTrajectory) -> None:
        self.found = found
        self.turns: list[TurnSpec] = []
        self.embedded: dict[str, dict[str, Any]] = {}
        for sub in list_at(found.doc, "subagent_trajectories"):
            if isinstance(sub, dict) and isinstance(sub.get("trajectory_id"), str):
                self.embedded.setdefault(sub["trajectory_id"], sub)
        self.used: set[str] = set()
        self.shown = 0
        self.cut = False

    def build(self) -> list[TurnSpec]:
        """Every turn of the run, in order."""
        self.steps(self.found.doc, "", 0, skip_copied=False)
        for name, segment in self.found.segments:
            copied = sum(1 for s in list_at(segment, "steps") if isinstance(s, dict) and s.get("is_copied_context") is True)
            note = f"; {count(copied, 'step')} copied from before it not repeated" if copied else ""
            self.turns.append(TurnSpec("harness", f"[the trajectory continues in {name}{note}]"))
            self.steps(segment, "", 0, skip_copied=True)
        for tid, sub in self.embedded.items():
            if tid not in self.used:
                self.turns.append(TurnSpec("harness", f"[embedded subagent {as_text(tid)[:200]}, referenced by no step]"))
                self.used.add(tid)
                self.steps(sub, f"[subagent {name_of(sub, as_text(tid)[:80])}] ", 1, skip_copied=False)
        return self.turns

    def steps(self, doc: dict[str, Any], prefix: str, depth: int, skip_copied: bool) -> None:
        """The turns of one trajectory's steps."""
        for step in list_at(doc, "steps"):
            if self.shown >= MAX_SHOWN_STEPS:
                if not self.cut:
                    self.cut = True
                    self.turns.append(TurnSpec("harness", f"[transcript cut: more than {MAX_SHOWN_STEPS:,} steps with subagents; the rest not shown]"))
                return
            self.shown += 1
            if not isinstance(step, dict):
                self.turns.append(TurnSpec("harness", f"{prefix}[a step that is not an object: {json_text(step)[:200]}]"))
                continue
            if skip_copied and step.get("is_copied_context") is True:
                continue
            self.step(step, prefix, depth)

    def step(self, step: dict[str, Any], prefix: str, depth: int) -> None:
        """One step: its turn, the results that answer no call, then any subagents it delegated to."""
        source = as_text(step.get("source")) if isinstance(step.get("source"), str) else ""
        role = ROLES.get(source, "harness")
        text = message_text(step.get("message"))
        if role == "harness":
            text = f"[step with source {as_text(step.get('source'))[:40]!r}] {text}"
        reasoning = step.get("reasoning_content")
        if isinstance(reasoning, str) and reasoning.strip():
            text = f"<reasoning>\n{as_text(reasoning)}\n</reasoning>" + (f"\n\n{text}" if text else "")
        managed = table_at(table_at(step, "extra"), "context_management")
        if managed:
            text = f"[context {as_text(managed.get('type'))[:40] or 'management'}, boundary {as_text(managed.get('boundary'))[:40] or 'unknown'}] {text}"
        if step.get("is_copied_context") is True:
            text = f"[copied context] {text}"
        calls: list[ToolCallSpec] = []
        by_id: dict[str, ToolCallSpec] = {}
        for call in list_at(step, "tool_calls"):
            if not isinstance(call, dict):
                continue
            name = call.get("function_name")
            spec = ToolCallSpec(as_text(name) if isinstance(name, str) and name else "tool", call_arguments(call.get("arguments")))
            calls.append(spec)
            call_id = call.get("tool_call_id")
            if isinstance(call_id, str) and call_id:
                by_id.setdefault(call_id, spec)
        self.turns.append(TurnSpec(role, prefix + text, tool_calls=calls))
        for result in list_at(table_at(step, "observation"), "results"):
            if not isinstance(result, dict):
                continue
            content = message_text(result.get("content"))
            source_id = result.get("source_call_id")
            answered = by_id.get(source_id) if isinstance(source_id, str) else None
            if answered is not None:
                answered.output = f"{answered.output}\n{content}" if answered.output else content
            elif content:
                self.turns.append(TurnSpec("tool" if role == "assistant" else "harness", prefix + content))
            for ref in list_at(result, "subagent_trajectory_ref"):
                self.subagent(ref, prefix, depth)

    def subagent(self, ref: Any, prefix: str, depth: int) -> None:
        """The turns of a delegated subagent, between two harness turns."""
        if not isinstance(ref, dict):
            return
        tid, path = ref.get("trajectory_id"), ref.get("trajectory_path")
        tid = tid if isinstance(tid, str) and tid else None
        path = path if isinstance(path, str) and path else None
        label = as_text(tid or path or ref.get("session_id") or "?")[:200]
        summary = as_text(table_at(ref, "extra").get("summary"))[:500] if isinstance(table_at(ref, "extra").get("summary"), str) else ""
        doc = None
        if tid is not None and tid in self.embedded:
            doc = self.embedded[tid]
            self.used.add(tid)
        elif path is not None:
            doc = self.found.subagents.get(path)
        if doc is None:
            why = "not among the embedded subagent_trajectories" if tid is not None and path is None else "its file was not read (see the import notes)"
            self.turns.append(TurnSpec("harness", f"{prefix}[subagent {label}: {why}]"))
            return
        if depth + 1 > MAX_DEPTH:
            self.turns.append(TurnSpec("harness", f"{prefix}[subagent {label}: not shown, more than {MAX_DEPTH} levels deep]"))
            return
        name = name_of(doc, label[:80])
        steps = len(list_at(doc, "steps"))
        self.turns.append(TurnSpec("harness", f"{prefix}[subagent {name} ({label}): {count(steps, 'step')}{f': {summary}' if summary else ''}]"))
        self.steps(doc, f"{prefix}[subagent {name}] ", depth + 1, skip_copied=False)
        self.turns.append(TurnSpec("harness", f"{prefix}[end of subagent {name}]"))


# ---- code ----------------------------------------------------------------------------------


def main_steps(found: AtifTrajectory) -> list[dict[str, Any]]:
    """The run's own steps in order: the root's, then each segment's new ones."""
    steps = [s for s in list_at(found.doc, "steps") if isinstance(s, dict)]
    for _name, segment in found.segments:
        steps += [s for s in list_at(segment, "steps") if isinstance(s, dict) and s.get("is_copied_context") is not True]
    return steps


def diff_block(path: str, old: str, new: str, n: int) -> str:
    """One edit as a unified-diff-like hunk."""
    minus = "".join(f"-{line}\n" for line in old.splitlines())
    plus = "".join(f"+{line}\n" for line in new.splitlines())
    shown = path.lstrip("/") or path
    return f"--- a/{shown}\n+++ b/{shown}\n@@ edit {n} @@\n{minus}{plus}"


def edit_hunks(args: dict[str, Any], path: str, n: int) -> list[str]:
    """An edit of a file the trajectory never wrote whole, as hunks (none when it is not an edit)."""
    command = args.get("command")
    edits = args["edits"] if command is None and isinstance(args.get("edits"), list) else [args]
    hunks = []
    for edit in edits:
        if not isinstance(edit, dict):
            continue
        old = edit.get("old_str") if command == "str_replace" else edit.get("old_string")
        new = edit.get("new_str", "") if command == "str_replace" else edit.get("new_string", "")
        if isinstance(old, str) and isinstance(new, str) and (command == "str_replace" or command is None):
            hunks.append(diff_block(path, old, new, n))
    return hunks


def patch_input(name: str, args: Any) -> str | None:
    """The patch text of a Codex ``apply_patch`` call, None for any other call."""
    if isinstance(args, str):
        text = args
    elif isinstance(args, dict):
        text = next((args[k] for k in ("input", "patch") if isinstance(args.get(k), str)), "")
        text = text or (shell_script(args.get("command")) or "")
    else:
        return None
    if name == "apply_patch" or text.lstrip().startswith("*** Begin Patch"):
        return as_text(text) if text.strip() else None
    return None


def added_files(patch: str) -> dict[str, str]:
    """The files an ``apply_patch`` input adds whole (``*** Add File: path`` then ``+`` lines)."""
    files: dict[str, str] = {}
    path: str | None = None
    lines: list[str] = []
    for line in [*patch.split("\n"), "*** End"]:
        if line.startswith("*** "):
            if path is not None:
                files[path] = "".join(f"{text}\n" for text in lines)
            path = line[len("*** Add File: "):].strip() or None if line.startswith("*** Add File: ") else None
            lines = []
        elif path is not None:
            if not line.startswith("+"):
                path = None  # not the shape of an added file: leave it to the patch
                continue
            lines.append(line[1:])
    return files


def submission(steps: list[dict[str, Any]]) -> str:
    """A mini-swe-agent submission: the output of the last command that echoes the submit marker."""
    for step in reversed(steps):
        calls = [c for c in list_at(step, "tool_calls") if isinstance(c, dict)]
        for call in reversed(calls):
            if SUBMIT in call_arguments(call.get("arguments")):
                call_id = call.get("tool_call_id")
                for result in list_at(table_at(step, "observation"), "results"):
                    if isinstance(result, dict) and result.get("source_call_id") == call_id:
                        return message_text(result.get("content"))
                return ""
    return ""


def workdir_of(paths: list[str]) -> str:
    """The container folder every absolute path is in (``/app`` for ``/app/x.py`` and
    ``/app/src/y.py``), "" when they are not all in one (or none is absolute)."""
    firsts = {p.split("/")[1] for p in paths if p.startswith("/") and p.count("/") >= 2}
    if len(firsts) != 1 or any(not p.startswith("/") or p.count("/") < 2 for p in paths):
        return ""
    return "/" + firsts.pop()


def relative(path: str, workdir: str) -> str:
    """``path`` below ``workdir`` (as the grader in that folder sees it)."""
    return path[len(workdir) + 1:] if workdir and path.startswith(workdir + "/") else path


def attempt_of(found: AtifTrajectory) -> tuple[AttemptSpec, str, str]:
    """Attempt 1 (see the module docstring), the root ``extra`` key its patch came from ("" for
    none) and the container folder taken off the files' absolute paths ("" for none)."""
    steps = main_steps(found)
    files: dict[str, str] = {}
    edits: list[tuple[str, dict[str, Any]]] = []
    patches: list[str] = []
    for step in steps:
        for call in list_at(step, "tool_calls"):
            if not isinstance(call, dict):
                continue
            name = as_text(call.get("function_name")) if isinstance(call.get("function_name"), str) else ""
            args = call.get("arguments")
            patch = patch_input(name, args)
            if patch is not None:
                patches.append(patch.rstrip("\n") + "\n")
                files.update(added_files(patch))
                continue
            if not isinstance(args, dict) or apply_write(files, args):
                continue
            path = written_path(args)
            if path is not None and path not in files:
                edits.append((path, args))
    workdir = workdir_of([*files, *(p for p, _ in edits)])
    hunks: list[str] = []
    for path, args in edits:
        hunks += edit_hunks(args, relative(path, workdir), len(hunks) + 1)
    out = {relative(path, workdir): text.encode("utf-8", "replace") for path, text in files.items()}
    if hunks:
        out["edits.diff"] = "".join(hunks).encode("utf-8", "replace")
    if patches:
        out["apply_patch.patch"] = "\n".join(patches).encode("utf-8", "replace")
    extra = table_at(found.doc, "extra")
    used = next((k for k in PATCH_KEYS if isinstance(extra.get(k), str) and extra[k].strip()), "")
    patch_text = as_text(extra[used]) if used else submission(steps)
    if patch_text.strip():
        out["patch.diff"] = patch_text.encode("utf-8", "replace")
    if not out:
        for step in reversed(steps):
            if step.get("source") == "agent" and message_text(step.get("message")).strip():
                out["answer.md"] = message_text(step.get("message")).encode("utf-8", "replace")
                break
    note = "" if out else "the trajectory holds no written files, no patch and no final agent message"
    if workdir and out:
        note = f"paths below {workdir} (the agent's folder in its container) are shown relative to it"
    return AttemptSpec(out, note), used, workdir


# ---- the Harbor trial ------------------------------------------------------------------------


def reward_status(value: Any) -> tuple[str, str]:
    """(status, message) of one reward: 1 or more passes, less fails, not a number is an error."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value != value:
            return "error", "the reward is NaN"
        return ("pass" if value >= 1 else "fail"), f"reward {value}"
    return "error", f"the reward is not a number: {as_text(value)[:200]!r}"


def trial_graders(trial: TrialInfo) -> tuple[list[GraderSpec], bool]:
    """The verifier's grader (rewards as checks), or the trial's error as one; (graders, errored)."""
    exception = trial.exception()
    kind = as_text(exception.get("exception_type"))[:200] if exception else ""
    message = as_text(exception.get("exception_message")) if exception else ""
    if trial.rewards is not None:
        checks = []
        for key in sorted(trial.rewards):
            status, text = reward_status(trial.rewards[key])
            checks.append(CheckSpec(key=key or "reward", status=status, message=text))
        output = trial.stdout
        if trial.stderr:
            output += ("\n" if output and not output.endswith("\n") else "") + "--- test-stderr.txt ---\n" + trial.stderr
        if not output.strip():
            output = f"No verifier output was recorded; rewards from {trial.reward_source}: {json_text(trial.rewards)}\n"
        command = f"harbor verifier ({trial.reward_source})"
        return [GraderSpec(name=GRADER, output=output, command=command, checks=checks)], False
    if exception:
        traceback = as_text(exception.get("exception_traceback"))
        output = traceback or f"{kind}: {message}\n"
        check = CheckSpec(key=kind or "trial-error", status="error", message=f"{kind}: {message}"[:4000])
        return [GraderSpec(name="harbor-trial", output=output, command="harbor trial", checks=[check])], True
    return [], False


def trial_metadata(trial: TrialInfo) -> dict[str, Any]:
    """What the trial's ``result.json`` says beyond the rewards' checks."""
    result = trial.result
    exception = trial.exception()
    meta: dict[str, Any] = {
        "folder": trial.folder,
        "step": trial.step or None,
        "rewards": trial.rewards,
        "reward_source": trial.reward_source or None,
        "exception": {k: exception.get(k) for k in ("exception_type", "exception_message", "occurred_at")} if exception else None,
    }
    for key in ("task_name", "trial_name", "source", "task_checksum", "started_at", "finished_at", "agent_info", "task_id",
                "agent_execution", "verifier", "reward_valid"):
        if result.get(key) not in (None, "", {}, []):
            meta[key] = result.get(key)
    return {k: v for k, v in meta.items() if v is not None}


# ---- metadata ------------------------------------------------------------------------------


def step_metadata(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts, models, times and the per-step tables the transcript does not show."""
    sources: Counter[str] = Counter()
    models: Counter[str] = Counter()
    metrics, extras, call_extras, result_extras, unknown = [], [], [], [], []
    times = [s["timestamp"] for s in steps if isinstance(s.get("timestamp"), str)]
    for step in steps:
        sid = step.get("step_id")
        sources[as_text(step.get("source"))[:20] if isinstance(step.get("source"), str) else "?"] += 1
        if isinstance(step.get("model_name"), str):
            models[as_text(step["model_name"])[:200]] += 1
        m = table_at(step, "metrics")
        if m:
            row = {k: (f"{len(v):,} values" if isinstance(v, list) else v) if k in TOKEN_ARRAYS else v for k, v in m.items()}
            metrics.append({"step_id": sid, **row})
        kept = {k: step.get(k) for k in ("extra", "llm_call_count", "reasoning_effort") if step.get(k) is not None}
        if kept:
            extras.append({"step_id": sid, **kept})
        for call in list_at(step, "tool_calls"):
            if isinstance(call, dict) and call.get("extra") is not None:
                call_extras.append({"step_id": sid, "tool_call_id": call.get("tool_call_id"), "extra": call.get("extra")})
        for result in list_at(table_at(step, "observation"), "results"):
            if isinstance(result, dict) and result.get("extra") is not None:
                result_extras.append({"step_id": sid, "source_call_id": result.get("source_call_id"), "extra": result.get("extra")})
        rest = {k: v for k, v in step.items() if k not in STEP_FIELDS}
        if rest:
            unknown.append({"step_id": sid, **rest})
    return {
        "step_counts": dict(sorted(sources.items())) or None,
        "step_models": dict(sorted(models.items())) or None,
        "first_step_at": times[0] if times else None,
        "last_step_at": times[-1] if times else None,
        "step_metrics": metrics or None,
        "step_extras": extras or None,
        "tool_call_extras": call_extras or None,
        "observation_extras": result_extras or None,
        "step_unknown_fields": unknown or None,
    }


def run_metadata(found: AtifTrajectory, patch_key: str) -> dict[str, Any]:
    """Everything of the trajectory the run does not show elsewhere."""
    doc = found.doc
    agent = table_at(doc, "agent")
    meta: dict[str, Any] = {
        "atif_file": found.source,
        "schema_version": doc.get("schema_version"),
        "session_id": doc.get("session_id"),
        "trajectory_id": doc.get("trajectory_id"),
        "agent": {k: v for k, v in agent.items() if k != "tool_definitions"} or None,
        "tool_definitions": agent.get("tool_definitions"),
        "notes": doc.get("notes"),
        "final_metrics": doc.get("final_metrics"),
        "extra": {k: v for k, v in table_at(doc, "extra").items() if k != patch_key} or None,
        "continued_trajectory_ref": doc.get("continued_trajectory_ref"),
        "continuation_segments": [name for name, _ in found.segments] or None,
        "segment_final_metrics": [s.get("final_metrics") for _, s in found.segments if s.get("final_metrics")] or None,
        "subagent_files": sorted(found.subagents) or None,
        "embedded_subagents": [as_text(s.get("trajectory_id")) for s in list_at(doc, "subagent_trajectories") if isinstance(s, dict)] or None,
        "unknown_fields": {k: v for k, v in doc.items() if k not in ROOT_FIELDS} or None,
        "import_notes": found.notes or None,
    }
    meta.update(step_metadata(main_steps(found)))
    if found.trial is not None:
        meta["harbor_trial"] = trial_metadata(found.trial)
    return meta


# ---- the run -------------------------------------------------------------------------------


def run_id_of(base: str, rel: str) -> str:
    """The run id of the trajectory ``rel`` below ``base`` (see the module docstring)."""
    parts = rel.split("/")
    stem = parts[-1][: -len(".json")] if parts[-1].endswith(".json") else parts[-1]
    if len(parts) >= 2 and parts[-2] == "agent":
        trial = parts[:-2]
        name = trial[-1] if trial else Path(base).name or "trial"
        if len(trial) >= 3 and trial[-2] == "steps":
            name = f"{trial[-3]}-{trial[-1]}"
        return safe_id(name if stem == "trajectory" else f"{name}-{stem}", "trajectory")
    folders = parts[:-1]
    if stem == "trajectory":
        return safe_id("/".join(folders) or Path(base).name or stem, "trajectory")
    return safe_id("/".join([*folders, stem]), "trajectory")


def model_of(found: AtifTrajectory) -> str:
    """``agent.model_name``, else the model most steps name, else the trial's model."""
    name = table_at(found.doc, "agent").get("model_name")
    if isinstance(name, str) and name.strip():
        return as_text(name)
    named = Counter(as_text(s["model_name"]) for s in main_steps(found) if isinstance(s.get("model_name"), str) and s["model_name"].strip())
    if named:
        return sorted(named.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    if found.trial is not None:
        info = table_at(table_at(found.trial.result, "agent_info"), "model_info")
        if isinstance(info.get("name"), str) and info["name"].strip():
            return as_text(info["name"])
    return "unknown"


def task_of(found: AtifTrajectory, run_id: str) -> str:
    """``task_name`` of the trial, else the trial name before ``__``, else the run id."""
    if found.trial is not None:
        task = found.trial.result.get("task_name")
        if isinstance(task, str) and task.strip():
            return as_text(task)[:200]
        trial = found.trial.folder.rsplit("/", 1)[-1]
        if "__" in trial:
            return trial.split("__", 1)[0][:200]
    return run_id


def brief_of(found: AtifTrajectory) -> str:
    """The first user message (the task instruction)."""
    for step in main_steps(found):
        if step.get("source") == "user" and step.get("is_copied_context") is not True:
            text = message_text(step.get("message"))
            if text.strip():
                return text
    return ""


def atif_run(found: AtifTrajectory, base: str, rel: str, model: str | None = None) -> RunSpec:
    """One run for one trajectory."""
    run_id = run_id_of(base, rel)
    turns = Transcript(found).build()
    cuts = [n for n in found.notes if "steps: the first" in n or "budget" in n or "left out" in n]
    if cuts:
        turns.insert(0, TurnSpec("harness", "[transcript cut: the trajectory holds more than an import keeps; " + "; ".join(cuts)[:2000] + "]"))
    attempt, patch_key, workdir = attempt_of(found)
    graders: list[GraderSpec] = []
    errored = False
    if found.trial is not None:
        graders, errored = trial_graders(found.trial)
        exception = found.trial.exception()
        if exception:
            turns.append(TurnSpec("harness", f"trial error: {as_text(exception.get('exception_type'))[:200]}: "
                                             f"{as_text(exception.get('exception_message'))[:4000]}"))
    mark_last(turns, 1)
    checks = [c for g in graders for c in g.checks or []]
    version = table_at(found.doc, "agent").get("version")
    return RunSpec(
        id=run_id,
        task=task_of(found, run_id),
        model=model or model_of(found),
        source=found.source,
        outcome=outcome_of(checks, errored),
        brief=brief_of(found),
        attempts=[attempt],
        graders=graders,
        turns=turns,
        metadata={**run_metadata(found, patch_key), "container_workdir": workdir or None},
        warnings=list(found.notes),
        harness_version=as_text(version)[:100] if isinstance(version, str) else "",
    )


def atif_unit(model: str | None, unit: tuple[str, str]) -> RunSpec:
    """The run of one trajectory (read when the writer asks for it, maybe in a worker process)."""
    base, rel = unit
    return atif_run(read_trajectory(base, rel), base, rel, model)


# ---- the session ---------------------------------------------------------------------------


def named_refs(base: str, rel: str) -> list[str]:
    """The continuation and subagent paths a named trajectory names, as written; [] when unreadable."""
    try:
        base_fd = open_folder(Path(base))
    except ImportFailed:
        return []
    try:
        fd = open_inside(base_fd, rel, shown_name(base, rel))
    except ImportFailed:
        return []
    finally:
        os.close(base_fd)
    return refs_in(fd)[1]


def units_of(paths: list[Path]) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """(units, files read as parts of others, skipped files) of the sources, in the order given."""
    units: list[tuple[str, str]] = []
    parts: list[str] = []
    skipped: list[str] = []
    seen: set[tuple[str, str]] = set()
    files: dict[str, list[str]] = {}
    for path in paths:
        try:
            mode = os.lstat(path).st_mode
        except OSError as exc:
            raise ImportFailed(f"{path}: cannot read: {exc.strerror or exc}") from None
        if stat.S_ISLNK(mode):
            raise LinkRefused(f"{path}: is a symbolic link (reviewer import does not follow links; name the file itself)")
        if stat.S_ISDIR(mode):
            found = find_trajectories(path)
            for rel in found.roots:
                key = (os.path.abspath(found.base), rel)
                if key not in seen:
                    seen.add(key)
                    units.append((found.base, rel))
            parts += [shown_name(found.base, r) for r in found.parts]
            skipped += found.skipped
            continue
        base, rel = base_of(path)
        if rel not in files.setdefault(base, []):
            files[base].append(rel)
    for base, rels in files.items():
        roots, named_parts = roots_of(rels, {rel: named_refs(base, rel) for rel in rels})
        parts += [shown_name(base, r) for r in named_parts]
        for rel in rels:
            key = (os.path.abspath(base), rel)
            if rel in roots and key not in seen:
                seen.add(key)
                units.append((base, rel))
    return units, parts, skipped


def listed(items: list[str], limit: int = 8) -> str:
    """Up to ``limit`` items joined, with how many more."""
    more = len(items) - limit
    return "; ".join(items[:limit]) + (f"; and {more:,} more" if more > 0 else "")


def import_atif(paths: list[Path], name: str | None, model: str | None = None) -> ImportedSession:
    """One session with one run per trajectory, read as the writer streams them."""
    units, parts, skipped = units_of(paths)
    if not units:
        why = f" ({count(len(skipped), 'file')} skipped: {listed(skipped, 3)})" if skipped else ""
        raise ImportFailed(f"{paths[0]}: no ATIF trajectory found{why}")
    session = ImportedSession(name=name or "", format="atif", harness="ATIF")
    session.sources = [shown_name(base, rel) for base, rel in units]
    if not session.name:
        first = paths[0]
        stem = first.name if first.is_dir() and not first.is_symlink() else run_id_of(*base_of(first))
        session.name = safe_id(f"atif-{safe_id(stem)}", "atif")
    session.jobs.append(Job(atif_unit, model, units))
    if parts:
        session.warnings.append(f"{count(len(parts), 'trajectory file')} read as continuations or subagents of others, "
                                f"not as runs of their own: {listed(parts)}")
    if skipped:
        session.warnings.append(f"{count(len(skipped), 'file')} not imported: {listed(skipped)}")
    sources = ", ".join(str(p.name) for p in paths[:5]) + (" ..." if len(paths) > 5 else "")
    session.notes = (
        f"Imported from {count(len(units), 'ATIF trajectory', 'ATIF trajectories')} in {sources}. The ATIF format has "
        "no reward or verifier field: outcomes and checks come from the Harbor trial folder around a trajectory "
        "(result.json, verifier/); a trajectory outside one has outcome unknown."
    )
    return session


class AtifInPlace:
    """A folder of ATIF trajectories (a Harbor job or trial folder, or trajectory files) read where
    it lies: one unit per trajectory that is a run (continuations and subagents are read with it),
    found as an import finds them, read when asked for."""

    def __init__(self, path: Path) -> None:
        found = find_trajectories(path)
        self.base = found.base
        self.source = path.name
        self.units = list(found.roots)
        self.harness_version = ""
        self.started = ""
        left = [*(f"{p} (read as part of another trajectory)" for p in found.parts), *found.skipped]
        self.notes = (f"ATIF trajectories read in place from {path.name}. The ATIF format has no reward or verifier "
                      "field: outcomes and checks come from the Harbor trial folder around a trajectory."
                      + (f" Not runs of their own: {listed(left)}." if left else ""))

    def read(self, unit: str) -> RunSpec:
        """The run of one trajectory."""
        return atif_run(read_trajectory(self.base, unit), self.base, unit)

    def unit_id(self, unit: str) -> str:
        """A trajectory's run id comes from its path."""
        return run_id_of(self.base, unit)

    def unit_files(self, unit: str) -> list[Path]:
        """The trajectory's folder's JSON files (continuations, subagents) and, in a Harbor trial,
        its ``result.json`` and verifier output: what the run is made of."""
        folder = Path(self.base, unit).parent
        files = sorted(p for p in folder.glob("*.json"))
        if folder.name == "agent":
            trial = folder.parent
            files += [trial / "result.json", *(trial / "verifier" / name for name in
                                               ("reward.json", "reward.txt", "test-stdout.txt", "test-stderr.txt"))]
        return files

    def close(self) -> None:
        """Nothing is held open."""


def holds_trajectories(path: Path) -> bool:
    """Whether a folder holds ATIF trajectories (their first bytes say so)."""
    try:
        return bool(find_trajectories(path).roots)
    except ImportFailed:
        return False


IN_PLACE = LogFormat("atif", "ATIF", "folder", (".json",), AtifInPlace, holds_trajectories)
"""ATIF trajectory folders read in place (see :mod:`reviewer.store.logs.registry`)."""
