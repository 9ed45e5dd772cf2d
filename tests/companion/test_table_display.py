"""What the table display gets beyond the public view: the catalog names in the page context
(played cards and resources shown by name, not id) and the choices of the prompts the table
itself may answer (the event-card picker), nothing private."""
from __future__ import annotations

import json
import random
import re

from companion import context
from companion.game import views
from companion.game.service import Identity
from engine.wwe import GAME
from tests.companion.conftest import LiveServer, Spy
from tests.companion.test_privacy import new_wwe_game
from tests.companion.test_wwe_sockets import advance_to
from tests.waiting import PATIENCE

TABLE_PROMPTS = {"reveal_event", "roll_tax", "reveal_plague", "return_houses",
                 "resolve_manual"}


def page_config(response) -> dict:
    html = response.get_data(as_text=True)
    match = re.search(r'<script type="application/json" id="page-config">(.*?)</script>', html,
                      re.S)
    assert match, html[:500]
    return json.loads(match.group(1))


def test_table_page_passes_catalog_names_in_the_page_language(games_app):
    client = games_app.test_client()
    game_id = new_wwe_game(client, ("N", "E"))
    catalog = context.of(games_app).service.get(game_id).kind.catalog
    card = next(c for c in catalog["action_cards"] if c["id"] == "sell_wool_cloth")
    response = client.get(f"/table/{game_id}?lang=pl")
    assert response.status_code == 200
    names = page_config(response)["names"]
    # cut to the page language and English, the Polish name as the catalog has it
    assert names["sell_wool_cloth"] == {"pl": card["names"]["pl"], "en": card["names"]["en"]}
    assert names["sell_wool_cloth"]["pl"] != names["sell_wool_cloth"]["en"]
    assert all(set(n) <= {"pl", "en"} for n in names.values())
    german = page_config(client.get(f"/table/{game_id}?lang=de"))["names"]
    assert german["sell_wool_cloth"] == {k: v for k, v in card["names"].items()
                                         if k in ("de", "en")}
    assert page_config(client.get("/"))["names"] == {}  # no game, no names


def test_phone_page_has_the_names_too(games_app):
    client = games_app.test_client()
    game_id = new_wwe_game(client, ("N", "E"))
    code = context.of(games_app).service.store.join_codes(game_id)["N"]
    assert client.get(f"/join/{game_id}/N?code={code}").status_code == 303
    names = page_config(client.get(f"/play/{game_id}?lang=it"))["names"]
    assert set(names["weaver"]) == {"it", "en"}


def test_table_choices_are_only_the_tables_own_over_a_whole_game(games_app):
    """At every step of a random game: the table's choices are actions by "table" of a
    prompt the table may answer, with no cost or gain of any seat; the host gets none."""
    service = context.of(games_app).service
    game_id = new_wwe_game(games_app.test_client(), ("E", "W"))
    live = service.get(game_id)
    rnd = random.Random(7)
    offered = set()
    with games_app.app_context():
        play_watching_the_table(service, game_id, live, rnd, offered)
    assert {"reveal_event", "roll_tax"} <= offered


def play_watching_the_table(service, game_id, live, rnd, offered):
    while live.status != "finished":
        table = views.build(live, "table", None, "en")
        assert views.build(live, "host", None, "en")["choices"] == []
        kinds = {p.kind for p in GAME.prompts(live.state)}
        for choice in table["choices"]:
            assert choice["action"]["by"] == "table"
            assert choice["action"]["type"] in TABLE_PROMPTS & kinds
            assert choice["cost"] == {}
            offered.add(choice["action"]["type"])
        action = GAME.random_action(live.state, rnd)
        by = action["by"]
        service.act(Identity("seat", game_id, by) if by in live.seats
                    else Identity("table", game_id), action)


def test_table_display_picks_the_revealed_event_card(games_app):
    service = context.of(games_app).service
    game_id = new_wwe_game(games_app.test_client(), ("N", "E", "S", "W"))
    rnd = random.Random(3)
    advance_to(service, game_id, "reveal_event", rnd)
    first = GAME.random_action(service.get(game_id).state, rnd)
    service.act(Identity("seat", game_id, first["by"]), first)
    advance_to(service, game_id, "reveal_event", rnd)  # the next round: one card is out
    server = LiveServer(games_app)
    table = Spy(server.url, {"role": "table", "game": game_id, "lang": "pl",
                                     "table_token": service.access.new_table_token(game_id)})
    try:
        assert table.got_view.wait(PATIENCE)
        view = table.views[-1]
        picks = view["choices"]
        chapter = service.get(game_id).state["chapter"]
        deck = [e["id"] for e in service.get(game_id).kind.catalog["event_cards"]
                if e["chapter"] == chapter]
        assert [c["action"]["card"] for c in picks] == deck
        assert all(c["action"] == {"type": "reveal_event", "by": "table",
                                   "card": c["action"]["card"]} for c in picks)
        refused = [c for c in picks if "refused" in c]
        assert [c["action"]["card"] for c in refused] == [first["card"]]
        with games_app.app_context():
            english = views.refusal(service.get(game_id).kind.reasons, "en",
                                    refused[0]["refused"]["code"],
                                    refused[0]["refused"]["params"])
        assert refused[0]["refused"]["message"] != english["message"]  # shown in Polish
        card = next(c["action"]["card"] for c in picks if "refused" not in c)
        version = view["version"]
        ack = table.call("act", {"action": {"type": "reveal_event", "card": card}})
        assert ack == {"ok": True, "version": version + 1}
        after = table.wait_version(version + 1)
        assert after["view"]["event"]["id"] == card
        assert after["choices"] == []  # now the active seat orients it
    finally:
        table.close()
        server.stop()
