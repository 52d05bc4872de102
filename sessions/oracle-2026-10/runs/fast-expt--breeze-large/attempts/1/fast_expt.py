import sys

# Square-and-multiply over the bits of b, most significant bit first.
a, b = [int(tok) for tok in sys.stdin.read().split()]
result = 1
mults = 0
for bit in bin(b)[2:]:
    result = result * result
    mults += 1
    if bit == "1":
        result = result * a
        mults += 1
print(f"mults={mults}")
print(f"value={result}")
