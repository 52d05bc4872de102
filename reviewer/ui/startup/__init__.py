"""How the app starts fast, kept out of its control flow: the folder's scan begun before the UI
is imported (:mod:`~reviewer.ui.startup.early_scan`), and what the first screen opens with
(:mod:`~reviewer.ui.startup.first_screen`). Nothing here imports Textual: the launcher uses it
before the UI is imported."""

from __future__ import annotations
