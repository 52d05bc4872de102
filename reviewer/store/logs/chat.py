"""Chat messages (OpenAI / Inspect style) as transcript turns, shared by the log importers.

Content may be a string or a list of parts (text, reasoning, images ...); tool calls may be
Inspect style (``{id, function: "name", arguments: {...}}``) or OpenAI style
(``{id, function: {name, arguments: "..."}}``). A tool result is attached to the call it
answers (by ``tool_call_id``) as that call's output; a result that answers no call stays a
``tool`` turn of its own.
"""

from __future__ import annotations

import json
from typing import Any

from reviewer.store.logs.ids import as_text
from reviewer.store.logs.spec import ToolCallSpec, TurnSpec
from reviewer.store.logs.tomlsafe import json_text

PATH_KEYS = ("path", "file_path", "filepath", "filename", "file")
CONTENT_KEYS = ("content", "file_text", "contents", "new_content", "text")
WRITE_COMMANDS = (None, "", "create", "write", "overwrite")
ROLE_MAP = {"system": "system", "developer": "system", "user": "user", "human": "user", "assistant": "assistant", "ai": "assistant", "tool": "tool", "function": "tool"}


def role_of(value: object) -> str:
    """A transcript role for a message role; anything unknown is the harness speaking."""
    return ROLE_MAP.get(as_text(value).lower(), "harness")


def content_text(content: Any) -> str:
    """Message content as text; non-text parts become a short visible marker."""
    if content is None:
        return ""
    if isinstance(content, str):
        return as_text(content)
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        return as_text(content)
    parts = []
    for item in content:
        if isinstance(item, str):
            parts.append(as_text(item))
        elif isinstance(item, dict):
            parts.append(part_text(item))
    return "\n\n".join(p for p in parts if p)


def part_text(item: dict[str, Any]) -> str:
    """One content part as text."""
    kind = as_text(item.get("type")) or "text"
    if kind == "text" or "text" in item and isinstance(item.get("text"), str):
        return as_text(item.get("text"))
    if kind == "reasoning":
        body = item.get("reasoning") or item.get("summary") or ""
        if item.get("redacted"):
            return "[reasoning redacted]"
        return f"<reasoning>\n{content_text(body)}\n</reasoning>"
    return f"[{kind} content]"


def call_name_args(call: dict[str, Any]) -> tuple[str, Any]:
    """(function name, arguments) of a tool call in either style."""
    fn = call.get("function")
    if isinstance(fn, dict):
        return as_text(fn.get("name")), fn.get("arguments")
    return as_text(fn or call.get("name")), call.get("arguments", call.get("input"))


def arguments_dict(args: Any) -> dict[str, Any] | None:
    """Tool-call arguments as a dict when they are one (JSON text is parsed)."""
    if isinstance(args, dict):
        return args
    if isinstance(args, str) and args.lstrip().startswith("{"):
        try:
            value = json.loads(args)
        except (ValueError, RecursionError):
            return None
        return value if isinstance(value, dict) else None
    return None


def arguments_text(args: Any) -> str:
    """Tool-call arguments as text: JSON for structures, the string itself otherwise."""
    if isinstance(args, str):
        return as_text(args)
    if args is None:
        return ""
    return json_text(args)


def tool_calls_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool calls of a message (only dicts are kept)."""
    calls = message.get("tool_calls")
    return [c for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []


def written_path(args: dict[str, Any]) -> str | None:
    """The file a file-writing tool call names (``path``, ``file_path`` ...), None when it names none."""
    return next((args[k] for k in PATH_KEYS if isinstance(args.get(k), str) and args[k].strip()), None)


def apply_write(files: dict[str, str], args: dict[str, Any]) -> bool:
    """Apply one tool call's arguments to ``files`` (path -> text, as the model left them).

    A whole file written (``content``/``file_text``... with no command or ``create``/``write``)
    replaces it; an edit (``command: str_replace`` with ``old_str``/``new_str``, or Claude
    Code's ``old_string``/``new_string``, ``edits[]`` of those) changes a file written earlier
    when its old text is found once (everywhere with ``replace_all``). True when ``files`` changed.
    """
    path = written_path(args)
    if path is None:
        return False
    command = args.get("command")
    content = next((args[k] for k in CONTENT_KEYS if isinstance(args.get(k), str)), None)
    if command in WRITE_COMMANDS and content is not None:
        files[path] = content
        return True
    if path not in files:
        return False
    edits = [e for e in args["edits"] if isinstance(e, dict)] if command is None and isinstance(args.get("edits"), list) else [args]
    text = files[path]
    for edit in edits:
        if command == "str_replace":
            old, new = edit.get("old_str"), edit.get("new_str", "")
        elif command is None and "old_string" in edit:
            old, new = edit.get("old_string"), edit.get("new_string", "")
        else:
            return False
        if not (isinstance(old, str) and isinstance(new, str) and old):
            return False
        found = text.count(old)
        if found == 0 or (found > 1 and edit.get("replace_all") is not True):
            return False
        text = text.replace(old, new)
    files[path] = text
    return True


def error_text(error: Any) -> str:
    """A tool or sample error as one line of text."""
    if isinstance(error, dict):
        kind = as_text(error.get("type"))
        msg = as_text(error.get("message"))
        return f"{kind}: {msg}" if kind else msg
    return as_text(error)


def message_turns(messages: list[Any]) -> list[TurnSpec]:
    """Turns for a list of chat messages, tool results attached to their calls."""
    turns: list[TurnSpec] = []
    open_calls: dict[str, ToolCallSpec] = {}
    for m in messages:
        if not isinstance(m, dict):
            continue
        role = role_of(m.get("role"))
        text = content_text(m.get("content"))
        if role == "tool":
            if m.get("error"):
                text = f"{text}\n[tool error] {error_text(m.get('error'))}".strip()
            call = open_calls.pop(as_text(m.get("tool_call_id")), None)
            if call is not None and not call.output:
                call.output = text
                continue
            name = as_text(m.get("function") or m.get("name"))
            turns.append(TurnSpec("tool", f"[{name}] {text}" if name else text))
            continue
        calls = []
        for c in tool_calls_of(m):
            name, args = call_name_args(c)
            spec = ToolCallSpec(name or "tool", arguments_text(args))
            calls.append(spec)
            if c.get("id") is not None:
                open_calls[as_text(c.get("id"))] = spec
        turns.append(TurnSpec(role, text, tool_calls=calls))
    return turns


def extras(items: Any, shown: frozenset[str]) -> list[dict[str, Any]] | None:
    """What each item holds beyond the ``shown`` keys, with its index (None when nothing)."""
    if not isinstance(items, list):
        return None
    out = []
    for i, item in enumerate(items):
        if isinstance(item, dict):
            rest = {k: v for k, v in item.items() if k not in shown and v not in (None, "", [], {})}
            if rest:
                out.append({"index": i, **rest})
    return out or None


def mark_last(turns: list[TurnSpec], attempt: int, role: str = "assistant") -> None:
    """Mark the last turn of ``role`` as the one that produced ``attempt``."""
    for t in reversed(turns):
        if t.role == role:
            t.attempt = attempt
            return
