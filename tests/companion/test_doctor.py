"""`companion doctor` against simulated failures: real folders, real ptys, real sockets.

Only what cannot exist here is stood in for: a Pi camera (a folder of images played by the
camera code's own frame source), a dice reader (the dice engineer's emulator on a pty, or a
minimal device on a pty for wrong and silent firmware).
"""
from __future__ import annotations

import contextlib
import datetime as dt
import ipaddress
import json
import os
import shutil
import socket
import sqlite3
import sys
import tempfile
import threading
from pathlib import Path

import cv2
import numpy as np
from click.testing import CliRunner

from companion import doctor
from companion.box import backup as backups
from companion.cli import cli
from companion.server import netinfo


def ctx_for(tmp_path: Path, **kw) -> doctor.Context:
    kw.setdefault("data_dir", tmp_path / "data")
    kw.setdefault("video_glob", str(tmp_path / "dev" / "video*"))
    kw.setdefault("dice_link", str(tmp_path / "dev" / "dicereader"))
    return doctor.Context(**kw)


# --------------------------------------------------------------------------- software


def test_python_and_packages_pass_here(tmp_path):
    ctx = ctx_for(tmp_path)
    assert doctor.check_python(ctx).status == doctor.OK
    result = doctor.check_packages(ctx)
    assert result.status == doctor.OK
    assert set(result.details["found"]) == set(doctor.REQUIRED_MODULES)


def test_missing_package_fails_with_a_fix(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "zxingcpp", None)  # `import zxingcpp` now raises
    result = doctor.check_packages(ctx_for(tmp_path))
    assert result.status == doctor.FAIL
    assert list(result.details["missing"]) == ["zxingcpp"]
    assert "zxingcpp" in result.summary and "install.sh" in result.fix


# --------------------------------------------------------------------------- data and clock


def test_writable_data_dir_passes_and_is_left_clean(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    result = doctor.check_data_dir(ctx_for(tmp_path))
    assert result.status == doctor.OK and "writable" in result.summary
    assert result.details["free_mb"] > 0
    assert list(data.iterdir()) == []  # the probe file is gone


def test_unwritable_data_dir_fails_with_chown_fix(tmp_path):
    # pytest's tmp_path is private to its owner; this folder must be visible to all
    top = Path(tempfile.mkdtemp(prefix="doctor-", dir="/tmp"))
    try:
        top.chmod(0o755)
        data = top / "data"
        data.mkdir(mode=0o755)
        ctx = ctx_for(tmp_path, data_dir=data)
        if os.geteuid() == 0:  # root writes anywhere: look as an ordinary user would
            os.seteuid(65534)
            try:
                result = doctor.check_data_dir(ctx)
            finally:
                os.seteuid(0)
        else:
            data.chmod(0o555)
            result = doctor.check_data_dir(ctx)
    finally:
        shutil.rmtree(top)
    assert result.status == doctor.FAIL and "not writable" in result.summary
    assert result.fix.startswith("sudo chown -R companion:")


def test_data_path_that_is_a_file_fails(tmp_path):
    (tmp_path / "data").write_text("oops")
    result = doctor.check_data_dir(ctx_for(tmp_path))
    assert result.status == doctor.FAIL and "not a folder" in result.summary


def test_missing_backup_and_old_backup_warn(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    con = sqlite3.connect(data / "companion.sqlite3")
    con.execute("CREATE TABLE t(x)")
    con.commit()
    con.close()
    result = doctor.check_data_dir(ctx_for(tmp_path))
    assert result.status == doctor.WARN and "no backup yet" in result.summary
    made = backups.backup(data)
    assert doctor.check_data_dir(ctx_for(tmp_path)).status == doctor.OK
    later = dt.datetime.fromtimestamp(made.stat().st_mtime) + dt.timedelta(days=5)
    result = doctor.check_data_dir(ctx_for(tmp_path, now=lambda: later))
    assert result.status == doctor.WARN and "5 days old" in result.summary
    assert "table-companion-backup.timer" in result.fix


def test_clock_in_1970_fails(tmp_path):
    ctx = ctx_for(tmp_path, now=lambda: dt.datetime(1970, 1, 1, 0, 1))
    result = doctor.check_clock(ctx)
    assert result.status == doctor.FAIL and "1970-01-01" in result.summary
    assert "date -s" in result.fix
    assert doctor.check_clock(ctx_for(tmp_path)).status in (doctor.OK, doctor.WARN)


# --------------------------------------------------------------------------- network and service


def test_join_url_uses_an_ip_address(tmp_path, monkeypatch):
    monkeypatch.setattr(netinfo, "ipv4_addresses", lambda: ["127.0.0.1", "10.42.0.1"])
    result = doctor.check_network(ctx_for(tmp_path, port=8123, scheme="https"))
    assert result.status == doctor.OK
    assert result.details["join_url"] == "https://10.42.0.1:8123/"


def test_only_loopback_fails_with_hotspot_fix(tmp_path, monkeypatch):
    monkeypatch.setattr(netinfo, "ipv4_addresses", lambda: ["127.0.0.1"])
    result = doctor.check_network(ctx_for(tmp_path))
    assert result.status == doctor.FAIL and "--hotspot" in result.fix


def test_real_addresses_are_ipv4_addresses():
    found = netinfo.ipv4_addresses()
    assert found and all(isinstance(ipaddress.ip_address(a), ipaddress.IPv4Address)
                         for a in found)


def test_service_answering_and_not(tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    try:
        result = doctor.check_service(ctx_for(tmp_path, port=port))
        assert result.status == doctor.OK and f"answers on port {port}" in result.summary
    finally:
        listener.close()
    result = doctor.check_service(ctx_for(tmp_path, port=port))
    assert result.status == doctor.WARN and "nothing answers" in result.summary
    assert "serve" in result.fix or "systemctl start" in result.fix


# --------------------------------------------------------------------------- camera


def image_folder(path: Path, count: int = 4, size=(320, 240)) -> Path:
    path.mkdir()
    for i in range(count):
        frame = np.full((size[1], size[0], 3), 40 * i, np.uint8)
        cv2.imwrite(str(path / f"{i:02d}.png"), frame)
    return path


def test_no_camera_warns(tmp_path):
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "video0").write_text("not a V4L2 device")  # present, but no capture device
    result = doctor.check_camera(ctx_for(tmp_path))
    assert result.status == doctor.WARN and "no camera found" in result.summary
    assert result.details["v4l2"][0]["capture"] is False
    assert result.fix


def test_camera_fps_is_measured_with_the_camera_sources(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_CAMERA", raising=False)
    folder = image_folder(tmp_path / "frames")
    result = doctor.check_camera(ctx_for(tmp_path, camera=f"folder:{folder}",
                                         camera_seconds=0.3))
    assert result.details["frames"] > 0 and result.details["fps"] > 0
    assert (result.details["width"], result.details["height"]) == (320, 240)
    # it works, but no config.json names it, so the server would not use it
    assert result.status == doctor.WARN and "not set to use it" in result.summary
    assert '{"camera": {"source": "folder:' in result.fix and "config.json" in result.fix


def test_configured_camera_is_used(tmp_path):
    folder = image_folder(tmp_path / "frames", size=(160, 120))
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.json").write_text(json.dumps({"camera": {"source": f"folder:{folder}"}}))
    result = doctor.check_camera(ctx_for(tmp_path, camera_seconds=0.2))
    assert result.details["source"] == f"folder:{folder}"
    assert result.details["width"] == 160
    assert result.status == doctor.OK or "slow" in result.summary


def test_slow_camera_warns(tmp_path, monkeypatch):
    monkeypatch.setattr(doctor, "measure_fps", lambda spec, seconds: {
        "fps": 4.0, "width": 1280, "height": 720, "frames": 4})
    result = doctor.check_camera(ctx_for(tmp_path, camera="/dev/video0"))
    assert result.status == doctor.WARN and "slow" in result.summary and "MJPG" in result.fix


def test_camera_without_frames_fails(tmp_path):
    result = doctor.check_camera(ctx_for(tmp_path, camera=str(tmp_path / "gone.mp4")))
    assert result.status == doctor.FAIL and "gives no frames" in result.summary


# --------------------------------------------------------------------------- dice reader


class PtyDevice:
    """A minimal device on a real pty: answers HELLO? with ``hello`` (None: stays silent)."""

    def __init__(self, link: Path, hello: str | None) -> None:
        from hardware.dice import protocol
        self.p = protocol
        self.hello = hello
        self.master, slave = os.openpty()
        import tty

        tty.setraw(slave)
        link.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(os.ttyname(slave), link)
        os.close(slave)
        self.path = str(link)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        import select

        parser = self.p.FrameParser()
        while not self.stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.master, 1024)
            except OSError:  # no host attached right now
                self.stop.wait(0.05)
                continue
            for item in parser.feed(data):
                if isinstance(item, self.p.Frame) and item.body == "HELLO?" and self.hello:
                    os.write(self.master, b"boot noise\r\n" + self.p.encode(self.hello))

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        os.close(self.master)


def test_dice_reader_found_through_its_udev_name(tmp_path):
    from hardware.dice.emulator import DiceEmulator

    link = tmp_path / "dev" / "dicereader"
    link.parent.mkdir()
    with DiceEmulator({"tax": [2, 3, 3, 4, 4, 5]}, link=str(tmp_path / "emu-tty"),
                      fw="2.3.4") as emu:
        os.symlink(emu.port, link)  # what the udev rule's SYMLINK+= makes on a Pi
        result = doctor.check_dice(ctx_for(tmp_path, dice_timeout=10.0))
    assert result.status == doctor.OK, result.summary
    assert result.details["path"] == str(link)
    assert result.details["fw"] == "2.3.4" and result.details["proto"] == 2


def test_dice_reader_with_another_protocol_version_fails(tmp_path):
    device = PtyDevice(tmp_path / "tty-v9", "HELLO dicereader proto=9 fw=9.0.0 dice=2 uid=AB12")
    try:
        result = doctor.check_dice(ctx_for(tmp_path, dice=device.path, dice_timeout=10.0))
    finally:
        device.close()
    assert result.status == doctor.FAIL
    assert "speaks protocol 9" in result.summary and "firmware" in result.fix


def test_silent_serial_device_fails(tmp_path):
    device = PtyDevice(tmp_path / "tty-silent", None)
    try:
        result = doctor.check_dice(ctx_for(tmp_path, dice=device.path, dice_timeout=0.6))
    finally:
        device.close()
    assert result.status == doctor.FAIL and "no HELLO" in result.summary
    assert "115200" in result.fix


def test_dice_reader_in_use_warns(tmp_path):
    import serial

    device = PtyDevice(tmp_path / "tty-busy", "HELLO dicereader proto=1 fw=1.0.0 dice=1 uid=AB")
    holder = serial.Serial(device.path, 115200, exclusive=True)  # the server has it open
    try:
        result = doctor.check_dice(ctx_for(tmp_path, dice=device.path))
    finally:
        holder.close()
        device.close()
    assert result.status == doctor.WARN and "in use" in result.summary


def test_no_dice_reader_warns(tmp_path):
    result = doctor.check_dice(ctx_for(tmp_path))
    assert result.status == doctor.WARN and "no dice reader found" in result.summary


# --------------------------------------------------------------------------- the command


def test_a_crashing_check_is_reported_not_raised(tmp_path):
    def check_boom(ctx):
        raise RuntimeError("boom")

    [result] = doctor.run_checks(ctx_for(tmp_path), [check_boom])
    assert result.name == "boom" and result.status == doctor.FAIL and "boom" in result.summary


def test_appliance_settings_read_port_and_https(tmp_path):
    env = tmp_path / "companion.env"
    env.write_text("# comment\nCOMPANION_PORT=8443\n"
                   "COMPANION_SERVE_ARGS=--certfile /x/cert.pem --keyfile /x/key.pem\n")
    assert doctor.appliance_settings(env) == {"port": 8443, "scheme": "https"}
    assert doctor.appliance_settings(tmp_path / "none") == {}


def test_cli_json_and_exit_codes(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    runner = CliRunner()
    args = ["doctor", "--data", str(data), "--json", "--port", "1",
            "--dice", str(tmp_path / "no-such-tty")]
    monkeypatch.setattr(doctor.Context, "video_glob", str(tmp_path / "video*"))
    first = runner.invoke(cli, args)
    report = json.loads(first.output)
    by_name = {c["name"]: c for c in report["checks"]}
    assert set(by_name) == {"settings", "python", "packages", "numpy", "data", "clock",
                            "network", "service", "camera", "focus", "flicker", "dice"}
    assert by_name["focus"]["status"] == by_name["flicker"]["status"] == "skip"  # no Pi camera
    assert by_name["dice"]["status"] == "fail"  # a configured port that does not exist
    assert first.exit_code == 1 and report["ok"] is False
    monkeypatch.setattr(netinfo, "ipv4_addresses", lambda: ["127.0.0.1", "10.0.0.7"])
    second = runner.invoke(cli, args[:-2])
    report = json.loads(second.output)
    assert second.exit_code == 0 and report["ok"] is True, second.output
    assert report["join_url"] == "http://10.0.0.7:1/"
    text = runner.invoke(cli, ["doctor", "--data", str(data), "--port", "1"]).output
    assert "fix:" in text and "Players join at" in text


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_server(tmp_path, *extra, env=None):
    """`companion serve` for real on a free port; yields the port."""
    import subprocess
    import time

    port = free_port()
    companion = Path(sys.executable).parent / "companion"
    server = subprocess.Popen([str(companion), "serve", "--host", "127.0.0.1", "--port",
                               str(port), "--data", str(tmp_path / "data"), *extra],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True, env=env)
    try:
        deadline = time.monotonic() + 60
        while doctor.server_health(ctx_for(tmp_path, port=port)) is None:
            assert server.poll() is None, "companion serve exited"
            assert time.monotonic() < deadline, "companion serve did not answer"
            time.sleep(0.05)
        yield port
    finally:
        os.killpg(server.pid, 15)
        server.wait(10)


def test_service_check_reads_the_real_servers_health(tmp_path):
    """`companion serve` for real: doctor finds it and reads its /healthz."""
    with running_server(tmp_path, "--no-hardware") as port:
        result = doctor.check_service(ctx_for(tmp_path, port=port))
    assert result.status == doctor.OK
    assert result.details["health"]["ok"] is True and "(0 games)" in result.summary
    assert set(result.details["health"]["hardware"]) == {"camera", "dice"}


def test_camera_run_by_the_server_is_reported_not_grabbed(tmp_path, monkeypatch):
    """The server owns its configured camera; doctor reports the server's view of it."""
    import time

    folder = image_folder(tmp_path / "frames")
    monkeypatch.setenv("COMPANION_CAMERA", f"folder:{folder}")
    with running_server(tmp_path, env=dict(os.environ)) as port:
        ctx = ctx_for(tmp_path, port=port)
        deadline = time.monotonic() + 30
        result = doctor.check_camera(ctx)
        while "starting" in result.summary and time.monotonic() < deadline:
            time.sleep(0.2)
            result = doctor.check_camera(ctx)
    assert "running in the server" in result.summary, result.summary
    assert result.details["server_status"]["state"] == "ok"
    assert "frames" not in result.details  # doctor grabbed nothing itself


def test_busy_dice_port_reports_what_the_server_says(tmp_path, monkeypatch):
    import serial

    device = PtyDevice(tmp_path / "tty-held", "HELLO dicereader proto=1 fw=1.0.0 dice=1 uid=AB")
    holder = serial.Serial(device.path, 115200, exclusive=True)
    monkeypatch.setattr(doctor, "server_health", lambda ctx: {
        "ok": True, "hardware": {"dice": {"state": "ok", "detail": "fw 1.0.0"}}})
    try:
        result = doctor.check_dice(ctx_for(tmp_path, dice=device.path))
    finally:
        holder.close()
        device.close()
    assert result.status == doctor.OK and "held by the running server" in result.summary
