import threading

import pytest

from locks.lease import LeaseLock, LockTimeout, MemoryStore


def test_second_holder_waits_for_release():
    store = MemoryStore()
    first = LeaseLock(store, "reindex")
    first.acquire()
    threading.Timer(0.1, first.release).start()
    second = LeaseLock(store, "reindex")
    assert second.acquire(timeout=2.0)


def test_busy_lock_times_out():
    store = MemoryStore()
    LeaseLock(store, "x").acquire()
    with pytest.raises(LockTimeout):
        LeaseLock(store, "x").acquire(timeout=0.05)
