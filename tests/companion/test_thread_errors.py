"""A library thread whose client hung up logs one line; anything else keeps its traceback."""
import logging
import socket
import threading

from simple_websocket.ws import Base
from wsproto import ConnectionType
from wsproto.connection import Connection

from companion.server import thread_errors


def run_in_thread(error: BaseException) -> None:
    def fail():
        raise error

    thread = threading.Thread(target=fail, name="writer")
    thread.start()
    thread.join()


def test_a_client_that_hung_up_is_one_line_and_other_errors_keep_their_traceback(
        monkeypatch, caplog, capsys):
    monkeypatch.setattr(threading, "excepthook", thread_errors.hook)
    with caplog.at_level(logging.INFO, logger="companion.server.threads"):
        run_in_thread(ConnectionResetError(104, "Connection reset by peer"))
        run_in_thread(BrokenPipeError(32, "Broken pipe"))
        run_in_thread(ValueError("a real fault"))
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.server.threads"]
    assert lines == ["a client hung up while writer wrote to it (ConnectionResetError)",
                     "a client hung up while writer wrote to it (BrokenPipeError)"]
    printed = capsys.readouterr().err
    assert "ValueError: a real fault" in printed and "Traceback" in printed
    assert "ConnectionResetError" not in printed


def closing_a_socket_already_closed() -> None:
    """simple_websocket's own close(), on a socket the reader thread had closed (fresh-clone CI)."""
    ws = Base.__new__(Base)
    ws.connected = True
    ws.ws = Connection(ConnectionType.SERVER)
    ws.sock = socket.socket()
    ws.sock.close()
    ws.close()


def test_a_websocket_closed_under_its_writer_is_one_line_and_other_bad_descriptors_are_not(
        monkeypatch, caplog, capsys):
    monkeypatch.setattr(threading, "excepthook", thread_errors.hook)
    with caplog.at_level(logging.INFO, logger="companion.server.threads"):
        for target in (closing_a_socket_already_closed, lambda: socket.socket().close() or
                       socket.fromfd(-1, socket.AF_INET, socket.SOCK_STREAM)):
            thread = threading.Thread(target=target, name="writer")
            thread.start()
            thread.join()
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.server.threads"]
    assert lines == ["a client's WebSocket was already closed when writer closed it"]
    printed = capsys.readouterr().err
    assert "Traceback" in printed and "Bad file descriptor" in printed  # the other EBADF
    assert "simple_websocket" not in printed
