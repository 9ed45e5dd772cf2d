"""The phone of whoever owes a step says it is theirs, never "Waiting" (issue 46 #2), in real
chromium (and WebKit, the engine of every iPhone) against the real server: every table step
of every game that names a player (the view's `steps`, companion/table/table_steps.py) –
The Pillars of the Earth's round preparation in rounds 1 and 2 (another start player), the
architect drawn, the event card, the tax die; World Without End's event card, tax die and
plague token; Monasterium's roll and a new personal die's roll – reached by random legal
play before the server starts.
That player's phone reads "Your turn" and the step in its language, in the seat's colour;
another player's phone says who is awaited; the TV names that player in its steps.
Screenshots (German and Spanish phones, and the TV beside them):
test-artifacts/browser/turn-owed-*.png (the TV: turn-owed-*-tv.png); WebKit:
webkit-turn-owed-*.png.
"""
from __future__ import annotations

import pytest

from companion import context
from tests.web.conftest import PHONE_CONTEXT, play_to, running_server, steps_of, table_cookie
from tests.web.test_browser import shot
from tests.web.test_webkit_browser import display, webkit  # noqa: F401 - fixtures

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(900)]
PIN = "2468"
NAMES = ("Anna", "Bruno", "Chiara", "Dario")


def step_is(kind, also=lambda m, s: True):
    """The state where the table owes a step ``kind`` that names a player."""
    return lambda m, s: also(m, s) and any(
        st.kind == kind and st.who != "table" for st in steps_of(m, s))


# (label, game, the state, the phone's language)
STATES = [
    ("pillars-lay-out-round-1", "pillars", step_is("lay_out"), "en"),
    ("pillars-lay-out-round-2", "pillars", step_is("lay_out", lambda m, s: s["round"] == 2),
     "de"),
    ("pillars-architect", "pillars", step_is("draw_architect"), "es"),
    ("pillars-event", "pillars", step_is("reveal_event"), "pl"),
    ("pillars-tax", "pillars", step_is("roll_tax"), "es"),
    ("wwe-event", "wwe", step_is("reveal_event"), "it"),
    ("wwe-tax", "wwe", step_is("roll_tax"), "de"),
    ("wwe-plague", "wwe", step_is("reveal_plague"), "es"),
    ("monasterium-roll", "monasterium", step_is("roll"), "de"),
    ("monasterium-roll-extra", "monasterium", step_is("roll_extra"), "es"),
]
SEEDS = {"monasterium-roll-extra": 0}  # random play reaches a new personal die with it
WEBKIT = ["pillars-architect", "wwe-tax", "monasterium-roll"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Each state as a game of its own, made before the server starts, with its join codes
    and a paired TV's token: {label: (game id, the seat that owes the step, another seat,
    {seat: code}, token)}."""
    from companion.app import create_app

    data = tmp_path_factory.mktemp("turnoweddata")
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    made = {}
    # WebKit's phones join games of their own: a join code works once
    wanted = STATES + [(label + "@webkit", *rest) for label, *rest in STATES
                       if label in WEBKIT]
    for label, game, until, _lang in wanted:
        seats = service._kinds(game).module.info.seats[:4]
        players = [{"seat": s.id, "name": n, "colour": s.colour}
                   for s, n in zip(seats, NAMES, strict=False)]
        seed = SEEDS.get(label.split("@")[0], 5)
        live = service.create(game, {"players": players, "seed": seed}, PIN)
        play_to(service, live, until, seed=seed)
        (owes,) = {st.who for st in steps_of(live.kind.module, live.state)}
        other = next(s for s in live.seats if s != owes)
        made[label] = (live.id, owes, other, service.store.join_codes(live.id),
                       service.access.new_table_token(live.id))
    service.store.close()
    log = tmp_path_factory.mktemp("turnowedlog") / "server.log"
    with running_server(data, log, "--no-hardware", "--threads", "30") as base:
        yield base, made


def phone(browser, base: str, game_id: str, seat: str, code: str, lang: str, errors: list):
    page = browser.new_context(**PHONE_CONTEXT).new_page()
    page.on("pageerror", lambda e: errors.append(f"{seat}: {e}"))
    page.goto(f"{base}/join/{game_id}/{seat}?code={code}")
    page.wait_for_url("**/play/**")
    page.goto(f"{base}/play/{game_id}?lang={lang}")
    page.wait_for_function("() => window.TC && TC.view && TC.view.steps")
    return page


@pytest.mark.parametrize("label", [s[0] for s in STATES])
def test_the_phone_of_whoever_owes_the_step_says_it_is_theirs(server, browser, label):
    base, made = server
    game_id, owes, other, codes, token = made[label]
    lang = next(s[3] for s in STATES if s[0] == label)
    errors: list = []
    mine = phone(browser, base, game_id, owes, codes[owes], lang, errors)
    step = mine.evaluate("() => TC.view.steps.find(s => s.who === TC.view.seat)")
    assert step, "the step names this seat"
    mine.wait_for_selector("#my-prompt.my-turn .turn-big")
    assert mine.locator("#my-prompt .turn-big").inner_text() == mine.evaluate(
        "() => TC.t('your_turn')")
    # what to do: the game's own words for a decision of this seat, else the step's
    what = mine.locator("#my-prompt .turn-what").inner_text()
    assert what.strip(), "what to do"
    if label.startswith("pillars"):  # the table's step: its words (the game has none)
        assert step["text"] in what, what
    waiting = mine.evaluate("() => TC.t('waiting_for', {what: ''}).trim()")
    assert waiting not in mine.locator("#my-prompt").inner_text()
    assert "waiting" not in mine.locator("#my-prompt").get_attribute("class")
    assert mine.evaluate("() => document.body.classList.contains('my-turn')")
    box = mine.locator("#my-prompt").bounding_box()
    assert box["y"] < 300, box  # at the top, as every "Your turn"
    if lang in ("de", "es"):
        shot(mine, f"turn-owed-{label}-{lang}")
        # the TV beside it names the same player in its steps
        context = browser.new_context(viewport={"width": 1920, "height": 1080})
        table_cookie(context, base, game_id, token)
        tv = context.new_page()
        tv.on("pageerror", lambda e: errors.append(f"tv: {e}"))
        tv.goto(f"{base}/table/{game_id}?lang={lang}")
        tv.wait_for_function("() => window.TC && TC.view && TC.view.role === 'table'")
        if tv.locator("#lobby-close").is_visible():  # not every phone joined: the lobby
            tv.click("#lobby-close")
        tv.wait_for_selector("#table-steps .table-step")
        name = tv.evaluate("(s) => TC.view.players.find(p => p.seat === s).name", owes)
        assert name in tv.locator("#table-steps").inner_text()
        shot(tv, f"turn-owed-{label}-{lang}-tv")
        context.close()
    theirs = phone(browser, base, game_id, other, codes[other], "en", errors)
    assert theirs.locator("#my-prompt.my-turn").count() == 0
    assert "Waiting" in theirs.locator("#my-prompt").inner_text()
    for page in (mine, theirs):
        page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("label", WEBKIT)
def test_in_webkit_too(server, webkit, label):  # noqa: F811
    from tests.web.test_webkit_browser import errors_of, open_phone, phone_frame_shot, until

    base, made = server
    game_id, owes, _other, codes, _token = made[label + "@webkit"]
    lang = next(s[3] for s in STATES if s[0] == label)
    driver = webkit
    open_phone(driver, base, game_id, owes, codes[owes], lang)
    until(driver, "return !!document.querySelector('#my-prompt.my-turn .turn-what')")
    what = driver.find_element("css selector", "#my-prompt .turn-what").text
    step = driver.execute_script("return TC.view.steps.find(s => s.who === TC.view.seat).text")
    assert what.strip() and (step in what or not label.startswith("pillars")), (step, what)
    assert driver.find_element("css selector", "#my-prompt .turn-big").text == \
        driver.execute_script("return TC.t('your_turn')")
    phone_frame_shot(driver, f"turn-owed-{label}-{lang}")
    assert errors_of(driver) == []
