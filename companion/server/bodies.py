"""Every too-large body gets the app's own translated 413 (issue 67, minor 7), a chunked one
too.

Flask checks ``MAX_CONTENT_LENGTH`` against a request's Content-Length; a chunked upload has
none, and its body was read as far as the limit and handed on cut short (a 200 MB upload was
answered "not a picture"). `ChunkedLimit` reads a chunked body here, at most the limit and one
byte: over it, the request is marked and the app answers 413 (`too_large`); within it, the
body goes on as an ordinary one with its length. The answer closes the connection
(``Connection: close``): what the client still sends of its body is not read as a request.
"""
from __future__ import annotations

import io

TOO_LARGE = "tc.body_too_large"


class ChunkedLimit:
    """WSGI middleware: a chunked body read up to ``limit`` bytes (+1), or marked too large."""

    def __init__(self, wsgi_app, limit: int) -> None:
        self.wsgi_app, self.limit = wsgi_app, limit

    def __call__(self, environ, start_response):
        if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            stream = environ["wsgi.input"]
            body, size = [], 0
            while size <= self.limit:
                piece = stream.read(min(65536, self.limit + 1 - size))
                if not piece:
                    break
                body.append(piece)
                size += len(piece)
            if size > self.limit:
                environ[TOO_LARGE] = True
                body = []
            data = b"".join(body)
            environ["wsgi.input"] = io.BytesIO(data)
            environ["CONTENT_LENGTH"] = str(len(data))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ["wsgi.input_terminated"] = False
        return self.wsgi_app(environ, start_response)


def init_app(app, too_large) -> None:
    """``too_large()``: the app's translated 413 answer, for Flask's own 413 and ours."""
    from flask import abort, request

    @app.before_request
    def chunked_too_large():
        if request.environ.get(TOO_LARGE):
            abort(413)

    def answer(_error):
        response = too_large()
        response.headers["Connection"] = "close"
        return response

    app.register_error_handler(413, answer)
    app.wsgi_app = ChunkedLimit(app.wsgi_app, app.config["MAX_CONTENT_LENGTH"])
