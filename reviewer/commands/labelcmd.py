"""``reviewer label``: one decision from the command line, exactly as the app saves it.

It says who labelled and where the name came from, and the file the label was saved in (the
run's file of the reviewer; in the per-user folder for the bundled corpus or a read-only folder),
or, when it was not saved, why and that nothing was written. When the decision replaced two or
more labels of the failure (a duplicate), or moved the session's format-1 file into the new
layout first, it says so; problems of the labels files it read are named on stderr. Tags must come from the folder's
vocabulary; ``--new-tag`` adds one first. Re-labelling keeps or replaces the note explicitly:
``--note TEXT`` replaces it (``--note ''`` removes it), ``--keep-note`` keeps it; with neither,
an earlier note is kept, because a note is work, and the command says so (and when the verdict
changed, that the note was written for the earlier one).
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from reviewer.model.label import Label, Verdict
from reviewer.model.sanitize import plain


def say(text: str, err: bool = False) -> None:
    """Print sanitised text to stdout (or stderr)."""
    print(plain(text), file=sys.stderr if err else sys.stdout)


def chosen_tags(root: Path, tags: list[str], new_tags: list[str]) -> tuple[tuple[str, ...] | None, str]:
    """The tags to apply (None: keep the earlier ones), or None and why they are refused.

    ``new_tags`` are added to the vocabulary first; a ``tags`` entry outside it is refused.
    """
    from reviewer.store.labels.tags import BadTag, add_tag, clean_tag, load_vocabulary

    if not tags and not new_tags:
        return None, ""
    vocabulary, warning = load_vocabulary(root)
    if warning:
        say(f"reviewer label: {warning}", err=True)
    for tag in tags:
        if tag.strip() not in vocabulary:
            near = difflib.get_close_matches(tag, list(vocabulary), n=1, cutoff=0.6)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            return None, (f"tag {tag!r} is not in the folder's vocabulary{hint} (known: {', '.join(vocabulary)}); "
                          f"--new-tag {tag!r} adds it to tags.toml")
    try:
        for tag in new_tags:
            vocabulary = add_tag(root, tag)
        cleaned = [clean_tag(t) for t in [*tags, *new_tags]]
    except (BadTag, OSError) as exc:
        return None, f"tag not added: {exc}"
    return tuple(dict.fromkeys(cleaned)), ""


def label_failure(args: argparse.Namespace) -> int:
    """reviewer label: exit 0 saved; 1 no such failure, a refused tag, or not saved."""
    from reviewer.commands.common import full_failure_id, open_labeller, settings_and_identity
    from reviewer.store.labels import SaveFailed

    _, identity = settings_and_identity(args.reviewer)
    labeller = open_labeller(args.path, identity.name, args.labels)
    fid = full_failure_id(labeller, args.failure, "label")
    if fid is None:
        return 1
    run, failure = labeller.find(fid)
    tags, refused = chosen_tags(labeller.sessions.root, args.tag or [], args.new_tag or [])
    if refused:
        say(f"reviewer label: {refused}; nothing saved", err=True)
        return 1
    verdict = Verdict(args.verdict)
    old = labeller.entry(run.session, run.id, failure.check_id)
    replaced = labeller.labels.entries(run.session, run.id, failure.check_id)
    told = kept_message(old, verdict, args.note, args.keep_note, tags)
    for problem in labeller.labels.problems([run.session]):
        say(f"reviewer label: {problem.path}: {problem.reason}", err=True)
    path, reason = labeller.labels.where(run.session, run.id)
    try:
        lab = labeller.decide(fid, verdict, args.note, tags)
    except SaveFailed as exc:
        for moved in labeller.labels.take_moved():
            say(moved)
        say(f"reviewer label: not saved: {exc}; the decision is not on disk", err=True)
        return 1
    for moved in labeller.labels.take_moved():
        say(moved)
    say(f"{lab.failure_id}: {lab.verdict.value} by {identity.describe()}")
    say(f"saved in {path}" + (f" ({reason})" if reason else ""))
    if len(replaced) > 1:
        say(f"this decision replaces the {len(replaced)} labels the failure had: "
            + ", ".join(f"{x.verdict.value} ({x.labelled_at})" for x in replaced))
    for line in told:
        say(line)
    return 0


def kept_message(old: object, verdict: Verdict, note: str | None, keep_note: bool,
                 tags: tuple[str, ...] | None) -> list[str]:
    """What the command tells about an earlier note and tags it keeps."""
    from reviewer.model.label import Note

    if not isinstance(old, (Label, Note)):
        return []
    out = []
    earlier = f" (written when the verdict was {old.verdict.value})" \
        if isinstance(old, Label) and old.verdict is not verdict else ""
    if note is None and old.note and not keep_note:
        short = old.note if len(old.note) <= 80 else old.note[:79] + "…"
        out.append(f"kept the earlier note{earlier}: {short!r} "
                   "(--note TEXT replaces it, --note '' removes it, --keep-note keeps it without this message)")
    if tags is None and old.tags:
        out.append(f"kept the earlier tags: {', '.join(old.tags)} (--tag replaces them)")
    return out
