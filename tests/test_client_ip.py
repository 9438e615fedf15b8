"""The client's address behind (trusted) proxies: recorded in the audit trail and counted by the lock-outs."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import RequestFactory, override_settings
from rest_framework.test import APIClient

from tournaments.api.urls import ClientAddressThrottle
from tournaments.services.audit import client_ip

PROXIES = ["10.0.0.0/8", "2001:db8::1"]


def address(remote: str, forwarded: str | None = None) -> str | None:
    extra = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    return client_ip(RequestFactory().get("/", REMOTE_ADDR=remote, **extra))


def test_without_trusted_proxies_x_forwarded_for_is_ignored() -> None:
    assert address("198.51.100.7", "203.0.113.9") == "198.51.100.7"


@override_settings(TRUSTED_PROXIES=PROXIES)
@pytest.mark.parametrize(
    ("remote", "forwarded", "client"),
    [
        pytest.param("10.1.2.3", "203.0.113.9", "203.0.113.9", id="one-proxy"),
        pytest.param("10.1.2.3", "203.0.113.9, 10.4.4.4", "203.0.113.9", id="two-trusted-proxies"),
        pytest.param("10.1.2.3", "6.6.6.6, 203.0.113.9", "203.0.113.9", id="client-forged-a-hop"),
        pytest.param("2001:db8::1", "2001:db8:ffff::5", "2001:db8:ffff::5", id="ipv6"),
        pytest.param("198.51.100.7", "203.0.113.9", "198.51.100.7", id="not-through-a-trusted-proxy"),
        pytest.param("10.1.2.3", "garbage", "10.1.2.3", id="garbled-header"),
        pytest.param("10.1.2.3", None, "10.1.2.3", id="no-header"),
        pytest.param("10.1.2.3", "10.9.9.9", "10.1.2.3", id="only-proxies"),
    ],
)
def test_behind_trusted_proxies_the_nearest_untrusted_hop_is_the_client(
    remote: str, forwarded: str | None, client: str
) -> None:
    assert address(remote, forwarded) == client


@pytest.mark.django_db
@override_settings(TRUSTED_PROXIES=PROXIES)
def test_the_token_throttle_counts_each_client_behind_the_proxy_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ClientAddressThrottle, "THROTTLE_RATES", {"token": "2/minute"})
    cache.clear()

    def ask(client_address: str) -> int:
        client = APIClient(REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR=client_address)
        return client.post("/api/v1/token/", {"username": "nobody", "password": "x"}, format="json").status_code

    assert [ask("203.0.113.1") for _ in range(3)] == [400, 400, 429]
    assert ask("203.0.113.2") == 400  # another client behind the same proxy has its own count
