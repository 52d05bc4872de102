"""Held-out property oracle for anagrams.py: words on stdin, `key: value` lines on stdout."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(text):
    proc = subprocess.run([sys.executable, "anagrams.py"], cwd=HERE, input=text,
                          capture_output=True, text=True, timeout=30)
    fields = {}
    for line in proc.stdout.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip()] = value.strip()
    return fields


def words_of(value):
    if not value:
        return []
    return [word.strip() for word in value.split(",")]


def test_group_count():
    got = run("stop pots tops opts\nrats star\ncat dog\n").get("groups")
    assert got == "2", "groups"


def test_largest_group():
    value = run("silent apple listen google enlist inlets banana\n").get("largest")
    got = words_of(value)
    assert got == ["enlist", "inlets", "listen", "silent"], "largest group"


def test_tie_break():
    value = run("stab bats tabs\nnoel lone leno\nbrag grab garb\n").get("largest")
    got = words_of(value)
    assert got == ["bats", "stab", "tabs"], "largest group among equally large ones"


def test_case_insensitive():
    fields = run("Listen TINSEL silent Evil vile\n")
    groups, largest = fields.get("groups"), words_of(fields.get("largest"))
    assert groups == "2", "groups when letter case differs"
    assert largest == ["Listen", "silent", "TINSEL"], "largest group when letter case differs"


def test_singles_count():
    got = run("alert alter later apple paper pear reap\n").get("singles")
    assert got == "2", "words in no group"
