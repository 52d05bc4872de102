import sys

sys.set_int_max_str_digits(0)

n = int(sys.argv[1])
result = 1
for k in range(2, n + 1):
    result *= k
s = str(result)
print("value=" + s)
print("digits=" + str(len(s)))
print("zeros=" + str(n // 5))
