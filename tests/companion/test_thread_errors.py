"""A library thread whose client hung up logs one line; anything else keeps its traceback."""
import logging
import threading

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
