"""Privacy over whole random World Without End games, through real sockets.

One spy client per seat (plus the table display and the host) records every message it
receives while random legal actions are played to the end of the game. Then, for every
message and every version of the game, nothing another seat holds privately (its
``private`` part: hand, face-down discards, resources, aside cards, private events) may
appear in it.
"""
from __future__ import annotations

import random

import pytest

from companion import context
from companion.game.views import localize
from companion.server.i18n import LANGUAGES
from engine.wwe import GAME
from tests.companion.conftest import LiveServer, Spy, csrf

NAMES = {"N": "Ann", "E": "Bo", "S": "Cy", "W": "Di"}


def new_wwe_game(client, seats) -> str:
    form = {"csrf_token": csrf(client), "game": "wwe", "host_pin": "1234"}
    for seat in seats:
        form[f"name_{seat}"] = NAMES[seat]
    response = client.post("/games", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:300]
    return response.headers["Location"].rsplit("/", 1)[-1]


def walk(node):
    """Every dict and list inside a message, the message included."""
    stack = [node]
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def forms(value):
    """A private value as sent: catalog texts are cut to the recipient's language."""
    out = [value]
    for lang in LANGUAGES:
        localized = localize(value, lang)
        if localized not in out:
            out.append(localized)
    return out


def assert_private_to(message, recipient: str | None, privates: dict) -> None:
    """``recipient`` (a seat, or None for table/host) sees no other seat's private data."""
    own = privates.get(recipient) if recipient else None
    for node in walk(message):
        if isinstance(node, dict) and "private" in node:
            value = node["private"]
            if isinstance(value, dict):
                assert recipient is not None and value in forms(own), "a private part leaked"
            elif value is not None:
                assert value == recipient, f"an event private to {value} reached {recipient}"
    for seat, private in privates.items():
        if seat == recipient:
            continue
        for key, value in private.items():
            if not value or (own and own.get(key) == value):
                continue  # empty, or the same as what the recipient holds itself
            leaks = forms(value)
            for node in walk(message):
                # a dict (resources) anywhere; a list (cards) under the same key name, since
                # every seat owns the same 12 action card ids
                leaked = (node in leaks if isinstance(value, dict)
                          else isinstance(node, dict) and node.get(key) in leaks)
                assert not leaked, f"{seat}'s {key} {value!r} reached {recipient}"


def play_random_game(app, client, live_url, seats, seed):
    service = context.of(app).service
    game_id = new_wwe_game(client, seats)
    spies = {"table": Spy(live_url, {"role": "table", "game": game_id, "lang": "en",
                                    "table_token": service.access.new_table_token(game_id)}),
             "host": Spy(live_url, {"role": "host", "game": game_id,
                                    "host_token": service.access.new_host_token(game_id)})}
    for i, seat in enumerate(seats):
        token = service.access.claim_seat(game_id, seat, service.store.join_codes(game_id)[seat])
        spies[seat] = Spy(live_url, {"role": "seat", "game": game_id, "token": token,
                                     "lang": ["en", "pl", "de", "it"][i % 4]})
    acks = {name: [] for name in spies}
    rnd = random.Random(seed)
    live = service.get(game_id)
    try:
        while live.status != "finished":
            action = GAME.random_action(live.state, rnd)
            assert action is not None
            sender = action["by"] if action["by"] in seats else "table"
            if rnd.random() < 0.05:  # now and then a seat tries another's move
                intruder = rnd.choice([s for s in seats if s != action["by"]] or seats)
                acks[intruder].append(spies[intruder].call("act", {"action": action}))
                assert live.version == len(service.store.actions(game_id))
            ack = spies[sender].call("act", {"action": action})
            acks[sender].append(ack)
            assert ack.get("ok"), (action, ack)
            for spy in spies.values():
                spy.wait_version(ack["version"])
            if rnd.random() < 0.03:
                spies[seats[0]].call("set_lang", {"lang": rnd.choice(["en", "es", "pl"])})
    finally:
        for spy in spies.values():
            spy.close()
    return game_id, spies, acks


@pytest.mark.slow
@pytest.mark.parametrize("seats,seed", [(("N", "E", "S", "W"), 11), (("N", "S"), 29)])
def test_no_seat_ever_receives_another_seats_private_data(tmp_path, seats, seed):
    from companion.app import create_app

    app = create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True})
    server = LiveServer(app)
    try:
        game_id, spies, acks = play_random_game(app, app.test_client(), server.url, seats,
                                                seed)
    finally:
        server.stop()
    service = context.of(app).service
    live = service.get(game_id)
    # the private parts of every seat at every version, by replaying the saved actions
    state = GAME.setup(live.kind.catalog, live.row["setup"])
    privates = [{s: GAME.seat_view(state, s)["private"] for s in seats}]
    for entry in service.store.actions(game_id):
        state, _ = GAME.apply(state, entry["action"])
        privates.append({s: GAME.seat_view(state, s)["private"] for s in seats})
    assert state == live.state and live.status == "finished"
    checked = 0
    for name, spy in spies.items():
        recipient = name if name in seats else None
        assert spy.views, f"{name} got no view"
        shown = iter(spy.views)  # each view or patch message gives the next view
        for event, data in spy.messages:  # every message as sent, patches included
            if event in ("view", "patch"):
                versions = [next(shown)["version"]]
            else:
                versions = range(len(privates))
            for v in versions:
                assert_private_to(data, recipient, privates[v])
        for data in spy.views:  # every view as the page has it (patches applied)
            version = data["version"]
            assert data["role"] == ("seat" if recipient else name)
            assert data["seat"] == recipient
            if recipient:
                assert data["view"]["private"] == localize(privates[version][recipient],
                                                           data["lang"])
                assert all(c["action"].get("by") in (recipient, None)
                           for c in data["choices"])
            else:  # the table only its own (which event card, die face), the host none
                assert "private" not in data["view"]
                assert all(c["action"].get("by") == "table" for c in data["choices"])
                assert name == "table" or data["choices"] == []
            checked += 1
        for ack in acks[name]:
            for v in range(len(privates)):
                assert_private_to(ack, recipient, privates[v])
    assert checked > 100 * len(spies)
