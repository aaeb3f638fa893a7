"""Who may read, comment on or edit a document."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum


class Level(IntEnum):
    NONE = 0
    READ = 1
    COMMENT = 2
    EDIT = 3
    OWNER = 4


@dataclass
class User:
    id: int
    org_id: int
    is_admin: bool = False
    suspended: bool = False


@dataclass
class Document:
    id: int
    org_id: int
    owner_id: int
    shared_link: str | None = None
    link_level: Level = Level.READ
    grants: dict[int, Level] = field(default_factory=dict)
    archived: bool = False


def access_level(user: User | None, doc: Document, via_link: str | None = None) -> Level:
    if user is not None and user.suspended:
        return Level.NONE
    level = Level.NONE
    if via_link is not None and doc.shared_link and via_link == doc.shared_link:
        level = doc.link_level
    if user is None:
        return level
    if user.id == doc.owner_id:
        return Level.OWNER
    if user.is_admin and user.org_id == doc.org_id:
        level = max(level, Level.EDIT)
    granted = doc.grants.get(user.id, Level.NONE)
    return max(level, granted)


def can_edit(user: User | None, doc: Document, via_link: str | None = None) -> bool:
    if doc.archived:
        return False
    return access_level(user, doc, via_link) >= Level.EDIT


def can_comment(user: User | None, doc: Document, via_link: str | None = None) -> bool:
    if doc.archived:
        return False
    return access_level(user, doc, via_link) >= Level.COMMENT


def can_read(user: User | None, doc: Document, via_link: str | None = None) -> bool:
    return access_level(user, doc, via_link) >= Level.READ


def grant(doc: Document, actor: User, target: User, level: Level) -> None:
    if access_level(actor, doc) < Level.OWNER and not actor.is_admin:
        raise PermissionError("only the owner or an admin may share")
    if target.org_id != doc.org_id and level > Level.COMMENT:
        raise PermissionError("external users may at most comment")
    doc.grants[target.id] = level
