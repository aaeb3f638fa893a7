import os

import pytest


def pytest_addoption(parser):
    parser.addoption("--partner-sandbox", action="store_true", help="run the tests that call a partner sandbox")


def pytest_configure(config):
    config.addinivalue_line("markers", "network: tests that talk to a partner sandbox")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--partner-sandbox"):
        return
    skip_network = pytest.mark.skip(reason="needs --partner-sandbox")
    for item in items:
        if "network" in item.keywords:
            item.add_marker(skip_network)


@pytest.fixture(autouse=True)
def no_partner_tokens(monkeypatch):
    for name in list(os.environ):
        if name.startswith("PARTNER_") and name.endswith("_TOKEN"):
            monkeypatch.delenv(name)
