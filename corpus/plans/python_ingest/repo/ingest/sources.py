import csv


class BaseSource:
    def open(self):
        raise NotImplementedError

    def read_rows(self):
        return []


class CsvSource(BaseSource):
    def __init__(self, path):
        self.path = path

    def open(self):
        return open(self.path, newline="")


def normalize(rows):
    return [r.lower() for r in rows]
