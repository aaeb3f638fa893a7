from .pipeline import Pipeline, run_pipeline
from .sources import CsvSource

__all__ = ["Pipeline", "run_pipeline", "CsvSource"]
