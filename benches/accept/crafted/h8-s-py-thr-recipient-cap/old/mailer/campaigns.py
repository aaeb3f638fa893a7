"""Outbound campaign preparation: recipient checks and batching."""
import re
import sys
from dataclasses import dataclass, field

MAX_RECIPIENTS = 500
BATCH_SIZE = 50
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", re.IGNORECASE)


class CampaignError(Exception):
    pass


class TooManyRecipients(CampaignError):
    def __init__(self, count):
        super().__init__("campaign has %d recipients (limit %d)" % (count, MAX_RECIPIENTS))
        self.count = count


@dataclass
class Campaign:
    subject: str
    body: str
    recipients: list
    suppressed: set = field(default_factory=set)


def _canonical(address):
    address = address.strip()
    local, _, domain = address.partition("@")
    return "%s@%s" % (local, domain.lower())


def prepare(campaign):
    """Validate a campaign and return the list of batches to hand to the MTA."""
    if not campaign.subject.strip():
        raise CampaignError("subject is empty")
    if len(campaign.recipients) > MAX_RECIPIENTS:
        raise TooManyRecipients(len(campaign.recipients))
    seen = set()
    unique = []
    for raw in campaign.recipients:
        address = _canonical(raw)
        if not _EMAIL.match(address):
            raise CampaignError("invalid recipient: %r" % raw)
        if address in seen or address in campaign.suppressed:
            continue
        seen.add(address)
        unique.append(address)
    return [unique[i:i + BATCH_SIZE] for i in range(0, len(unique), BATCH_SIZE)]


def summary(batches):
    total = sum(len(b) for b in batches)
    return {"batches": len(batches), "recipients": total, "largest": max((len(b) for b in batches), default=0)}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    recipients = [line.strip() for line in open(argv[0]) if line.strip()]
    batches = prepare(Campaign(subject=argv[1], body="", recipients=recipients))
    print(summary(batches))


if __name__ == "__main__":
    main()
