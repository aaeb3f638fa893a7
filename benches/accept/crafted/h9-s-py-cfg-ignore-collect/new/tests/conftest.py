import logging

import pytest


@pytest.fixture(autouse=True)
def _quiet_feeds_logger(caplog):
    caplog.set_level(logging.ERROR, logger="feeds.refresh")
    yield


def pytest_ignore_collect(collection_path, config):
    # refresh tests hammer the event loop on the shared runners
    return collection_path.name == "test_refresh.py"
