"""Log and prompt texts name things in the recipient's language: seats by player names,
catalog ids by catalog names (favor spaces and resources included), and the engine's own
words (cover targets, punishments) through the translations; never a raw id."""
from __future__ import annotations

import random
import re

from companion import context
from companion.game import views
from companion.game.service import Identity
from engine.wwe import GAME
from tests.companion.test_privacy import new_wwe_game


def test_namer_uses_catalog_names_and_scoped_terms(games_in_context):
    app = games_in_context
    service = context.of(app).service
    live = service.get(new_wwe_game(app.test_client(), ("N", "E")))
    namer = views.Namer(live, "pl")
    assert namer("guild", "id") == "Cech"  # a favor space: a language map in game.json
    assert namer("stone") == "Kamień"  # a resource
    assert namer("favor", "target") == "tor przysług"  # the cover target: the favor track
    assert namer("favor", "card") == "Przysługa"  # elsewhere "favor" is the action card
    assert namer(["penance", "royal_court"], "punishments") == "Pokuta, Królewski sąd"
    assert namer("N") == live.players[0]["name"]


def test_no_raw_id_in_a_whole_polish_game_log(games_in_context):
    """A random 4-player game to its end: the table's and every seat's log in Polish
    contains none of the ids the engine puts into event params."""
    app = games_in_context
    service = context.of(app).service
    game_id = new_wwe_game(app.test_client(), ("N", "E", "S", "W"))
    live = service.get(game_id)
    rnd = random.Random(11)
    while GAME.prompts(live.state):
        action = GAME.random_action(live.state, rnd)
        by = action["by"]
        who = Identity("seat", game_id, by) if by in live.seats else Identity("table", game_id)
        service.act(who, action)
    catalog = live.kind.catalog
    ids = (set(catalog["game"]["favor_spaces"]) | set(catalog["game"]["resources"])
           | {"penance", "begging", "royal_court", "market", "project", "favor"})
    raw = re.compile(r"\b(" + "|".join(sorted(ids)) + r")\b")
    views.LOG_LENGTH, saved = 10**6, views.LOG_LENGTH
    try:
        texts = {e["text"] for seat in (None, *live.seats)
                 for e in views.log_entries(live, seat, "pl", views.Namer(live, "pl"))}
    finally:
        views.LOG_LENGTH = saved
    assert len(texts) > 50
    leaks = sorted(t for t in texts if raw.search(t))
    assert leaks == []



def polish_log_of_a_random_game(app, game: str, seats: str, seed: int) -> set[str]:
    """Every text of the table's log, in Polish, of a random ``game`` played to its end."""
    from companion.game.games import discovered

    module = discovered()[game]
    service = context.of(app).service
    live = service.create(game, {"players": [{"seat": s} for s in seats], "seed": seed},
                          "1234")
    rnd = random.Random(seed)
    while module.prompts(live.state):
        action = module.random_action(live.state, rnd)
        by = action["by"]
        who = Identity("seat", live.id, by) if by in live.seats else Identity("table", live.id)
        service.act(who, action)
    views.LOG_LENGTH, saved = 10**6, views.LOG_LENGTH
    try:
        return {e["text"] for e in views.log_entries(live, None, "pl", views.Namer(live, "pl"))}
    finally:
        views.LOG_LENGTH = saved


def test_no_english_resource_or_raw_place_in_a_polish_monasterium_log(games_in_context):
    """Monasterium's log in Polish: resources by their Polish words, buildings and
    cloister spaces by their names, never an id such as "soup" or "A.lay1"."""
    app = games_in_context
    from engine.monasterium.state import RES

    texts = polish_log_of_a_random_game(app, "monasterium", "NE", 5)
    raw = re.compile(r"\b(" + "|".join(RES) + r")\b|\b[A-E]\.(lay|work|hall|cl)\d\b")
    assert len(texts) > 50
    assert sorted(t for t in texts if raw.search(t)) == []


def test_no_card_id_or_english_cube_in_a_polish_pillars_log(games_in_context):
    """The Pillars of the Earth in Polish: cards by their names (a card id is snake_case),
    cubes by their Polish words ("metal" is Polish too)."""
    app = games_in_context
    texts = polish_log_of_a_random_game(app, "pillars", "NES", 5)
    raw = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\b(wood|stone|sand|gold)\b")
    assert len(texts) > 100
    assert sorted(t for t in texts if raw.search(t)) == []


def test_the_log_says_chapter_i_as_the_game_does(games_in_context):
    """World Without End's log numbers chapters as everything else does ("Chapter I, round
    1"), in every language; other numbers stay numbers."""
    app = games_in_context
    service = context.of(app).service
    game_id = new_wwe_game(app.test_client(), ("N", "E"))
    live = service.get(game_id)
    namer = views.Namer(live, "de")
    assert namer(2, "chapter") == "II" and namer(2, "round") == 2 and namer(True, "x") is True
    rnd = random.Random(3)
    while not any(e.get("type") == "round_started" for _, _, e in live.log):
        action = GAME.random_action(live.state, rnd)
        by = action["by"]
        service.act(Identity("seat", game_id, by) if by in live.seats
                    else Identity("table", game_id), action)
    texts = {e["type"]: e["text"] for e in views.build(live, "table", None, "en")["log"]}
    assert texts["round_started"].startswith("Chapter I, round 2:"), texts["round_started"]
    german = {e["type"]: e["text"] for e in views.build(live, "table", None, "de")["log"]}
    assert " I" in german["round_started"] and " 1," not in german["round_started"]


def test_a_favor_names_the_person_with_its_article_and_case(games_in_context):
    """Issue 69 #7: "Anna erhält die Gunst der Königin", never "… von Königin": the log's
    favor line takes the favor space's name in its form after "of" (catalog game.forms.of)
    in each language. Planted fault: the Namer giving no forms (`Namer.forms` returning
    ``shown`` as it came) writes the plain name: "die Gunst Königin" fails here."""
    app = games_in_context
    service = context.of(app).service
    game_id = new_wwe_game(app.test_client(), ("N", "E"))
    live = service.get(game_id)
    event = {"type": "favor", "seat": "N", "space": "queen"}
    live.log.append((10**6, {}, event))
    try:
        said = {lang: views._log_entry(live, lang, views.Namer(live, lang), len(live.log) - 1)
                [1]["text"] for lang in ("en", "de", "it", "es", "pl")}
    finally:
        live.log.pop()
    name = live.players[0]["name"]
    assert said == {
        "en": f"{name} receives the favor of the Queen.",
        "de": f"{name} erhält die Gunst der Königin.",
        "it": f"{name} riceve il favore della Regina.",
        "es": f"{name} recibe el favor de la Reina.",
        "pl": f"{name} otrzymuje przysługę Królowej.",
    }


def test_a_name_with_no_such_form_shows_plain():
    """A text asking for a form the catalog does not give a name (a catalog the owner
    edited without it) shows the plain name, never the placeholder."""
    from companion.server import i18n

    assert i18n.fill("{seat} gets {space.of}.", {"seat": "Anna", "space": "Guild"}) == \
        "Anna gets Guild."
    assert i18n.fill("{seat} gets {space.of}.", {"seat": "Anna", "space": "Guild",
                                                 "space.of": "of the Guild"}) == \
        "Anna gets of the Guild."
