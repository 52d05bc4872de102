def percent_change(old, new):
    if old == 0:
        return None
    drop = old - new
    return round(drop / old * 100, 2)
