"""The review session: what one reviewer is doing, without a screen (no Textual here).

:class:`reviewer.review.session.ReviewSession` owns the runs, the selection, the walk, the
decisions, the other reviewers and git; the app (``reviewer.ui``) and the headless commands
both call it, and every action returns a value (an ``Outcome``) instead of drawing.

- :mod:`~reviewer.review.runlist`: the folder as loaded and counted, the listed runs and their rows.
- :mod:`~reviewer.review.moving`: the walks, where the review opens, one path for a move.
- :mod:`~reviewer.review.decisions`, :mod:`~reviewer.review.team`, :mod:`~reviewer.review.reviewers`,
  :mod:`~reviewer.review.gitstate`: this reviewer's labels, the others', and git.
- :mod:`~reviewer.review.rescoring`, :mod:`~reviewer.review.analyses`, :mod:`~reviewer.review.across_view`:
  re-scores, clusters and stats, the matrix across runs.
- :mod:`~reviewer.review.selection`, :mod:`~reviewer.review.view`, :mod:`~reviewer.review.status`,
  :mod:`~reviewer.review.outcome`: what is selected, what a pane shows, the status line, results.
"""
