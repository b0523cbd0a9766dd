"""What the learners' endpoints let through: page keys and a rate limit per page.

- ``PageKeys``: a served lesson page gets a key, ``<random>.<HMAC of it>`` signed with the class database's secret;
  the learners' endpoints take only posts carrying a key this server signed (no list of keys to keep: a flood of
  made-up keys costs one HMAC each and stores nothing).
- ``RateLimit``: a token bucket per page key (``burst`` posts at once, then ``per_second``), over a bounded table
  of the most recent keys.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable

KEY_LENGTH = 22 + 1 + 32


class PageKeys:
    def __init__(self, secret: bytes):
        self._secret = secret

    def _mac(self, nonce: str) -> str:
        return hmac.new(self._secret, nonce.encode(), hashlib.sha256).hexdigest()[:32]

    def issue(self) -> str:
        nonce = secrets.token_urlsafe(16)
        return f"{nonce}.{self._mac(nonce)}"

    def valid(self, key: object) -> bool:
        if not isinstance(key, str) or len(key) != KEY_LENGTH or key.count(".") != 1:
            return False
        nonce, mac = key.split(".")
        return hmac.compare_digest(mac, self._mac(nonce))


class RateLimit:
    """``allow(key)``: at most ``burst`` posts at once from one page, refilled at ``per_second``."""

    def __init__(self, per_second: float = 4.0, burst: float = 20.0, max_keys: int = 5000,
                 clock: Callable[[], float] = time.monotonic):
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
