"""Template context shared by every page."""
from policypal.policies.roles import is_policy_admin, is_reviewer


def roles(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"is_policy_admin": False, "is_reviewer": False}
    return {"is_policy_admin": is_policy_admin(user), "is_reviewer": is_reviewer(user)}
