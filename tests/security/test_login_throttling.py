"""Sign-in lockouts: after LOGIN_FAILURE_LIMIT failures on an account (or LOGIN_FAILURE_LIMIT_PER_IP
from one address) the sign-in page answers 429 with Retry-After, and refuses even the right
password until the lockout ends."""
from __future__ import annotations

import time

import pytest
from django.test import RequestFactory

from policypal.security.views import client_ip

pytestmark = pytest.mark.django_db

PASSWORD = "right-Password-42"


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # many attempts per test


@pytest.fixture
def account(django_user_model):
    return django_user_model.objects.create_user("locky", password=PASSWORD)


def sign_in(client, username, password, *, ip="10.0.0.1", path="/login/"):
    return client.post(path, {"username": username, "password": password}, REMOTE_ADDR=ip)


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_five_failures_lock_the_account_and_the_right_password_is_refused_too(client, account):
    for _ in range(4):
        response = sign_in(client, "locky", "wrong")
        assert response.status_code == 200 and 'id="login-errors"' in response.content.decode()
    fifth = sign_in(client, "locky", "wrong")
    assert fifth.status_code == 429
    assert fifth["Retry-After"] == "900"
    html = fifth.content.decode()
    assert 'id="login-locked"' in html and "15 minutes" in html

    right = sign_in(client, "locky", PASSWORD)
    assert right.status_code == 429 and not signed_in(client)
    assert 0 < int(right["Retry-After"]) <= 900
    assert "even with the right password" in right.content.decode()


def test_the_account_stays_locked_from_another_address_and_in_another_case(client, account):
    for n in range(5):
        sign_in(client, "locky", "wrong", ip=f"10.0.1.{n}")
    assert sign_in(client, " LOCKY ", PASSWORD, ip="10.9.9.9").status_code == 429
    assert sign_in(client, "locky", PASSWORD, ip="10.9.9.9").status_code == 429


def test_the_lockout_ends(client, account, monkeypatch):
    for _ in range(5):
        sign_in(client, "locky", "wrong")
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + 901)
    response = sign_in(client, "locky", PASSWORD)
    assert response.status_code == 302 and signed_in(client)


def test_a_successful_sign_in_forgets_earlier_failures(client, account):
    for _ in range(4):
        sign_in(client, "locky", "wrong")
    assert sign_in(client, "locky", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert sign_in(client, "locky", "wrong").status_code == 200


def test_one_address_trying_many_accounts_is_locked_out(client, account, settings):
    settings.LOGIN_FAILURE_LIMIT_PER_IP = 3
    assert sign_in(client, "nobody-1", "guess", ip="10.0.0.66").status_code == 200
    assert sign_in(client, "nobody-2", "guess", ip="10.0.0.66").status_code == 200
    assert sign_in(client, "nobody-3", "guess", ip="10.0.0.66").status_code == 429
    assert sign_in(client, "locky", PASSWORD, ip="10.0.0.66").status_code == 429  # the address, any account
    assert sign_in(client, "locky", PASSWORD, ip="10.0.0.67").status_code == 302  # the account is not locked


def test_the_django_admin_sign_in_is_throttled_too(client, account):
    for _ in range(4):
        assert sign_in(client, "locky", "wrong", path="/django-admin/login/").status_code == 200
    assert sign_in(client, "locky", "wrong", path="/django-admin/login/").status_code == 429
    assert sign_in(client, "locky", PASSWORD).status_code == 429


def test_client_address_behind_trusted_proxies(settings):
    request = RequestFactory().get("/", REMOTE_ADDR="10.1.1.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7, 10.1.1.2")
    settings.TRUSTED_PROXIES = 0
    assert client_ip(request) == "10.1.1.1"  # the header is the client's to forge
    settings.TRUSTED_PROXIES = 1
    assert client_ip(request) == "10.1.1.2"
    settings.TRUSTED_PROXIES = 2
    assert client_ip(request) == "203.0.113.7"


def test_an_unreachable_cache_lets_people_sign_in(client, account, settings, caplog):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0"}}  # nothing listens there
    assert sign_in(client, "locky", "wrong").status_code == 200
    assert sign_in(client, "locky", PASSWORD).status_code == 302
    assert "the cache is unavailable" in caplog.text
