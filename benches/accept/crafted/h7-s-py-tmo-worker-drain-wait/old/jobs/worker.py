"""A small in-process job worker: a queue, a pool of threads, retries."""
from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass
from typing import Callable

log = logging.getLogger(__name__)


@dataclass
class Job:
    name: str
    func: Callable[[], None]
    attempts: int = 0
    max_attempts: int = 3


class Worker:
    def __init__(self, concurrency: int = 2):
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._threads = [
            threading.Thread(target=self._run, name=f"worker-{i}", daemon=True)
            for i in range(concurrency)
        ]
        self._lock = threading.Lock()
        self.completed: list[str] = []
        self.failed: list[str] = []

    def start(self) -> None:
        for t in self._threads:
            t.start()

    def submit(self, job: Job) -> None:
        self._queue.put(job)

    def pending(self) -> int:
        return self._queue.unfinished_tasks

    def stop(self) -> None:
        for _ in self._threads:
            self._queue.put(None)
        for t in self._threads:
            t.join()

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            try:
                if job is None:
                    return
                self._execute(job)
            finally:
                self._queue.task_done()

    def _execute(self, job: Job) -> None:
        job.attempts += 1
        try:
            job.func()
        except Exception:
            log.exception("job %s failed (attempt %d)", job.name, job.attempts)
            if job.attempts < job.max_attempts:
                self._queue.put(job)
            else:
                with self._lock:
                    self.failed.append(job.name)
            return
        with self._lock:
            self.completed.append(job.name)
