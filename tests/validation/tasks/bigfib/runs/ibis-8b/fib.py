import sys

sys.set_int_max_str_digits(0)


def fib_pair(n):
    """Return (F(n), F(n+1)) by fast doubling."""
    if n == 0:
        return 0, 1
    a, b = fib_pair(n // 2)
    c = a * (2 * b - a)
    d = a * a + b * b
    if n % 2 == 0:
        return c, d
    return d, c + d


def main():
    n = int(sys.argv[1])
    value = fib_pair(n)[0]
    text = str(value)
    even = "yes" if value % 2 == 0 else "no"
    print(f"fib={text} digits={len(text)} even={even}")


if __name__ == "__main__":
    main()
