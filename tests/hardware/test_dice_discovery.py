"""Discovery: a candidate is a dice reader only once it answers HELLO."""
import os
import tty

from hardware.dice import discovery
from hardware.dice.emulator import DiceEmulator


def test_probe_confirms_a_dice_reader(tmp_path):
    with DiceEmulator({"tax": [2, 3, 3, 4, 4, 5]}, link=str(tmp_path / "tty")) as emu:
        hello = discovery.probe(emu.port)
        assert hello is not None and hello.fw == "1.0.0-emu" and hello.dice == 1


def test_probe_rejects_a_port_that_does_not_answer():
    master, slave = os.openpty()
    try:
        tty.setraw(slave)
        os.write(master, b"$GPGGA,123519,4807.038,N*47\r\nOK\r\n")  # some other device
        assert discovery.probe(os.ttyname(slave), timeout=0.3) is None
    finally:
        os.close(slave)
        os.close(master)


def test_probe_of_a_missing_path_is_none(tmp_path):
    assert discovery.probe(str(tmp_path / "nothing")) is None


def test_usb_ids_from_config():
    ids = discovery.parse_usb_ids(["2341:0043", "1a86:*"])
    assert discovery._matches(0x2341, 0x0043, ids)
    assert discovery._matches(0x1A86, 0x1234, ids)
    assert not discovery._matches(0x2341, 0x0001, ids)
    assert not discovery._matches(None, None, ids)



class FakePortInfo:
    """What pyserial's list_ports reports for a USB serial device (no USB bus here)."""

    def __init__(self, device, vid, pid):
        self.device, self.vid, self.pid = device, vid, pid


def test_reader_discovers_by_vid_pid_and_prefers_the_by_id_name(tmp_path, monkeypatch):
    from hardware.dice.reader import DiceReader
    from tests.hardware.dice.support import connected, wait_for

    with DiceEmulator({"tax": [2, 3, 3, 4, 4, 5]}, link=str(tmp_path / "tty")) as emu:
        by_id = tmp_path / "by-id"
        by_id.mkdir()
        (by_id / "usb-Arduino_Uno_1234-if00").symlink_to(emu.slave_path)
        monkeypatch.setattr(discovery, "BY_ID", by_id)
        monkeypatch.setattr(discovery, "UDEV_LINK", str(tmp_path / "no-udev-link"))
        monkeypatch.setattr(discovery.list_ports, "comports", lambda: [
            FakePortInfo("/dev/ttyS0", None, None),            # a built-in UART: not tried
            FakePortInfo("/dev/ttyUSB9", 0x0403, 0x6001),       # an FTDI board: tried, absent
            FakePortInfo(emu.slave_path, 0x2341, 0x0043),       # the reader
        ])
        found = discovery.candidates()
        name = str(by_id / "usb-Arduino_Uno_1234-if00")
        assert sorted(found) == sorted(["/dev/ttyUSB9", name])
        assert discovery.candidates(discovery.parse_usb_ids(["1a86:7523"])) == []
        assert discovery.discover() == (name, discovery.probe(emu.port))
        with DiceReader(None) as reader:
            status = wait_for(lambda: connected(reader), what="discovered and connected")
            assert status.port == name


def test_udev_link_comes_first(tmp_path, monkeypatch):
    with DiceEmulator({"tax": [2, 3, 3, 4, 4, 5]}, link=str(tmp_path / "dicereader")) as emu:
        monkeypatch.setattr(discovery, "UDEV_LINK", emu.port)
        monkeypatch.setattr(discovery.list_ports, "comports", lambda: [
            FakePortInfo(emu.slave_path, 0x2341, 0x0043)])
        assert discovery.candidates() == [emu.port]  # the same device is listed once
