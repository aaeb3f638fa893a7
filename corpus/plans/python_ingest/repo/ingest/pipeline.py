import argparse
import functools
from dataclasses import dataclass, field


def retry(times=3):
    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            return fn(*args, **kwargs)
        return inner
    return wrap


@dataclass
class PipelineConfig:
    batch_size: int = 500
    dry_run: bool = False
    tags: list = field(default_factory=list)


class Pipeline:
    def __init__(self, config: PipelineConfig):
        self.config = config
        self.stages = []

    def add_stage(self, stage) -> "Pipeline":
        self.stages.append(stage)
        return self

    @retry(times=2)
    def run(self, rows: list) -> int:
        for stage in self.stages:
            rows = stage(rows)
        return len(rows)


def run_pipeline(rows, *, batch_size: int = 500) -> int:
    return Pipeline(PipelineConfig(batch_size=batch_size)).run(rows)


def normalize(rows):
    return [r.strip() for r in rows]


def main(argv=None):
    p = argparse.ArgumentParser(prog="ingest")
    p.add_argument("--batch-size", type=int, default=500)
    p.add_argument("--dry-run", action="store_true")
    args = p.parse_args(argv)
    return run_pipeline([], batch_size=args.batch_size)
