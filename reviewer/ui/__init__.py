"""The Textual app: the review screen, its panes and widgets.

Holds no file or git logic: everything recorded is read through a
:class:`reviewer.store.sessions.store.SessionStore` handed to :class:`reviewer.ui.app.ReviewApp`,
inside thread workers.
"""

from __future__ import annotations
