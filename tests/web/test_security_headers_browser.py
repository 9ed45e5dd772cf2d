"""Every page carries the security headers (issue 67, minor 4) and the pages still work under
their Content-Security-Policy: the real server (`companion serve`, gunicorn), Chromium
opening the lobby, the new-game form, the host page, the paired table display, a phone's
page, the deck page, and changing the language with the select (the one inline handler).
Any violation the browser reports fails the test."""
from __future__ import annotations

import urllib.request

import pytest

from tests.web.conftest import join_phone, new_table, running_server

# every page of ours tells the browser when the policy blocked something
WATCH = """document.addEventListener('securitypolicyviolation', e => {
  (window.__csp = window.__csp || []).push(e.violatedDirective + ' ' + e.blockedURI
    + ' ' + (e.sample || ''));
});"""


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    folder = tmp_path_factory.mktemp("headers")
    with running_server(folder / "data", folder / "server.log", "--no-hardware") as url:
        yield url


def test_the_headers_and_no_server_name(base):
    """Planted fault: headers.init_app not called -> no CSP; budget's Server name not set ->
    `Server: gunicorn`."""
    for path in ("/", "/new", "/static/js/client.js", "/no-such-page"):
        try:
            answer = urllib.request.urlopen(base + path, timeout=10)
        except urllib.error.HTTPError as error:
            answer = error
        headers = answer.headers
        assert "frame-ancestors 'self'" in headers["Content-Security-Policy"], path
        assert "script-src 'self' 'unsafe-hashes' 'sha256-" in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "SAMEORIGIN"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"
        assert "gunicorn" not in (headers["Server"] or "").lower(), headers["Server"]


def test_the_pages_work_under_their_policy(browser, base):
    """Planted fault: the language select's handler hash left out of the policy -> its
    change is blocked (a violation, and the page stays in English)."""
    errors: list[str] = []
    violations: list[str] = []
    table, links, game_id = new_table(browser, base, "wwe", {"N": "Anna", "E": "Bruno"},
                                      "2468", errors, at_table="later")
    pages = [table]
    table.context.add_init_script(WATCH)
    phone = join_phone(browser, base, links["N"], "N", errors)
    phone.context.add_init_script(WATCH)
    pages.append(phone)
    for page, path in ((table, f"/host/{game_id}"), (table, f"/host/{game_id}/deck"),
                       (table, f"/table/{game_id}"), (phone, phone.url), (table, "/"),
                       (table, "/new")):
        page.goto(path if path.startswith("http") else base + path)
        page.wait_for_load_state("networkidle")
        violations += page.evaluate("window.__csp || []")
    # the language select submits its form by its inline handler
    table.goto(base + "/")
    table.select_option("#lang-select", "de")
    table.wait_for_url("**lang=de**", timeout=10000)
    assert table.evaluate("document.documentElement.lang") == "de"
    violations += table.evaluate("window.__csp || []")
    phone.goto(phone.url.split("?")[0])
    phone.wait_for_function("() => window.TC && window.TC.view")  # its socket got in
    violations += phone.evaluate("window.__csp || []")
    assert violations == [] and errors == []
