"""A thread's uncaught exception in the worker's log: a client that hung up is one line.

Engine.IO's writer thread closes a WebSocket by writing a close frame; when the phone or the
display has already dropped the connection (a page reloaded, Wi-Fi lost), the write raises
ConnectionResetError or BrokenPipeError in that library thread, and Python printed a whole
traceback to the journal for an everyday event. Every other uncaught exception is still
printed in full by Python's own hook.
"""
from __future__ import annotations

import logging
import threading

log = logging.getLogger("companion.server.threads")

PEER_GONE = (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)


def hook(args: threading.ExceptHookArgs, fallback=threading.__excepthook__) -> None:
    if args.exc_type is not None and issubclass(args.exc_type, PEER_GONE):
        name = args.thread.name if args.thread is not None else "a thread"
        log.info("a client hung up while %s wrote to it (%s)", name, args.exc_type.__name__)
        return
    fallback(args)


def install() -> None:
    """Called in the worker (`companion serve`), before its threads start."""
    threading.excepthook = hook
