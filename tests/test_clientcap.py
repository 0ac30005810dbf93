"""The counters behind the caps per client address (judge/clientcap.py); the caps at work on
real sockets are in tests/mail/test_slow_clients.py."""

from __future__ import annotations

from judge.clientcap import ClientCaps, client_key


def test_a_client_is_its_ipv4_address_or_its_ipv6_64() -> None:
    assert client_key(("192.0.2.7", 4000)) == "192.0.2.7"
    # one IPv6 subscriber has a /64 to draw addresses from: counted as one client
    assert client_key(("2001:db8:1:2:aaaa::1", 4000, 0, 0)) == "2001:db8:1:2::/64"
    assert client_key(("2001:db8:1:2:ffff::9", 4001, 0, 0)) == "2001:db8:1:2::/64"
    assert client_key(("2001:db8:1:3::1", 4000, 0, 0)) == "2001:db8:1:3::/64"
    # an IPv4 client on a dual-stack socket is its IPv4 address
    assert client_key(("::ffff:192.0.2.7", 4000, 0, 0)) == "192.0.2.7"
    assert client_key(("fe80::1%eth0", 4000, 0, 2)) == "fe80::/64"
    assert client_key("/run/judge.sock") == client_key(None) == ""


def test_caps_in_all_and_per_client() -> None:
    caps = ClientCaps(limit=5, per_client=2)
    assert caps.admit("a") and caps.admit("a")
    assert not caps.admit("a")  # its two places are taken
    assert caps.admit("b") and caps.admit("b") and caps.admit("c")
    assert not caps.admit("d")  # five open in all
    assert (caps.open, caps.refused, caps.held_by("a")) == (5, 2, 2)
    caps.release("a")
    assert caps.admit("d") and not caps.admit("a")
    for key in ("a", "b", "b", "c", "d"):
        caps.release(key)
    assert caps.open == 0 and caps.by_client == {}  # nobody connected is remembered


def test_zero_means_no_cap() -> None:
    caps = ClientCaps(limit=0, per_client=0)
    assert all(caps.admit("a") for _ in range(10_000))
    assert caps.refused == 0 and caps.held_by("a") == 10_000
