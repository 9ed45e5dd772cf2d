"""What the browser tests share: the real server (`companion serve`, gunicorn) in a
subprocess on a free port, and Debian's chromium driven by Playwright."""
from __future__ import annotations

import contextlib
import functools
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def screenshots_wanted() -> bool:
    """Whether the browser tests write their screenshots (test-artifacts/browser/): they are
    for a person to look at, and ``TC_SCREENSHOTS=0`` (CI's throwaway clone, `.ci/run`) skips
    them, some 600 a run at 0.4-0.8 s each on a loaded machine. What a test asserts on a
    screenshot's page (`test_browser.check_filled`) is read either way."""
    return os.environ.get("TC_SCREENSHOTS", "1") != "0"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@functools.cache
def compiled_translations() -> Path:
    """Every translation domain (the shared one, each installed game's) compiled once for
    this test process, laid out as a data folder's ``translations/``: a server compiles into
    its data folder whatever is missing there or older than its .po (companion/server/
    i18n.py), about 1 s of CPU a start (2026-11-27), and the browser files start ~40."""
    import tempfile

    from companion.game.games import known, module_of
    from companion.server.i18n import WEB_DIR, compile_translations, compiled_folder, package_folder

    data = Path(tempfile.mkdtemp(prefix="tc-translations-"))
    compile_translations(WEB_DIR / "translations", compiled_folder(data))
    for game in known():
        package = module_of(game).info.web
        folder = package_folder(package) if package else None
        if folder and (folder / "translations").is_dir():
            compile_translations(folder / "translations", compiled_folder(data, game))
    return compiled_folder(data)


def give_translations(data: Path) -> None:
    """A data folder without translations gets this run's compiled ones
    (`compiled_translations`, their times kept: the server finds each .mo newer than its
    .po and compiles nothing)."""
    from companion.server.i18n import compiled_folder

    if not compiled_folder(data).exists():
        shutil.copytree(compiled_translations(), compiled_folder(data))


# The logs of the servers running now, and of every server started (in order): a failed
# test here shows the last lines of those running and of those it started itself (a server
# in the test's own `with` block has stopped by then), each request among them (the access
# log is on).
SERVER_LOGS: list[Path] = []
STARTED_LOGS: list[Path] = []
LOG_TAIL = 60
FIRST_OF_TEST = pytest.StashKey[int]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    item.stash[FIRST_OF_TEST] = len(STARTED_LOGS)
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test carries what the server did meanwhile: the requests the page
    made and what it answered (a CI run's failure is seen only in its log)."""
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    own = STARTED_LOGS[item.stash.get(FIRST_OF_TEST, len(STARTED_LOGS)):]
    for path in dict.fromkeys([*SERVER_LOGS, *own]):
        with contextlib.suppress(OSError):
            lines = path.read_text(errors="replace").splitlines()[-LOG_TAIL:]
            report.sections.append((f"server log {path} (last {LOG_TAIL} lines)",
                                    "\n".join(lines)))


@contextlib.contextmanager
def running_server(data: Path, log_path: Path, *args: str,
                   env: dict | None = None) -> Iterator[str]:
    """`companion serve` on DATA until the block ends; yields its base URL. Its access log
    is on (unless ``env`` says otherwise) and its log listed in `SERVER_LOGS` meanwhile."""
    give_translations(data)
    port = free_port()
    env = dict(os.environ if env is None else env)
    env.setdefault("COMPANION_ACCESS_LOG", "1")
    with log_path.open("w+") as log, _listed(log_path):
        proc = subprocess.Popen(
            [str(Path(sys.executable).with_name("companion")), "serve", "--host", "127.0.0.1",
             "--port", str(port), "--data", str(data), *args],
            stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=env)
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            if proc.poll() is not None:
                break
            with contextlib.suppress(OSError):
                urllib.request.urlopen(base + "/healthz", timeout=1).read()
                break
            time.sleep(0.1)
        else:
            proc.kill()
        if proc.poll() is not None:
            log.seek(0)
            pytest.fail("server did not start:\n" + log.read())
        try:
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


@contextlib.contextmanager
def _listed(path: Path) -> Iterator[None]:
    SERVER_LOGS.append(path)
    STARTED_LOGS.append(path)
    try:
        yield
    finally:
        SERVER_LOGS.remove(path)


def write_camera_loop(folder: Path, frames) -> None:
    """Frames for a folder camera source, which loops them: ``frames`` gives, per frame, the
    placements and the hands (or bare cards) the synthetic table's camera 3 sees. Each file
    is written whole (a temporary name, then renamed), so a source re-reading the folder
    while a test lays another card never reads half a file."""
    import cv2

    from hardware.synthetic.scene import Camera

    camera = Camera.create(3)
    folder.mkdir(exist_ok=True)
    for i, (shown, hands) in enumerate(frames):
        image, _ = camera.render(shown, seed=i, hands=hands)
        temp = folder / f"{i:03d}.tmp"  # not an image name: a reopened source never lists it
        temp.write_bytes(cv2.imencode(".jpg", image)[1].tobytes())
        os.replace(temp, folder / f"{i:03d}.jpg")


def hardware_up(base: str) -> bool:
    """The server's camera and dice reader both say "ok" (its /healthz)."""
    import json

    with urllib.request.urlopen(base + "/healthz", timeout=5) as answer:
        hardware = json.loads(answer.read())["hardware"]
    return all(hardware[part]["state"] == "ok" for part in ("camera", "dice"))


@contextlib.contextmanager
def running_with_simulated_hardware(data: Path, log_path: Path, threads: str) -> Iterator[str]:
    """`running_server` with the simulated camera and the emulated serial dice reader,
    yielded once both run."""
    from tests.waiting import PATIENCE, wait_for

    env = dict(os.environ, COMPANION_CAMERA_SIMULATE="auto", COMPANION_DICE_EMULATE="on",
               COMPANION_DICE_DEFAULT_SOURCE="serial")
    with running_server(data, log_path, "--threads", threads, env=env) as base:
        wait_for(lambda: hardware_up(base), timeout=4 * PATIENCE,
                 what="the camera and the dice reader running")
        yield base


@pytest.fixture(scope="session")
def chromium():
    """One chromium for the whole run: starting it costs seconds, a context costs little."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("chromium is not installed (tests/install-system-packages.sh)")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def browser(chromium):
    """The run's chromium for one test module: the contexts (pages, cookies, storage) the
    module opened are closed at its end, as if it had had a browser of its own."""
    before = set(chromium.contexts)
    yield chromium
    for context in chromium.contexts:
        if context not in before:
            context.close()


def pair_here(page, base: str, game_id: str, query: str = "") -> None:
    """The host's browser becomes the table display (host page: "Use this device as the
    table display"), then opens the table page (with ``query``, e.g. "?lang=pl")."""
    page.goto(f"{base}/host/{game_id}")
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.wait_for_function("() => window.TC && window.TC.view")
    button = page.locator("#pair-table form button[type=submit]")
    for _ in range(3):  # a panel shown above by a later view can move the summary under the click
        page.click("#pair-table summary")
        try:
            button.wait_for(state="visible", timeout=5000)
            break
        except PlaywrightTimeout:  # still closed: open it again
            continue
    button.click()
    page.wait_for_url(f"**/table/{game_id}")
    if query:
        page.goto(f"{base}/table/{game_id}{query}")


def pair_with_link(host_page, table_page, base: str, game_id: str, query: str = "") -> None:
    """The TV opens the one-time pairing link shown on the host page."""
    host_page.goto(f"{base}/host/{game_id}")
    from urllib.parse import urlsplit

    url = urlsplit(host_page.locator("#pair-url").get_attribute("href"))
    table_page.goto(f"{base}{url.path}?{url.query}")  # the link names the LAN address
    table_page.wait_for_url(f"**/table/{game_id}")
    if query:
        table_page.goto(f"{base}/table/{game_id}{query}")


def play_on_without_phones(page) -> None:
    """The paired table shows the lobby (the join codes) until every seat is taken; a test
    that plays on the table alone closes it as the table's players would."""
    page.wait_for_function("() => window.TC && window.TC.view")
    page.click("#lobby-close")
    page.wait_for_function("() => document.getElementById('join-panel').hidden")


# the first choice a page may send, sent as its buttons send it (a play that needs a discard
# takes the first allowed one); the version it was sent at, or null when none. The body for
# WebDriver's execute_script, FIRST_CHOICE as a function for Playwright's evaluate.
FIRST_CHOICE_BODY = """
const c = (TC.view.choices || []).find(c => !c.refused);
if (!c) return null;
const a = Object.assign({}, c.action);
const opts = c.effect && c.effect.discard_options;
if (opts && opts.length && !opts.includes(a.discard)) a.discard = opts[0];
TC.act(a);
return TC.view.version;"""
FIRST_CHOICE = "() => {" + FIRST_CHOICE_BODY + "\n}"


PHONE_CONTEXT = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def new_table(browser, base: str, game: str, names: dict[str, str], pin: str, errors: list,
              start: str | None = None, viewport: dict | None = None,
              options: dict[str, str] | None = None, at_table: str = "now"):
    """A new ``game`` from the new-game page with ``names`` {seat: name}, this browser paired
    as its table display (viewport: a TV); page errors go to ``errors``. The form's "At the
    table" answered ``at_table`` ("now": the camera and dice move to it, with ``pin`` as the
    host PIN of the game that has them when the form asks for it; "later").
    Returns (table page, {seat: join link}, game id)."""
    table = browser.new_context(viewport=viewport or {"width": 1920, "height": 1080}).new_page()
    table.on("pageerror", lambda e: errors.append(f"table: {e}"))
    table.goto(f"{base}/new?game={game}")
    assert table.locator(f"#game option[value={game}]").count() == 1
    for seat, name in names.items():
        table.fill(f"#name_{seat}", name)
    if start and table.locator("#start_seat").count():
        table.select_option("#start_seat", start)
    for option, value in (options or {}).items():  # a select's value
        table.select_option(f"#option_{option}", value)
    table.fill("#host_pin", pin)
    table.check(f"#at_table_{at_table}")
    if at_table == "now" and table.locator("#table_pin").count():
        table.fill("#table_pin", pin)
    table.click("#create-game")
    table.wait_for_url("**/host/**")
    game_id = table.url.rstrip("/").split("/")[-1]
    pair_here(table, base, game_id)
    table.wait_for_function("() => window.TC && window.TC.view")
    links = {a.get_attribute("data-seat"): a.get_attribute("href")
             for a in table.locator("a.join-link").all()}
    return table, links, game_id


def join_phone(browser, base: str, link: str, label: str, errors: list, lang: str = "en"):
    """A phone (PHONE_CONTEXT) joins through its seat's ``link`` and switches to ``lang``;
    its page errors go to ``errors`` under ``label``."""
    from urllib.parse import urlsplit

    page = browser.new_context(**PHONE_CONTEXT).new_page()
    page.on("pageerror", lambda e: errors.append(f"{label}: {e}"))
    parts = urlsplit(link)
    page.goto(f"{base}{parts.path}?{parts.query}")
    page.wait_for_url("**/play/**")
    page.goto(page.url.split("?")[0] + f"?lang={lang}")
    page.wait_for_function("() => window.TC && window.TC.view")
    return page


def table_and_phones(browser, base: str, game: str, players: dict[str, tuple[str, str]],
                     pin: str, errors: list, start: str | None = None,
                     viewport: dict | None = None):
    """A new ``game`` (new_table) with ``players`` {seat: (name, phone language)}, one phone
    per seat joined through its code (join_phone). Returns (table page, {seat: phone page},
    game id)."""
    names = {seat: name for seat, (name, _) in players.items()}
    table, links, game_id = new_table(browser, base, game, names, pin, errors, start, viewport)
    assert sorted(links) == sorted(players)
    phones = {seat: join_phone(browser, base, links[seat], seat, errors, lang)
              for seat, (_, lang) in players.items()}
    table.wait_for_function("() => document.getElementById('join-panel').hidden",
                            timeout=15000)
    return table, phones, game_id


def table_cookie(context, base: str, game_id: str, token: str) -> None:
    """The paired table display's cookie (a token from `GameService.new_table_token`) in a
    browser ``context``: it opens the table page as the table, as after pairing."""
    context.add_cookies([{"name": f"tc_table_{game_id}", "value": token, "url": base}])


def paired_tv(browser, base: str, game_id: str, token: str, lang: str, errors: list,
              size: dict | None = None, close_lobby: bool = True):
    """The paired TV of ``game_id`` (its cookie from ``token``, table_cookie) on the table
    page in ``lang`` (viewport ``size``, 1920x1080 by default), page errors to ``errors``;
    its lobby (the join codes, shown until every seat is taken) closed if ``close_lobby``."""
    context = browser.new_context(viewport=size or {"width": 1920, "height": 1080})
    table_cookie(context, base, game_id, token)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(f"tv: {e}"))
    page.goto(f"{base}/table/{game_id}?lang={lang}")
    page.wait_for_function("() => window.TC && TC.view && TC.view.role === 'table'")
    if close_lobby and page.locator("#lobby-close").is_visible():
        page.click("#lobby-close")
    return page


def joined_phone(browser, base: str, game_id: str, seat: str, code: str, lang: str,
                 errors: list, joined: dict):
    """``seat``'s phone (PHONE_CONTEXT) on the play page in ``lang``: joined with its
    ``code`` the first time, its cookies then kept in ``joined`` {(game id, seat): storage
    state} for the seat's next phone (a join code is for one phone)."""
    context = browser.new_context(**PHONE_CONTEXT, storage_state=joined.get((game_id, seat)))
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(f"phone: {e}"))
    if (game_id, seat) not in joined:
        page.goto(f"{base}/join/{game_id}/{seat}?code={code}")
        page.wait_for_url("**/play/**")
        joined[game_id, seat] = context.storage_state()
    page.goto(f"{base}/play/{game_id}?lang={lang}")
    page.wait_for_function("(s) => window.TC && TC.view && TC.view.seat === s", arg=seat)
    return page


def play_to(service, live, until, seed: int = 7, most: int = 4000) -> None:
    """Random legal moves (engine.api.random_move, each sent as its seat or the table would)
    on the game ``live`` until ``until(module, state)`` holds; fails after ``most``."""
    import random

    from companion.game.service import Identity
    from engine.api import random_move

    module, rnd = live.kind.module, random.Random(seed)
    for _ in range(most):
        if until(module, live.state):
            return
        action = random_move(module, live.state, rnd)
        if action is None:
            break
        by = action.get("by", "")
        service.act(Identity("seat", live.id, by) if by in live.seats
                    else Identity("table", live.id), action)
    pytest.fail(f"{live.kind.name}: the state wanted was not reached by random play")


def steps_of(module, state) -> list:
    """The table steps a game owes in ``state`` (its bindings' `table_steps`)."""
    listed = getattr(module.info.bindings, "table_steps", None)
    return list(listed(state)) if listed else []
