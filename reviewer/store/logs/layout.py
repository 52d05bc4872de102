"""Laying out an imported run in the sessions format: file path -> bytes, nothing on disk yet.

Manifests are read with a 1 MiB cap (``safe_fs.MANIFEST_CAP``), so ``run.toml`` and
``transcript.toml`` are kept well under it: check messages are cut (the full text stays in the
grader output), large metadata values move to ``metadata/<key>.json``, and long turns are cut
with a marker while the uncut transcript is kept in ``transcript.full.json``. A transcript too
long to fit even then keeps its first turns and a harness turn saying how many were not
imported; a metadata value past 16 MiB of JSON is named, not stored.
"""

from __future__ import annotations

import posixpath
from typing import Any

from reviewer.store.logs.ids import (
    UniqueIds,
    cut,
    fix_text,
    grader_name,
    safe_id,
    safe_relpath,
)
from reviewer.store.logs.spec import (
    AttemptSpec,
    GraderSpec,
    ImportFailed,
    RunSpec,
    TurnSpec,
)
from reviewer.store.logs.tomlsafe import dumps, json_text

MANIFEST_BUDGET = 900_000
METADATA_INLINE = 4_096
CHECK_MESSAGE = 4_000
MAX_CHECKS = 5_000
TURN_TEXT_CAPS = (20_000, 8_000, 3_000, 1_000, 300)
MAX_TURNS = 5_000
FULL_CAP = 64 << 20
METADATA_FILE_CAP = 16 << 20
ROLES = ("system", "user", "assistant", "tool", "harness")
SOURCE = "source"

Files = dict[str, bytes]


def encode(text: str) -> bytes:
    """Text as UTF-8 bytes (lone surrogates replaced)."""
    return fix_text(text).encode("utf-8")


def attempt_files(attempt: AttemptSpec, notes: list[str]) -> dict[str, bytes]:
    """The attempt's files under safe relative paths; a path that is also a folder gets ``~``."""
    out: dict[str, bytes] = {}
    for raw, data in attempt.files.items():
        path = safe_relpath(raw)
        if not path:
            notes.append(f"a file with no usable path ({fix_text(str(raw))[:80]!r}) was skipped")
            continue
        if path != raw:
            notes.append(f"{fix_text(str(raw))[:200]!r} stored as {path!r}")
        out[path] = data
    folders = {posixpath.dirname(p) for p in out}
    folders = {f for d in folders for f in prefixes(d)}
    for path in sorted(out):
        if path in folders:
            out[f"{path}~"] = out.pop(path)
            notes.append(f"{path!r} is also a folder; stored as {path + '~'!r}")
    return dict(sorted(out.items()))


def prefixes(folder: str) -> list[str]:
    """``a/b/c`` -> ``a``, ``a/b``, ``a/b/c``."""
    parts = [p for p in folder.split("/") if p]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def spill_metadata(metadata: dict[str, Any], files: Files) -> dict[str, Any]:
    """Metadata with every large value moved to ``metadata/<key>.json`` (named in its place)."""
    names = UniqueIds()
    out: dict[str, Any] = {}
    for key in sorted(metadata, key=str):
        value = metadata[key]
        if value is None:
            continue
        text = json_text(value)
        if len(text.encode("utf-8")) <= METADATA_INLINE:
            out[str(key)] = value
            continue
        rel = f"metadata/{names.claim(safe_id(key, 'value', 60))}.json"
        data = encode(json_text(value, indent=1) + "\n")
        if len(data) > METADATA_FILE_CAP:
            out[str(key)] = f"(not imported: {len(data):,} bytes of JSON, more than the {METADATA_FILE_CAP >> 20} MiB an import keeps of one value)"
            continue
        files[rel] = data
        out[str(key)] = f"(stored in {rel}: {len(data):,} bytes)"
    return out


def grader_table(g: GraderSpec, name: str, attempt: int, files: Files, message_cap: int) -> dict[str, Any]:
    """One ``[[grader]]`` table; its output and sources become files."""
    table: dict[str, Any] = {"name": name, "attempt": attempt}
    for key in ("command", "cwd", "format"):
        value = getattr(g, key)
        if value:
            table[key] = value
    if g.exit_status is not None:
        table["exit_status"] = g.exit_status
    rel = f"grader/{name}.out"
    files[rel] = encode(g.output)
    table["output"] = rel
    sources = []
    for raw, data in sorted(g.sources.items()):
        src = safe_relpath(raw) or "source"
        files[f"grader/{name}/{src}"] = data
        sources.append(f"grader/{name}/{src}")
    if sources:
        table[SOURCE] = sources
    if g.rerun is not None:
        table["rerun"] = {**g.rerun, "files": sources}
    if g.checks is not None:
        checks = []
        for c in g.checks[:MAX_CHECKS]:
            entry = {"key": fix_text(c.key) or "check", "status": c.status}
            if c.name and c.name != c.key:
                entry["name"] = c.name
            if c.message:
                entry["message"] = cut(c.message, message_cap, f"full text in {rel}")[0]
            if c.location:
                entry["location"] = c.location
            checks.append(entry)
        if checks:
            table["check"] = checks
    return table


def run_files(run: RunSpec) -> Files:
    """Every file of one run folder, ``run.toml`` included, as relative path -> bytes."""
    for cap in (CHECK_MESSAGE, 1_000, 200):
        files: Files = {}
        doc = run_manifest(run, files, cap)
        data = dumps(doc)
        if len(data) <= MANIFEST_BUDGET:
            files["run.toml"] = data
            return files
    raise ImportFailed(f"run {run.id}: its manifest would exceed {MANIFEST_BUDGET:,} bytes")


def run_manifest(run: RunSpec, files: Files, message_cap: int) -> dict[str, Any]:
    """The ``run.toml`` document; writes brief, attempts, graders and transcript into ``files``."""
    table: dict[str, Any] = {
        "task": fix_text(run.task) or "task",
        "model": fix_text(run.model) or "unknown",
        "access": run.access,
        "outcome": run.outcome,
        "expected_dir": run.expected_dir,
    }
    metadata = dict(run.metadata)
    brief = run.brief
    if not brief.strip():
        brief = f"_No brief was recorded in {run.source}: the source holds no task text for this run._\n"
        metadata["brief_missing"] = True
    files["brief.md"] = encode(brief)
    table["brief"] = "brief.md"
    attempts = []
    for number, attempt in enumerate(run.attempts or [AttemptSpec()], start=1):
        notes: list[str] = []
        stored = attempt_files(attempt, notes)
        for path, data in stored.items():
            files[f"attempts/{number}/{path}"] = data
        entry: dict[str, Any] = {"files": list(stored)}
        note = "; ".join([attempt.note, *notes] if attempt.note else notes)
        if note:
            entry["note"] = note
        attempts.append(entry)
    names = UniqueIds()
    graders = []
    for g in run.graders:
        graded = g.attempt if g.attempt is not None else len(attempts)
        graders.append(grader_table(g, names.claim(grader_name(g.name)), graded, files, message_cap))
    if run.turns:
        transcript, full = transcript_bytes(run.turns, len(attempts))
        files["transcript.toml"] = transcript
        table["transcript"] = "transcript.toml"
        if full is not None:
            files["transcript.full.json"] = full
            metadata["transcript_full"] = "transcript.full.json (long turns are cut in transcript.toml)"
    spilled = spill_metadata(metadata, files)
    if spilled:
        table["metadata"] = spilled
    doc: dict[str, Any] = {"format": 1, "run": table, "attempt": attempts}
    if graders:
        doc["grader"] = graders
    return doc


def turn_table(turn: TurnSpec, cap: int, attempts: int) -> tuple[dict[str, Any], bool]:
    """One ``[[turn]]`` table with text and tool output cut to ``cap``; (table, anything cut)."""
    role = turn.role if turn.role in ROLES else "harness"
    text, was_cut = cut(fix_text(turn.text), cap, "full text in transcript.full.json")
    table: dict[str, Any] = {"role": role, "text": text}
    if turn.attempt is not None and 1 <= turn.attempt <= attempts:
        table["attempt"] = turn.attempt
    if turn.nudge:
        table["nudge"] = True
    calls = []
    for call in turn.tool_calls:
        args, c1 = cut(fix_text(call.arguments), cap, "full text in transcript.full.json")
        output, c2 = cut(fix_text(call.output), cap, "full text in transcript.full.json")
        entry = {"name": fix_text(call.name) or "tool", "arguments": args}
        if output:
            entry["output"] = output
        calls.append(entry)
        was_cut = was_cut or c1 or c2
    if calls:
        table["tool_call"] = calls
    return table, was_cut


def cut_turns(turns: list[TurnSpec], keep: int) -> list[TurnSpec]:
    """The first ``keep`` turns and a harness turn saying how many more were not imported."""
    more = len(turns) - keep
    note = TurnSpec(
        "harness",
        f"[transcript cut: {more:,} of {len(turns):,} turns were not imported: a run's transcript.toml holds at most "
        f"{MANIFEST_BUDGET:,} bytes. The source holds them all.]",
    )
    return [*turns[:keep], note]


def fitting(turns: list[TurnSpec], attempts: int, cap: int) -> tuple[list[TurnSpec], bytes, list[tuple[dict[str, Any], bool]]]:
    """As many turns as fit the manifest budget with texts cut to ``cap`` (binary search on the count)."""
    low, high = 0, min(len(turns), MANIFEST_BUDGET // 40)
    best: tuple[list[TurnSpec], bytes, list[tuple[dict[str, Any], bool]]] | None = None
    while low <= high:
        keep = (low + high) // 2
        kept = cut_turns(turns, keep)
        tables = [turn_table(t, cap, attempts) for t in kept]
        data = dumps({"format": 1, "turn": [t for t, _ in tables]})
        if len(data) <= MANIFEST_BUDGET:
            best = (kept, data, tables)
            low = keep + 1
        else:
            high = keep - 1
    if best is None:
        raise ImportFailed(f"the transcript of {len(turns)} turns is too large to store")
    return best


def transcript_bytes(turns: list[TurnSpec], attempts: int) -> tuple[bytes, bytes | None]:
    """``transcript.toml`` under the manifest budget, and the uncut turns as JSON when texts were cut.

    Long texts are cut first (to each of TURN_TEXT_CAPS in turn); a transcript that does not
    fit even then keeps as many turns as fit and ends with a harness turn saying how many were
    not imported. ``transcript.full.json`` holds the kept turns uncut, when it is under
    FULL_CAP.
    """
    if len(turns) > MAX_TURNS:
        turns = cut_turns(turns, MAX_TURNS)
    for cap in TURN_TEXT_CAPS:
        tables = [turn_table(t, cap, attempts) for t in turns]
        data = dumps({"format": 1, "turn": [t for t, _ in tables]})
        if len(data) <= MANIFEST_BUDGET:
            break
    else:
        turns, data, tables = fitting(turns, attempts, TURN_TEXT_CAPS[-1])
    if not any(c for _, c in tables):
        return data, None
    full = [
        {
            "role": t.role,
            "text": t.text,
            "attempt": t.attempt,
            "tool_calls": [{"name": c.name, "arguments": c.arguments, "output": c.output} for c in t.tool_calls],
        }
        for t in turns
    ]
    text = encode(json_text(full, indent=1) + "\n")
    return data, (text if len(text) <= FULL_CAP else None)
