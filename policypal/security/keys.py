"""What makes a SECRET_KEY unfit for a server. No Django import: policypal/settings.py uses it
before Django is set up (to refuse to start), and so does the `check --deploy` check."""
from __future__ import annotations

# The key used when DEBUG is true and no SECRET_KEY is given. Anyone can read it here, so sessions
# and password-reset links signed with it can be forged: never acceptable with DEBUG false.
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-change-me-in-production-0123456789"

# The placeholders that .env.example and older docker-compose files carried ("change-me", ...).
_PLACEHOLDER_PREFIX = "change-me"


def secret_key_problem(key: str | None) -> str | None:
    """Why `key` must not sign a server's sessions, or None when it may."""
    if not (key or "").strip():
        return "is not set"
    if key == DEVELOPMENT_SECRET_KEY:
        return "is the development default"
    if key.strip().lower().startswith(_PLACEHOLDER_PREFIX):
        return f"is a placeholder ({key[:20]}...)"
    return None
