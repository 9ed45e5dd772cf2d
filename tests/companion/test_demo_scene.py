"""The simulated camera shows the current game's own cards (issue 24 #3): each game declares
its demo scene (`Bindings.demo_scene`), the synthetic camera draws it (real frames, real
decoder, the game's zones) and, once the host lets it act, plays the game's table steps: a
Pillars table's round preparation card by card and its event card. What it would do is said
in words (card names, never an action id), and a warning that repeats is said once."""
from __future__ import annotations

import random

import pytest

from companion import context
from companion.game import hardware_texts
from companion.game.service import Identity
from companion.game.views import Namer
from companion.server.settings import resolve
from companion.wiring import camera as wiring
from companion.wiring.demo_scene import SceneSource, placements, scene_for
from engine.api import DemoCard
from tests.waiting import PATIENCE, wait_for

PLAYERS = [{"seat": "N", "name": "Ala"}, {"seat": "E", "name": "Bruno"},
           {"seat": "S", "name": "Carmen"}]


def wait(predicate) -> bool:
    """The simulated camera's pace on a loaded machine: a longer bound than the usual one."""
    return bool(wait_for(predicate, timeout=4 * PATIENCE, what="the demo scene"))


def test_each_game_declares_its_scene_in_its_own_zones(games_in_context):
    app = games_in_context
    service = context.of(app).service
    for game in ("wwe", "pillars", "monasterium"):
        live = service.create(game, {"players": PLAYERS, "start_seat": "N"}, "2468")
        info = live.kind.module.info
        cards = info.bindings.demo_scene(live.kind.catalog, live.state)
        zones = {z.id for z in info.bindings.zones}
        assert all(isinstance(c, DemoCard) and c.zone in zones for c in cards)
        laid = placements(info, live.kind.catalog, cards)
        if game == "pillars":  # round preparation: the first privilege on Kingsbridge
            assert [c.zone for c in cards] == ["kingsbridge"]
            assert laid[0][0].startswith("TC1:PILLAR:V:")
        if game == "wwe":  # the chapter's first event card on the council space
            assert [c.zone for c in cards] == ["council"] and laid[0][0].startswith("TC1:WWE:E:")
        if game == "monasterium":  # no stickers: nothing to lay
            assert laid == []
    # the scene follows the newest game: its frames show that game's cards
    source = SceneSource(scene_for(service, None, None))
    source.open()
    frame = source.read()
    assert frame.shape == (720, 1280, 3) and source.current == []  # monasterium: empty


@pytest.mark.heavy
def test_a_pillars_table_is_laid_out_by_the_simulated_camera(games_in_context):
    app = games_in_context
    service = context.of(app).service
    live = service.create("pillars", {"players": PLAYERS, "start_seat": "N"}, "2468")
    manager = context.of(app).hardware
    settings = resolve({"DATA_DIR": app.config["DATA_DIR"],
                        "CAMERA_SOURCE": "synthetic"})
    handle = wiring.start(settings, service, manager.changed)
    try:
        assert isinstance(handle.camera.capture.source, SceneSource)
        assert handle.acting is False  # the demo camera first only shows what it would do
        assert wait(lambda: handle.status()["would"])
        shown = hardware_texts.translated({"camera": handle.status()}, "it",
                                          live.kind.reasons, Namer(live, "it"))["camera"]
        text = shown["would"][0]["text"]
        card = shown["would"][0]["action"]["card"]
        assert live.kind.names[card]["it"] in text and "_" not in text
        assert live.version == 0
        handle.set_acting(True)
        assert wait(lambda: live.state["phase"] == "draft"), live.state["phase"]
        kinds = [a["type"] for _, a, _ in live.log]
        assert {"reveal_privilege", "reveal_craftsman", "reveal_material"} <= set(kinds)
        assert "deal" not in kinds  # every card was laid by the camera
        # the players play on to the event: the camera reveals it
        rnd = random.Random(2)
        module = live.kind.module
        while live.state["phase"] not in ("event", "over"):
            action = module.random_action(live.state, rnd)
            by = action["by"]
            who = (Identity("seat", live.id, by) if by in live.seats
                   else Identity("table", live.id))
            service.act(who, action)
        assert live.state["phase"] == "event"
        assert wait(lambda: live.state["event"] is not None)
        assert [a for _, a, _ in live.log][-1]["type"] == "reveal_event"
        codes = [w["code"] for w in handle.status()["warnings"]]
        assert len(codes) == len(set(codes))  # a repeated warning is said once
    finally:
        handle.stop()


def test_monasterium_s_simulated_camera_throws_the_dice_in_its_tray_and_reads_them(
        games_in_context):
    """`make run`: the simulated camera shows a tray with the dice the game owes (the active
    player's personal die in their colour, the neutral ones white), the camera's dice reader
    reads the throw, and the roll is played through the game's bindings, player after player;
    while no roll is owed the tray is empty and nothing is read."""
    from companion.wiring import dice as dice_wiring
    from companion.wiring.demo_scene import TRAY_MM

    app = games_in_context
    service = context.of(app).service
    live = service.create("monasterium", {"players": PLAYERS[:2], "start_seat": "N"}, "2468")
    manager = context.of(app).hardware
    settings = resolve(
        {"DATA_DIR": app.config["DATA_DIR"], "CAMERA_SOURCE": "synthetic",
         "DICE_DEFAULT_SOURCE": "camera", "DICE_PORT": "/dev/nonexistent-dice"})
    camera = manager.camera = wiring.start(settings, service, manager.changed)
    dice = manager.dice = dice_wiring.start(settings, service, manager.changed, camera,
                                            context.of(app).kinds)
    try:
        source = camera.camera.capture.source
        assert source.tray_mm == TRAY_MM and dice.source == "camera"
        rolled = []
        for seat in ("N", "E"):  # Ala, then Bruno: each rolls, the camera reads it
            assert wait(lambda: live.state["place"]["rolled"]), live.state["place"]
            action = next(a for _, a, _ in reversed(live.log) if a["type"] == "roll")
            rolled.append(action)
            assert live.state["active"] == seat and action["by"] == "table"
            mine = [d for d in action["faces"] if live.state["dice"][d]["owner"] == seat]
            assert mine and all(1 <= f <= 6 for f in action["faces"].values())
            assert source.thrown[1][0] == {"N": "blue", "E": "red"}[seat]
            # the state moves inside the wiring's act; its status records the roll just after
            applied = wait(lambda faces=action["faces"]: (
                dice.status()["last_applied"] or {}).get("faces") == faces)
            assert applied and dice.status()["last_applied"]["game"] == live.id
            # the player places their dice: the next player owes a roll
            rnd = random.Random(3)
            while live.state["active"] == seat and not live.state["over"]:
                action = live.kind.module.random_action(live.state, rnd)
                if action["type"] == "roll":
                    break
                by = action["by"]
                service.act(Identity("seat", live.id, by) if by in live.seats
                            else Identity("table", live.id), action)
        assert rolled[0]["faces"] != rolled[1]["faces"]
        assert dice.status()["state"] == "ok" and dice.status()["tray"]["tray"] == list(TRAY_MM)
    finally:
        camera.stop()
