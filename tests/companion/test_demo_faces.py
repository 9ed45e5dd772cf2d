"""Issue 49: a whole World Without End chapter in the demo (`make run`: the simulated camera)
with every event card read by its printed face, no sticker on it: the owner's taught faces
(the demo's drawn faces, kept as the deck page keeps them) make the synthetic camera lay the
event cards bare, and the camera wiring (companion/wiring/camera_faces.py, the real
recogniser on the real rendered frames) reveals each one on the council space. Over real
sockets: each phone (a Socket.IO client per seat) sends its player's decisions (random legal
actions), the table display's client sees every event the camera revealed; no phone and
no table ever sends a reveal."""
from __future__ import annotations

import json
import random

import pytest

from companion import context
from companion.box import taught_cards
from companion.server.settings import resolve
from companion.wiring import camera as wiring
from companion.wiring.demo_faces import BareCard, drawn_face
from tests.companion.conftest import Spy
from tests.waiting import PATIENCE, wait_for

# the taught faces judged too alike or not once a test process (test_card_faces.py judges
# the same drawn faces)
pytestmark = pytest.mark.usefixtures("faces_judged_once")

PLAYERS = [{"seat": "N", "name": "Ala"}, {"seat": "E", "name": "Bruno"},
           {"seat": "S", "name": "Carmen"}]


@pytest.mark.heavy
def test_a_chapter_of_world_without_end_is_read_by_the_event_cards_faces(games_live):
    app, server = games_live
    service = context.of(app).service
    data = app.config["DATA_DIR"]
    live = service.create("wwe", {"players": PLAYERS, "start_seat": "N"}, "2468")
    info, catalog = live.kind.module.info, live.kind.catalog
    for entry in catalog["event_cards"]:
        taught_cards.save_face("wwe", data, info, catalog, entry["id"], drawn_face(entry["id"]))
    tv = Spy(server.url, {"role": "table", "game": live.id, "lang": "en",
                          "table_token": service.access.new_table_token(live.id)})
    phones = {}
    for p in PLAYERS:
        token = service.access.claim_seat(live.id, p["seat"],
                                   service.store.join_codes(live.id)[p["seat"]])
        phones[p["seat"]] = Spy(server.url, {"role": "seat", "game": live.id, "token": token})
    manager = context.of(app).hardware
    camera = wiring.start(resolve({"DATA_DIR": data, "CAMERA_SOURCE": "synthetic"}), service,
                          manager.changed)
    camera.set_acting(True)  # the demo camera acts once the host lets it
    rnd = random.Random(5)
    module = live.kind.module
    try:
        source = camera.camera.capture.source
        shown: list = []  # every scene the simulated camera drew
        scene = source.scene
        with source._lock:  # the scene drawn since the camera started counts too
            source.scene = lambda: (lambda cards: shown.append(cards) or cards)(scene())
            if source.current:
                shown.append(source.current)
        chapter = live.state["chapter"]
        revealed = []
        while live.state["chapter"] == chapter and not live.state["over"]:
            head = module.prompts(live.state)[0]
            if head.kind == "reveal_event":
                version = live.version
                wait_for(lambda n=version: live.version > n, 6 * PATIENCE,
                         what="the camera revealing the event card by its face")
                action = [a for _, a, _ in live.log if a["type"] == "reveal_event"][-1]
                assert action["by"] == "table" and action["card"] == live.state["event"]
                tv.wait_for(lambda v, n=version, card=action["card"]: v["version"] > n
                            and card in json.dumps(v["view"]))  # the TV shows it
                revealed.append(action["card"])
                continue
            action = module.random_action(live.state, rnd)
            assert action["type"] != "reveal_event" and action["by"] in phones
            version = live.version
            ack = phones[action["by"]].call("act", {"action": action})
            if not ack.get("ok"):  # the camera answered first (a card turned: its turn)
                assert live.version > version, ack
                continue
            wait_for(lambda n=version: live.version > n, PATIENCE, what="the phone's action")
        assert len(revealed) >= 5, revealed  # every round of the chapter opened by the camera
        laid = [card for cards in shown for card, *_ in cards]
        assert laid and all(isinstance(c, BareCard) for c in laid)  # no sticker drawn
        assert set(revealed) <= {c.key.split(":")[0] for c in laid}
        assert camera.faces.looks > 0
        # the demo lays the revealed card again each loop: one seen just as the next round
        # asks for its event is refused as revealed already (as a sticker's would be); no
        # other card was ever taken for it
        for warning in camera.status()["warnings"]:
            assert warning["code"] == "card_already_used", warning
            assert warning["params"]["card"] in revealed, warning
    finally:
        camera.stop()
        for spy in [tv, *phones.values()]:
            spy.close()
