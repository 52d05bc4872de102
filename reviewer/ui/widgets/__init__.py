"""Widgets of the review screen: the run navigator, the shared text view and the four panes."""

from __future__ import annotations
