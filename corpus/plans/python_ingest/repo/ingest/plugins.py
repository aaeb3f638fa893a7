import importlib


def load(name):
    mod = importlib.import_module(name)
    return getattr(mod, "plugin")


def __getattr__(name):
    return load(name)
