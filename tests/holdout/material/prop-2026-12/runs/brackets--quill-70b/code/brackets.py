#!/usr/bin/env python3
"""Balanced brackets via a recursive-descent parser.

Grammar:  S -> ( '(' S ')' | '[' S ']' | '{' S '}' )*
"""
import sys

CLOSE = {"(": ")", "[": "]", "{": "}"}


class Unbalanced(Exception):
    pass


def parse_seq(s, i, level):
    """Parse a sequence starting at i; return (next index, max depth)."""
    best = level
    while i < len(s) and s[i] in CLOSE:
        opener = s[i]
        i, inner = parse_seq(s, i + 1, level + 1)
        if i >= len(s) or s[i] != CLOSE[opener]:
            raise Unbalanced()
        best = max(best, inner)
        i += 1
    return i, best


def main():
    s = sys.stdin.readline().strip()
    try:
        end, depth = parse_seq(s, 0, 0)
        ok = end == len(s)
    except Unbalanced:
        ok, depth = False, 0
    print("balanced:", "yes" if ok else "no")
    print("depth:", depth)


main()
