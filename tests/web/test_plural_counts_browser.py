"""The pages' own plural choice (issue 46 #13) in real chromium and WebKit against the real
server: for 0, 1, 2, 5 and 22 of every plural UI string of the shared client and of each
game (the counted things `count_<id>` through `TC.counted`, the rest through `TC.t`), in the
five languages, the browser's `Intl.PluralRules` picks the form CLDR gives the server
(tests/web/test_plural_counts.py checks those forms against gettext). And where a count was
written beside a bare name: the Pillars TV's supply in Spanish and German ("3 piedras por 8
trabajadores", not "3 piedra") and the Monasterium phone's starting pieces of a game of two
in Polish ("5 kości neutralnych", not "5 kości neutralne").
Screenshots: test-artifacts/browser/plurals-*.png (WebKit: webkit-plurals-*.png)."""
from __future__ import annotations

import json
import re

import pytest

from companion import context
from companion.server import i18n
from tests.web.conftest import PHONE_CONTEXT, play_to, running_server, table_cookie
from tests.web.test_browser import shot
from tests.web.test_webkit_browser import display, webkit  # noqa: F401 - fixtures

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(900)]
PIN = "2468"
GAMES = ("wwe", "pillars", "monasterium")
LANGS = ("en", "de", "it", "pl", "es")
NUMBERS = (0, 1, 2, 5, 22)
# every plural UI string's forms for NUMBERS, as the page writes them
SAID = """(keys) => { const out = {};
  for (const key of keys) out[key] = [0, 1, 2, 5, 22].map(n => key.startsWith('count_')
    ? TC.counted(key.slice(6), n) : TC.t(key, {n: n}));
  return out; }"""


def plural_keys(game: str) -> list[str]:
    keys = []
    for path in (i18n.WEB_DIR / "ui_strings.json", i18n.web_dir(game) / "ui_strings.json"):
        keys += [k for k, v in json.loads(path.read_text()).items() if isinstance(v, list)]
    return sorted(set(keys))


def expected(game: str, lang: str) -> dict[str, list[str]]:
    """What CLDR (through the server's forms) says for NUMBERS of each plural key."""
    strings = i18n.ui_strings(lang, game=game)
    return {key: [strings[key][i18n.plural_category(lang, n)].replace("{n}", str(n))
                  for n in NUMBERS] for key in plural_keys(game)
            if isinstance(strings[key], dict)}  # (a game's plain text may replace one)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A game of each kind (Monasterium of two: 5 neutral dice each; Pillars in its first
    draft, the supply laid out) with a paired TV's token and the join codes, two of each
    (Chromium's and WebKit's phones), and every language's expected forms:
    (base, {game: [(id, token, codes), ...]}, {(game, lang): {key: forms}})."""
    from companion.app import create_app

    data = tmp_path_factory.mktemp("pluraldata")
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    service = context.of(app).service
    made = {}
    for game in GAMES:
        seats = service._kinds(game).module.info.seats[:2]
        made[game] = []
        for _ in range(2):
            live = service.create(game, {"players": [{"seat": s.id, "name": n} for s, n in zip(
                seats, ("Anna", "Bruno"), strict=True)], "seed": 4}, PIN, to_table=False)
            if game == "pillars":
                play_to(service, live, lambda m, s: s["phase"] == "draft", seed=4)
            made[game].append((live.id, service.access.new_table_token(live.id),
                               service.store.join_codes(live.id)))
    with app.test_request_context("/"):
        forms = {(game, lang): expected(game, lang) for game in GAMES for lang in LANGS}
    service.store.close()
    log = tmp_path_factory.mktemp("plurallog") / "server.log"
    with running_server(data, log, "--no-hardware", "--threads", "20") as base:
        yield base, made, forms


def differences(said: dict, wanted: dict, label: str) -> list[str]:
    return [f"{label} {key}: the page says {said.get(key)}, CLDR {forms}"
            for key, forms in wanted.items() if said.get(key) != forms]


def test_every_plural_string_in_chromium(server, browser):
    base, made, forms = server
    problems, errors = [], []
    for game in GAMES:
        game_id, token, _codes = made[game][0]
        context = browser.new_context(viewport={"width": 1920, "height": 1080})
        table_cookie(context, base, game_id, token)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        for lang in LANGS:
            page.goto(f"{base}/table/{game_id}?lang={lang}")
            page.wait_for_function("() => window.TC && TC.view")
            wanted = forms[game, lang]
            problems += differences(page.evaluate(SAID, list(wanted)), wanted, f"{game} {lang}")
        context.close()
    assert not problems, "\n".join(problems[:40])
    assert not errors, errors


def supply_text(lang: str) -> str:
    return {"es": r"\b(?:[02-9]|\d\d+) (?:piedra|trabajador)\b",
            "de": r"\b(?:[02-9]|\d\d+) (?:Stein)\b"}[lang]


@pytest.mark.parametrize("lang", ["es", "de"])
def test_the_pillars_supply_counts_in_the_languages_forms(server, browser, lang):
    base, made, _forms = server
    game_id, token, _codes = made["pillars"][0]
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    table_cookie(context, base, game_id, token)
    page = context.new_page()
    page.goto(f"{base}/table/{game_id}?lang={lang}")
    page.wait_for_function("() => window.TC && TC.view")
    if page.locator("#lobby-close").is_visible():
        page.click("#lobby-close")
    page.wait_for_selector("#round-cards .card-box")  # the draft's supply
    text = page.locator("body").inner_text()
    assert not re.findall(supply_text(lang), text), re.findall(supply_text(lang), text)
    word = {"es": "trabajadores", "de": "Arbeiter"}[lang]
    assert word in text
    shot(page, f"plurals-pillars-supply-{lang}")
    context.close()


def test_the_starting_pieces_in_polish(server, browser):
    base, made, _forms = server
    game_id, _token, codes = made["monasterium"][0]
    phone = browser.new_context(**PHONE_CONTEXT).new_page()
    phone.goto(f"{base}/join/{game_id}/N?code={codes['N']}")
    phone.wait_for_url("**/play/**")
    phone.goto(f"{base}/play/{game_id}?lang=pl")
    phone.wait_for_selector("#setup-pieces-list li")
    pieces = phone.locator("#setup-pieces-list").inner_text()
    assert "5 kości neutralnych" in pieces and "24 nowicjuszy" in pieces, pieces
    assert "1 własna kość" in pieces and "1 Różaniec" in pieces, pieces
    shot(phone, "plurals-monasterium-pieces-pl")
    phone.context.close()


def test_every_plural_string_in_webkit(server, webkit):  # noqa: F811
    from tests.web.test_webkit_browser import CATCH, errors_of, open_phone, phone_frame_shot, until

    base, made, forms = server
    driver = webkit
    driver.set_window_size(1280, 900)
    driver.get(f"{base}/healthz")
    problems = []
    for game in GAMES:
        game_id, token, _codes = made[game][1]
        driver.add_cookie({"name": f"tc_table_{game_id}", "value": token, "path": "/"})
        for lang in LANGS:
            driver.get(f"{base}/table/{game_id}?lang={lang}")
            driver.execute_script(CATCH)
            until(driver, "return window.TC && TC.view && document.documentElement.lang === "
                          "arguments[0]", lang)
            wanted = forms[game, lang]
            said = driver.execute_script(f"return ({SAID})(arguments[0])", list(wanted))
            problems += differences(said, wanted, f"webkit {game} {lang}")
            assert errors_of(driver) == []
    assert not problems, "\n".join(problems[:40])
    # the starting pieces on an iPhone, in Polish
    game_id, _token, codes = made["monasterium"][1]
    open_phone(driver, base, game_id, "N", codes["N"], "pl")
    until(driver, "return !!document.querySelector('#setup-pieces-list li')")
    pieces = driver.find_element("id", "setup-pieces-list").get_attribute("textContent")
    assert "5 kości neutralnych" in pieces, pieces
    phone_frame_shot(driver, "plurals-monasterium-pieces-pl")
    assert errors_of(driver) == []
