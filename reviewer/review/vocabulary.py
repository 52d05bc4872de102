"""Growing the folder's tag vocabulary from the review (the tag picker's "new tag").

The tag is saved at once, the way ``reviewer label --new-tag`` saves it (:func:`reviewer.store.labels.tags.add_tag`:
``tags.toml`` at the top of the folder, or the per-user labels folder of a folder reviewer does not
write into), and the session's vocabulary follows. Tagging the failure with it is a separate
decision, saved when the picker is closed with enter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reviewer.model.records import record
from reviewer.model.sanitize import one_line
from reviewer.store.labels.tags import TAG_CAP

__all__ = ["TAG_CAP", "Added", "add_to_vocabulary"]

if TYPE_CHECKING:
    from reviewer.review.session import ReviewSession


@record
class Added:
    """What adding a tag did.

    Attributes:
        tag: the tag as stored ("" when refused).
        vocabulary: the folder's vocabulary now.
        message: what to tell the reviewer (where it was saved, that it was there, or why not).
        ok: the tag is in the vocabulary now.
    """

    tag: str
    vocabulary: tuple[str, ...]
    message: str
    ok: bool


def add_to_vocabulary(session: ReviewSession, tag: str) -> Added:
    """Add ``tag`` to the folder's vocabulary and to the session's; never raises."""
    from reviewer.store.labels.tags import TAGS_FILE, BadTag, add_tag, clean_tag, vocabulary_folder

    try:
        cleaned = clean_tag(tag)
    except BadTag as exc:
        return Added("", session.vocabulary, f"Not added: {exc}.", False)
    if cleaned in session.vocabulary:
        return Added(cleaned, session.vocabulary, f"{one_line(cleaned, 60)} is in the vocabulary already.", True)
    root = session.store.root
    try:
        session.vocabulary = add_tag(root, cleaned)
    except (BadTag, OSError) as exc:
        return Added("", session.vocabulary, f"Not added: {one_line(str(exc), 300)}", False)
    where = vocabulary_folder(root) / TAGS_FILE
    return Added(cleaned, session.vocabulary, f"Added {one_line(cleaned, 60)} to the vocabulary ({where}).", True)
