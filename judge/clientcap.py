"""Caps on open connections: in all, and per client address below that.

Without a cap per address, one machine opening connections and sending nothing (or dripping
a request) takes every place of the overall cap, and the judge refuses everyone else until
it lets go (issue 25, point 5). The web and mail front doors (``judge.archive.httpguard``,
``judge.mail.listener``) count their connections here when they accept one, before a
byte is read.

Hand-written: neither uvicorn nor aiosmtpd counts connections per address, and what is
needed is a dictionary of counters. An IPv6 client is counted by its /64, the block one
subscriber is given, so that a single machine cannot take a new address per connection.
"""

from __future__ import annotations

import ipaddress
from typing import Any


def client_key(peername: Any) -> str:
    """The address a connection is counted under: the IPv4 address (also when seen as an
    IPv4-mapped IPv6 one), the /64 of an IPv6 address; "" when there is none (a Unix
    socket), so all such connections share one count."""
    if not isinstance(peername, tuple) or not peername:
        return ""
    host = str(peername[0]).partition("%")[0]  # fe80::1%eth0: the zone is not the address
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class ClientCaps:
    """Open connections, in all and per client address; 0 for a limit means none.

    ``admit`` takes a place (True) or counts a refusal (False); every admitted connection
    gives its place back with ``release`` once, when it ends."""

    def __init__(self, limit: int, per_client: int = 0) -> None:
        self.limit = limit
        self.per_client = per_client
        self.open = 0
        self.refused = 0
        self.by_client: dict[str, int] = {}

    def admit(self, key: str = "") -> bool:
        held = self.by_client.get(key, 0)
        if (self.limit and self.open >= self.limit) or (
                self.per_client and held >= self.per_client):
            self.refused += 1
            return False
        self.open += 1
        self.by_client[key] = held + 1
        return True

    def release(self, key: str = "") -> None:
        self.open = max(0, self.open - 1)
        held = self.by_client.get(key, 0) - 1
        if held > 0:
            self.by_client[key] = held
        else:
            # an address with no connection left is forgotten: the dictionary holds only
            # the addresses connected now, however many came and went
            self.by_client.pop(key, None)

    def held_by(self, key: str) -> int:
        return self.by_client.get(key, 0)
