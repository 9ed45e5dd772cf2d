"""World Without End's tax die read by the table camera, end to end (issue 33 point 3): a real
server with real Socket.IO clients, the camera as the dice source, the tax die taught on the
host's deck page (its routes, over HTTP) from trays rendered by the generator
(hardware/synthetic/dice_tray.py) as the camera sees them (`CameraDice.tray_image`), then a
thrown tax die read by the real reader and recorded as the tax roll. Untaught, the die is
not read (it is tapped in as before); an unsure reading is asked of the rolling player only.
"""
from __future__ import annotations

import cv2
import pytest

from companion import context
from companion.server.settings import DiceSettings
from companion.wiring import camera_dice
from companion.wiring import dice as wiring
from hardware.dice.observations import Roll
from hardware.synthetic import dice_tray
from tests.companion.conftest import csrf
from tests.companion.test_camera_dice_wiring import (
    FullResolution,
    RunningCamera,
    seat_spy,
    throw_frames,
)
from tests.companion.test_dice_wiring import play_live_to_tax
from tests.waiting import wait_for

PIN = "2468"
PLAYERS = [{"seat": s, "name": n} for s, n in zip("NESW", ["Ala", "Bruno", "Carmen", "Dieter"],
                                                   strict=True)]


def at_tax(games_live):
    """A World Without End game at its tax roll, the camera as the dice source, its tray the
    whole 480x360 frame; the dice wiring as the server runs it (`dice.start`)."""
    app, server = games_live
    service = context.of(app).service
    live = service.create("wwe", {"players": PLAYERS, "seed": 5}, PIN)
    play_live_to_tax(service, live)
    manager = context.of(app).hardware
    handle = wiring.DiceWiring(service, manager.changed, DiceSettings(port="/nonexistent"),
                               app.config["DATA_DIR"])
    camera = RunningCamera()
    wiring.attach_camera(handle, service, camera)
    context.of(app).kinds.subscribe(handle.camera.catalog_changed)
    camera_dice.save_tray(handle.config_path, (0.0, 0.0, 480.0, 360.0))
    manager.dice = handle
    handle.choose("camera")
    return app, server, service, live, handle, camera


def roll_device(view) -> dict:
    """The tax roll's step on a screen: what records it."""
    step = next(s for s in view["steps"] if s["kind"] == "roll_tax")
    return step["devices"][0]


def host(client, service, game_id) -> dict:
    """The host's headers for the deck routes (the page's CSRF token, the host's token)."""
    return {"X-CSRF-Token": csrf(client),
            "Authorization": f"Bearer {service.access.new_host_token(game_id)}"}


def teach(client, headers, game_id, camera, faces) -> None:
    """Each face alone in the tray, taken from the camera on the deck page."""
    for face in faces:
        camera.show(dice_tray.lone(face, seed=face))
        answer = client.post(f"/host/{game_id}/deck/die_face", headers=headers,
                             json={"game": "wwe", "role": "tax", "face": face}).get_json()
        assert answer["ok"], answer


@pytest.mark.heavy
def test_the_taught_tax_die_is_read_and_recorded_as_the_tax_roll(games_live):
    app, server, service, live, handle, camera = at_tax(games_live)
    client = app.test_client()
    headers = host(client, service, live.id)
    version = live.version
    who = wiring.roll_step(live).who
    spies = []
    try:
        spy = seat_spy(server.url, service, live.id, who)
        spies.append(spy)
        # untaught: the camera does not read the tax die, nothing is played, nobody is asked
        # (the table taps it in, as before)
        for image in throw_frames(["coin", "white"], [4, 3], seed=5):
            camera.show(image)
        wait_for(lambda: handle.status()["rolls_seen"] == 1, what="the untaught throw")
        assert live.version == version and handle.status()["pending"] is None
        assert handle.camera.settler.taught == ()
        # so no screen promises the camera reads it: the step says to enter it by hand
        assert handle.status()["state"] == "untaught"
        handle.changed()
        seen = spy.wait_for(lambda v: v["hardware"]["dice"]["state"] == "untaught")
        device = roll_device(seen)
        assert not device["present"] and "has not learnt" in device["text"], device

        # the deck page teaches it from the camera's tray (a refusal first: two dice there)
        camera.show(dice_tray.render([dice_tray.Die(150, 180, 36.0, 10.0, 3, "coin"),
                                      dice_tray.Die(330, 180, 36.0, 0.0, 4, "white")], seed=2))
        refused = client.post(f"/host/{live.id}/deck/die_face", headers=headers,
                              json={"game": "wwe", "role": "tax", "face": 3}).get_json()
        assert refused["ok"] is False and "more than one die" in str(refused), refused
        handle.choose("phones")  # no roll read while the owner lays each face in the tray
        teach(client, headers, live.id, camera, (2, 3, 4, 5))
        handle.choose("camera")
        assert handle.status()["state"] == "ok"  # the camera reads the tax die now
        seen = spy.wait_for(lambda v: v["hardware"]["dice"]["state"] == "ok")
        assert roll_device(seen)["present"]

        # Ala throws the tax die beside an ordinary one: read, and recorded as the tax roll
        for image in throw_frames(["coin", "white"], [4, 3], seed=5):
            camera.show(image)
        applied = wait_for(lambda: handle.status()["last_applied"], what="the tax roll")
        assert applied["type"] == "roll_tax" and applied["value"] == 4
        assert [d.name for d in handle.camera.settler.taught] == ["tax"]
        spy.wait_version(version + 1)  # Ala's phone sees the game move on
        assert wiring.roll_step(live) is None  # the tax is rolled: no roll awaited now
    finally:
        for spy in spies:
            spy.close()


@pytest.mark.heavy
def test_a_forgotten_face_makes_the_camera_leave_the_die_to_the_table(games_live):
    """The deck page's change reaches the running camera (`companion.catalog_changed`)."""
    app, _server, service, live, handle, camera = at_tax(games_live)
    client = app.test_client()
    headers = host(client, service, live.id)
    handle.choose("phones")
    teach(client, headers, live.id, camera, (2, 3, 4, 5))
    handle.camera.reset()
    assert [d.name for d in handle.camera.settler.taught] == ["tax"]
    assert client.post(f"/host/{live.id}/deck/die_face/forget", headers=headers,
                       json={"game": "wwe", "role": "tax", "face": 5}).get_json()["ok"]
    handle.choose("camera")
    for image in throw_frames(["coin", "white"], [4, 3], seed=5):
        camera.show(image)
    wait_for(lambda: handle.status()["rolls_seen"] == 1, what="the throw")
    assert handle.camera.settler.taught == () and handle.status()["last_applied"] is None


def test_an_unsure_tax_die_is_asked_of_the_rolling_player_only(games_live):
    app, server, service, live, handle, _camera = at_tax(games_live)
    who = wiring.roll_step(live).who
    other = next(s for s in "NESW" if s != who)
    spies = []
    try:
        roller, bystander = (seat_spy(server.url, service, live.id, s) for s in (who, other))
        spies += [roller, bystander]
        # the camera's reading of the tax die, unsure: named after its role, its face unread
        roll = Roll(1, {"white1": 3}, False, 0.0, ("tax",), {"tax": (0.4, 0.5)})
        assert handle.apply_roll(roll, "camera") is None
        handle.changed()
        seen = bystander.wait_for(lambda v: v["hardware"]["dice"]["pending"])
        pending = seen["hardware"]["dice"]["pending"]
        assert pending["who"] == who
        assert [(m["die"], m["role"], m["faces"]) for m in pending["missing"]] == [
            ("tax", "tax", [2, 3, 4, 5])]
        answer = bystander.call("dice_face", {"die": "tax", "face": 3})
        assert (answer["ok"], answer["code"]) == (False, "dice_not_your_roll")
        version = live.version
        assert roller.call("dice_face", {"die": "tax", "face": 3})["ok"]
        roller.wait_version(version + 1)
        assert handle.status()["last_applied"]["value"] == 3
    finally:
        for spy in spies:
            spy.close()


def test_the_tray_image_is_the_trays_zone_in_colour(tmp_path):
    """What the deck page teaches from: the tray zone of the latest frame, in colour; none
    in grey (a webcam's grey frames), none without a tray."""
    from hardware.camera.calibration import Calibration
    from hardware.camera.capture import Frame

    config = tmp_path / "config.json"
    reader = camera_dice.CameraDice(config, lambda roll: None, lambda: False, lambda: False)
    image = dice_tray.lone(3, seed=1)
    reader.on_frame(Frame(image, 0, 0.0), Calibration.identity())
    assert reader.tray_image() is None  # no tray zone set
    camera_dice.save_tray(config, (100.0, 50.0, 300.0, 250.0))
    reader.reset()
    assert (reader.tray_image() == image[50:250, 100:300]).all()
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    reader.on_frame(Frame(grey, 0, 0.0), Calibration.identity())
    assert reader.tray_image() is None
    # the Pi: grey frames, the tray in colour from the full-resolution stream (twice as sharp)
    source = FullResolution()
    source.sharp = cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    reader.on_frame(Frame(grey, 0, 0.0), Calibration.identity(), source)
    picture = reader.tray_image()
    assert source.asked[-1] == ((100, 50, 300, 250), (480, 360))
    assert picture.shape == (400, 400, 3) and (picture == source.sharp[100:500, 200:600]).all()
