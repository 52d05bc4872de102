import sys


def main():
    n = int(sys.argv[1])
    result = []
    p = 2
    while n > 1:
        if n % p == 0:
            result.append(p)
            n //= p
        else:
            p += 1
    print("factors:", " ".join(str(x) for x in result))
    print("distinct:", len(set(result)))


main()
