"""Who may do what. Roles are Django groups, so admins manage them in one place."""
POLICY_ADMINS = "policy_admins"
REVIEWERS = "reviewers"


def _group_names(user) -> frozenset[str]:
    """The user's group names, read once per user object (one request): a page asks the decorator,
    the selector and the navigation's context processor, for both roles."""
    cached = getattr(user, "_policypal_group_names", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        user._policypal_group_names = cached
    return cached


def _in_group(user, name: str) -> bool:
    return bool(user and user.is_authenticated and name in _group_names(user))


def is_policy_admin(user) -> bool:
    return bool(user and user.is_authenticated and (user.is_superuser or _in_group(user, POLICY_ADMINS)))


def is_reviewer(user) -> bool:
    return bool(user and user.is_authenticated and (user.is_superuser or _in_group(user, REVIEWERS)))
