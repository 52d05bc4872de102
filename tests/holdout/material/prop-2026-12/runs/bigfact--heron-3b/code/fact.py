import math
import sys


def main():
    n = int(sys.argv[1])
    f = math.factorial(n)
    text = str(f)
    zeros = len(text) - len(text.rstrip("0"))
    print(f"value={text}")
    print(f"digits={len(text)}")
    print(f"zeros={zeros}")


if __name__ == "__main__":
    main()
