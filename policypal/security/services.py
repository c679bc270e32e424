"""Who is refused for a while: sign-in lockouts and the per-user question rate.

Sign-in: LOGIN_FAILURE_LIMIT failed attempts on one account, or LOGIN_FAILURE_LIMIT_PER_IP from one
client address (higher: an office shares one address behind its NAT), within
LOGIN_LOCKOUT_SECONDS lock that account or address out for LOGIN_LOCKOUT_SECONDS. During a lockout
no password is checked at all, the right one included, so guessing gains nothing. Accounts are
counted by the name typed (case and spaces ignored), whether or not it exists, so a lockout does
not tell anyone which accounts exist.

Questions: ASK_LIMIT_PER_MINUTE per user over the chat page, its streamed answer and /api/ask
together, in fixed one-minute windows.
"""
from __future__ import annotations

from django.conf import settings

from .throttle import failure_record, failures_clear, lockout_remaining, seconds_in_words, window_hit

LOGIN_ACCOUNT = "login-account"
LOGIN_ADDRESS = "login-address"
ASK = "ask"
ASK_WINDOW_SECONDS = 60


def _account(username: str) -> str:
    return (username or "").strip().casefold()


def login_lockout_get(*, username: str, ip: str) -> int:
    """Seconds until `username` may try to sign in again from `ip`; 0 when it may now."""
    return max(
        lockout_remaining(scope=LOGIN_ACCOUNT, identity=_account(username)),
        lockout_remaining(scope=LOGIN_ADDRESS, identity=ip),
    )


def login_failure_record(*, username: str, ip: str) -> int:
    """Count a failed sign-in; returns the seconds of the lockout it started, or 0."""
    seconds = settings.LOGIN_LOCKOUT_SECONDS
    return max(
        failure_record(scope=LOGIN_ACCOUNT, identity=_account(username), limit=settings.LOGIN_FAILURE_LIMIT,
                       seconds=seconds),
        failure_record(scope=LOGIN_ADDRESS, identity=ip, limit=settings.LOGIN_FAILURE_LIMIT_PER_IP,
                       seconds=seconds),
    )


def login_success_record(*, username: str) -> None:
    """A successful sign-in forgets the account's earlier failures (not the address's)."""
    failures_clear(scope=LOGIN_ACCOUNT, identity=_account(username))


def ask_rate_take(*, user) -> int:
    """Count one question of `user`; 0 when it may be answered, else the seconds to wait."""
    return window_hit(scope=ASK, identity=str(user.pk), limit=settings.ASK_LIMIT_PER_MINUTE,
                      window=ASK_WINDOW_SECONDS)


def ask_rate_message(*, wait: int) -> str:
    return (
        f"You have asked {settings.ASK_LIMIT_PER_MINUTE} questions in the last minute, the most allowed. "
        f"Please wait {seconds_in_words(wait)} and ask again."
    )
