"""benches/probe-cost, the Python module under test. run.py copies it into a scratch git
repository and places the probes at the entry of probe1 and probe8 (probity place --function)."""

import logging

_log = logging.getLogger("probe_cost")
_log.setLevel(logging.WARNING)


def plain(a):
    x = a + 1
    return x


def probe1(a):
    x = a + 1
    return x


def probe8(a):
    x = a + 1
    return x


def log1(a):
    _log.debug("probe-cost a=%s", a)
    x = a + 1
    return x


def log8(a):
    _log.debug("probe-cost %s %s %s %s %s %s %s %s", a, a, a, a, a, a, a, a)
    x = a + 1
    return x
