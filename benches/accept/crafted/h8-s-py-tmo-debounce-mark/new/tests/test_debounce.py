import threading
import time

import pytest

from watch.debounce import Debouncer


def test_single_burst_fires_once():
    calls = []
    d = Debouncer(calls.append, quiet=0.05)
    d.event("a.py")
    d.event("b.py")
    time.sleep(0.2)
    assert d.poll()
    assert calls == [["a.py", "b.py"]]


@pytest.mark.timeout(600)
def test_steady_stream_fires_within_max_wait():
    calls = []
    d = Debouncer(calls.append, quiet=0.2, max_wait=0.5)
    stop = threading.Event()
    runner = threading.Thread(target=d.run, args=(stop,))
    runner.start()
    try:
        stream_ends = time.monotonic() + 10
        while not calls and time.monotonic() < stream_ends:
            d.event("src/main.py")
            time.sleep(0.05)
        while not calls:
            time.sleep(0.05)
    finally:
        stop.set()
        runner.join()
    assert calls[0] == ["src/main.py"]


def test_nothing_pending():
    d = Debouncer(lambda paths: None)
    assert d.poll() is False
