"""The review screen, where the reviewer works: the screen itself (run list, panes, keys), the
dialogs it opens, and its re-scores."""

from __future__ import annotations

from reviewer.ui.screens.review.screen import ReviewScreen

__all__ = ["ReviewScreen"]
