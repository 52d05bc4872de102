"""Pure data: sessions, runs, attempts, checks, turns and labels. Imports neither textual nor git."""

from __future__ import annotations

from reviewer.model.check import (
    FAILING_STATUSES,
    Check,
    CheckStatus,
    check_id,
    dedupe_keys,
    failure_id,
    split_failure_id,
)
from reviewer.model.run import (
    Attempt,
    AttemptFile,
    Failure,
    GraderRecord,
    LoadError,
    Run,
    Session,
    ToolCall,
    Turn,
)

__all__ = [
    "Attempt",
    "AttemptFile",
    "Failure",
    "Check",
    "CheckStatus",
    "FAILING_STATUSES",
    "GraderRecord",
    "LoadError",
    "Run",
    "Session",
    "ToolCall",
    "Turn",
    "check_id",
    "dedupe_keys",
    "failure_id",
    "split_failure_id",
]
