import sys


def is_balanced(text):
    if not text:
        return False, 0
    match = {")": "(", "]": "[", "}": "{"}
    stack = []
    deepest = 0
    for c in text:
        if c in "([{":
            stack.append(c)
            deepest = max(deepest, len(stack))
        else:
            if not stack or stack.pop() != match[c]:
                return False, deepest
    return len(stack) == 0, deepest


if __name__ == "__main__":
    text = sys.stdin.read().strip()
    ok, deepest = is_balanced(text)
    print("balanced: yes" if ok else "balanced: no")
    print(f"depth: {deepest}")
