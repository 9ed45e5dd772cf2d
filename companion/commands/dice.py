"""`companion dice emulate` and `companion dice listen`: a dice reader in software, and a
window onto a real (or emulated) one. Protocol: docs/dice-protocol.md."""
from __future__ import annotations

import json
import signal
import sys
import threading

import click

from companion.wiring.dice import game_dice
from hardware.dice import discovery
from hardware.dice.emulator import DiceEmulator, serve_http
from hardware.dice.observations import DiceStatus, Roll
from hardware.dice.protocol import DIE_ID
from hardware.dice.reader import DiceReader

command = click.Group("dice", help="Serial dice reader: emulate one, or listen to one.")


def _die_ids(text: str) -> list[str]:
    """``tax`` → [tax]; ``r1,r2`` → [r1, r2]; ``n1..n10`` → [n1, n2, ..., n10]."""
    ids = []
    for item in text.split(","):
        first, dots, last = item.partition("..")
        prefix = first.rstrip("0123456789")
        if dots and last.startswith(prefix) and first[len(prefix):] and last[len(prefix):] \
                and last[len(prefix):].isdigit():
            start, stop = int(first[len(prefix):]), int(last[len(prefix):])
            ids += [f"{prefix}{n}" for n in range(start, stop + 1)] if start <= stop else [""]
        else:
            ids.append(item)
    return ids


def parse_dice(specs: tuple[str, ...]) -> tuple[dict[str, list[int]], dict[str, str]]:
    """``("tax:2,3,3,4,4,5", "n1..n10@neutral", "r1,r2@red:1,2,3,4,5,6")`` → dice (id →
    faces, default 1-6) and groups (id → group, for the die list of protocol version 2)."""
    dice: dict[str, list[int]] = {}
    groups: dict[str, str] = {}
    for spec in specs:
        head, sep, faces = spec.partition(":")
        ids, at, group = head.partition("@")
        try:
            values = [int(f) for f in faces.split(",")] if sep else [1, 2, 3, 4, 5, 6]
        except ValueError:
            values = []
        names = _die_ids(ids)
        if (not values or min(values) < 0 or (at and not DIE_ID.fullmatch(group))
                or len(set(names)) < len(names)
                or any(not DIE_ID.fullmatch(d) or d in dice for d in names)):
            raise click.BadParameter(
                f"{spec!r}: expected IDS[@GROUP][:FACE,FACE,...]: IDS one id, ids with commas "
                "or a range like n1..n10, ids and group of 1-16 [A-Za-z0-9_-], non-negative "
                "integer faces (default 1-6)", param_hint="--dice")
        for die in names:
            dice[die] = values
            if at:
                groups[die] = group
    return (dice or game_dice()), groups


def _every(seconds: float, action, stop: threading.Event) -> None:
    def loop() -> None:
        while not stop.wait(seconds):
            action()

    threading.Thread(target=loop, daemon=True).start()


def _keys(emu: DiceEmulator, stop: threading.Event) -> None:
    """Enter or r: roll; u: unplug/replug; q: quit. Single keys on a terminal."""
    raw = sys.stdin.isatty()
    if raw:
        import termios
        import tty

        saved = termios.tcgetattr(sys.stdin)
        tty.setcbreak(sys.stdin)
    try:
        while not stop.is_set():
            key = sys.stdin.read(1) if raw else sys.stdin.readline()
            if key == "":
                return  # no keyboard (stdin closed): keep running for HTTP and timers
            key = key.strip().lower()
            if key in ("", "r", " "):
                roll, faces = emu.roll()
                click.echo(f"roll {roll}: {faces}", err=True)
            elif key == "u":
                (emu.replug if not emu.plugged else emu.unplug)()
                click.echo("plugged in" if emu.plugged else "unplugged", err=True)
            elif key == "q":
                stop.set()
    finally:
        if raw:
            termios.tcsetattr(sys.stdin, termios.TCSADRAIN, saved)


@command.command("emulate")
@click.option("--dice", "dice_specs", multiple=True, metavar="IDS[@GROUP][:FACES]",
              help="Dice, their group and faces (default 1-6), e.g. t:2,3,3,4,4,5, "
                   "n1..n10@neutral, r1,r2,r3@red (repeatable; default: one die per role the "
                   "installed games declare, named after the role).")
@click.option("--proto", type=click.IntRange(1, 2), default=2, show_default=True,
              help="Protocol version: 2 splits many dice into parts and answers DICE?.")
@click.option("--link", help="Stable path of the emulated port (default in the temp dir).")
@click.option("--http-port", type=int, help="Serve POST /roll, /unplug, /replug on this port.")
@click.option("--every", type=float, help="Roll every SEC seconds.")
@click.option("--corrupt", type=click.FloatRange(0, 1), default=0.0,
              help="Probability that a frame is corrupted.")
@click.option("--drop", type=click.FloatRange(0, 1), default=0.0,
              help="Probability that a frame is lost.")
@click.option("--unplug-every", type=float, help="Unplug for a second every SEC seconds.")
@click.option("--roll-time", type=float, default=0.3, show_default=True,
              help="Seconds between ROLLING and SETTLED.")
@click.option("--no-reset", is_flag=True, help="Do not act like an Arduino resetting on open.")
@click.option("--seed", type=int, help="Seed the faces and the corruption (reproducible).")
def emulate(dice_specs, proto, link, http_port, every, corrupt, drop, unplug_every, roll_time,
            no_reset, seed) -> None:
    """Make a pty that speaks the dice-reader protocol. Prints one JSON line on stdout:
    {"port": ..., "pty": ..., "http": ...}; then rolls on Enter, HTTP or a timer."""
    dice, groups = parse_dice(dice_specs)
    emu = DiceEmulator(dice, link=link, corrupt=corrupt, drop=drop, proto=proto, groups=groups,
                       reset_on_open=not no_reset, roll_time=roll_time, seed=seed).start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    url = None
    if http_port is not None:
        server = serve_http(emu, http_port)
        url = f"http://127.0.0.1:{server.server_address[1]}"
    click.echo(json.dumps({"port": emu.port, "pty": emu.slave_path, "http": url}))
    sys.stdout.flush()
    click.echo(f"dice emulator on {emu.port} ({emu.slave_path}), dice {emu.dice}", err=True)
    if url:
        click.echo(f"roll: curl -X POST {url}/roll [-d '{{\"faces\": {{...}}, "
                   f"\"dice\": [...]}}'] (dice: reroll only those); an extra die: "
                   f"curl -X POST {url}/add -d '{{\"die\": \"x1\", \"group\": \"white\"}}'",
                   err=True)
    click.echo("keys: Enter roll, u unplug/replug, q quit", err=True)
    if every:
        _every(every, emu.roll, stop)
    if unplug_every:
        def blip() -> None:
            emu.unplug()
            stop.wait(1.0)
            emu.replug()

        _every(unplug_every, blip, stop)
    threading.Thread(target=_keys, args=(emu, stop), daemon=True).start()
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        emu.stop()


@command.command("listen")
@click.argument("port", required=False)
@click.option("--usb-id", "usb_ids", multiple=True, metavar="VID:PID",
              help="Look for these USB ids when discovering (default: common boards).")
@click.option("--count", type=int, help="Exit after this many rolls.")
def listen(port, usb_ids, count) -> None:
    """Print every parsed message, status change and roll as one JSON object per line.
    Without PORT, discover the reader (by-id / VID:PID, confirmed by HELLO)."""
    lock = threading.Lock()
    done = threading.Event()
    rolls = 0

    def out(data: dict) -> None:
        with lock:
            click.echo(json.dumps(data))
            sys.stdout.flush()

    def observed(observation) -> None:
        nonlocal rolls
        if isinstance(observation, Roll):
            out(observation.to_json())
            rolls += 1
            if count is not None and rolls >= count:
                done.set()
        elif isinstance(observation, DiceStatus):
            out(observation.to_json())

    ids = discovery.parse_usb_ids(list(usb_ids)) if usb_ids else None
    reader = DiceReader(port, on_observation=observed, on_message=lambda m: out(m.to_json()),
                        usb_ids=ids)
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    reader.start()
    try:
        done.wait()
    except KeyboardInterrupt:
        pass
    finally:
        reader.stop()
