"""The review session: what one reviewer is doing, without a screen (no Textual here).

:class:`reviewer.review.session.ReviewSession` owns the runs, the selection, the walk, the
decisions, the other reviewers and git; the app (``reviewer.ui``) and the headless commands
both call it.
"""
