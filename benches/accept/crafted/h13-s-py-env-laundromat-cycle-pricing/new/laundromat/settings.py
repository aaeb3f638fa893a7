"""Runtime settings for the laundromat controller, read once from the environment."""
import os

#: "prod" on the shop floor, "staging" on the demo unit, "test" in CI
ENV = os.environ.get("LAUNDROMAT_ENV", "prod")

#: card reader: "live" talks to the acquirer, "sandbox" approves everything
READER_MODE = "sandbox" if ENV in ("test", "staging") else "live"

#: currency minor units per major unit
MINOR_UNITS = 100

TIMEZONE = os.environ.get("LAUNDROMAT_TZ", "Europe/Dublin")
