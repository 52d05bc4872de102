import sys


def fibonacci(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


n = int(sys.argv[1])
f = fibonacci(n)
text = str(f)
parity = "even" if f % 2 == 0 else "odd"
print(f"fib={text} length={len(text)} parity={parity}")
