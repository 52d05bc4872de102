"""a**b by repeated multiplication, counting the multiplications."""

import sys


def main():
    a, b = (int(x) for x in sys.stdin.read().split())
    result = 1
    mults = 0
    for _ in range(b):
        result = result * a
        mults += 1
    print(f"mults={mults}")
    print(f"value={result}")


if __name__ == "__main__":
    main()
