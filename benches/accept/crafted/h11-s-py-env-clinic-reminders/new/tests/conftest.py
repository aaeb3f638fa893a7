import os

os.environ.setdefault("APP_ENV", "test")
