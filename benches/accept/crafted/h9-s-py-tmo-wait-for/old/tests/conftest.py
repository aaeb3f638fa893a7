import logging

import pytest


@pytest.fixture(autouse=True)
def _quiet_feeds_logger(caplog):
    caplog.set_level(logging.ERROR, logger="feeds.refresh")
    yield
