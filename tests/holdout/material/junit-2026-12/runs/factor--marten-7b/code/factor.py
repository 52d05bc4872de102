import sys

n = int(sys.argv[1])
factors = []
i = 2
while i * i <= n:
    while n % i == 0:
        factors.append(i)
        n = n // i
    i += 1
print("factors: " + " ".join(map(str, factors)))
print("distinct: " + str(len(set(factors))))
