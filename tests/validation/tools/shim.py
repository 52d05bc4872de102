"""Notation-only repair shim, laid where the checker expects the program.

It runs the recorded program (moved beside it, unchanged) on the arguments and the standard
input it inherits, and re-expresses only what the program printed: renames keys, maps
tokens, changes separators, re-serialises lists, swaps two lines. It can also lift an
interpreter limit (CPython's int-to-str digit limit, the recursion limit) for the child.
It reads no input of its own, opens no file but its configuration, and computes nothing
about the problem. Configuration: `_shim.json` beside this file:

    {"program": "_recorded_fib.py", "repairs": ["rename-key:length:digits", ...]}

Repairs use reviewer's syntax (`\\:` is a colon and `\\s` a space inside ARGS), plus the
hand-only `swap-lines:1:2`, which has no reviewer equivalent.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

RECURSION_RUNNER = r"""
import runpy, sys, threading
sys.setrecursionlimit(1_000_000)
threading.stack_size(512 * 1024 * 1024)
path = sys.argv[1]
sys.argv = sys.argv[1:]
outcome = {"code": 0}
def main():
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as stop:
        code = stop.code
        if code is None:
            outcome["code"] = 0
        elif isinstance(code, int):
            outcome["code"] = code
        else:
            print(code, file=sys.stderr)
            outcome["code"] = 1
    except BaseException:
        import traceback
        traceback.print_exc()
        outcome["code"] = 1
worker = threading.Thread(target=main)
worker.start()
worker.join()
sys.stdout.flush()
sys.exit(outcome["code"])
"""


def split_args(text):
    """Split ARGS on unescaped colons and undo the escapes."""
    parts, current, i = [], "", 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            current += {":": ":", "s": " ", "\\": "\\"}.get(nxt, "\\" + nxt)
            i += 2
            continue
        if text[i] == ":":
            parts.append(current)
            current = ""
        else:
            current += text[i]
        i += 1
    parts.append(current)
    return parts


def as_list(value):
    if isinstance(value, list):
        return value
    text = str(value).strip()
    if text.startswith("["):
        try:
            loaded = json.loads(text)
            if isinstance(loaded, list):
                return loaded
        except ValueError:
            pass
    return [item for item in re.split(r"\s*[,;|]\s*|\s+", text) if item]


def list_text(items, style):
    joiner = {"comma-list": ",", "space-list": " ", "semicolon-list": ";", "pipe-list": "|"}
    if style == "json-list":
        return json.dumps(items)
    return joiner[style].join(str(item) for item in items)


def map_token(value, old, new):
    if isinstance(value, list):
        return [map_token(item, old, new) for item in value]
    if isinstance(value, bool):
        return new if json.dumps(value) == old else value
    if str(value) == old:
        return new
    return value


# --- JSON documents -----------------------------------------------------------------------

def repair_json(document, kind, args):
    if kind == "rename-key":
        old, new = args
        return {(new if key == old else key): value for key, value in document.items()}
    if kind == "map-value":
        key, old, new = args
        return {k: (map_token(v, old, new) if key in ("", k) else v) for k, v in document.items()}
    if kind == "separator":
        key, old, new = args
        return {k: (v.replace(old, new) if k == key and isinstance(v, str) else v)
                for k, v in document.items()}
    if kind == "reserialise":
        key, style = args
        out = {}
        for k, v in document.items():
            if k == key:
                items = as_list(v)
                v = items if style == "json-list" else list_text(items, style)
            out[k] = v
        return out
    raise SystemExit(f"shim: {kind} does not apply to a JSON document")


# --- line-oriented output ----------------------------------------------------------------

COLON = re.compile(r"^(\s*)([A-Za-z_][\w.-]*)(\s*:\s?)(.*)$")
TOKEN = re.compile(r"^([A-Za-z_][\w.-]*)=(.*)$")


def repair_field(key, value, kind, args):
    """Return the new (key, value) of one `key: value` line or `key=value` token."""
    if kind == "rename-key":
        old, new = args
        return (new if key == old else key), value
    if kind == "map-value":
        want, old, new = args
        if want in ("", key):
            if value == old:
                return key, new
            if "," in value:
                return key, ",".join(new if part == old else part for part in value.split(","))
        return key, value
    if kind == "separator":
        want, old, new = args
        return key, (value.replace(old, new) if key == want else value)
    if kind == "reserialise":
        want, style = args
        return key, (list_text(as_list(value), style) if key == want else value)
    raise SystemExit(f"shim: unknown repair {kind}")


def repair_lines(text, kind, args):
    lines = text.split("\n")
    if kind == "swap-lines":
        first, second = (int(a) - 1 for a in args)
        lines[first], lines[second] = lines[second], lines[first]
        return "\n".join(lines)
    out = []
    for line in lines:
        match = COLON.match(line)
        if match and "=" not in match.group(2):
            indent, key, sep, value = match.groups()
            key, value = repair_field(key, value, kind, args)
            out.append(f"{indent}{key}{sep}{value}")
            continue
        pieces = re.split(r"(\s+)", line)
        rebuilt = []
        for piece in pieces:
            token = TOKEN.match(piece)
            if token:
                key, value = repair_field(token.group(1), token.group(2), kind, args)
                piece = f"{key}={value}"
            rebuilt.append(piece)
        out.append("".join(rebuilt))
    return "\n".join(out)


def apply_repairs(text, repairs):
    stripped = text.strip()
    document = None
    if stripped.startswith("{"):
        try:
            document = json.loads(stripped)
        except ValueError:
            document = None
    for repair in repairs:
        kind, _, rest = repair.partition(":")
        if kind in ("lift-limit",):
            continue
        args = split_args(rest)
        if isinstance(document, dict):
            document = repair_json(document, kind, args)
        else:
            text = repair_lines(text, kind, args)
    if isinstance(document, dict):
        return json.dumps(document) + "\n"
    return text


def main():
    with open(os.path.join(HERE, "_shim.json"), encoding="utf-8") as handle:
        config = json.load(handle)
    program = os.path.join(HERE, config["program"])
    repairs = config["repairs"]
    env = dict(os.environ)
    command = [sys.executable, program, *sys.argv[1:]]
    if "lift-limit:int-max-str-digits" in repairs:
        env["PYTHONINTMAXSTRDIGITS"] = "0"
    if "lift-limit:recursion" in repairs:
        command = [sys.executable, "-c", RECURSION_RUNNER, program, *sys.argv[1:]]
    proc = subprocess.run(command, stdout=subprocess.PIPE, env=env)  # stdin, stderr inherited
    text = proc.stdout.decode("utf-8", errors="replace")
    sys.stdout.write(apply_repairs(text, repairs))
    sys.stdout.flush()
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
