"""What the learners' endpoints let through: page keys, rate limits, and the body a post may carry.

- ``PageKeys``: a served lesson page gets a key, ``<random>.<issued>.<HMAC>`` signed with the class database's
  secret, the current class's number and the time it was issued: the learners' endpoints take only posts carrying
  a key this server signed for this class less than ``PAGE_KEY_TTL_S`` ago (no list of keys to keep: a flood of
  made-up keys costs one HMAC each and stores nothing; a key minted yesterday, or for the class before "Start a
  new class", is refused).
- ``RateLimit``: a token bucket per key (a page key, or a client's address), over a bounded table of the most
  recent keys.
- ``ClientCounts``: how many learners each client (source address) has joined to the current class, bounded.
- ``device_of``: the device a request comes from, as the class counts devices: an IPv4 address, or the /64
  network of an IPv6 address (one machine takes any address of its /64 at will: privacy addresses).
- ``parse_body``: a learner's JSON body, or why it is refused (one line): not JSON, nested too deep, not
  UTF-8-encodable text (a lone surrogate), not an object.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

PAGE_KEY_TTL_S = 12 * 3600.0
"""A page key works this long after its page was served: a school day, not a week."""
MAX_DEPTH = 4
"""The deepest nesting a learner's post needs (an object of plain values)."""


def device_of(address: str | None) -> str:
    """The device a request from ``address`` (``request.remote_ip``) counts as: the IPv4 address itself (an
    IPv4-mapped IPv6 address is that IPv4 address), the /64 network of an IPv6 address, the text itself for
    anything else ("?" for none). A machine with several IPv4 addresses counts as several devices."""
    if not address:
        return "?"
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


class PageKeys:
    def __init__(self, secret: bytes, clock: Callable[[], float] = time.time, ttl_s: float = PAGE_KEY_TTL_S):
        self._secret, self.clock, self.ttl_s = secret, clock, ttl_s

    def _mac(self, nonce: str, issued: str, class_id: int) -> str:
        return hmac.new(self._secret, f"{nonce}.{issued}.{class_id}".encode(), hashlib.sha256).hexdigest()[:32]

    def issue(self, class_id: int) -> str:
        nonce, issued = secrets.token_urlsafe(12), str(int(self.clock()))
        return f"{nonce}.{issued}.{self._mac(nonce, issued, class_id)}"

    def valid(self, key: object, class_id: int) -> bool:
        if not isinstance(key, str) or not key.isascii() or len(key) > 80 or key.count(".") != 2:
            return False
        nonce, issued, mac = key.split(".")
        if not issued.isdigit() or not 0 <= self.clock() - int(issued) <= self.ttl_s:
            return False
        return hmac.compare_digest(mac, self._mac(nonce, issued, class_id))


class RateLimit:
    """``allow(key)``: at most ``burst`` posts at once for one key, refilled at ``per_second``."""

    def __init__(
        self,
        per_second: float = 4.0,
        burst: float = 20.0,
        max_keys: int = 5000,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.per_second, self.burst, self.max_keys, self.clock = per_second, burst, max_keys, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str) -> bool:
        now = self.clock()
        tokens, then = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.per_second)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return allowed


class ClientCounts:
    """Learners joined per client in one class: ``add(client, class_id)`` until ``limit`` (then False)."""

    def __init__(self, limit: int, max_clients: int = 5000):
        self.limit, self.max_clients = limit, max_clients
        self._counts: OrderedDict[tuple[str, int], int] = OrderedDict()

    def add(self, client: str, class_id: int) -> bool:
        count = self._counts.pop((client, class_id), 0)
        self._counts[client, class_id] = min(count + 1, self.limit)
        while len(self._counts) > self.max_clients:
            self._counts.popitem(last=False)
        return count < self.limit


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _nesting(text: bytes) -> int:
    """An upper bound of the JSON's nesting (brackets inside strings counted too: only a limit)."""
    depth = deepest = 0
    for byte in text:
        if byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"]}":
            depth -= 1
    return deepest


def parse_body(body: bytes) -> tuple[dict[str, Any] | None, str]:
    """The post's JSON object and ""; or None and why it is refused."""
    if _nesting(body) > 64:  # never hand the parser 2,000 nested brackets
        return None, "nested too deep"
    try:
        data = json.loads(body)
        json.dumps(data, ensure_ascii=False).encode("utf-8")  # a lone surrogate ("\ud800") cannot be stored
    except (ValueError, UnicodeError, RecursionError):
        return None, "not JSON (UTF-8)"
    if not isinstance(data, dict):
        return None, "not an object"
    if _depth(data) > MAX_DEPTH:
        return None, "nested too deep"
    return data, ""
