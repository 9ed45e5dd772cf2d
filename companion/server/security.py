"""Secrets handling: seat/host tokens, the host PIN, CSRF tokens, attempt limits, log redaction.

Tokens are 256 random bits (`secrets.token_urlsafe(32)`), stored only as SHA-256 hashes (a
fast hash is enough for high-entropy secrets). The PIN is short, so it gets a slow salted
hash (pbkdf2) *and* an attempt limit. See docs/security.md.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
import string
import time
from collections import defaultdict, deque

from werkzeug.security import check_password_hash, generate_password_hash

from companion.server import locks

PIN_METHOD = "pbkdf2:sha256:200000"
JOIN_CODE_ALPHABET = string.ascii_uppercase.replace("O", "").replace("I", "") + "23456789"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_join_code(length: int = 10) -> str:
    """About 57 bits; easy to type if a QR code cannot be scanned."""
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(length))


def new_game_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def hash_pin(pin: str) -> str:
    return generate_password_hash(pin, method=PIN_METHOD)


def check_pin(pin_hash: str, pin: str) -> bool:
    return check_password_hash(pin_hash, pin)


def valid_pin(pin) -> bool:
    """A host PIN: 4 to 8 digits."""
    return isinstance(pin, str) and re.fullmatch(r"[0-9]{4,8}", pin) is not None


def same(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and hmac.compare_digest(str(a), str(b))


class RateLimiter:
    """At most ``limit`` failed attempts per key in a sliding ``window`` (seconds).

    Keys are (ip, game, what). Only failures count, so a player who types the right code
    is never locked out by others' successes. Memory is bounded by the keys in use.
    """

    def __init__(self, limit: int = 5, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self._fails: dict[tuple, deque] = defaultdict(deque)
        self._lock = locks.lock("rate limiter")

    def _prune(self, key: tuple, now: float) -> deque:
        q = self._fails[key]
        while q and q[0] <= now - self.window:
            q.popleft()
        return q

    def blocked(self, key: tuple) -> bool:
        with self._lock:
            q = self._prune(key, time.monotonic())
            if not q:
                self._fails.pop(key, None)
            return len(q) >= self.limit

    def fail(self, key: tuple) -> None:
        with self._lock:
            self._prune(key, time.monotonic()).append(time.monotonic())

    def attempt(self, key: tuple) -> bool:
        """Reserve one attempt before the slow check (a PIN hash): False when the limit is
        reached. Concurrent guesses each take a place first, so at most ``limit`` are
        checked per window. Call `succeeded` when the attempt was right.

        A PIN's key also counts for its game from every address at once (`game_key`: at most
        ``PER_GAME_PINS`` times ``limit``): twenty addresses (one IPv6 device may have many)
        no longer guess twenty times as fast (issue 67)."""
        keys = [key] + ([game_key(key)] if _is_pin(key) else [])
        limits = [self.limit, PER_GAME_PINS * self.limit]
        with self._lock:
            now = time.monotonic()
            queues = [self._prune(k, now) for k in keys]
            if any(len(q) >= most for q, most in zip(queues, limits, strict=False)):
                return False
            for q in queues:
                q.append(now)
            return True

    def succeeded(self, key: tuple) -> None:
        """A right attempt does not count against the key (nor its game's)."""
        with self._lock:
            for k in [key] + ([game_key(key)] if _is_pin(key) else []):
                q = self._fails.get(k)
                if q:
                    q.pop()


PER_GAME_PINS = 2  # a game's PIN: twice one address's attempts from all addresses together


def _is_pin(key: tuple) -> bool:
    return isinstance(key, tuple) and len(key) == 3 and key[2] == "pin"


def game_key(key: tuple) -> tuple:
    """The key of ``key``'s game and kind, whatever the address."""
    return ("*", key[1], key[2])


class CreationLimits:
    """New games and imports (issue 67: 131 imports in 26 s, the lobby at 137 games): at
    most ``per_address`` from one address and ``overall`` from all in a sliding ``window``
    (seconds). Each counts when tried: a refused or failing import costs its replay too."""

    def __init__(self, per_address: int = 6, overall: int = 20, window: float = 600.0) -> None:
        self.per_address, self.overall, self.window = per_address, overall, window
        self._limiter = RateLimiter(per_address, window)
        self._all = RateLimiter(overall, window)

    def attempt(self, address: str) -> str | None:
        """None when ``address`` may create one more game now, else why not (for the log)."""
        if self._limiter.blocked(("new", address)):
            return f"more than {self.per_address} new games in {self.window:g} s from it"
        if not self._all.attempt(("new", "*")):
            return f"more than {self.overall} new games in {self.window:g} s in all"
        self._limiter.fail(("new", address))
        return None


# Log redaction ---------------------------------------------------------------------------
_SECRET_PATTERNS = [
    re.compile(r"(?i)((?:code|token|host_token|pin|csrf_token)=)[^&\s\"']+"),
    re.compile(r"(?i)((?:tc_seat_|tc_host_|tc_table_)[\w-]*=)[^;\s\"']+"),
    re.compile(r"(?i)([\"'](?:token|host_token|pin|code)[\"']\s*:\s*[\"'])[^\"']+"),
    re.compile(r"(/join/[^/\s]+/[^/?\s]+\?)[^\s\"']+"),
    re.compile(r"()(?<![\w-])[A-Za-z0-9_-]{43}(?![\w-])"),  # any token_urlsafe(32)
]


def redact(text: str) -> str:
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub(r"\1[redacted]", text)
    return text


_installed = False


def install_log_redaction() -> None:
    """Redact secrets from every log record, whichever logger or handler emits it.

    A record factory (not a handler filter) so gunicorn's, werkzeug's and engineio's own
    handlers are covered too.
    """
    global _installed
    if _installed:
        return
    _installed = True
    previous = logging.getLogRecordFactory()

    def factory(*args, **kwargs):
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a broken format string is the caller's bug; leave it as is
            return record
        cleaned = redact(message)
        if cleaned != message or record.args:
            record.msg, record.args = cleaned, ()
        return record

    logging.setLogRecordFactory(factory)
