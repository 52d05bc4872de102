"""Moving through the failures: the walks ``j``/``k`` follow, where the review opens, and the one
path that carries out a move.

A walk (:mod:`~reviewer.review.moving.walks`) answers where a step goes; the session's current
walk lives in :mod:`~reviewer.review.moving.walking`; every key, click, label or change on disk
becomes a :class:`~reviewer.review.moving.moves.MoveRequest` carried out in one place
(:mod:`~reviewer.review.moving.moves`); :mod:`~reviewer.review.moving.opening` picks the first
failure shown.
"""
