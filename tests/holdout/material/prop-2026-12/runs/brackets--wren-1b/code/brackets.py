import sys

def main():
    s = sys.stdin.readline().strip()
    opens = "([{"
    closes = ")]}"
    stack = []
    max_depth = 0
    balanced = True
    for ch in s:
        if ch in opens:
            max_depth = max(max_depth, len(stack))
            stack.append(ch)
        elif ch in closes:
            if not stack or opens.index(stack[-1]) != closes.index(ch):
                balanced = False
                break
            stack.pop()
    if stack:
        balanced = False
    print("balanced:", "yes" if balanced else "no")
    print("depth:", max_depth)

main()
