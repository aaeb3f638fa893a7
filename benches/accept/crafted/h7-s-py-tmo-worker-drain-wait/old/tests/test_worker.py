import time

from jobs.worker import Job, Worker


def wait_for(predicate, timeout=2.0, interval=0.01):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


def test_runs_every_job():
    worker = Worker(concurrency=3)
    worker.start()
    for i in range(20):
        worker.submit(Job(f"job-{i}", lambda: None))
    assert wait_for(lambda: worker.pending() == 0)
    worker.stop()
    assert sorted(worker.completed) == sorted(f"job-{i}" for i in range(20))


def test_retries_then_gives_up():
    calls = []

    def flaky():
        calls.append(1)
        raise RuntimeError("boom")

    worker = Worker(concurrency=1)
    worker.start()
    worker.submit(Job("flaky", flaky, max_attempts=3))
    assert wait_for(lambda: worker.pending() == 0, timeout=2.0)
    worker.stop()
    assert len(calls) == 3
    assert worker.failed == ["flaky"]
