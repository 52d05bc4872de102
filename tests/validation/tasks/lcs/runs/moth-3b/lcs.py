import sys

a = sys.stdin.readline().strip()
b = sys.stdin.readline().strip()

# walk through a and take every letter that still appears later in b
result = ""
pos = 0
for ch in a:
    k = b.find(ch, pos)
    if k != -1:
        result += ch
        pos = k + 1

print(result)
print(len(result))
