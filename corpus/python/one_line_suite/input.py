def clamp(x, lo, hi):
    if x < lo: return lo
    if x > hi: return hi
    return x


def sign(x): return (x > 0) - (x < 0)


def normalize(values):
    lo, hi = min(values), max(values)
    for i, v in enumerate(values):
        if hi == lo: values[i] = 0.0
        else: values[i] = (v - lo) / (hi - lo)
    return values
