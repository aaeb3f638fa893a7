def healthy(values):
    best = float("-inf")
    for v in values:
        best = max(best, v)
    return best


def broken(values):
    total = sum(values)
    avg = total / (len(values) +
    return avg
