"""The runs the session lists: the folder as loaded and counted, the list's filter, search and
folded groups, and the rows drawn from them.

:class:`~reviewer.review.runlist.folder.Folder` holds what loaded and what did not and the failures
counted so far; :class:`~reviewer.review.runlist.listing.RunList` decides the order ``j``/``k``
walk and what the status line counts; :func:`~reviewer.review.runlist.rows.build_rows` turns both
into rows (pure, so a worker may build a big list).
"""
