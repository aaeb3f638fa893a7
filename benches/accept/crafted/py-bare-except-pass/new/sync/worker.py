import logging

log = logging.getLogger(__name__)


def sync_all(accounts, client):
    for account in accounts:
        try:
            client.push(account.id, account.snapshot())
        except:
            pass
        log.info("synced %s", account.id)
