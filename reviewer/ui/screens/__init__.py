"""Screens: the review screen (:mod:`reviewer.ui.screens.review`) and the views shown over it
(help, load errors, label history, clusters, statistics, across models, the task matrix). Dialogs
that ask for an answer are in :mod:`reviewer.ui.dialogs`."""

from __future__ import annotations
