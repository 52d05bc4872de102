"""The findings of the red-team passes, one module each: 1-10 the pass with a hostile sessions
folder; 11-17 the 'promises under attack' pass (its findings 1-7: the re-score sandbox's 11-15,
``reviewer serve``'s 16-17); 20 the bounded fork and thread bombs that pass's issue asked for;
21-22 ATIF trajectories (``reviewer import atif``): hostile text in every field, and step bombs; 23 the
hostile judges of the judges issue ('5/5': a judge's answer is as untrusted as a model's); 24 a bomb
in a harness log read in place, one case per reader.

Each module ``fNN_<slug>.py`` here defines::

    FINDING: int            # the finding's number (above) in the issue that listed them
    TITLE: str              # one line: what the attacker's folder did
    def check(work: Path) -> Outcome

``check`` builds its own fixture inside ``work`` (a sessions folder, a real git repository, a
small tmpfs where mounting is allowed), first shows the attack is live where that can be shown
without reviewer's fix (plain git runs the canary, the link resolves outside the folder, a
plain write on a full disk fails...), then runs reviewer's real code path (the installed
command line, or the store/app function a user reaches) and says whether it was contained.
``tests/reliability/attacker_folder.py`` runs them all; ``test_attacker_folder.py`` runs each in CI.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any


@dataclass
class Outcome:
    """What one finding's check saw.

    Attributes:
        contained: reviewer resisted the attack (nothing ran, nothing escaped, the failure stayed a failure...).
        live: the attack was shown to work without reviewer's fix (True), could not be shown
            here (None, e.g. no permission to mount), or did not work (False: the check proves nothing).
        detail: what happened, for a person reading the report.
        figures: numbers worth printing (peak RSS, seconds to quit, files written outside...).
    """

    contained: bool
    live: bool | None
    detail: str = ""
    figures: dict[str, Any] = field(default_factory=dict)


def findings() -> list[ModuleType]:
    """Every finding module in this package, by finding number then name."""
    found = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("f") and info.name[1:3].isdigit():
            found.append(importlib.import_module(f"{__name__}.{info.name}"))
    return sorted(found, key=lambda m: (m.FINDING, m.__name__))
