"""Issue 71 (session 91): a change owed to no connected screen wakes no view sender. Its
thread takes no turn for a game none of whose screens is connected, nor for a change only
the host pages show (`hosts_only`) while none is connected; whoever is connected still gets
exactly what it got."""

from __future__ import annotations

from companion import context
from companion.game.recipients import Client
from companion.game.service import Identity
from tests.companion.conftest import make_app

PLAYERS = [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}]


def sender_of(tmp_path):
    """The app's sender with its emit kept as (sid, event) pairs, and a toy game."""
    app = make_app(tmp_path)
    parts = context.of(app)
    sent: list[tuple[str, str]] = []
    parts.views.emit = lambda event, message, to=None: sent.append((to, event))
    live = parts.service.create("toy", {"players": PLAYERS}, "2468")
    return parts, live, sent


def test_a_post_owed_to_no_connected_screen_takes_no_turn(tmp_path):
    """Planted faults caught: `post` without its check (every post queued: a turn taken for
    the game with no screen); the check not reading ``hosts_only`` (a turn taken for the
    hosts-only post with the phone alone)."""
    parts, live, sent = sender_of(tmp_path)
    views = parts.views
    try:
        views.post(live)  # no screen of this game connected
        views.post(live, closed=True)
        assert views.settle(live.id) and views.turns == 0 and sent == []
        parts.connections.add("phone", Client(Identity("seat", live.id, "A"), "en"))
        views.post(live, hosts_only=True)  # a change only a host page shows: none connected
        assert views.settle(live.id) and views.turns == 0 and sent == []
        views.post(live)  # the phone's view: taken and sent as before
        assert views.settle(live.id) and views.turns == 1
        assert ("phone", "view") in sent
        parts.connections.add("host", Client(Identity("host", live.id), "en"))
        before = len(sent)
        views.post(live, hosts_only=True)  # now a host page is there: its view only
        assert views.settle(live.id) and views.turns == 2
        assert [sid for sid, _ in sent[before:]] == ["host"] * (len(sent) - before) != []
    finally:
        parts.service.store.close()
