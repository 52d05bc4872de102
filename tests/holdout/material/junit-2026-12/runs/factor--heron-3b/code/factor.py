import sys


def factorise(n):
    factors = []
    d = 2
    while d * d <= n:
        while n % d == 0:
            factors.append(d)
            n //= d
        d += 1 if d == 2 else 2
    if n > 1:
        factors.append(n)
    return factors


def main():
    n = int(sys.argv[1])
    fs = factorise(n)
    print("factors: " + "*".join(str(f) for f in fs))
    print("distinct: " + str(len(set(fs))))


if __name__ == "__main__":
    main()
