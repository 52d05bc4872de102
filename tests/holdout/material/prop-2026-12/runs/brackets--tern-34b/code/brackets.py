"""Check a line of brackets for balance and report its nesting depth."""
import sys

OPEN_FOR = {")": "(", "]": "[", "}": "{"}


def analyse(s: str) -> tuple[bool, int]:
    stack: list[str] = []
    depth = 0
    for ch in s:
        if ch in "([{":
            stack.append(ch)
            if len(stack) > depth:
                depth = len(stack)
        elif not stack or stack.pop() != OPEN_FOR[ch]:
            return False, depth
    return not stack, depth


def main() -> None:
    line = sys.stdin.readline().strip()
    ok, depth = analyse(line)
    sys.stdout.write(f"balanced: {'yes' if ok else 'no'}\ndepth: {depth}\n")


if __name__ == "__main__":
    main()
