"""The hardware status pushed down into the views' `HardwareReport` (issue 65): the view
sender never asks the hardware, so the hardware must push every change, the frame rate
within a second or two, and a change no part announced still reaches the phones."""
from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest

from companion import context
from companion.game import views
from companion.game.hardware_report import HardwareReport, screens_part, unstale
from companion.wiring import camera, dice, hardware_manager
from tests.companion.conftest import LiveServer, Spy, make_app
from tests.hardware.dice.support import wait_for

PLAYERS = [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}]
STILL_TICKS = 20


class Camera:
    """A running camera's handle whose status the test sets, announcing nothing."""

    def __init__(self) -> None:
        self.shown = {"state": "ok", "detail": "", "fps": 0.0, "warnings": []}
        self.reads = 0  # how often its status was read (once a tick, and at each change)

    def status(self) -> dict:
        self.reads += 1
        return dict(self.shown)

    def stop(self) -> None:
        pass


@pytest.fixture
def running(tmp_path, monkeypatch):
    """An app whose hardware runs a `Camera` and no dice, a game with a phone on a real
    socket."""
    handle = Camera()
    monkeypatch.setattr(camera, "start", lambda settings, service, changed, judge=None: handle)
    monkeypatch.setattr(dice, "start", lambda *args: None)
    app = make_app(tmp_path)
    parts = context.of(app)
    service = parts.service
    live = service.create("toy", {"players": PLAYERS}, "2468")
    server = LiveServer(app)
    token = service.access.claim_seat(live.id, "A", service.store.join_codes(live.id)["A"])
    phone = Spy(server.url, {"role": "seat", "game": live.id, "lang": "en", "token": token})
    parts.hardware.start()
    try:
        yield app, live, handle, phone
    finally:
        phone.close()
        parts.hardware.stop()
        server.stop()
        service.store.close()


def host_page(app, live, phone):
    """A host page of ``live`` on a real socket (the one screen that shows the frame rate)."""
    return Spy(phone.sio.connection_url,
               {"role": "host", "game": live.id, "lang": "en",
                "host_token": context.of(app).service.access.new_host_token(live.id)})


def test_the_frame_rate_reaches_the_views_within_a_second_or_two(running):
    """While a host page is connected (the one screen that shows it). Planted fault caught
    (by hand): no `hardware-status` thread (the status pushed only when a part announces a
    change): the report keeps the frame rate of the start."""
    app, live, handle, phone = running
    report = context.of(app).hardware.report
    assert any(t.name == hardware_manager.TICK_THREAD for t in threading.enumerate())
    host = host_page(app, live, phone)
    try:
        handle.shown["fps"] = 12.5  # nothing announced: the camera's frames only go faster
        wait_for(lambda: report.for_game(live)["camera"]["fps"] == 12.5,
                 timeout=3 * hardware_manager.TICK_S + 2, what="the frame rate pushed down")
    finally:
        host.close()


@pytest.fixture
def slow_net(monkeypatch):
    """The tick 50 times a second, its safety net never (before `running` starts it)."""
    monkeypatch.setattr(hardware_manager, "TICK_S", 0.02)
    monkeypatch.setattr(hardware_manager, "SAFETY_S", 1e9)


def test_the_tick_reads_the_status_only_while_a_host_page_is_connected(slow_net, running):
    """Issue 71 (session 89): with no host page the tick reads nothing (the phones and the
    table display see no frame rate); a host page connecting is read for at once, and then
    every tick. Session 91: with no host page the tick does not even wake (it sleeps till
    its safety net's reading, or a host page's `push`). Planted faults caught: the tick
    reading whoever is connected (20 reads with the phone alone); `Connections.has_host`
    always False (the host never read for after its connection's own reading); the tick
    waking every `TICK_S` with no host page (session 91: 20 wake-ups); `push` not waking
    the tick (session 91: the host page never read for)."""
    app, live, handle, phone = running
    manager = context.of(app).hardware
    phone.wait_for(lambda v: v["hardware"]["camera"]["state"] == "ok")
    reads, ticks = handle.reads, manager.ticks
    time.sleep(STILL_TICKS * hardware_manager.TICK_S)  # what 20 ticks took before
    assert handle.reads == reads
    assert manager.ticks <= ticks + 1  # one owed already (the start's `push`)
    host = host_page(app, live, phone)
    try:
        host.wait_for(lambda v: v["hardware"]["camera"]["state"] == "ok")
        reads = handle.reads
        wait_for(lambda: handle.reads >= reads + STILL_TICKS, what="a tick's reading each")
    finally:
        host.close()
    wait_for(lambda: not manager._host_watching(), what="the host page gone")
    reads, ticks = handle.reads, manager.ticks
    time.sleep(STILL_TICKS * hardware_manager.TICK_S)
    assert handle.reads <= reads + 1  # a tick that had begun
    assert manager.ticks <= ticks + 1


def test_a_host_page_s_first_view_carries_the_frame_rate_of_now(monkeypatch, running):
    """The status read when a host page connects, not the tick's last reading (up to
    `SAFETY_S` old with no host page). Planted fault caught: no `push` in the socket's
    `on_connect`: the host's first view carried the frame rate of the start."""
    monkeypatch.setattr(hardware_manager, "SAFETY_S", 1e9)  # no net reading meanwhile
    app, live, handle, phone = running
    phone.wait_for(lambda v: v["hardware"]["camera"]["state"] == "ok")
    handle.shown["fps"] = 23.5  # nothing announced
    host = host_page(app, live, phone)
    try:
        first = host.wait_for(lambda v: "hardware" in v)
        assert first["hardware"]["camera"]["fps"] == 23.5
    finally:
        host.close()


@pytest.fixture
def fast_tick(monkeypatch):
    """The tick 50 times a second, reading the status at each, host page or not (before
    `running` starts the hardware)."""
    monkeypatch.setattr(hardware_manager, "TICK_S", 0.02)
    monkeypatch.setattr(hardware_manager, "SAFETY_S", 0.02)


def test_a_still_table_sends_no_status(fast_tick, running):
    """Issue 71: the tick reads the status and sends (puts into the report the views read)
    only what differs from what was sent. Planted fault caught: `put` without its
    ``status == self._status`` check: 20 sends in 20 ticks."""
    app, _live, handle, phone = running
    report = context.of(app).hardware.report
    phone.wait_for(lambda v: v["hardware"]["camera"]["state"] == "ok")
    sent, reads = report.sent, handle.reads
    wait_for(lambda: handle.reads >= reads + STILL_TICKS, what=f"{STILL_TICKS} ticks")
    assert report.sent == sent
    handle.shown["fps"] = 9.5  # a change: sent at the next tick, once
    wait_for(lambda: report.latest()["camera"]["fps"] == 9.5, what="the frame rate sent")
    reads = handle.reads
    wait_for(lambda: handle.reads >= reads + STILL_TICKS, what=f"{STILL_TICKS} ticks more")
    assert report.sent == sent + 1


def test_a_frame_rate_alone_resends_no_view(fast_tick, running):
    """Planted fault caught (by hand): `put` saying every new status changed the screens
    (the views re-sent once a second for nothing)."""
    app, live, handle, phone = running
    views = context.of(app).views
    report = context.of(app).hardware.report
    phone.wait_for(lambda v: v["hardware"]["camera"]["state"] == "ok")
    handle.shown["fps"] = 7.5
    wait_for(lambda: report.latest()["camera"]["fps"] == 7.5, what="the frame rate pushed")
    posts = views._posts
    handle.shown["fps"] = 8.5
    wait_for(lambda: report.latest()["camera"]["fps"] == 8.5, what="the frame rate pushed")
    assert views._posts == posts


def test_a_change_no_part_announced_reaches_the_phone(running):
    """With no host page connected, the tick's safety net (`SAFETY_S`). Planted faults
    caught (by hand): the tick pushing without re-sending the views; the tick reading
    only while a host page is connected (session 89's first form, no net): the phone
    keeps showing a camera that works."""
    _app, _live, handle, phone = running
    phone.wait_for(lambda v: v["hardware"]["camera"]["state"] == "ok")
    since = len(phone.views)
    handle.shown["state"] = "error"  # the camera lost, and no `changed()` called
    seen = phone.wait_for(lambda v: v["hardware"]["camera"]["state"] == "error",
                          timeout=2 * hardware_manager.SAFETY_S + 5, since=since)
    assert "fps" not in seen["hardware"]["camera"]  # a phone sees the state only


def test_a_change_only_the_host_sees_builds_only_the_hosts_view(running, monkeypatch):
    """Issue 71 (session 88): a part's announced change that the table display and the
    phones do not show (a camera warning) reaches the host's page, and builds no other
    view; a change they show still reaches every screen. Planted fault caught: `changed`
    posting "host-hardware" whatever changed: the phone kept the camera working."""
    app, live, handle, phone = running
    parts = context.of(app)
    host = host_page(app, live, phone)
    try:
        phone.wait_for(lambda v: v["hardware"]["camera"]["state"] == "ok")
        host.wait_for(lambda v: v["hardware"]["camera"]["state"] == "ok")
        built = []
        build = views.build
        monkeypatch.setattr(views, "build", lambda live, role, *a, **k: (
            built.append(role), build(live, role, *a, **k))[1])
        since = len(phone.messages)
        handle.shown["warnings"] = ["glare"]
        parts.hardware.changed()
        host.wait_for(lambda v: v["hardware"]["camera"]["warnings"] == ["glare"])
        parts.views.settle(live.id)
        assert built == ["host"]
        assert phone.messages[since:] == []
        handle.shown["state"] = "error"
        parts.hardware.changed()
        phone.wait_for(lambda v: v["hardware"]["camera"]["state"] == "error")
        host.wait_for(lambda v: v["hardware"]["camera"]["state"] == "error")
    finally:
        host.close()


def test_what_the_screens_see_changed_or_not():
    report = HardwareReport(SimpleNamespace(at_table=lambda: None))
    ok = {"camera": {"state": "ok", "fps": 10.0, "warnings": []}, "dice": {"state": "absent"}}
    assert report.put(ok, 1.0)  # from absent
    assert not report.put({**ok, "camera": {**ok["camera"], "fps": 11.0}}, 2.0)
    assert not report.put({**ok, "camera": {**ok["camera"], "warnings": [{"code": "x"}]}}, 3.0)
    assert report.put({**ok, "camera": {**ok["camera"], "selected": {"A": "card1"}}}, 4.0)
    assert report.put({**ok, "dice": {"state": "ok", "source": "serial", "reads": True}}, 5.0)
    assert screens_part(report.latest())["dice"]["reads"] is True


def test_a_reading_begun_before_the_one_kept_is_dropped():
    """Two threads push (a part's change, the tick): the later reading wins whichever
    thread puts last. Planted fault caught (by hand): `put` without the ``read_at`` check:
    the stale reading kept, and the screens told it changed."""
    report = HardwareReport(SimpleNamespace(at_table=lambda: None))
    new = {"camera": {"state": "error"}, "dice": {"state": "absent"}}
    old = {"camera": {"state": "ok"}, "dice": {"state": "absent"}}
    assert report.put(new, 2.0)
    assert not report.put(old, 1.0)  # read first, put last
    assert report.latest() is new


def test_a_waiting_roll_its_game_moved_past_is_not_shown():
    """Planted fault caught (by hand): `for_game` without `unstale`: a phone asked for a
    die after an undo or the roll entered by hand (before, the live status dropped it)."""
    live = SimpleNamespace(id="g1", version=4, status="active", kind=None, players=[])
    report = HardwareReport(SimpleNamespace(at_table=lambda: live))
    pending = {"game": "g1", "version": 4, "who": "A", "missing": []}
    report.put({"camera": {"state": "absent"},
                "dice": {"state": "ok", "source": "camera", "pending": pending}}, 1.0)
    assert report.for_game(live)["dice"]["pending"] == pending
    live.version = 5  # an action since the roll was read
    assert report.for_game(live)["dice"]["pending"] is None
    live.version, live.status = 4, "finished"
    assert report.for_game(live)["dice"]["pending"] is None
    other = {"dice": {"pending": dict(pending, game="g2")}}
    assert unstale(other, SimpleNamespace(id="g1", version=9, status="active")) == other
