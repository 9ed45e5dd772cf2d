"""A thread's uncaught exception in the worker's log: a client that hung up is one line.

Engine.IO's writer thread closes a WebSocket by writing a close frame; when the phone or the
display has already dropped the connection (a page reloaded, Wi-Fi lost), the write raises
ConnectionResetError or BrokenPipeError in that library thread, and Python printed a whole
traceback to the journal for an everyday event. The same close can also find the socket
already closed by the connection's reader thread (a garbled frame ends the connection while
the writer is closing it): simple_websocket then raises OSError EBADF, which is the same
everyday event. Every other uncaught exception is still printed in full by Python's own hook.
"""
from __future__ import annotations

import errno
import logging
import threading

log = logging.getLogger("companion.server.threads")

PEER_GONE = (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)


def closed_under_the_writer(args: threading.ExceptHookArgs) -> bool:
    """EBADF raised inside simple_websocket's close(): the reader closed the socket first."""
    error = args.exc_value
    if not isinstance(error, OSError) or error.errno != errno.EBADF or args.exc_traceback is None:
        return False
    innermost = args.exc_traceback
    while innermost.tb_next is not None:
        innermost = innermost.tb_next
    code = innermost.tb_frame.f_code
    return code.co_name == "close" and "simple_websocket" in code.co_filename


def hook(args: threading.ExceptHookArgs, fallback=threading.__excepthook__) -> None:
    name = args.thread.name if args.thread is not None else "a thread"
    if args.exc_type is not None and issubclass(args.exc_type, PEER_GONE):
        log.info("a client hung up while %s wrote to it (%s)", name, args.exc_type.__name__)
        return
    if closed_under_the_writer(args):
        log.info("a client's WebSocket was already closed when %s closed it", name)
        return
    fallback(args)


def install() -> None:
    """Called in the worker (`companion serve`), before its threads start."""
    threading.excepthook = hook
