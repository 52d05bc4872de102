import sys

sys.set_int_max_str_digits(0)

n = int(sys.argv[1])
a, b = 0, 1
for _ in range(1, n):
    a, b = b, a + b
s = str(a)
print("fib=" + s, "digits=" + str(len(s)), "even=" + ("yes" if a % 2 == 0 else "no"))
