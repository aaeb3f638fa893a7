"""A lease-based lock on top of a key-value store with compare-and-set."""
import threading
import time
import uuid


class LockTimeout(RuntimeError):
    pass


class MemoryStore:
    def __init__(self):
        self._data = {}
        self._mu = threading.Lock()

    def cas(self, key, expected, value, ttl):
        with self._mu:
            cur = self._data.get(key)
            if cur is not None and cur[1] < time.monotonic():
                cur = None
            if (cur[0] if cur else None) != expected:
                return False
            self._data[key] = (value, time.monotonic() + ttl) if value else None
            if value is None:
                self._data.pop(key, None)
            return True


class LeaseLock:
    def __init__(self, store, name, ttl=5.0):
        self.store = store
        self.name = name
        self.ttl = ttl
        self.token = None

    def acquire(self, timeout=1.0, poll=0.01):
        token = uuid.uuid4().hex
        deadline = time.monotonic() + timeout
        while True:
            if self.store.cas(self.name, None, token, self.ttl):
                self.token = token
                return token
            if time.monotonic() >= deadline:
                raise LockTimeout(f"could not take {self.name} in {timeout}s")
            time.sleep(poll)

    def release(self):
        if self.token is None:
            return False
        ok = self.store.cas(self.name, None, None, 0)
        self.token = None
        return ok

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc):
        self.release()
