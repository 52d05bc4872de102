def percent_change(old, new):
    """Percentage change from old to new, rounded to two decimals; None when old is 0."""
    if old == 0:
        return None
    return round((new - old) / old * 100, 2)
