"""Roman numerals, lower case, one symbol at a time."""

SYMBOLS = [(1000, "m"), (500, "d"), (100, "c"), (50, "l"), (10, "x"), (5, "v"), (1, "i")]


def to_roman(n):
    text = ""
    for value, symbol in SYMBOLS:
        count, n = divmod(n, value)
        text += symbol * count
    return text
