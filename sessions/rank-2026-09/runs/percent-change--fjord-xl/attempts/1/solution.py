def pct_change(old, new):
    """Percent change from old to new (None when old is 0)."""
    if old == 0:
        return None
    return round((new - old) / old * 100, 2)
