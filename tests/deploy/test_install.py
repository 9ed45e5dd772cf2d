"""deploy/install.sh for real: dry-run on this machine, and installs into throwaway roots.

The --root mode writes every file a Pi would get (units, udev rule, avahi service, settings,
certificate, hotspot connection) under a temporary directory and enables the units with
`systemctl --root`; programs that must run on the target (apt-get, useradd, pip, nmcli) are
listed as skipped. A full debootstrap chroot is not used: it needs minutes and the network.
"""
from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.deploy.conftest import REPO, run_install

UNIT = "etc/systemd/system/table-companion.service"
TIMER = "etc/systemd/system/table-companion-backup.timer"
BACKUP_UNIT = "etc/systemd/system/table-companion-backup.service"
KIOSK = "etc/systemd/system/table-companion-kiosk.service"
UDEV = "etc/udev/rules.d/99-table-companion-dice.rules"
AVAHI = "etc/avahi/services/table-companion.service"
ENV = "etc/table-companion/companion.env"
HOTSPOT = "etc/NetworkManager/system-connections/table-companion-hotspot.nmconnection"
# What the installer could touch on this machine (dry-run must leave all of it alone).
WATCHED = ["/etc/systemd/system", "/etc/udev/rules.d", "/etc/avahi", "/etc/table-companion",
           "/opt/table-companion", "/var/lib/table-companion", "/etc/pam.d",
           "/etc/NetworkManager", "/etc/passwd", "/etc/group"]


def snapshot(paths):
    seen = {}
    for top in map(Path, paths):
        if not top.exists():
            seen[str(top)] = None
            continue
        for path in [top, *top.rglob("*")] if top.is_dir() else [top]:
            st = path.lstat()
            seen[str(path)] = (st.st_mtime_ns, st.st_size, st.st_mode)
    return seen


def every_file(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and not p.is_symlink()}


def test_dry_run_prints_the_plan_and_changes_nothing():
    before = snapshot(WATCHED)
    result = run_install("--dry-run", "--kiosk", "--hotspot", "--https",
                         "--hotspot-password", "secret-table")
    after = snapshot(WATCHED)
    assert before == after
    out = result.stdout
    assert "Dry run: nothing is changed" in out
    for planned in ["would create /etc/systemd/system/table-companion.service",
                    "would create /etc/systemd/system/table-companion-backup.timer",
                    "would create /etc/systemd/system/table-companion-backup.service",
                    "would create /etc/udev/rules.d/99-table-companion-dice.rules",
                    "would create /etc/avahi/services/table-companion.service",
                    "would create /etc/systemd/system/table-companion-kiosk.service",
                    "would create " + "/" + HOTSPOT,
                    "would create /etc/table-companion/tls/key.pem",
                    "would run: python3 -m venv",
                    "bin/pip install", "would run: systemctl",
                    "would run: modprobe -a usbserial cdc_acm ch341 cp210x ftdi_sio pl2303"]:
        assert planned in out, planned
    # the file contents are shown too, so the plan can be read before anything happens
    assert "ProtectSystem=strict" in out and 'SYMLINK+=\\"dicereader\\"' not in out
    assert 'SYMLINK+="dicereader"' in out
    assert "useradd" in out or "unchanged: user companion exists" in out


def test_dry_run_into_an_installed_root_shows_a_diff_and_writes_nothing(root):
    run_install("--root", str(root))
    files = every_file(root)
    result = run_install("--root", str(root), "--dry-run", "--port", "8123")
    assert every_file(root) == files
    assert "would change /etc/table-companion/companion.env" in result.stdout
    assert "-COMPANION_PORT=8000" in result.stdout and "+COMPANION_PORT=8123" in result.stdout
    assert "unchanged: /etc/systemd/system/table-companion.service" in result.stdout


def test_root_install_writes_the_appliance_files(root):
    result = run_install("--root", str(root), "--port", "8100", "--dice-usb", "2E8A:000A",
                         "--dice-usb", "1a86:7523:A1B2", "--no-picamera")
    unit = (root / UNIT).read_text()
    for line in ["User=companion", "NoNewPrivileges=yes", "ProtectSystem=strict",
                 "PrivateTmp=yes", "StateDirectory=table-companion", "Restart=always",
                 "DeviceAllow=char-ttyUSB rw", "DeviceAllow=char-ttyACM rw",
                 "DeviceAllow=char-video4linux rw"]:
        assert line in unit.splitlines(), line
    # PrivateDevices would hide the dice reader and the camera
    assert not [x for x in unit.splitlines() if x.startswith("PrivateDevices")]
    assert "companion serve --host ${COMPANION_HOST} --port ${COMPANION_PORT}" in unit
    env = (root / ENV).read_text()
    assert "COMPANION_PORT=8100" in env and "COMPANION_SERVE_ARGS=\n" in env + "\n"
    rules = (root / UDEV).read_text().splitlines()
    rules = [r for r in rules if r and not r.startswith("#")]
    assert len(rules) == 2
    assert all('SYMLINK+="dicereader"' in r and 'ENV{ID_MM_DEVICE_IGNORE}="1"' in r
               for r in rules)
    assert 'ATTRS{idVendor}=="2e8a", ATTRS{idProduct}=="000a"' in rules[0]
    assert 'ATTRS{serial}=="A1B2"' in rules[1]
    avahi = (root / AVAHI).read_text()
    assert "<port>8100</port>" in avahi and "<type>_http._tcp</type>" in avahi
    assert "Table Companion on %h" in avahi
    timer = (root / TIMER).read_text()
    assert "OnCalendar=daily" in timer and "Persistent=true" in timer
    assert "companion backup --data /var/lib/table-companion" in (root / BACKUP_UNIT).read_text()
    wants = root / "etc/systemd/system/multi-user.target.wants/table-companion.service"
    assert wants.is_symlink() and os.readlink(wants) == "/" + UNIT
    assert (root / "etc/systemd/system/timers.target.wants/table-companion-backup.timer"
            ).is_symlink()
    assert not (root / KIOSK).exists() and not (root / HOTSPOT).exists()
    assert "skipped (--root, runs on the target): apt-get" in result.stdout
    assert "python3-picamera2" not in result.stdout


def test_second_run_changes_nothing_and_keeps_the_games(root):
    run_install("--root", str(root), "--kiosk")
    games = root / "var/lib/table-companion/companion.sqlite3"
    games.parent.mkdir(parents=True)
    games.write_bytes(b"every game")
    files = every_file(root)
    again = run_install("--root", str(root))  # no options: the remembered choices
    assert every_file(root) == files
    assert "wrote" not in again.stdout
    assert "unchanged: /etc/systemd/system/table-companion-kiosk.service" in again.stdout


def test_kiosk_opens_the_chosen_page(root):
    run_install("--root", str(root), "--kiosk", "--kiosk-path", "/table/latest", "--port", "8080")
    kiosk = (root / "etc/table-companion/kiosk.env").read_text()
    assert "KIOSK_URL=http://localhost:8080/table/latest" in kiosk
    # cage (wlroots 0.15) refuses to start with no input device: a kiosk has none
    assert "WLR_LIBINPUT_NO_DEVICES=1" in kiosk.splitlines()
    assert "KIOSK_BROWSER=/" in kiosk
    refused = run_install("--root", str(root), "--kiosk-path", "table", check=False)
    assert refused.returncode == 1 and "must start with /" in refused.stderr


def test_switching_an_option_off_removes_its_files(root):
    run_install("--root", str(root), "--kiosk", "--hotspot", "--hotspot-password", "12345678")
    assert (root / KIOSK).exists() and (root / HOTSPOT).exists()
    assert (root / "etc/systemd/system/multi-user.target.wants/table-companion-kiosk.service"
            ).is_symlink()
    run_install("--root", str(root), "--no-kiosk", "--no-hotspot")
    assert not (root / KIOSK).exists() and not (root / HOTSPOT).exists()
    assert not (root / "etc/pam.d/table-companion-kiosk").exists()
    assert not (root / "etc/systemd/system/multi-user.target.wants/table-companion-kiosk.service"
                ).exists()
    assert (root / UNIT).exists()


def test_hotspot_connection_is_a_valid_keyfile_that_stays_stable(root):
    run_install("--root", str(root), "--hotspot", "--hotspot-ssid", "Kingsbridge")
    path = root / HOTSPOT
    assert path.stat().st_mode & 0o777 == 0o600  # it holds the Wi-Fi password
    first = configparser.ConfigParser(interpolation=None)
    first.read_string(path.read_text())
    assert first["wifi"]["mode"] == "ap" and first["wifi"]["ssid"] == "Kingsbridge"
    assert first["ipv4"]["method"] == "shared"
    assert 8 <= len(first["wifi-security"]["psk"]) <= 63
    run_install("--root", str(root))
    second = configparser.ConfigParser(interpolation=None)
    second.read_string(path.read_text())
    assert second["connection"]["uuid"] == first["connection"]["uuid"]
    assert second["wifi-security"]["psk"] == first["wifi-security"]["psk"]


def test_https_makes_a_certificate_and_tells_the_server_to_use_it(root):
    result = run_install("--root", str(root), "--https", "--kiosk")
    cert = root / "etc/table-companion/tls/cert.pem"
    key = root / "etc/table-companion/tls/key.pem"
    assert key.stat().st_mode & 0o777 == 0o640
    text = subprocess.run(["openssl", "x509", "-in", str(cert), "-noout", "-text"],
                          capture_output=True, text=True, check=True).stdout
    assert re.search(r"DNS:[^,]+\.local", text) and "IP Address:127.0.0.1" in text
    env = (root / ENV).read_text()
    assert "--certfile /etc/table-companion/tls/cert.pem" in env
    assert "--keyfile /etc/table-companion/tls/key.pem" in env
    assert "<type>_https._tcp</type>" in (root / AVAHI).read_text()
    assert "KIOSK_URL=https://localhost:8000/" in (root / "etc/table-companion/kiosk.env"
                                                   ).read_text()
    assert "Open the table display at https://" in result.stdout
    pem = cert.read_bytes()
    run_install("--root", str(root))
    assert cert.read_bytes() == pem  # kept: phones that trusted it keep trusting it


def test_uninstall_keeps_the_games_unless_purged(root):
    run_install("--root", str(root), "--kiosk", "--hotspot", "--hotspot-password", "abcdefgh")
    games = root / "var/lib/table-companion/companion.sqlite3"
    games.parent.mkdir(parents=True)
    games.write_bytes(b"every game")
    result = run_install("--root", str(root), "--uninstall")
    assert games.read_bytes() == b"every game"
    assert "kept: the games" in result.stdout
    left = [p for p in every_file(root) if not p.startswith("var/lib/table-companion")]
    assert left == []
    assert not any(p.is_symlink() for p in root.rglob("*"))
    run_install("--root", str(root), "--uninstall", "--purge")
    assert not games.exists()


@pytest.mark.parametrize("args, message", [
    (["--port", "0"], "--port must be 1-65535"),
    (["--dice-usb", "arduino"], "expected VID:PID"),
    (["--hotspot", "--hotspot-password", "short"], "8 to 63 characters"),
    (["--purge"], "--purge goes with --uninstall"),
    (["--frobnicate"], "unknown option"),
])
def test_bad_options_are_refused_before_any_change(root, args, message):
    result = run_install("--root", str(root), *args, check=False)
    assert result.returncode != 0 and message in result.stderr
    assert list(root.iterdir()) == []


@pytest.fixture
def readable_checkout():
    """A copy of deploy/ that "nobody" can read: a fresh clone (and pytest's tmp_path) may
    sit below a directory only root can enter, as `mktemp -d` makes them."""
    top = Path(tempfile.mkdtemp(prefix="tc-deploy-"))
    shutil.copytree(REPO / "deploy", top / "deploy")
    shutil.copy(REPO / "pyproject.toml", top)
    for path in [top, *top.rglob("*")]:
        path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
    yield top
    shutil.rmtree(top)


def test_install_needs_root_unless_dry_run(root, readable_checkout):
    if os.getuid() == 0:
        script = ("setpriv --reuid=65534 --regid=65534 --clear-groups "
                  f"bash {readable_checkout}/deploy/install.sh")
    else:
        script = f"bash {REPO}/deploy/install.sh"
    result = subprocess.run(script.split(), capture_output=True, text=True)
    assert result.returncode == 1 and "run it as root" in result.stderr
    planned = subprocess.run([*script.split(), "--dry-run"], capture_output=True, text=True)
    assert planned.returncode == 0, planned.stderr
    assert "would create /etc/systemd/system/table-companion.service" in planned.stdout


def test_a_file_with_the_right_content_but_wrong_mode_is_fixed(root):
    run_install("--root", str(root), "--hotspot", "--hotspot-password", "abcdefgh")
    path = root / HOTSPOT
    path.chmod(0o644)  # someone loosened it: the Wi-Fi password became world-readable
    result = run_install("--root", str(root))
    assert path.stat().st_mode & 0o777 == 0o600
    assert "chmod 0600 /" + HOTSPOT in result.stdout


MODULES = "etc/modules-load.d/table-companion.conf"


def test_usb_serial_drivers_are_loaded_at_boot_and_removed_with_the_app(root):
    """systemd resolves DeviceAllow=char-ttyUSB/char-ttyACM when the service starts: the
    drivers of a reader plugged in later must be loaded already (systemd-modules-load at
    boot; modprobe at once on the machine itself, before the service starts)."""
    first = run_install("--root", str(root)).stdout
    modules = [m for m in (root / MODULES).read_text().splitlines()
               if m and not m.startswith("#")]
    assert modules == ["usbserial", "cdc_acm", "ch341", "cp210x", "ftdi_sio", "pl2303"]
    load = "modprobe -a usbserial cdc_acm ch341 cp210x ftdi_sio pl2303"
    assert f"skipped (--root, runs on the target): {load}" in first
    assert first.index(load) < first.index("== Start")
    assert load not in run_install("--root", str(root)).stdout  # loaded when it was written
    unit = (root / UNIT).read_text()
    assert "DeviceAllow=char-ttyUSB rw" in unit and "DeviceAllow=char-ttyACM rw" in unit
    run_install("--root", str(root), "--uninstall")
    assert not (root / MODULES).exists()


def default_dice_ids() -> set[str]:
    text = (REPO / "deploy" / "install.sh").read_text()
    value = text.split('DEFAULT_DICE_USB="', 1)[1].split('"', 1)[0]
    return set(value.replace("\\\n", " ").split())


def test_the_udev_rule_knows_every_id_discovery_knows(root):
    """install.sh's default ids are hardware/dice/discovery.py's KNOWN_USB_IDS, and the rule
    it writes matches each (a vendor's every product where discovery takes any)."""
    from hardware.dice.discovery import KNOWN_USB_IDS

    known = {f"{vid:04x}:" + ("*" if pid is None else f"{pid:04x}")
             for vid, pid in KNOWN_USB_IDS}
    assert default_dice_ids() == known
    run_install("--root", str(root))
    rules = [r for r in (root / UDEV).read_text().splitlines() if r and not r.startswith("#")]
    written = set()
    for rule in rules:
        vid = rule.split('ATTRS{idVendor}=="')[1][:4]
        pid = rule.split('ATTRS{idProduct}=="')[1][:4] if "idProduct" in rule else "*"
        written.add(f"{vid}:{pid}")
    assert written == known


def test_an_earlier_default_remembered_in_install_conf_gets_todays_ids(root):
    conf = root / "etc/table-companion/install.conf"
    conf.parent.mkdir(parents=True)
    conf.write_text("DICE_USB=2341:0043 2341:0001 2341:8036 2a03:0043 2e8a:000a 1a86:7523\n")
    run_install("--root", str(root))
    assert "10c4" in (root / UDEV).read_text() and "0403" in (root / UDEV).read_text()
    run_install("--root", str(root), "--dice-usb", "2341:0043")  # a chosen id is kept
    rules = [r for r in (root / UDEV).read_text().splitlines() if r and not r.startswith("#")]
    assert len(rules) == 1 and 'ATTRS{idProduct}=="0043"' in rules[0]


def test_a_pi_gets_the_lite_camera_apps(root):
    """Raspberry Pi OS Lite ships rpicam-apps-lite: rpicam-vid without the preview window's
    Qt/X libraries; install.sh asks for it, not for the full rpicam-apps."""
    model = root / "proc/device-tree/model"
    model.parent.mkdir(parents=True)
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0")
    result = run_install("--root", str(root))
    apt = [line for line in result.stdout.splitlines() if "apt-get install" in line]
    assert apt and "rpicam-apps-lite" in apt[0].split()
    assert "rpicam-apps" not in apt[0].split()


def test_the_build_copy_leaves_out_every_folder_a_checkout_writes():
    """The install builds from a copy of the checkout; a folder .gitignore names (caches,
    screenshots) may change while tar reads it, and tar then fails the install (CI's
    chroot install read .pytest_cache while other tests wrote it)."""
    text = (REPO / "deploy" / "install.sh").read_text()
    copy = text.split('tar -C "$SOURCE"', 1)[1].split("| tar", 1)[0]
    skipped = {part.split("=", 1)[1].strip("'\\\n ").removeprefix("./").rstrip("/")
               for part in copy.split() if part.startswith("--exclude=")}
    folders = {line.rstrip("/") for line in (REPO / ".gitignore").read_text().splitlines()
               if line.endswith("/") and not line.startswith(("#", "!"))}
    assert folders - skipped == set()
