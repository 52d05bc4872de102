"""Notation-only shim: takes the program's place, runs it unchanged, re-expresses its stdout.

Installed by run_repairs.py as the program file (the program moved beside it as
`_orig_<name>`); reads its repairs from `_shim_repairs.json` in the same folder.
The program gets the same argv, inherits stdin and stderr; the shim never reads the
input and computes nothing about the task. Repairs (reviewer's syntax; `\\s` is a
space, `\\:` a colon in ARGS):

  rename-key:OLD:NEW             a key printed as OLD is printed as NEW
  map-value:KEY:OLD:NEW          the word OLD in KEY's value becomes NEW (KEY empty: any key)
  separator:KEY:OLD:NEW          OLD between the items of KEY's value becomes NEW
  reserialise:KEY:space-list     KEY's list value ([a, b], a,b, a;b ...) printed as a b
  lift-limit:int-max-str-digits  PYTHONINTMAXSTRDIGITS=0 for the program
  lift-limit:recursion           the program run through runpy after sys.setrecursionlimit
  custom:reshape-pairs:KEY:A,B   (not a reviewer repair) JSON objects {A:..,B:..} under KEY
                                 printed as [A, B] pairs

Output is either one JSON object (keys are its top-level keys) or `key=value` /
`key: value` lines; every line the repairs do not touch is printed as it was.
"""
import ast
import json
import os
import re
import subprocess
import sys

RECURSION_RUNNER = ("import runpy, sys; sys.setrecursionlimit(1000000); "
                    "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')")


def split_args(text):
    parts, cur, i = [], "", 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            cur += {"s": " ", ":": ":"}.get(text[i + 1], "\\" + text[i + 1])
            i += 2
            continue
        if text[i] == ":":
            parts.append(cur)
            cur = ""
        else:
            cur += text[i]
        i += 1
    parts.append(cur)
    return parts


def parse_list(value):
    value = value.strip()
    if value.startswith("["):
        try:
            return [str(x) for x in ast.literal_eval(value)]
        except (ValueError, SyntaxError):
            value = value.strip("[]")
    return [tok for tok in re.split(r"[,;|\s]+", value) if tok]


JOINERS = {"space-list": " ", "comma-list": ",", "semicolon-list": ";", "pipe-list": "|"}


def apply_line(key, value, repairs):
    for kind, args in repairs:
        if kind == "rename-key" and key == args[0]:
            key = args[1]
        elif kind == "map-value" and args[0] in ("", key):
            value = re.sub(rf"(?<![\w]){re.escape(args[1])}(?![\w])", args[2], value)
        elif kind == "separator" and key == args[0]:
            value = value.replace(args[1], args[2])
        elif kind == "reserialise" and key == args[0]:
            items = parse_list(value)
            value = json.dumps(items) if args[1] == "json-list" else JOINERS[args[1]].join(items)
    return key, value


def apply_json(obj, repairs):
    for kind, args in repairs:
        if kind == "rename-key" and args[0] in obj:
            obj = {(args[1] if k == args[0] else k): v for k, v in obj.items()}
        elif kind == "map-value":
            for k, v in obj.items():
                if args[0] in ("", k) and v == args[1]:
                    obj[k] = args[2]
        elif kind == "custom" and args[0] == "reshape-pairs" and isinstance(obj.get(args[1]), list):
            a, b = args[2].split(",")
            obj[args[1]] = [[item[a], item[b]] if isinstance(item, dict) else item for item in obj[args[1]]]
    return obj


LINE = re.compile(r"^(?P<key>[A-Za-z_][\w\-]*)(?P<sep>=|: ?)(?P<value>.*)$")


def transform(text, repairs):
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            obj = json.loads(stripped)
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            return json.dumps(apply_json(obj, repairs)) + "\n"
    out = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\n")
        m = LINE.match(body)
        if not m:
            out.append(line)
            continue
        key, value = apply_line(m["key"], m["value"], repairs)
        out.append(f"{key}{m['sep']}{value}" + line[len(body):])
    return "".join(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "_shim_repairs.json")) as fh:
        cfg = json.load(fh)
    original = os.path.join(here, cfg["original"])
    repairs = []
    for spec in cfg["repairs"]:
        kind, _, rest = spec.partition(":")
        repairs.append((kind, split_args(rest)))
    env = dict(os.environ)
    cmd = [sys.executable, original, *sys.argv[1:]]
    for kind, args in repairs:
        if kind == "lift-limit" and args[0] == "int-max-str-digits":
            env["PYTHONINTMAXSTRDIGITS"] = "0"
        elif kind == "lift-limit" and args[0] == "recursion":
            cmd = [sys.executable, "-c", RECURSION_RUNNER, original, *sys.argv[1:]]
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE)
    sys.stdout.write(transform(proc.stdout.decode("utf-8", "replace"), repairs))
    sys.stdout.flush()
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
