"""Repairs proposed from the evidence of one failure.

PLACEHOLDER, to be replaced by the proposals of the evidence work (richer near misses with
their keys, hidden crashes at interpreter limits). It exists so that ``reviewer rescore
--all-proposed`` is written against the contract ``propose(evidence) -> tuple[Repair, ...]``;
it proposes only what the current near misses name: a vocabulary (``vocabulary: true for yes``
gives ``map-value::true:yes``) and a renamed key (``key renamed: trail for path`` gives
``rename-key:trail:path``). It reads nothing and runs nothing.
"""

from __future__ import annotations

import re

from reviewer.analysis.evidence import Evidence
from reviewer.model.repair import BadRepair, Repair, RepairKind, check_repair

VOCABULARY = re.compile(r"^vocabulary: (?P<old>\S+) for (?P<new>\S+)$")
RENAMED = re.compile(r"^key renamed: (?P<old>\S+) for (?P<new>\S+)$")


def propose(evidence: Evidence) -> tuple[Repair, ...]:
    """The repairs the evidence's near misses name, in order, without repeats."""
    found: list[Repair] = []
    for nm in evidence.near_misses:
        for note in nm.notations:
            m = VOCABULARY.match(note)
            if m:
                candidate = Repair(RepairKind.MAP_VALUE, ("", m.group("old"), m.group("new")), nm.describe())
            else:
                m = RENAMED.match(note)
                if not m:
                    continue
                candidate = Repair(RepairKind.RENAME_KEY, (m.group("old"), m.group("new")), nm.describe())
            try:
                repair = check_repair(candidate)
            except BadRepair:
                continue
            if all((r.kind, r.args) != (repair.kind, repair.args) for r in found):
                found.append(repair)
    return tuple(found)
