import sys

s = sys.stdin.readline().strip()
count = 0
depth = 0
ok = True
for c in s:
    if c in "([{":
        count += 1
        depth = max(depth, count)
    else:
        count -= 1
        if count < 0:
            ok = False
            break
if count != 0:
    ok = False
print("balanced: " + ("yes" if ok else "no"))
print("depth: " + str(depth))
