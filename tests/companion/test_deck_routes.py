"""The deck page's doors (companion/blueprints/deck.py): only the host, CSRF on every write,
typed and bounded bodies; a refused entry writes nothing; problems come in the page's
language. The toy game's catalog (tests/plugins/toygame) through the app's test client."""
from __future__ import annotations

import json

from tests.companion.conftest import create_game, csrf


def host(client, game_id, pin="1234"):
    token = csrf(client)
    client.post(f"/host/{game_id}/login", json={"pin": pin}, headers={"X-CSRF-Token": token})
    return {"X-CSRF-Token": token}


def test_the_deck_needs_the_host(client, app):
    game_id = create_game(client)
    other = app.test_client()
    assert other.get(f"/host/{game_id}/deck/data.json").status_code == 401
    assert other.get(f"/host/{game_id}/deck").status_code == 401  # the login page
    assert other.get(f"/host/{game_id}/deck/export.json").status_code == 401
    token = csrf(other)
    assert other.post(f"/host/{game_id}/deck/save", json={"part": "cards", "entry": {}},
                      headers={"X-CSRF-Token": token}).status_code == 401


def test_checks_write_nothing_and_refusals_are_translated(client, app, tmp_path):
    game_id = create_game(client)
    headers = host(client, game_id)
    data = client.get(f"/host/{game_id}/deck/data.json").get_json()
    assert data["ok"] and data["game"] == "toy"
    assert [p["id"] for p in data["parts"]] == ["cards"]
    assert data["parts"][0]["entry_schema"]["properties"]["points"]["maximum"] == 10
    entry = {"id": "copper_coin", "names": {"en": "Copper coin"}, "points": 11}
    folder = tmp_path / "data" / "catalogs" / "toy"
    # no CSRF token: refused before anything
    assert client.post(f"/host/{game_id}/deck/save",
                       json={"part": "cards", "entry": entry}).status_code == 400
    check = client.post(f"/host/{game_id}/deck/check?lang=it", headers=headers,
                        json={"part": "cards", "entry": entry}).get_json()
    assert not check["ok"] and check["problems"][0]["field"] == "points"
    saved = client.post(f"/host/{game_id}/deck/save", headers=headers,
                        json={"part": "cards", "entry": entry})
    assert saved.status_code == 422
    assert not (folder / "cards.json").exists()
    for body in ("[1, 2]", '{"part": 5, "entry": {}}', '{"part": "cards", "entry": "x"}',
                 "not json", json.dumps({"part": "x" * 5000, "entry": {}})):
        response = client.post(f"/host/{game_id}/deck/save", headers={
            **headers, "Content-Type": "application/json"}, data=body)
        assert response.status_code == 422, body
        assert response.get_json()["problems"][0]["message"]
    unknown = client.post(f"/host/{game_id}/deck/save", headers=headers,
                          json={"game": "nope", "part": "cards", "entry": entry})
    assert unknown.status_code == 422
    good = client.post(f"/host/{game_id}/deck/save", headers=headers,
                       json={"part": "cards", "entry": dict(entry, points=4)})
    assert good.status_code == 200 and good.get_json()["ok"]
    assert json.loads((folder / "cards.json").read_text())[0]["points"] == 4


def test_import_refuses_a_broken_export_and_keeps_the_cards(client, app, tmp_path):
    game_id = create_game(client)
    headers = host(client, game_id)
    client.post(f"/host/{game_id}/deck/save", headers=headers, json={
        "part": "cards", "entry": {"id": "gold_coin", "names": {"en": "Gold"}, "points": 6}})
    bundle = client.get(f"/host/{game_id}/deck/export.json").get_json()
    assert bundle["files"]["cards.json"][0]["points"] == 6
    broken = json.loads(json.dumps(bundle))
    broken["files"]["cards.json"][0]["points"] = "six"
    refused = client.post(f"/host/{game_id}/deck/import", headers=headers, json=broken)
    assert refused.status_code == 422 and refused.get_json()["problems"]
    other = dict(bundle, game="wwe")
    assert client.post(f"/host/{game_id}/deck/import", headers=headers,
                       json=other).status_code == 422
    cards = tmp_path / "data" / "catalogs" / "toy" / "cards.json"
    assert json.loads(cards.read_text())[0]["points"] == 6
    bundle["files"]["cards.json"][0]["points"] = 7
    assert client.post(f"/host/{game_id}/deck/import", headers=headers,
                       json=bundle).get_json()["ok"]
    assert json.loads(cards.read_text())[0]["points"] == 7


def test_unknown_parts_and_oversized_bodies_are_refused_and_change_nothing(client, tmp_path):
    game_id = create_game(client)
    headers = host(client, game_id)
    folder = tmp_path / "data" / "catalogs"
    entry = {"id": "gold_coin", "names": {"en": "Gold"}, "points": 6}
    for path in ("save", "check", "photo"):
        response = client.post(f"/host/{game_id}/deck/{path}", headers=headers,
                               json={"part": "nope", "entry": entry})
        assert response.status_code == (200 if path == "check" else 422), path
        assert not response.get_json()["ok"]
        assert "nope" in response.get_json()["problems"][0]["message"]
    big = dict(entry, note="x" * 70_000)  # over the entry's 64 kB door
    assert client.post(f"/host/{game_id}/deck/save", headers=headers,
                       json={"part": "cards", "entry": big}).status_code == 422
    bundle = {"format": "table-companion-catalog", "version": 1, "game": "toy",
              "files": {"cards.json": [dict(entry, note="y" * 150) for _ in range(15_000)]}}
    assert client.post(f"/host/{game_id}/deck/import", headers=headers,
                       json=bundle).status_code == 422  # over the 2 MB door
    assert client.post(f"/host/{game_id}/deck/import", headers={
        **headers, "Content-Type": "application/json"}, data="{not json").status_code == 422
    assert not folder.exists() or not any(folder.rglob("*.json"))


def test_problems_name_the_entry_and_the_field_in_the_page_language(client):
    game_id = create_game(client)
    headers = host(client, game_id)
    data = client.get(f"/host/{game_id}/deck/data.json?game=wwe&lang=de").get_json()
    events = next(p for p in data["parts"] if p["id"] == "event_cards")
    assert events["fields"][:3] == ["id", "names", "chapter"]
    assert events["entry_schema"]["properties"]["chapter"]["title"] == "Kapitel"
    card = next(e for e in events["entries"] if e["id"] == "ralph_fitzgerald")
    check = client.post(f"/host/{game_id}/deck/check?lang=de", headers=headers, json={
        "game": "wwe", "part": "event_cards", "entry": dict(card, chapter=9)}).get_json()
    mine = [p for p in check["problems"] if p["entry"] == "ralph_fitzgerald"]
    assert [p["field"] for p in mine] == ["chapter"]  # the game's words, not the schema's too
    assert mine[0]["message"].startswith("Ralph Fitzgerald… · Kapitel: ")
    # a schema rule in words: the toy's points are 1-10
    check = client.post(f"/host/{game_id}/deck/check?lang=pl", headers=headers, json={
        "part": "cards", "entry": {"id": "copper_coin", "names": {"en": "Copper coin"},
                                   "points": 11}}).get_json()
    assert check["problems"][0]["message"] == "Copper coin · points: może wynosić najwyżej 10"
