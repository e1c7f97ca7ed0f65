def add(x, y):
    return x + y
