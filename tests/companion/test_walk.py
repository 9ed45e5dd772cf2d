"""The walk from a camera observation to the phones climbs back up the layer order only
where a part is handed a port from above (issue 65): traced over one card seen on a
running server (tests/companion/walk.py says what a room, a stay and a climb are).

Before issue 65 the same walk climbed three ways: the game service's `notify` went up to
the socket layer (blueprints/sockets.py `views_changed`) and back down to the sender; the
sender's emit called back into app.py (`JsonPacket`); and the sender asks the hardware
manager for its status (`status_for`, the one port still called from below: the views
carry the live hardware status, fps and warnings, read when they are built).
"""
from __future__ import annotations

from tests.companion.conftest import LiveServer, Spy
from tests.companion.walk import walk_figures

PORT_FROM_ABOVE = "game/sender.py -> wiring/hardware_manager.py (status_for)"


def test_a_card_seen_reaches_the_phone_without_climbing_back_up(tmp_path):
    """Planted faults caught (by hand): the socket layer subscribing the views again
    (`game/service.py -> blueprints/sockets.py`); JsonPacket back in app.py
    (`game/sender.py -> app.py`)."""
    figures = walk_figures(tmp_path / "data", LiveServer, Spy)
    assert figures["acted"] >= 1  # the phone holds the view of the card's action
    assert set(figures["climbed"]) <= {PORT_FROM_ABOVE}, figures["climbed"]
    assert not [room for room in figures["rooms_entered"]
                if room.startswith(("blueprints/", "app.py", "commands/", "cli.py"))]
    assert {"wiring/camera.py", "wiring/camera_plan.py", "game/service.py",
            "game/events_bus.py", "game/sender.py"} <= set(figures["rooms_entered"])
