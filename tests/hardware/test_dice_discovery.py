"""Discovery: a candidate is a dice reader only once it answers HELLO."""
import os
import tty

from hardware.dice import discovery
from hardware.dice.emulator import DiceEmulator


def test_probe_confirms_a_dice_reader(tmp_path):
    with DiceEmulator(link=str(tmp_path / "tty")) as emu:
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

