"""Every UI string, engine refusal reason and log text is translated into it, pl, es, de,
with the same placeholders, in its own gettext domain (the shared one, and one per game), and
the translations reach the pages through the real server."""
from __future__ import annotations

import json
import pathlib
import re

import pytest
from babel.messages.pofile import read_po

from web import i18n_tool

DOMAINS = {d.name: d for d in i18n_tool.domains()}
# each domain in its languages: the shared one in all, a game's in those it declares
KEPT = [(name, lang) for name, d in sorted(DOMAINS.items()) for lang in d.languages]


@pytest.fixture(scope="module")
def templates():
    return {name: i18n_tool.extract(d) for name, d in DOMAINS.items()}


def msgids(catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def first(value) -> str:
    return value if isinstance(value, str) else value[0]


def test_each_game_has_its_domain_found_through_the_entry_points():
    assert {"shared", "wwe"} <= set(DOMAINS)
    assert DOMAINS["wwe"].translations == i18n_tool.ROOT / "web/games/wwe/translations"


def test_the_shared_template_holds_the_shared_texts_and_no_game_text(templates):
    from companion.game.reasons import SERVER_REASONS
    from engine.wwe.texts import EVENT_TEXTS

    ids = msgids(templates["shared"])
    assert all(first(v) in ids for v in SERVER_REASONS.values())
    ui = json.loads(i18n_tool.UI_STRINGS.read_text(encoding="utf-8"))
    assert all(first(v) in ids for v in ui.values())
    assert "New game" in ids  # from the shared Jinja templates
    assert "Favor track" not in ids  # World Without End's table partial
    # the game's log texts are not the shared domain's (unless the shared client says the
    # same words itself: "The game is over.")
    assert not (ids & {first(v) for v in EVENT_TEXTS.values()}) - {first(v) for v in ui.values()}


def test_the_game_template_holds_every_text_the_game_declares(templates):
    from engine.wwe import GAME

    info = GAME.info
    ids = msgids(templates["wwe"])
    for table in (info.texts.reasons, info.texts.events, info.texts.prompts, info.texts.terms):
        missing = [v for v in table.values() if first(v) not in ids]
        assert not missing
    assert all(o.text in ids for o in info.options)
    assert all(s.name in ids for s in info.seats)
    ui = json.loads((i18n_tool.ROOT / "web/games/wwe/ui_strings.json").read_text("utf-8"))
    assert all(first(v) in ids for v in ui.values())
    assert "Favor track" in ids  # from the game's template partials


@pytest.mark.parametrize(("domain", "lang"), KEPT)
def test_every_message_is_translated_with_the_same_placeholders(domain, lang, templates):
    assert i18n_tool.problems(lang, templates[domain], DOMAINS[domain]) == []


@pytest.mark.parametrize(("domain", "lang"), KEPT)
def test_po_files_are_current_and_headers_right(domain, lang):
    with DOMAINS[domain].po_path(lang).open("rb") as fh:
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
    from companion.app import create_app
    from companion.server import i18n
    from engine.wwe.reasons import REASONS

    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "SECRET_KEY": "t"})
    with app.test_request_context("/"):
        message = i18n.text("pl", REASONS["site_taken"], {"site": "Plac 3"}, game="wwe")
        assert message == "Plac Plac 3 jest już zajęty."
        # a caller that does not know the game still finds the installed games' texts
        assert i18n.text("pl", REASONS["site_taken"], {"site": "Plac 3"}) == message
        strings = i18n.ui_strings("pl", game="wwe")
        houses = strings["houses_n"]
        assert {houses["one"], houses["few"], houses["many"]} == {
            "{n} dom", "{n} domy", "{n} domów"}
        assert strings["reconnecting"] == i18n.ui_strings("pl")["reconnecting"]  # shared too
        assert i18n.ui_strings("de")["reconnecting"] == "Verbinde neu…"
        assert "houses_n" not in i18n.ui_strings("de")  # the game's strings: with the game
    assert (tmp_path / "translations/games/wwe/pl/LC_MESSAGES/messages.mo").exists()
    client = app.test_client()
    assert "Neues Spiel" in client.get("/?lang=de").get_data(as_text=True)
    assert "Nuova partita" in client.get("/new?lang=it").get_data(as_text=True)


def test_a_game_text_is_looked_up_in_the_game_domain_first():
    from companion.server.i18n import Chain

    class Catalog:
        def __init__(self, table):
            self._catalog = table

        def gettext(self, msgid):
            return self._catalog[msgid]

        def ngettext(self, s, p, n):
            return self._catalog[(s, 0 if n == 1 else 1)]

    game = Catalog({"Market": "Targ (gra)", ("%(num)d house", 0): "%(num)d dom",
                    ("%(num)d house", 1): "%(num)d domy"})
    shared = Catalog({"Market": "Targ", "Host": "Gospodarz"})
    chain = Chain([game, shared])
    assert chain.gettext("Market") == "Targ (gra)"
    assert chain.gettext("Host") == "Gospodarz"
    assert chain.gettext("Nowhere") == "Nowhere"
    assert chain.ngettext("%(num)d house", "%(num)d houses", 2) == "%(num)d domy"
    assert chain.ngettext("%(num)d card", "%(num)d cards", 2) == "%(num)d cards"


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


# Italian words ending in "ché" (perché, poiché, benché ...) and "né", "sé" take an acute
# accent; the grave one ("perchè") is a common slip that reads as a typo to a player.
ITALIAN_GRAVE_SLIPS = re.compile(r"\b(\w*chè|nè|sè)\b", re.IGNORECASE)


def italian_texts():
    """(where, text) for every Italian text shipped: the .po files and the rule data."""
    root = pathlib.Path(__file__).resolve().parents[2]
    for po in sorted(root.glob("web/**/it/LC_MESSAGES/messages.po")):
        with po.open("rb") as f:
            for m in read_po(f):
                for text in ([m.string] if isinstance(m.string, str) else m.string):
                    yield f"{po.relative_to(root)}:{first(m.id)}", text or ""

    def walk(node, where):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "it" and isinstance(value, str):
                    yield where, value
                else:
                    yield from walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from walk(value, f"{where}[{i}]")

    for data in sorted(root.glob("engine/*/data/*.json")):
        yield from walk(json.loads(data.read_text(encoding="utf-8")), str(data.relative_to(root)))


def test_italian_texts_use_the_acute_accent_in_perche_and_its_kin():
    texts = list(italian_texts())
    assert len(texts) > 500  # the walk reached the catalogs and the .po files
    slips = [(where, m.group(0)) for where, text in texts
             for m in ITALIAN_GRAVE_SLIPS.finditer(text)]
    assert not slips, slips
    assert ITALIAN_GRAVE_SLIPS.search("Perchè il lavoro…")


def test_a_game_outside_the_repository_is_a_domain_when_named(tmp_path, monkeypatch):
    """`python -m web.i18n_tool check pig`: a plug-in shipped as its own package names
    itself; with no names the tool works on the shared domain and this repository's games."""
    from types import SimpleNamespace

    folder = tmp_path / "pig_web"
    (folder / "translations").mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    pig = SimpleNamespace(id="pig", web="pig_web")
    monkeypatch.setattr(i18n_tool, "installed_games", lambda: {"pig": pig})
    assert [(d.name, d.translations) for d in i18n_tool.domains(["pig"])] == [
        ("pig", folder / "translations")]
    assert [d.name for d in i18n_tool.domains()] == ["shared"]


def test_update_writes_no_machine_path_for_a_game_outside_the_repository(tmp_path,
                                                                          monkeypatch):
    """`i18n_tool update liars` on the walk-through's game copied outside this repository
    (as its author keeps it): the .pot and .po name its files from the folder holding the
    package ("tc_liarsdice/web/templates/phone.html:2"), never the author's absolute folder
    (issue 68; planted fault: `_shown` returning ``str(path)`` again puts tmp_path in both)."""
    import shutil
    import sys

    source = pathlib.Path(__file__).resolve().parents[1] / "plugins" / "liarsdice"
    shutil.copytree(source / "tc_liarsdice", tmp_path / "tc_liarsdice",
                    ignore=shutil.ignore_patterns("__pycache__"))
    kept = {m: sys.modules.pop(m) for m in list(sys.modules)
            if m == "tc_liarsdice" or m.startswith("tc_liarsdice.")}
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        from tc_liarsdice import GAME

        monkeypatch.setattr(i18n_tool, "installed_games", lambda: {"liars": GAME.info})
        i18n_tool.update(["liars"])
    finally:
        for m in [m for m in sys.modules if m == "tc_liarsdice" or m.startswith("tc_liarsdice.")]:
            del sys.modules[m]
        sys.modules.update(kept)
    translations = tmp_path / "tc_liarsdice" / "web" / "translations"
    for path in (translations / "messages.pot", translations / "de/LC_MESSAGES/messages.po"):
        text = path.read_text(encoding="utf-8")
        assert str(tmp_path) not in text and "#: tc_liarsdice/web/templates/phone.html:2" in text
