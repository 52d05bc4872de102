from typing import Optional


def percent_change(old: float, new: float) -> Optional[float]:
    """Return (new - old) / old as a percentage, or None when old is zero."""
    if old == 0:
        return None
    return (new - old) / old * 100.0
