import sys

def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)

def main():
    n = int(sys.argv[1])
    f = factorial(n)
    s = str(f)
    zeros = 0
    for ch in reversed(s):
        if ch != "0":
            break
        zeros += 1
    print("value=%s" % s)
    print("digits=%d" % len(s))
    print("zeros=%d" % zeros)

main()
