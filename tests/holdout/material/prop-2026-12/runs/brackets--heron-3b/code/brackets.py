import sys

PAIRS = {")": "(", "]": "[", "}": "{"}


def check(s):
    stack = []
    depth = 0
    for ch in s:
        if ch in "([{":
            stack.append(ch)
            depth = max(depth, len(stack))
        elif ch in PAIRS:
            if not stack or stack[-1] != PAIRS[ch]:
                return False, depth
            stack.pop()
    return not stack, depth


def main():
    line = sys.stdin.readline().rstrip("\n")
    ok, depth = check(line)
    print(f"balanced: {'true' if ok else 'false'}")
    print(f"depth: {depth}")


if __name__ == "__main__":
    main()
