import json


def load_config(path):
    try:
        with open(path) as f:
            data = json.load(f)
        return Config(**data)
    except Exception:
        return None
