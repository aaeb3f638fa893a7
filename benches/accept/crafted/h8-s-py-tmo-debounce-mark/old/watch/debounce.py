"""Coalesce bursts of file-change events into a single rebuild."""
import threading
import time


class Debouncer:
    """Call `callback(paths)` once no new event arrived for `quiet` seconds,
    or at the latest `max_wait` seconds after the first event of a burst."""

    def __init__(self, callback, quiet=0.2, max_wait=1.0, clock=time.monotonic):
        self.callback = callback
        self.quiet = quiet
        self.max_wait = max_wait
        self.clock = clock
        self._lock = threading.Lock()
        self._pending = set()
        self._first = None
        self._last = None
        self.fired = 0

    def event(self, path):
        now = self.clock()
        with self._lock:
            if self._first is None:
                self._first = now
            self._last = now
            self._pending.add(path)

    def poll(self):
        """Fire the callback if the burst is over; return True when it fired."""
        now = self.clock()
        with self._lock:
            if not self._pending:
                return False
            quiet_over = now - self._last >= self.quiet
            waited_too_long = now - self._first >= self.max_wait and quiet_over
            if not (quiet_over or waited_too_long):
                return False
            paths = sorted(self._pending)
            self._pending.clear()
            self._first = self._last = None
        self.fired += 1
        self.callback(paths)
        return True

    @property
    def pending(self):
        with self._lock:
            return sorted(self._pending)

    def run(self, stop, interval=0.05):
        while not stop.is_set():
            self.poll()
            time.sleep(interval)
