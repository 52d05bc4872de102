import sys

def main():
    graph = {}
    for line in sys.stdin:
        words = line.split()
        for w in words:
            if w not in graph:
                graph[w] = []
        if len(words) == 2:
            graph[words[0]].append(words[1])

    WHITE, GREY, BLACK = 0, 1, 2
    color = {n: WHITE for n in graph}
    order = []
    cyclic = False

    def visit(n):
        nonlocal cyclic
        color[n] = GREY
        for m in graph[n]:
            if color[m] == GREY:
                cyclic = True
            elif color[m] == WHITE:
                visit(m)
        color[n] = BLACK
        order.append(n)

    for n in graph:
        if color[n] == WHITE:
            visit(n)

    print("order=" + " ".join(order))
    print("cyclic=" + ("yes" if cyclic else "no"))

main()
