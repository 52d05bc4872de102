def percent_change(old, new)
    if not old:
        return None
    return round((new - old) * 100 / old, 2)
