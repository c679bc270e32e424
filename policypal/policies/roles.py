"""Who may do what. Roles are Django groups, so admins manage them in one place."""
POLICY_ADMINS = "policy_admins"
REVIEWERS = "reviewers"


def _in_group(user, name: str) -> bool:
    return bool(user and user.is_authenticated and user.groups.filter(name=name).exists())


def is_policy_admin(user) -> bool:
    return bool(user and user.is_authenticated and (user.is_superuser or _in_group(user, POLICY_ADMINS)))


def is_reviewer(user) -> bool:
    return bool(user and user.is_authenticated and (user.is_superuser or _in_group(user, REVIEWERS)))
