def percent_change(old, new):
    """How much new differs from old, in percent of old.

    [TODO] the brief's special case for old == 0.
    """
    return round((new - old) / old * 100, 2)
