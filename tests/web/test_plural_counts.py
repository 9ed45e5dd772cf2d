"""Every count in words by each language's plural rules (CLDR), in every game (issue 46 #13):
the log's "{seat} loses {amount} {item}." names the item in the form its count asks for
(`Namer.count_words`, from the game's plural UI strings ``count_<id>``, which the phones
use through `TC.counted`), and a log text whose noun is in the template itself is a
[singular, plural] pair. For 0, 1, 2, 5 and 22 of every counted word the log and the phones
use, in the five languages, the server's gettext choice and the phones' CLDR choice agree
and give the language's form."""
from __future__ import annotations

import json
import random
import re

import pytest

from companion import context
from companion.game.games import module_of
from companion.game.views import COUNTS, Namer
from companion.server import i18n

GAMES = ("wwe", "pillars", "monasterium")
LANGS = ("en", "de", "it", "pl", "es")
NUMBERS = (0, 1, 2, 5, 22)
# a count in a log template before a noun of the template itself ("{count} dice"): the noun
# takes the count's form, so the template is a [singular, plural] pair; these nouns are the
# same for every count in every language (an abbreviation, a mass noun, "×")
SAME_FOR_EVERY_COUNT = ("VP", "gold", "wool", "×", "of")
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


@pytest.mark.parametrize("game", GAMES)
def test_a_noun_in_a_counted_template_is_a_plural_pair(game):
    events = module_of(game).info.texts.events
    single = {key: text for key, text in events.items() if isinstance(text, str) and any(
        word not in SAME_FOR_EVERY_COUNT for word in re.findall(
            r"\{(?:" + "|".join(COUNTS) + r")\} ([^{\s.,:;()]+)", text))}
    assert not single, f"{game}: counted nouns without a plural form: {single}"


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
