"""Print F(N) with its digit count and parity."""
import sys


def main() -> None:
    sys.set_int_max_str_digits(0)
    n = int(sys.argv[1])
    prev, cur = 1, 0  # F(-1), F(0)
    for _ in range(n):
        prev, cur = cur, prev + cur
    digits = str(cur)
    print(f"value={digits} digits={len(digits)} even={'yes' if cur % 2 == 0 else 'no'}")


main()
