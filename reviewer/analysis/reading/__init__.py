"""Linear readers of recorded text: what a failure text, a grader's source, a brief and the
program's code and output say, each read without running anything.

Every reader is bounded in time and memory (linear patterns, caps per line and per file) and
polls the cooperative cancel check of :mod:`.scan`. The evidence (:mod:`reviewer.analysis.evidence`)
weighs what they read.

- :mod:`.scan`: tokens, assertion shapes, :class:`~.scan.Cancelled` and :func:`~.scan.poll`.
- :mod:`.pairs`: expected-versus-actual pairs of any grader's failure text.
- :mod:`.notation`: a value reduced to where notation no longer matters.
- :mod:`.nearmiss`: expected and actual values equal but for notation.
- :mod:`.demands`: what a failing check demanded, from its failure text.
- :mod:`.source`, :mod:`.golang`, :mod:`.found`, :mod:`.tables`: demands in a grader's own source.
- :mod:`.brief`: does the brief state it (verbatim, near, unstated), and where.
- :mod:`.output`: the program's output and the crash that stopped it, as the failure text shows them.
- :mod:`.code`: what the program's code prints, writes and defines.
"""

from __future__ import annotations

from reviewer.analysis.reading.brief import BriefIndex, Stated, Where, brief_index
from reviewer.analysis.reading.code import CodeFile
from reviewer.analysis.reading.demands import Context, Demand, DemandKind
from reviewer.analysis.reading.nearmiss import NearMiss
from reviewer.analysis.reading.output import Crash, Printed, ProgramOutput, find_crash, program_output
from reviewer.analysis.reading.pairs import Pair, message_lines
from reviewer.analysis.reading.scan import Cancel, Cancelled, poll

__all__ = [
    "BriefIndex", "Cancel", "Cancelled", "CodeFile", "Context", "Crash", "Demand", "DemandKind", "NearMiss", "Pair",
    "Printed", "ProgramOutput", "Stated", "Where", "brief_index", "find_crash", "message_lines", "poll", "program_output",
]
