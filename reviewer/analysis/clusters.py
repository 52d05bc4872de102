"""Failure clusters across runs: the same check of a task, or the same normalised message.

"This check fails for 6 of 7 models" is strong evidence about the check. Two kinds of cluster:

- ``check``: (task, check id), e.g. ``oracle:test_x.py::test_connected`` across every model;
- ``message``: (task, message signature): the failure's key line (pytest ``E`` line, Go test
  message, compiler or exception line) with quoted values, numbers, hex, paths and timings
  replaced by placeholders, so ``KeyError: 'path'`` and ``KeyError: 'trail'`` meet.

:func:`plan_cluster_label` tells the UI, before it asks for confirmation, how many of the
reviewer's labels a "label the whole cluster" would change; :func:`apply_cluster_label` makes
it one undoable change (``Labeller.undo()`` restores every label).
"""

from __future__ import annotations

import re
from collections import Counter

from reviewer.analysis.reading.pairs import message_lines
from reviewer.analysis.stats.bars import bar
from reviewer.analysis.stats.facts import Facts, FailureFact
from reviewer.model.label import Verdict
from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.model.wording import count, plural
from reviewer.store.labels import Labeller, UnknownFailure

PYTEST_E = re.compile(r"^E\s+(?P<v>\S.*)$")
GO_MESSAGE = re.compile(r"^\s*[\w.-]+_test\.go:\d+: (?P<v>.+)$")
KEYWORDS = re.compile(r"error|panic|undefined|cannot|no such|not found|expected|want|got|missing|fail|refused|wrong", re.IGNORECASE)
NOISE_LINE = re.compile(r"^(?:=== RUN|--- (?:FAIL|PASS)|FAIL\b|ok\b|goroutine \d+|#\s)")
QUOTED = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`[^`]*`")
BRACKETED = re.compile(r"\[[^\[\]]{0,300}\]|\{[^{}]{0,300}\}")
HEX = re.compile(r"\b0x[0-9a-fA-F]+\b")
PATH = re.compile(r"(?:[A-Za-z]:)?(?:\.{0,2}/)?(?:[\w.-]+/)+[\w.-]+(?::\d+)*|\b[\w-]+\.(?:py|go|rs|js|ts|java|txt|json|toml)(?::\d+)*\b")
TIMING = re.compile(r"\(?\b\d+(?:\.\d+)?\s?(?:ms|s|µs|us|ns)\b\)?")
NUMBER = re.compile(r"[-+]?\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\b")
SPACE = re.compile(r"\s+")
MAX_SIGNATURE = 160
NORMALISED = 600


def normalise(line: str) -> str:
    """A message line with its values replaced: quoted -> ``<s>``, lists and maps -> ``<v>``,
    then paths, hex, timings and numbers. Only the first :data:`NORMALISED` characters are
    read: the patterns here backtrack on crafted lines, so their input stays short."""
    text = QUOTED.sub("<s>", line[:NORMALISED])
    text = BRACKETED.sub("<v>", text)
    text = HEX.sub("<hex>", text)
    text = PATH.sub("<path>", text)
    text = TIMING.sub("<t>", text)
    text = NUMBER.sub("<n>", text)
    return SPACE.sub(" ", text).strip()[:MAX_SIGNATURE]


def key_line(message: str) -> str:
    """The line that says what went wrong: pytest ``E`` line, Go test message, an error line."""
    lines = [ln for ln in message_lines(message[:200_000]) if ln.strip()]
    for pattern in (PYTEST_E, GO_MESSAGE):
        for ln in lines:
            m = pattern.match(ln)
            if m and not m.group("v").startswith(("+", "-", "?")):
                return m.group("v")
    for ln in lines:
        if KEYWORDS.search(ln) and not NOISE_LINE.match(ln.strip()):
            return ln.strip()
    return lines[0].strip() if lines else ""


def message_signature(message: str) -> str:
    """The normalised key line of a failure text ("" for an empty text)."""
    return normalise(key_line(message))


@record
class Cluster:
    """Failures of one task that share a check, or a normalised message.

    Attributes:
        kind: ``check`` or ``message``.
        task: the task.
        key: the check id, or the message signature.
        failure_ids: the failures, in folder order.
        models: the models with a failure in the cluster.
        models_total: the models that ran the task.
        specification, capability, unlabelled: final verdicts inside the cluster.
    """

    kind: str
    task: str
    key: str
    failure_ids: tuple[str, ...]
    models: tuple[str, ...]
    models_total: int
    specification: int = 0
    capability: int = 0
    unlabelled: int = 0

    @property
    def size(self) -> int:
        """How many failures."""
        return len(self.failure_ids)

    @property
    def ident(self) -> str:
        """A stable id for the UI: ``check|task|key`` or ``message|task|key``."""
        return f"{self.kind}|{self.task}|{self.key}"

    def summary(self) -> str:
        """``fails for 6 of 7 models`` (with the failure count when it differs)."""
        text = f"fails for {len(self.models)} of {count(self.models_total, 'model')}"
        if self.size != len(self.models):
            text += f" ({count(self.size, 'failure')})"
        return text


def build(kind: str, task: str, key: str, members: list[FailureFact], facts: Facts) -> Cluster:
    """A cluster from its failures."""
    models = tuple(sorted({f.model for f in members}))
    verdicts = Counter(f.verdict for f in members)
    return Cluster(
        kind, task, key, tuple(f.id for f in members), models, len(facts.task_models.get(task, models)),
        verdicts[Verdict.SPECIFICATION], verdicts[Verdict.CAPABILITY], verdicts[None],
    )


def find_clusters(facts: Facts, min_size: int = 2) -> tuple[Cluster, ...]:
    """Clusters of at least ``min_size`` failures, largest model spread first."""
    by_check: dict[tuple[str, str], list[FailureFact]] = {}
    by_message: dict[tuple[str, str], list[FailureFact]] = {}
    for f in facts.failures:
        by_check.setdefault((f.task, f.key[2]), []).append(f)
        sig = message_signature(f.message)
        if sig:
            by_message.setdefault((f.task, sig), []).append(f)
    out = [build("check", t, k, fs, facts) for (t, k), fs in by_check.items() if len(fs) >= min_size]
    check_sets = {frozenset(c.failure_ids) for c in out}
    for (t, k), fs in by_message.items():
        if len(fs) >= min_size and frozenset(f.id for f in fs) not in check_sets:
            out.append(build("message", t, k, fs, facts))
    out.sort(key=lambda c: (-len(c.models) / max(c.models_total, 1), -c.size, c.task, c.kind, c.key))
    return tuple(out)


def clusters_of(clusters: tuple[Cluster, ...], failure_id: str) -> tuple[Cluster, ...]:
    """The clusters a failure belongs to."""
    return tuple(c for c in clusters if failure_id in c.failure_ids)


@record
class ClusterPlan:
    """What labelling a set of failures with one verdict would change, for the confirmation.

    Attributes:
        verdict: the verdict to give.
        to_change: failure ids whose label would change (new, different, deferred or stale).
        unchanged: failures already labelled so by this reviewer.
        new: of ``to_change``, failures this reviewer had not labelled.
        overridden: of ``to_change``, counts of the verdicts they had (``stale`` for stale ones).
        missing: ids that name no current failure (left alone).
    """

    verdict: Verdict
    to_change: tuple[str, ...]
    unchanged: int
    new: int
    overridden: dict[str, int]
    missing: tuple[str, ...] = ()

    def message(self) -> str:
        """The confirmation question, saying how many failures change."""
        n = len(self.to_change)
        if not n:
            return f"{'The' if self.unchanged == 1 else 'All'} {count(self.unchanged, 'failure')} {plural('is', self.unchanged)} already labelled {self.verdict.value}; nothing changes."
        parts = [f"Label {count(n, 'failure')} {self.verdict.value}?"]
        detail = []
        if self.new:
            detail.append(f"{self.new} unlabelled")
        detail += [f"{c} now {v}" for v, c in sorted(self.overridden.items())]
        if detail:
            parts.append("Changes: " + ", ".join(detail) + ".")
        if self.unchanged:
            parts.append(f"{self.unchanged} already {self.verdict.value} stay as they are.")
        parts.append("Undo restores them all.")
        return " ".join(parts)


def plan_cluster_label(labeller: Labeller, failure_ids: tuple[str, ...] | list[str], verdict: Verdict) -> ClusterPlan:
    """What giving ``verdict`` to every failure would change for the labeller's reviewer."""
    to_change, missing = [], []
    unchanged = new = 0
    overridden: Counter[str] = Counter()
    for fid in failure_ids:
        try:
            run, failure = labeller.find(fid)
        except UnknownFailure:
            missing.append(fid)
            continue
        state = labeller.state(run, failure)
        if state.label is not None and state.label.verdict is verdict and not state.stale:
            unchanged += 1
            continue
        to_change.append(fid)
        if state.label is None:
            new += 1
        else:
            overridden["stale" if state.stale else state.label.verdict.value] += 1
    return ClusterPlan(verdict, tuple(to_change), unchanged, new, dict(overridden), tuple(missing))


def apply_cluster_label(labeller: Labeller, plan: ClusterPlan) -> int:
    """Apply a plan as one undoable change; returns how many labels changed."""
    if not plan.to_change:
        return 0
    return labeller.decide_many(list(plan.to_change), plan.verdict)


def render_clusters(clusters: tuple[Cluster, ...], width: int = 100) -> str:
    """Clusters as plain text: spread bar, summary, key."""
    if not clusters:
        return "no clusters (no check or message fails more than once per task)\n"
    lines = []
    bw = 12
    for c in clusters:
        spread = len(c.models) / max(c.models_total, 1)
        head = f"{bar(spread, bw)} {plain(c.task)} · {c.kind} · {c.summary()}"
        labels = f"  labelled: {c.specification} specification, {c.capability} capability, {c.unlabelled} not yet"
        lines += [head[: width * 2], f"    {plain(c.key)[: max(20, width - 4)]}", labels]
    return "\n".join(lines) + "\n"
