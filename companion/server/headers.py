"""The security headers every page and answer carries (issue 67, minor 4), for a LAN app.

- Content-Security-Policy: scripts, styles, pictures, fonts and connections from this server
  only (its WebSockets included), no plugin, no `<base>` elsewhere, forms posted here only,
  and no page framed by another site (`frame-ancestors 'self'`, also X-Frame-Options for older
  browsers): a page of ours cannot be laid under another site's buttons. The pages have no
  inline script but JSON data blocks (not run) and one inline handler, the language select's
  ``this.form.submit()``, allowed by its hash alone ('unsafe-hashes'). Inline styles stay
  allowed (a seat's colour is a ``style="--pc: ..."``); a style cannot run code.
- X-Content-Type-Options: nosniff: a file is what its type says (an uploaded picture or an
  export is never run as a script).
- Referrer-Policy: no-referrer: a join or pairing link carries its one-time code in its query;
  no page tells another site where it came from.
"""
from __future__ import annotations

import base64
import hashlib

from flask import Flask, request

INLINE_HANDLERS = ("this.form.submit()",)  # web/templates: the language and deck selects


def _hash(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode()).digest()).decode() + "'"


SCRIPT_SRC = " ".join(["'self'", "'unsafe-hashes'", *map(_hash, INLINE_HANDLERS)])


def policy(host: str) -> str:
    """The page's CSP; ``host`` for its own WebSockets (older WebKit does not count ws: as
    'self')."""
    sockets = f" ws://{host} wss://{host}" if host and all(c not in host for c in " ;,'\"") \
        else ""
    return ("default-src 'self'; "
            f"script-src {SCRIPT_SRC}; "
            "style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data: blob:; "
            f"connect-src 'self'{sockets}; "
            "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'")


def add(response):
    headers = response.headers
    headers.setdefault("Content-Security-Policy", policy(request.host))
    headers.setdefault("X-Frame-Options", "SAMEORIGIN")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "no-referrer")
    return response


def init_app(app: Flask) -> None:
    app.after_request(add)
