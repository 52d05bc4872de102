"""reviewer: triage failures of code-generating models as specification or capability."""

from __future__ import annotations

__version__ = "0.1.0"
