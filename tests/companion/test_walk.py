"""The walk from a camera observation to the phones never climbs back up the layer order
(issue 65): traced over one card seen on a running server (tests/companion/walk.py says
what a room, a stay and a climb are).

Before issue 65 the same walk climbed three ways: the game service's `notify` went up to
the socket layer (blueprints/sockets.py `views_changed`) and back down to the sender; the
sender's emit called back into app.py (`JsonPacket`); and the sender asked the hardware
manager for its live status at every view (`wiring/hardware_manager.py` `status_for`).
Now the hardware pushes its status down (game/hardware_report.py) and the sender reads it
there.
"""
from __future__ import annotations

from tests.companion.conftest import LiveServer, Spy
from tests.companion.walk import walk_figures


def test_a_card_seen_reaches_the_phone_without_climbing_back_up(tmp_path):
    """Planted faults caught (by hand): the socket layer subscribing the views again
    (`game/service.py -> blueprints/sockets.py`); JsonPacket back in app.py
    (`game/sender.py -> app.py`); the sender given `HardwareManager.status_for` again
    (`game/sender.py -> wiring/hardware_manager.py`: the code before this test was
    tightened fails it)."""
    figures = walk_figures(tmp_path / "data", LiveServer, Spy)
    assert figures["acted"] >= 1  # the phone holds the view of the card's action
    assert figures["climbs"] == 0 and figures["climbed"] == [], figures["climbed"]
    assert not [room for room in figures["rooms_entered"]
                if room.startswith(("blueprints/", "app.py", "commands/", "cli.py"))]
    assert {"wiring/camera.py", "wiring/camera_plan.py", "game/service.py",
            "game/events_bus.py", "game/sender.py", "game/hardware_report.py"} <= set(
        figures["rooms_entered"])
    assert "wiring/hardware_manager.py" not in figures["rooms_entered"]
