"""Languages: .po compiled at start, refusals and UI strings translated per recipient."""
from __future__ import annotations

import json
import os

import pytest

from companion.server import i18n
from tests.companion.conftest import create_game, csrf


def test_translations_are_compiled_into_the_data_dir_once(app, tmp_path):
    compiled = tmp_path / "data" / "translations" / "pl" / "LC_MESSAGES" / "messages.mo"
    assert compiled.exists()
    source = i18n.WEB_DIR / "translations"
    assert i18n.compile_translations(source, tmp_path / "data" / "translations") == []
    # a .po newer than its .mo is compiled again
    po = source / "pl" / "LC_MESSAGES" / "messages.po"
    stale = po.stat().st_mtime - 10
    os.utime(compiled, (stale, stale))
    assert i18n.compile_translations(source, tmp_path / "data" / "translations") == ["pl"]
    assert compiled.stat().st_mtime >= po.stat().st_mtime


def test_broken_po_is_skipped_not_fatal(tmp_path):
    broken = tmp_path / "src" / "de" / "LC_MESSAGES"
    broken.mkdir(parents=True)
    (broken / "messages.po").write_text('msgid "a"\nmsgstr "b\n\n\x00garbage', encoding="utf-8")
    assert i18n.compile_translations(tmp_path / "src", tmp_path / "out") in ([], ["de"])


def test_server_refusal_in_polish(client):
    game_id = create_game(client)
    token = csrf(client)
    response = client.post(f"/host/{game_id}/login", json={"pin": "0000"},
                           headers={"X-CSRF-Token": token, "Accept-Language": "pl"})
    assert response.get_json()["message"] == "PIN jest nieprawidłowy."


def test_engine_template_translated_and_filled_per_language(app):
    with app.app_context():
        english = i18n.text("en", "It is {seat}'s turn.", {"seat": "Ann"}, game="wwe")
        german = i18n.text("de", "It is {seat}'s turn.", {"seat": "Ann"}, game="wwe")
    assert english == "It is Ann's turn."
    assert "Ann" in german and german != english


def test_ui_strings_have_every_polish_plural_form(app):
    with app.test_request_context("/?lang=pl"):
        strings = i18n.ui_strings("pl", game="wwe")
    houses = strings["houses_n"]
    assert set(houses) == {"one", "few", "many", "other"}
    assert houses["one"] == "{n} dom" and houses["few"] == "{n} domy"
    assert houses["many"] == "{n} domów"
    with app.test_request_context("/?lang=en"):
        assert i18n.ui_strings("en", game="wwe")["houses_n"] == {
            "one": "{n} house", "other": "{n} houses"}
        assert i18n.ui_strings("en")["actions_n"] == {  # a shared plural
            "one": "{n} action so far", "other": "{n} actions so far"}


def test_page_language_choice(client):
    page = client.get("/?lang=de")
    assert 'lang="de"' in page.get_data(as_text=True)
    assert client.get_cookie("lang").value == "de"
    assert 'lang="de"' in client.get("/").get_data(as_text=True)  # remembered
    other = client.application.test_client()
    assert 'lang="it"' in other.get("/", headers={"Accept-Language": "it,en;q=0.5"}).get_data(
        as_text=True)


def test_a_value_that_ends_a_sentence_gets_no_second_period():
    assert i18n.fill("Event: {card}.", {"card": "Because the works…"}) == (
        "Event: Because the works…")
    assert i18n.fill("{seat} passes. Next: {next}.", {"seat": "Ann B.", "next": "Bob"}) == (
        "Ann B. passes. Next: Bob.")
    assert i18n.fill("Round {chapter}.{round}", {"chapter": 2, "round": 3}) == "Round 2.3"
    assert i18n.fill("{missing}.", {}) == "{missing}."  # unknown stays visible
    assert i18n.fill("{n:>3}.", {"n": 7}) == "  7."


@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
def test_log_lines_about_event_cards_named_with_an_ellipsis_have_no_double_period(app, lang):
    """WWE's event cards are named by their first words ("Because the works…"): every log
    line naming a card, in every language, shows the name whole and one full stop at most."""
    from engine.wwe.texts import EVENT_TEXTS

    cards = json.loads((i18n.WEB_DIR.parent / "engine/wwe/data/event_cards.json").read_text(
        encoding="utf-8"))
    names = [c["names"][lang] for c in cards if c["names"]["en"].endswith("…")]
    templates = [t for t in EVENT_TEXTS.values() if "{card}" in t]
    assert len(names) >= 5 and any(t.endswith("{card}.") for t in templates)
    with app.app_context():
        for template in templates:
            for name in names:
                line = i18n.text(lang, template, {"card": name, "seat": "Ann B."}, game="wwe")
                assert name in line, line
                assert "…." not in line and ".." not in line, (lang, line)


@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
def test_the_plural_rules_kept_are_babel_s(lang):
    from babel import Locale

    assert i18n.PLURAL_RULES[lang] == Locale.parse(lang).plural_form.rules


@pytest.mark.parametrize("lang", [*sorted(i18n.LANGUAGES), "fr", "pt_BR"])
def test_plural_forms_are_each_category_s_first_number_s_text(lang):
    """`_plural_forms` asks the language's rule once per language (`_plural_samples`), not
    200 times per plural string (issue 71): the same forms, in the same order, as asking
    each number 0-199 in turn and 5 for a category no whole number reaches."""
    from babel.support import NullTranslations

    class Numbered(NullTranslations):  # the number each form was made with, in its text
        def ngettext(self, singular, plural, n):
            return f"{singular if n == 1 else plural} #{n}"

    rule = i18n._plural_rule(lang)
    expected: dict = {}
    for n in range(200):
        expected.setdefault(rule(n), n)
    for category in [*rule.tags, "other"]:
        expected.setdefault(category, 5)
    forms = i18n._plural_forms(Numbered(), lang, ["a {n}", "b {n}"])
    made = [(category, f"{'a' if n == 1 else 'b'} {{n}} #{n}") for category, n in expected.items()]
    assert list(forms.items()) == made
    assert i18n._plural_forms(Numbered(), lang, ["c {n}", "d {n}"])["other"].startswith("d")


def test_plural_forms_load_no_locale_data_of_babel():
    """babel's `Locale.plural_form` loads a language's whole CLDR data (9.6 MB of the
    worker's memory for the five, held all evening: issue 71); the plurals need only their
    rules. In a fresh process: every language's categories and forms, then babel's cache."""
    import subprocess
    import sys

    code = ("from babel.support import NullTranslations\n"
            "from babel import localedata\n"
            "from companion.server import i18n\n"
            "for lang in i18n.LANGUAGES:\n"
            "    [i18n.plural_category(lang, n) for n in range(30)]\n"
            "    i18n._plural_forms(NullTranslations(), lang, ['a {n}', 'b {n}'])\n"
            "print(sorted(localedata._cache))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=os.path.dirname(os.path.dirname(os.path.dirname(
                             os.path.abspath(__file__)))))
    assert out.stdout.strip() == "[]"


def test_a_name_in_several_languages_is_given_in_the_readers_then_english_then_its_id():
    """A card an owner entered in Polish only is still named on a German page (by its id):
    never an empty label; English stands in for a language the data lacks."""
    names = {"en": "Plague", "de": "Die Pest", "pl": ""}
    assert i18n.in_lang(names, "de", "plague") == "Die Pest"
    assert i18n.in_lang(names, "pl", "plague") == "Plague"  # empty: as missing
    assert i18n.in_lang({"pl": "Zaraza"}, "de", "plague") == "plague"
    assert i18n.in_lang({}, "it") == ""
