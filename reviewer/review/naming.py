"""Whether to ask who is labelling, and how: in the terminal when the name was only guessed and
others have labelled here; in a browser tab (``reviewer serve``) always, unless the server was
started with ``--reviewer``, because the name the server's process would guess (its login, its
git user, its config.toml) is the server's, not the person's in the browser."""

from __future__ import annotations

from reviewer.model.records import record
from reviewer.model.sanitize import plain
from reviewer.store.settings.identity import Identity, NameQuestion, Source, tab_name


@record
class NamePrompt:
    """The question to put before the first label.

    Attributes:
        prompt: the question, one line.
        suggestion: the name to prefill ("" in a browser tab: no guess is the person's).
        required: no guess to fall back on: the question stays until a name is given.
        remember: save the answer in config.toml (the terminal); a tab's name is for that tab only.
    """

    prompt: str
    suggestion: str
    required: bool
    remember: bool

    def problem(self, name: str) -> str | None:
        """Why ``name`` cannot be used (None when it can)."""
        if not name.strip():
            return "type your name: your labels are saved under it" if self.required else None
        return tab_name(name)[1]


def name_prompt(identity: Identity, question: NameQuestion | None, served: bool) -> NamePrompt | None:
    """The question to ask, or None (the name is known)."""
    if served:
        if identity.source is Source.FLAG:
            return None
        others = question.others if question else ()
        seen = (f" Others have labelled here: {', '.join(plain(n) for n in others[:5])}"
                + (", …" if len(others) > 5 else "") + ".") if others else ""
        return NamePrompt("This review session runs in your browser: type your name. Your labels are saved "
                          f"under it (labels/NAME.toml in each session), for this tab only.{seen}", "", True, False)
    if question is None:
        return None
    return NamePrompt(question.prompt(), question.suggestion, False, True)
