import sys

def main():
    n = int(sys.argv[1])
    primes = []
    d = 2
    while d * d <= n:
        if n % d == 0:
            primes.append(d)
            while n % d == 0:
                n //= d
        d += 1
    if n > 1:
        primes.append(n)
    print("factors: " + " ".join(str(p) for p in primes))
    print("distinct: " + str(len(primes)))

main()
