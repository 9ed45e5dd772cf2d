"""The event bus (companion/game/events_bus.py): typed publish/subscribe between the game
service and whoever listens, and the gates asked before an action (issue 65: no public
mutable list on any service; the sender subscribed in the app factory, not through the
socket layer)."""
from __future__ import annotations

import logging

import pytest

from companion import context
from companion.blueprints import sockets
from companion.game.events_bus import Bus, Gates, TokensRevoked, ViewsChanged
from companion.game.live import Identity
from engine.api import Refused


def test_a_subscriber_gets_the_events_of_its_type_only_in_order():
    bus, got = Bus(), []
    bus.subscribe(TokensRevoked, lambda e: got.append(("first", e.game)))
    bus.subscribe(TokensRevoked, lambda e: got.append(("second", e.game)))
    bus.subscribe(ViewsChanged, lambda e: got.append(("views", e.what)))
    bus.publish(TokensRevoked("g1", frozenset({"h"})))
    assert got == [("first", "g1"), ("second", "g1")]


def test_a_failing_subscriber_is_logged_and_the_others_still_run(caplog):
    """Planted fault caught: a publish that stops at the first failing subscriber (a socket
    gone mid-send would keep the sender from posting an acknowledged action's views)."""
    bus, got = Bus(), []

    def broken(_event):
        raise RuntimeError("gone")

    bus.subscribe(TokensRevoked, broken)
    bus.subscribe(TokensRevoked, got.append)
    with caplog.at_level(logging.ERROR, logger="companion.game.events_bus"):
        bus.publish(TokensRevoked("g", frozenset()))
    assert len(got) == 1 and "a subscriber of TokensRevoked failed" in caplog.text


def test_an_unsubscribed_callback_hears_nothing_more():
    bus, got = Bus(), []
    bus.subscribe(TokensRevoked, got.append)
    bus.unsubscribe(TokensRevoked, got.append)
    bus.unsubscribe(TokensRevoked, got.append)  # twice: nothing happens
    bus.publish(TokensRevoked("g", frozenset()))
    assert got == [] and not bus.subscribed(TokensRevoked, got.append)


def test_a_gate_refuses_and_its_refusal_reaches_the_caller():
    gates, asked = Gates(), []

    def no_rolls(_game, _identity, action):
        asked.append(action["type"])
        if action["type"] == "roll":
            raise Refused("dice_from_reader")

    gates.add(no_rolls)
    gates.check(None, Identity("seat", "g", "A"), {"type": "pass"})
    with pytest.raises(Refused):
        gates.check(None, Identity("seat", "g", "A"), {"type": "roll"})
    gates.remove(no_rolls)
    gates.check(None, Identity("seat", "g", "A"), {"type": "roll"})
    assert asked == ["pass", "roll"] and no_rolls not in gates


def test_the_app_factory_subscribes_the_sender_directly(app):
    """The service's views go to the sender without passing through the socket layer:
    planted fault caught: the socket handlers subscribing (or the factory not subscribing
    the sender: no view would be posted at all)."""
    made = context.of(app)
    assert made.bus.subscribed(ViewsChanged, made.views.views_changed)
    assert not hasattr(sockets.Handlers, "views_changed")
    posted = []
    made.views.post = lambda live, whole_for=None, closed=False, hosts_only=False: (
        posted.append((live.id, closed)))
    made.bus.unsubscribe(ViewsChanged, made.views.views_changed)
    made.bus.subscribe(ViewsChanged, made.views.views_changed)  # the patched post
    live = made.service.create("toy", {"players": [{"seat": "A"}, {"seat": "B"}]}, "2468")
    made.service.end(live.id)
    assert posted[-1] == (live.id, True)


def test_no_service_offers_a_public_list(app):
    """Planted faults caught: `listeners`, `revoked` or `broken` back as a public list or
    dict on the game service; `listeners` back on `Kinds` (another part could change them
    without their owner's lock)."""
    made = context.of(app)
    services = {"play": made.service, "access": made.service.access,
                "rebuilder": made.service.rebuilder, "kinds": made.kinds, "bus": made.bus}
    public = {f"{part}.{name}": type(value).__name__
              for part, service in services.items() for name, value in vars(service).items()
              if not name.startswith("_") and isinstance(value, list | dict | set)}
    assert public == {}, public
