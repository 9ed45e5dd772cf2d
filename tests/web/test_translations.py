"""Every UI string, engine refusal reason and log text is translated into it, pl, es, de,
with the same placeholders, and the translations reach the pages through the real server."""
from __future__ import annotations

import json

import pytest
from babel.messages.pofile import read_po

from web import i18n_tool

LANGS = i18n_tool.LANGUAGES


@pytest.fixture(scope="module")
def template():
    return i18n_tool.extract()


def msgids(catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def test_the_template_holds_every_engine_and_ui_text(template):
    from companion.reasons import SERVER_REASONS
    from engine.wwe.reasons import REASONS
    from engine.wwe.texts import EVENT_TEXTS

    ids = msgids(template)
    for table in (REASONS, EVENT_TEXTS, SERVER_REASONS):
        missing = [v for v in table.values() if (v if isinstance(v, str) else v[0]) not in ids]
        assert not missing
    ui = json.loads(i18n_tool.UI_STRINGS.read_text(encoding="utf-8"))
    assert all((v if isinstance(v, str) else v[0]) in ids for v in ui.values())
    assert "New game" in ids  # from the Jinja templates


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_with_the_same_placeholders(lang, template):
    assert i18n_tool.problems(lang, template) == []


@pytest.mark.parametrize("lang", LANGS)
def test_po_files_are_current_and_headers_right(lang, template):
    with i18n_tool.po_path(lang).open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    assert catalog.num_plurals == i18n_tool.NPLURALS[lang]
    if lang == "pl":
        assert catalog.plural_expr.startswith("(n==1 ? 0 : n%10>=2 && n%10<=4")
    assert not catalog.fuzzy
    plurals = [m for m in catalog if m.id and isinstance(m.id, tuple)]
    assert plurals, "counts use ngettext"
    for m in plurals:
        assert len(m.string) == catalog.num_plurals and all(m.string), m.id


def test_placeholder_check_catches_a_mismatch():
    assert i18n_tool.placeholders("Not enough {item}: {need}") == {"{item}", "{need}"}
    assert i18n_tool.placeholders("%(num)d cards") == {"%(num)"}
    assert i18n_tool.placeholders("{{literal}} {x}") == {"{x}"}


def test_translations_reach_the_pages_and_messages(tmp_path):
    from companion import i18n
    from companion.app import create_app
    from engine.wwe.reasons import REASONS

    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "SECRET_KEY": "t"})
    with app.test_request_context("/"):
        message = i18n.text("pl", REASONS["site_taken"], {"site": "Plac 3"})
        assert message == "Plac Plac 3 jest już zajęty."
        strings = i18n.ui_strings("pl")
        houses = strings["houses_n"]
        assert {houses["one"], houses["few"], houses["many"]} == {
            "{n} dom", "{n} domy", "{n} domów"}
        assert i18n.ui_strings("de")["reconnecting"] == "Verbinde neu…"
    client = app.test_client()
    assert "Neues Spiel" in client.get("/?lang=de").get_data(as_text=True)
    assert "Nuova partita" in client.get("/new?lang=it").get_data(as_text=True)


def test_the_check_reports_missing_empty_fuzzy_and_wrong_placeholders(tmp_path, monkeypatch):
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    template = Catalog()
    for msgid in ("Missing one", "Empty one", "Fuzzy one", "Site {site} is taken.",
                  ("%(num)d house", "%(num)d houses")):
        template.add(msgid)
    po = Catalog(locale="pl")
    po.add("Empty one", "")
    po.add("Fuzzy one", "Niepewne", flags=["fuzzy"])
    po.add("Site {site} is taken.", "Plac {miejsce} jest zajęty.")
    po.add(("%(num)d house", "%(num)d houses"), ("%(num)d dom", "%(num)d domy", ""))
    path = tmp_path / "pl" / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True)
    with path.open("wb") as fh:
        write_po(fh, po)
    monkeypatch.setattr(i18n_tool, "TRANSLATIONS", tmp_path)
    found = "\n".join(i18n_tool.problems("pl", template))
    assert "missing 'Missing one'" in found
    assert "empty 'Empty one'" in found
    assert "fuzzy 'Fuzzy one'" in found
    assert "placeholders" in found and "{miejsce}" in found
    assert "empty '%(num)d house'" in found  # the third Polish form is missing
