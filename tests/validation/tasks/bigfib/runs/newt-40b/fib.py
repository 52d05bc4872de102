import math
import sys

# Binet's closed form: F(n) is the integer nearest to phi**n / sqrt(5)
SQRT5 = math.sqrt(5)
PHI = (1 + SQRT5) / 2

n = int(sys.argv[1])
value = round(PHI ** n / SQRT5)
length = len(str(value))
parity = "even" if value % 2 == 0 else "odd"
print(f"fib={value} length={length} parity={parity}")
