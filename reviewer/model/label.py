"""Labels: a reviewer's decision about one failure."""

from __future__ import annotations

import enum
import hashlib
import re
import unicodedata

from reviewer.model.check import failure_id
from reviewer.model.records import record

LABELS_FORMAT = 1


class Verdict(str, enum.Enum):
    """What a reviewer decided about a failure."""

    SPECIFICATION = "specification"
    CAPABILITY = "capability"
    DEFERRED = "deferred"

    @property
    def decided(self) -> bool:
        """Specification or capability (deferred counts as undecided)."""
        return self is not Verdict.DEFERRED


DEFAULT_TAGS = (
    "unpublished-key",
    "vocabulary-mismatch",
    "separator",
    "field-order",
    "type-mismatch",
    "interpreter-limit",
    "wrong-folder",
    "harness-fault",
    "unstated-import",
)


class OnFailure:
    """What a label and a note share: the failure they are about, by its parts."""

    __slots__ = ()
    session: str
    run: str
    check: str

    @property
    def key(self) -> tuple[str, str, str]:
        """(session, run, check)."""
        return (self.session, self.run, self.check)

    @property
    def failure_id(self) -> str:
        """The global failure id."""
        return failure_id(self.session, self.run, self.check)


@record
class Label(OnFailure):
    """One reviewer's decision on one failure.

    Attributes:
        session, run, check: which failure (check is ``<grader>:<key>``).
        verdict: specification, capability or deferred.
        reviewer: who decided.
        labelled_at: RFC 3339 UTC time of the decision.
        evidence: hash of what was judged (brief, check, code, output).
        tags: defect classes from the folder's vocabulary.
        note: free text.
        adjudicator: on an adjudicated verdict (``reviewer = "final"``), who adjudicated; "" on
            a reviewer's own label.
        settled: on an adjudicated verdict, the reviewers' decided verdicts it settled, as
            (reviewer, verdict) pairs sorted by reviewer.
    """

    session: str
    run: str
    check: str
    verdict: Verdict
    reviewer: str
    labelled_at: str
    evidence: str = ""
    tags: tuple[str, ...] = ()
    note: str = ""
    adjudicator: str = ""
    settled: tuple[tuple[str, Verdict], ...] = ()


@record
class Note(OnFailure):
    """A note (and tags) on a failure the reviewer has not labelled: no verdict, counts as unlabelled.

    Stored as a ``[[note]]`` table of the reviewer's labels file. When the failure is labelled,
    the label takes the note and tags over and the note entry goes.

    Attributes:
        session, run, check: which failure.
        reviewer: who wrote it.
        noted_at: RFC 3339 UTC time it was written.
        note: free text.
        tags: defect classes from the folder's vocabulary.
        evidence: the evidence hash when it was written.
    """

    session: str
    run: str
    check: str
    reviewer: str
    noted_at: str
    note: str = ""
    tags: tuple[str, ...] = ()
    evidence: str = ""

    @property
    def empty(self) -> bool:
        """Neither a note nor a tag: saving it removes the entry."""
        return not self.note.strip() and not self.tags


SAFE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")


def reviewer_file_stem(name: str) -> str:
    """A file name stem for a reviewer, safe on every filesystem and collision-free.

    A plain lower-case name (``alice``, ``bob_2``) is used as is. Any other name (capitals,
    spaces, slashes, ``..``, Unicode) becomes an ASCII slug plus ``+`` and a hash of the exact
    name; ``+`` never occurs in a plain name, so the two kinds cannot collide.
    """
    if SAFE_NAME.match(name):
        return name
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:40] or "reviewer"
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{slug}+{digest}"
