import os

# keep the card reader in sandbox mode for the whole test session
os.environ.setdefault("LAUNDROMAT_ENV", "test")
