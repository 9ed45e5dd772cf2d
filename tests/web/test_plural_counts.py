"""Every count in words by each language's plural rules (CLDR), in every game (issue 46 #13):
the log's "{seat} loses {amount} {item}." names the item in the form its count asks for
(`Namer.count_words`, from the game's plural UI strings ``count_<id>``, which the phones
use through `TC.counted`), and a text whose noun is in the text itself ("for {cost} gold",
"{n} neutral dice") is a [singular, plural] pair, in every text the log, the prompts, the
refusals, the setup guide and the pages' scripts use (a game's and the app's own).
For 0, 1, 2, 5 and 22 of every counted word and every plural text, in the five languages,
each language's forms are filled, the server's gettext choice and the phones' CLDR choice
agree and give the language's form, and Polish tells one from few and many.
(tests/web/test_plural_counts_browser.py: the pages' own choice in Chromium and WebKit.)"""
from __future__ import annotations

import json
import random
import re

import pytest

from companion import context
from companion.game.games import module_of
from companion.game.views import COUNTS, Namer
from companion.server import i18n
from engine.api import template_fields

GAMES = ("wwe", "pillars", "monasterium")
LANGS = ("en", "de", "it", "pl", "es")
NUMBERS = (0, 1, 2, 5, 22)
# a count in a text before a noun of the text itself ("{count} dice", "{cost} gold"): the
# noun takes the count's form, so the text is a [singular, plural] pair; what may follow a
# number in every language whatever the count (an abbreviation, "×", "of" a total, a word
# of the sentence)
SAME_FOR_EVERY_COUNT = ("VP", "×", "of", "to", "and", "or", "on", "in", "for", "from", "is",
                        "before", "needed", "expected", "free", "left", "anywhere", "done",
                        "entered", "at", "→", "Hz")  # a unit symbol: "50 Hz", "1 Hz"
# placeholders that name something (a seat, a card, a place), never a count
NAMES = {"seat", "name", "names", "card", "item", "cube", "project", "site", "space", "who",
         "part", "field", "option", "key", "colour", "monastery", "chapter", "round", "year",
         "location", "zone", "by", "type", "id", "lang", "ref", "what", "kind", "source",
         "active", "first", "start", "punishments", "cancel", "trade", "area", "place",
         "column", "col", "act", "row", "novice", "m", "input", "output", "craftsman",
         "action", "dice", "others", "unit", "version", "path", "fields", "replacement",
         "reason", "handed", "missing", "die", "shown", "game", "players", "face_name",
         "to", "from", "why", "rule", "value_name", "total", "taught", "done", "entered",
         "before", "after", "delta", "width", "height", "other", "sign", "label", "title",
         "cause", "roles", "minutes_left", "chosen", "zone_name", "url", "host", "pin"}
# what the issue saw, and what each language says instead
EXPECTED = {
    ("wwe", "de", "vp", 1): "1 Siegpunkt", ("wwe", "de", "vp", 22): "22 Siegpunkte",
    ("wwe", "it", "vp", 1): "1 punto vittoria", ("wwe", "it", "gold", 1): "1 moneta",
    ("wwe", "it", "gold", 5): "5 monete", ("wwe", "pl", "gold", 1): "1 monetę",
    ("wwe", "pl", "gold", 2): "2 monety", ("wwe", "pl", "gold", 5): "5 monet",
    ("wwe", "pl", "gold", 22): "22 monety", ("wwe", "pl", "gold", 0): "0 monet",
    ("wwe", "pl", "wool", 1): "1 wełnę", ("wwe", "en", "vp", 1): "1 victory point",
    ("monasterium", "pl", "book", 5): "5 ksiąg", ("monasterium", "en", "tool", 2): "2 tools",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    from companion.app import create_app

    app = create_app({"DATA_DIR": str(tmp_path_factory.mktemp("plurals")), "TESTING": True})
    with app.test_request_context("/"):
        yield app


@pytest.fixture(scope="module")
def lives(app):
    """A game of each kind (two players)."""
    service = context.of(app).service
    return {game: service.create(game, {"players": [{"seat": s.id, "name": s.id} for s in
                                                    module_of(game).info.seats[:2]]},
                                 "2468", to_table=False) for game in GAMES}


def counted_ids(game: str) -> list[str]:
    """The things the game counts in words (its plural UI strings ``count_<id>``)."""
    strings = json.loads((i18n.web_dir(game) / "ui_strings.json").read_text())
    return sorted(k[len("count_"):] for k in strings if k.startswith("count_"))


def logged_items(game: str) -> set[str]:
    """The things a random game's log counts (an event's string param beside its count)."""
    from companion.box.catalog import load_catalog

    module = module_of(game)
    seats = module.info.seats[:3]
    state = module.setup(load_catalog(game), {"players": [
        {"seat": s.id, "name": s.id, "colour": s.colour} for s in seats], "seed": 5})
    rnd, found = random.Random(5), set()
    for _ in range(3000):
        if module.is_over(state):
            break
        state, events = module.apply(state, module.random_action(state, rnd))
        for event in events:
            if any(type(event.get(k)) is int for k in COUNTS):
                found |= {v for k, v in event.items() if k in ("item", "cube") and
                          isinstance(v, str)}
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_counted_thing_of_the_log_has_its_forms(app, game):
    """A planted fault: a game's log counting a thing with no ``count_<id>`` fails here."""
    missing = logged_items(game) - set(counted_ids(game))
    assert not missing, f"{game}: the log counts {sorted(missing)} with no count_<id>"


def texts_of(game: str | None) -> dict[str, object]:
    """{where: text} of every text a game (None: the app) shows in the log, on the phones
    and the TV: its log templates, prompts, refusals, setup guide, scripts' UI strings."""
    from companion.game import hardware_texts
    from companion.game.reasons import SERVER_REASONS
    from companion.table import table_steps
    from companion.table.table_guide import guide_of

    if game is None:
        tables = {"server refusal": SERVER_REASONS, "hardware": hardware_texts.MESSAGES,
                  "table step": table_steps.TEXTS,
                  "ui": json.loads((i18n.WEB_DIR / "ui_strings.json").read_text())}
    else:
        info = module_of(game).info
        tables = {"log": info.texts.events, "prompt": info.texts.prompts,
                  "refusal": info.texts.reasons, "term": info.texts.terms,
                  "ui": json.loads((i18n.web_dir(game) / "ui_strings.json").read_text())}
        guide = guide_of(info.table_guide) or {"steps": [], "pieces": []}
        tables["setup"] = {f"step {s['id']}": s["text"] for s in guide["steps"]}
        tables["setup"].update({f"piece {i}": p["text"] for i, p in enumerate(guide["pieces"])})
    return {f"{what} {key}": text for what, table in tables.items()
            for key, text in table.items()}


def counts_before_nouns(text: str) -> list[str]:
    """The "{count} noun"s of a text (a number placeholder, then a word of the text)."""
    found = re.findall(r"(?:\{(\w+)\}|%\((\w+)\)d) ([^\s{.,:;()·]+)", text)
    return [f"{a or b} {word}" for a, b, word in found
            if (a or b) not in NAMES and word not in SAME_FOR_EVERY_COUNT]


@pytest.mark.parametrize("game", [*GAMES, None])
def test_a_noun_after_a_count_is_in_a_plural_pair(app, game):
    """A planted fault: "{seat} places an architect on {space} for {cost} gold." as one
    text ("1 złota") fails here, as does "{n} neutral dice" ("5 kości neutralne")."""
    single = {where: counts_before_nouns(text) for where, text in texts_of(game).items()
              if isinstance(text, str) and counts_before_nouns(text)}
    assert not single, f"{game or 'the app'}: counted nouns without a plural form: {single}"


def test_the_check_finds_a_count_before_a_noun():
    assert counts_before_nouns("{seat} places an architect on {space} for {cost} gold.") == [
        "cost gold"]
    assert counts_before_nouns("{n} neutral dice") == ["n neutral"]
    assert counts_before_nouns("Step {n} of {total}") == []


def plural_texts(game: str | None) -> dict[str, tuple]:
    """{where: (singular, plural, the counting param or None)} of every plural text."""
    out = {}
    for where, text in texts_of(game).items():
        if isinstance(text, list | tuple) and len(text) >= 2:
            out[where] = (text[0], text[1], text[2] if len(text) > 2 else None)
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", [*GAMES, None])
def test_every_plural_text_in_the_languages_forms(app, game, lang):
    """0, 1, 2, 5, 22 of every plural text: translated (not the English for a language
    whose forms differ), the server's text takes the form of its own count (another number
    in it is 7), the UI string's form for the CLDR category is gettext's, and a Polish count
    tells one from few and many where English tells one from many (unless the number stands
    apart: "witraży: 5"; few and many may agree: "2 robotników", "5 robotników")."""
    chain = i18n.translations(lang, game)
    strings = i18n.ui_strings(lang, game=game)
    problems = []
    for where, (singular, plural, counter) in sorted(plural_texts(game).items()):
        if lang != "en" and not any((singular, 0) in getattr(t, "_catalog", {})
                                    for t in chain.layers):
            problems.append(f"{where}: not translated ({singular!r})")
            continue
        fields = template_fields([singular, plural])
        count = counter or next((k for k in COUNTS if k in fields), None)
        seen = {}
        for n in NUMBERS:
            form = chain.ngettext(singular, plural, n)
            category = i18n.plural_category(lang, n)
            seen[category] = form
            if count:  # the server's text: the form of its count, not of another number
                params = {k: 7 for k in fields} | {count: n}
                said = i18n.text(lang, [singular, plural] + ([counter] if counter else []),
                                 params, chain=chain)
                if said != i18n.fill(form, params):
                    problems.append(f"{where} {n}: said {said!r}, its form is {form!r}")
            key = where[len("ui "):] if where.startswith("ui ") else None
            if key and isinstance(strings.get(key), dict):  # a page script's: the phone's
                phone = strings[key][category]
                if phone != form.replace("%(num)d", "{n}"):
                    problems.append(f"{where} {n}: the phone says {phone!r}, gettext {form!r}")
        apart = re.search(r":\s*(%\(num\)d|\{\w+\})\.?$", seen.get("other", ""))
        if lang == "pl" and singular != plural and not apart and seen["one"] in (
                seen["few"], seen["many"]):
            problems.append(f"{where}: Polish one as few or many: {seen}")
    assert not problems, f"{game or 'the app'} {lang}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_each_count_in_the_languages_plural_form(app, lives, game, lang):
    """0, 1, 2, 5, 22 of each counted word: the phones' form (CLDR category, as
    `TC.counted` picks it with Intl.PluralRules) is gettext's (the .po's Plural-Forms), the
    log line ("{seat} receives {amount} {item}.") carries it, and a language with more
    forms than English uses them (Polish: one, few and many differ for a countable)."""
    live = lives[game]
    namer = Namer(live, lang)
    strings = i18n.ui_strings(lang, game=game)
    chain = i18n.translations(lang, game)
    source = {k: v for k, v in json.loads(
        (i18n.web_dir(game) / "ui_strings.json").read_text()).items() if k.startswith("count_")}
    gain = live.kind.event_texts["gain"]
    problems = []
    for key, (singular, plural) in sorted(source.items()):
        item = key[len("count_"):]
        forms = strings[key]
        seen = {}
        for n in NUMBERS:
            category = i18n.plural_category(lang, n)
            phone = forms[category].replace("{n}", str(n))
            server = chain.ngettext(singular, plural, n).replace("%(num)d", str(n))
            seen[category] = phone
            if phone != server:
                problems.append(f"{item} {n}: the phone says {phone!r}, gettext {server!r}")
            shown = namer.count_words({"seat": "X", "item": item, "amount": n},
                                      {"seat": "Ala", "item": namer(item, "item"),
                                       "amount": n})
            line = i18n.text(lang, gain, shown, game=game, chain=chain)
            if phone not in line:
                problems.append(f"{item} {n}: the log says {line!r}, not {phone!r}")
            wanted = EXPECTED.get((game, lang, item, n))
            if wanted and phone != wanted:
                problems.append(f"{item} {n}: {phone!r}, not {wanted!r}")
        if singular != plural and len(set(seen.values())) < len(seen):
            problems.append(f"{item}: a countable thing with a form shared by two "
                            f"categories: {seen}")
    assert not problems, f"{game} {lang}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_a_template_with_its_own_noun_follows_the_count(app, lang):
    """Monasterium's "takes 1 die" / "takes 2 dice", in every language's forms."""
    texts = module_of("monasterium").info.texts.events
    chain = i18n.translations(lang, "monasterium")
    said = {n: i18n.text(lang, texts["dice_taken"], {"seat": "Ala", "count": n, "space": 3,
                                                      "column": "B"}, chain=chain)
            for n in NUMBERS}
    for n, line in said.items():
        assert f" {n} " in line, line
    if lang == "en":
        assert "takes 1 die " in said[1] and "takes 2 dice " in said[2], said
    if lang == "pl":
        assert "1 kość " in said[1] and "5 kości " in said[5], said


def test_a_namer_reads_the_counted_words_once(app, lives, monkeypatch):
    """A view's namer looks the game's UI strings up once, however many counted things its
    log lines and prompts word (each look-up finds the game's folder and stats its files:
    a third of a view's time in the evening's profile, issue 71), and still words each
    count. Planted fault caught (by hand): the look-up per word, 6 look-ups for 6 words."""
    game = GAMES[0]
    item = counted_ids(game)[0]
    looked = []
    real = i18n.ui_strings
    monkeypatch.setattr(i18n, "ui_strings", lambda *a, **k: looked.append(1) or real(*a, **k))
    namer = Namer(lives[game], "pl")
    words = [namer.count_words({"item": item, "amount": n}, {"item": item})["item"]
             for n in (1, 2, 5, 1, 2, 5)]
    forms = real("pl", game=game)[f"count_{item}"]
    assert words == [" ".join(forms[i18n.plural_category("pl", n)].replace("{n}", " ").split())
                     for n in (1, 2, 5, 1, 2, 5)]
    assert len(looked) == 1
