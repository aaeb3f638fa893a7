import logging

log = logging.getLogger(__name__)


def sync_all(accounts, client):
    for account in accounts:
        client.push(account.id, account.snapshot())
        log.info("synced %s", account.id)
