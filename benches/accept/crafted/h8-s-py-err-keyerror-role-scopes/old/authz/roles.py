"""Role-based scopes: roles grant scopes and may inherit other roles."""
from dataclasses import dataclass, field

ROLES = {
    "viewer": {"scopes": {"docs:read", "comments:read"}},
    "editor": {"scopes": {"docs:write", "comments:write"}, "inherits": ["viewer"]},
    "billing": {"scopes": {"invoices:read", "invoices:pay"}},
    "admin": {"scopes": {"users:manage", "settings:write"}, "inherits": ["editor", "billing"]},
}


class UnknownRole(KeyError):
    pass


@dataclass
class User:
    id: str
    roles: list = field(default_factory=list)
    grants: set = field(default_factory=set)
    suspended: bool = False


def role_scopes(name, _seen=None):
    """All scopes of a role, including inherited ones."""
    seen = set() if _seen is None else _seen
    if name in seen:
        return set()
    seen.add(name)
    role = ROLES[name]
    scopes = set(role.get("scopes", ()))
    for parent in role.get("inherits", ()):
        scopes |= role_scopes(parent, seen)
    return scopes


def effective_scopes(user):
    if user.suspended:
        return set()
    scopes = set(user.grants)
    for name in user.roles:
        try:
            scopes |= role_scopes(name)
        except KeyError:
            raise UnknownRole(name) from None
    return scopes


def can(user, scope):
    """True if the user holds `scope` or a wildcard for its resource."""
    scopes = effective_scopes(user)
    resource = scope.split(":", 1)[0]
    return scope in scopes or "%s:*" % resource in scopes


def require(user, scope):
    if not can(user, scope):
        raise PermissionError("%s lacks %s" % (user.id, scope))
