"""Importer for Inspect AI logs (``.eval``, deflate or zstd entries, and ``.json``).

Each sample epoch is a run of its own (epochs are independent trials, not retries): run id
``<sample id>-epoch-<n>``, task = the sample id, model = the eval's model.

- brief: the system message(s), then the sample ``input`` (text, or messages rendered);
- code (attempt 1): files written by tool calls (``path`` + ``content``/``file_text``, and
  ``str_replace`` edits of such files) at the paths used; otherwise the last assistant message
  as ``answer.md``; plus each scorer's extracted ``answer`` when it differs, as
  ``<scorer>.answer.<ext>`` (extension from the reply's code fence);
- transcript: ``messages`` (tool results attached to their calls; the model's own retries in
  an epoch are turns of the same run); a sample error ends it as a harness turn;
- graders: one per scorer, see :mod:`reviewer.store.logs.inspect_scores`;
- outcome: error when the sample errored, fail when a scorer failed, pass when all passed,
  unknown when unscored;
- ``attachment://`` (and older ``tc://``) references are resolved from ``attachments``;
- everything else (target, sample metadata, usage, limits, store, sandbox events outside
  scorers ...) is run metadata.
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from typing import Any

from reviewer.model.records import record
from reviewer.store.logs.chat import (
    apply_write,
    arguments_dict,
    call_name_args,
    content_text,
    error_text,
    mark_last,
    message_turns,
    tool_calls_of,
)
from reviewer.store.logs.ids import as_text, list_at, safe_id, table_at
from reviewer.store.logs.inspect_log import InspectLog, read_inspect_log, reopen
from reviewer.store.logs.inspect_scores import scorer_graders
from reviewer.store.logs.spec import (
    AttemptSpec,
    ImportedSession,
    Job,
    LogFormat,
    NotFormat,
    RunSpec,
    TurnSpec,
    outcome_of,
)
from reviewer.store.logs.tomlsafe import json_text

REF = re.compile(r"^(attachment|tc)://(?P<key>[A-Za-z0-9_-]{1,200})$")
MAPPED = frozenset({"id", "epoch", "input", "messages", "events", "attachments", "message_pool", "scores", "output", "metadata", "target", "error", "sandbox"})
EXTENSIONS = {"python": "py", "py": "py", "go": "go", "golang": "go", "javascript": "js", "js": "js", "typescript": "ts", "ts": "ts", "rust": "rs", "java": "java", "c": "c", "cpp": "cpp", "c++": "cpp", "bash": "sh", "sh": "sh", "shell": "sh", "ruby": "rb", "sql": "sql", "json": "json", "kotlin": "kt", "swift": "swift", "php": "php", "csharp": "cs", "haskell": "hs"}
FENCE = re.compile(r"```[ \t]*([A-Za-z0-9+#_-]*)")


def resolve(value: Any, attachments: dict[str, Any]) -> Any:
    """``value`` with every ``attachment://<hash>`` string replaced by the attachment."""
    if not attachments:
        return value
    try:
        return _resolve(value, attachments)
    except RecursionError:
        return value


def _resolve(value: Any, attachments: dict[str, Any]) -> Any:
    if isinstance(value, str):
        m = REF.match(value)
        if m and m.group("key") in attachments:
            return attachments[m.group("key")]
        return value
    if isinstance(value, list):
        return [_resolve(v, attachments) for v in value]
    if isinstance(value, dict):
        return {k: _resolve(v, attachments) for k, v in value.items()}
    return value


def one_line(text: str, limit: int) -> str:
    """``text`` on one line, at most ``limit`` characters (an ellipsis marks a cut)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "\u2026"


def input_text(value: Any) -> str:
    """The sample input as Markdown: text as is, messages as ``**role**`` paragraphs."""
    if isinstance(value, list):
        parts = []
        for m in value:
            if isinstance(m, dict):
                parts.append(f"**{as_text(m.get('role')) or 'message'}**\n\n{content_text(m.get('content'))}")
            else:
                parts.append(as_text(m))
        return "\n\n".join(parts)
    return content_text(value)


def brief_of(sample: dict[str, Any], messages: list[Any]) -> str:
    """System message(s) plus input; the first user message when the input is empty."""
    system = [content_text(m.get("content")) for m in messages if isinstance(m, dict) and m.get("role") == "system"]
    text = input_text(sample.get("input"))
    if not text.strip():
        text = next((content_text(m.get("content")) for m in messages if isinstance(m, dict) and m.get("role") == "user"), "")
    system = [s.strip() for s in system if s.strip() and s.strip() not in text]
    if not system:
        return text.strip() + "\n"
    return "## System message\n\n" + "\n\n".join(system) + "\n\n## Input\n\n" + text.strip() + "\n"


def errored_calls(messages: list[Any]) -> set[str]:
    """Ids of tool calls whose result was an error."""
    return {as_text(m.get("tool_call_id")) for m in messages if isinstance(m, dict) and m.get("role") == "tool" and m.get("error")}


def written_files(messages: list[Any]) -> dict[str, str]:
    """Files the model wrote through tool calls, in the state the last write left them."""
    failed = errored_calls(messages)
    files: dict[str, str] = {}
    for m in messages:
        if not isinstance(m, dict) or m.get("role") != "assistant":
            continue
        for call in tool_calls_of(m):
            if as_text(call.get("id")) in failed:
                continue
            args = arguments_dict(call_name_args(call)[1])
            if args:
                apply_write(files, args)
    return files


def last_assistant_text(messages: list[Any], output: Any) -> str:
    """The text of the last assistant message (or of the output's first choice)."""
    for m in reversed(messages):
        if isinstance(m, dict) and m.get("role") == "assistant":
            text = content_text(m.get("content"))
            if text.strip():
                return text
    choices = output.get("choices") if isinstance(output, dict) else None
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        msg = choices[0].get("message")
        if isinstance(msg, dict):
            return content_text(msg.get("content"))
    return ""


def attempt_of(sample: dict[str, Any], messages: list[Any]) -> AttemptSpec:
    """Attempt 1: tool-written files, else the final reply; plus the scorers' answers."""
    files = {p: c.encode("utf-8", "replace") for p, c in written_files(messages).items()}
    reply = last_assistant_text(messages, sample.get("output"))
    if not files and reply.strip():
        files["answer.md"] = reply.encode("utf-8", "replace")
    fence = FENCE.search(reply)
    ext = EXTENSIONS.get(fence.group(1).lower(), "txt") if fence and fence.group(1) else "txt"
    seen = {reply.strip()} | {data.decode("utf-8", "replace").strip() for data in files.values()}
    scores = table_at(sample, "scores")
    for name, score in scores.items():
        answer = as_text(score.get("answer")) if isinstance(score, dict) else ""
        if answer.strip() and answer.strip() not in seen:
            seen.add(answer.strip())
            files[f"{safe_id(name, 'scorer', 60)}.answer.{ext}"] = answer.encode("utf-8", "replace")
    note = "" if files else "the sample has no reply and no written files"
    return AttemptSpec(files, note)


@record(slots=False)
class LogInfo:
    """What a sample's run needs of its log (small, so it travels to worker processes)."""

    path: str
    source: str
    model: str
    identity: tuple[int, int] = (0, 0)
    eval_id: str = ""


def sample_metadata(sample: dict[str, Any], log: LogInfo, outside: list[dict[str, Any]]) -> dict[str, Any]:
    """Everything of a sample the runs do not show elsewhere."""
    meta: dict[str, Any] = {
        "inspect_log": log.source,
        "inspect_eval_id": log.eval_id or None,
        "inspect_sample_id": as_text(sample.get("id")),
        "epoch": sample.get("epoch"),
        "target": sample.get("target"),
        "sample_metadata": sample.get("metadata") or None,
        "sandbox_events_outside_scorers": outside or None,
    }
    output = sample.get("output")
    if isinstance(output, dict):
        meta["output"] = {k: v for k, v in output.items() if k not in ("choices", "completion")} or None
    if sample.get("error"):
        meta["error"] = sample.get("error")
    events = sample.get("events")
    if isinstance(events, list):
        counts: dict[str, int] = {}
        for e in events:
            if isinstance(e, dict):
                kind = as_text(e.get("event")) or "?"
                counts[kind] = counts.get(kind, 0) + 1
        meta["event_counts"] = counts or None
    for key, value in sample.items():
        if key not in MAPPED and value not in (None, {}, []):
            meta[f"sample_{key}"] = value
    return meta


def sample_run(sample: dict[str, Any], log: LogInfo, cuts: list[str] | None = None, resolved: bool = False) -> RunSpec:
    """One run for one sample epoch; ``cuts``: what reading the sample left out (shown in the run).

    ``resolved``: the attachment references were already replaced (see ``inspect_log.resolved_text``).
    """
    attachments = {} if resolved else table_at(sample, "attachments")
    if attachments:
        sample = {k: (v if k in ("attachments", "events") else resolve(v, attachments)) for k, v in sample.items()}
    messages = list_at(sample, "messages")
    if not messages and isinstance(sample.get("message_pool"), list):
        messages = sample["message_pool"]
    epoch = sample.get("epoch") if isinstance(sample.get("epoch"), int) else 1
    sid = as_text(sample.get("id")) or "sample"
    turns = message_turns(messages)
    if not turns:
        turns = [TurnSpec("user", input_text(sample.get("input")))]
    events = sample.get("events")
    graders, outside = scorer_graders(sample.get("scores"), sample.get("target"), resolve(events, attachments))
    error = sample.get("error")
    if error:
        turns.append(TurnSpec("harness", f"sample error: {error_text(error)}"))
    mark_last(turns, 1)
    if cuts and any(c.startswith(("messages", "message_pool")) for c in cuts):
        turns.append(TurnSpec("harness", "[transcript cut: the sample holds more messages than an import keeps; the rest were not imported. " + "; ".join(cuts) + "]"))
    checks = [c for g in graders for c in g.checks or []]
    metadata = sample_metadata(sample, log, outside)
    if cuts:
        metadata["import_cuts"] = cuts
    return RunSpec(
        id=safe_id(f"{sid}-epoch-{epoch}"),
        task=one_line(sid, 200) or "sample",
        model=log.model,
        source=log.source,
        outcome=outcome_of(checks, bool(error)),
        brief=brief_of(sample, messages),
        attempts=[attempt_of(sample, messages)],
        graders=graders,
        turns=turns,
        metadata=metadata,
        warnings=[f"{log.source}: sample {one_line(sid, 80)} epoch {epoch}: {'; '.join(cuts)}"] if cuts else [],
    )


def results_text(header: dict[str, Any]) -> str:
    """The log's overall metrics in one line."""
    results = header.get("results")
    parts = []
    if isinstance(results, dict) and isinstance(results.get("scores"), list):
        for s in results["scores"]:
            if isinstance(s, dict) and isinstance(s.get("metrics"), dict):
                for name, metric in s["metrics"].items():
                    value = metric.get("value") if isinstance(metric, dict) else metric
                    parts.append(f"{as_text(s.get('name'))}/{as_text(name)}={json_text(value)}")
    return ", ".join(parts)


def log_note(log: InspectLog) -> str:
    """One paragraph on a log for the session notes."""
    ev = log.header.get("eval", {})
    line = (
        f"Inspect log {log.source}: task {as_text(ev.get('task'))}, run {as_text(ev.get('run_id'))}, "
        f"model {as_text(ev.get('model'))}, status {as_text(log.header.get('status'))}, {log.count} sample epochs."
    )
    results = results_text(log.header)
    return f"{line} Results: {results}." if results else line


def session_name(log: InspectLog, path: Path) -> str:
    """The default session name for a log: its task and run id."""
    ev = log.header.get("eval", {})
    task = as_text(ev.get("task")).split("/")[-1]
    return safe_id(f"{task}-{as_text(ev.get('run_id')) or path.stem}", "inspect")


OPEN: dict[tuple[int, str], InspectLog] = {}


def eval_unit(info: LogInfo, entry: str) -> RunSpec:
    """The run of one sample entry of an ``.eval`` (the log is opened once per process)."""
    key = (os.getpid(), info.path)
    log = OPEN.get(key)
    if log is None:
        log = OPEN[key] = reopen(info.path, info.identity)
    try:
        sample, cuts, resolved = log.read_entry(entry)
    except NotFormat as exc:
        raise exc.about(info.path) from None
    return sample_run(sample, info, cuts, resolved)


def inline_unit(context: tuple[InspectLog, LogInfo], item: Any) -> RunSpec:
    """The run of one sample of a ``.json`` log or of the summaries."""
    log, info = context
    try:
        sample, cuts, resolved = log.read_inline(item)
    except NotFormat as exc:
        raise exc.about(info.path) from None
    return sample_run(sample, info, cuts, resolved)


def import_inspect(paths: list[Path], name: str | None, model: str | None = None) -> ImportedSession:
    """Every log as one session; samples are read when the writer asks for them. NotFormat carries the file it is about."""
    session = ImportedSession(name=name or "", format="inspect", harness="Inspect AI")
    notes = []
    while OPEN:
        OPEN.popitem()[1].close()  # logs of an earlier import in this process
    for path in paths:
        try:
            log = read_inspect_log(path)
        except NotFormat as exc:
            raise exc.about(path) from None
        ev = log.header["eval"]
        info = LogInfo(str(path), log.source, model or as_text(ev.get("model")) or "unknown", log.identity, as_text(ev.get("eval_id")))
        if log.entries:
            OPEN[(os.getpid(), info.path)] = log
            session.jobs.append(Job(eval_unit, info, log.entries))
        else:
            log.close()  # no entry to read later: the samples, if any, came from summaries.json
            if log.inline:
                session.jobs.append(Job(inline_unit, (log, info), log.inline, local=True))
        if not session.name:
            session.name = session_name(log, path)
        if not session.started:
            stats = table_at(log.header, "stats")
            session.started = as_text(ev.get("created") or stats.get("started_at"))
            packages = table_at(ev, "packages")
            session.harness_version = as_text(packages.get("inspect_ai"))
        notes.append(" ".join([log_note(log), *log.notes]))
        session.sources.append(log.source)
    session.notes = "\n".join(notes)
    return session


class InspectInPlace:
    """An Inspect log read where it lies: one unit per sample epoch, read when asked for.

    Units are the sample entries of an ``.eval`` (in the order an import reads them), or, for a
    ``.json`` log and for an ``.eval`` whose samples are only in ``summaries.json``, their
    positions in that order. The archive stays open; reads of it take turns.
    """

    def __init__(self, path: Path) -> None:
        try:
            self.log = read_inspect_log(path)
        except NotFormat as exc:
            raise exc.about(path) from None
        ev = self.log.header["eval"]
        self.info = LogInfo(str(path), self.log.source, as_text(ev.get("model")) or "unknown", self.log.identity,
                            as_text(ev.get("eval_id")))
        self.source = self.log.source
        self.units = list(self.log.entries) or [str(i) for i in range(len(self.log.inline))]
        stats = table_at(self.log.header, "stats")
        self.started = as_text(ev.get("created") or stats.get("started_at"))
        self.harness_version = as_text(table_at(ev, "packages").get("inspect_ai"))
        self.notes = " ".join([log_note(self.log), *self.log.notes])
        self.lock = threading.Lock()

    def read(self, unit: str) -> RunSpec:
        """The run of one sample epoch."""
        try:
            with self.lock:
                if self.log.entries:
                    sample, cuts, resolved = self.log.read_entry(unit)
                else:
                    sample, cuts, resolved = self.log.read_inline(self.log.inline[int(unit)])
        except NotFormat as exc:
            raise exc.about(self.source) from None
        return sample_run(sample, self.info, cuts, resolved)

    def unit_id(self, unit: str) -> str:
        """"": a sample's run id comes from the sample itself."""
        return ""

    def unit_files(self, unit: str) -> list[Path]:
        """Every sample is in the log file itself."""
        return []

    def close(self) -> None:
        """Close the archive."""
        with self.lock:
            self.log.close()


IN_PLACE = LogFormat("inspect", "Inspect AI", "file", (".eval", ".json"), InspectInPlace)
"""Inspect logs read in place (see :mod:`reviewer.store.logs.registry`)."""
