"""Build the reference dice-reader firmware for real boards with Debian's toolchain
(`arduino-mk` + `arduino-core-avr` + `gcc-avr`) and report its flash and RAM use.

`make firmware` runs it; CI's test (tests/hardware/test_firmware_build.py) fails when a board
stops building or its RAM use passes `RAM_LIMIT`: the stack lives in what static data leaves,
and the sketch's frame buffers sit on it.

    python -m hardware.firmware.build [--out DIR] [BUILD ...]

prints one line per build and a JSON last line with every build's figures.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

SKETCH = Path(__file__).resolve().parent / "dicereader"
ARDUINO_DIR = Path("/usr/share/arduino")
BOARDS_TXT = ARDUINO_DIR / "hardware" / "arduino" / "avr" / "boards.txt"
RAM_LIMIT = 0.75
# Debian's core WString.cpp uses DECIMAL_DIG, which its avr-libc's float.h lacks.
CORE_FIX = "-DDECIMAL_DIG=17"


@dataclass(frozen=True)
class Target:
    name: str
    board: str
    defines: tuple[str, ...] = ()


TARGETS = {
    "uno": Target("uno", "uno"),
    "uno-many-dice": Target("uno-many-dice", "uno", ("-DDICEREADER_MANY_DICE_DEMO",)),
    "leonardo": Target("leonardo", "leonardo"),
}


@dataclass(frozen=True)
class Build:
    target: str
    board: str
    mcu: str
    elf: str
    flash: int
    flash_max: int
    ram: int
    ram_max: int

    @property
    def ram_share(self) -> float:
        return self.ram / self.ram_max

    def line(self) -> str:
        return (f"{self.target:14} {self.mcu:11} flash {self.flash:6} / {self.flash_max} B "
                f"({self.flash / self.flash_max:5.1%})  RAM {self.ram:5} / {self.ram_max} B "
                f"({self.ram_share:5.1%})")


class BuildError(RuntimeError):
    """The toolchain refused the sketch (its output is the message)."""


def board_value(board: str, key: str) -> str:
    """A value of Arduino's boards.txt, e.g. ('uno', 'build.mcu') → 'atmega328p'."""
    prefix = f"{board}.{key}="
    for line in BOARDS_TXT.read_text().splitlines():
        if line.startswith(prefix):
            return line[len(prefix):].strip()
    raise KeyError(f"{board}.{key} not in {BOARDS_TXT}")


def section_sizes(elf: Path) -> dict[str, int]:
    """avr-size's System V table: section name → bytes."""
    out = subprocess.run(["avr-size", "-A", str(elf)], check=True, capture_output=True,
                         text=True).stdout
    sizes = {}
    for line in out.splitlines():
        match = re.match(r"^(\.\w+)\s+(\d+)\s+\d+$", line.strip())
        if match:
            sizes[match.group(1)] = int(match.group(2))
    return sizes


def build(target: Target, out_dir: Path, sketch: Path = SKETCH) -> Build:
    """Compile ``sketch`` (a folder) for one target into ``out_dir/<target>``, measure it."""
    obj = out_dir / target.name
    env = dict(os.environ, CPPFLAGS=" ".join((CORE_FIX, *target.defines)))
    run = subprocess.run(
        ["make", "-s", "-f", str(ARDUINO_DIR / "Arduino.mk"), "-C", str(sketch),
         f"ARDUINO_DIR={ARDUINO_DIR}", f"BOARD_TAG={target.board}", f"OBJDIR={obj}",
         "ARDUINO_QUIET=1"],
        env=env, capture_output=True, text=True)
    elves = sorted(obj.glob("*.elf"))
    if run.returncode != 0 or not elves:
        raise BuildError(f"{target.name}: build failed\n{run.stdout[-3000:]}{run.stderr[-3000:]}")
    sizes = section_sizes(elves[0])
    return Build(
        target=target.name, board=target.board, mcu=board_value(target.board, "build.mcu"),
        elf=str(elves[0]),
        flash=sizes.get(".text", 0) + sizes.get(".data", 0),
        flash_max=int(board_value(target.board, "upload.maximum_size")),
        ram=sizes.get(".data", 0) + sizes.get(".bss", 0) + sizes.get(".noinit", 0),
        ram_max=int(board_value(target.board, "upload.maximum_data_size")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", metavar="BUILD",
                        help=f"any of {', '.join(TARGETS)} (default: all)")
    parser.add_argument("--out", type=Path, help="build directory (default: a temporary one)")
    args = parser.parse_args(argv)
    unknown = [t for t in args.targets if t not in TARGETS]
    if unknown:
        parser.error(f"unknown build {', '.join(unknown)}; known: {', '.join(TARGETS)}")
    out = args.out or Path(tempfile.mkdtemp(prefix="dicereader-"))
    builds, failed = [], []
    for name in args.targets or TARGETS:
        try:
            result = build(TARGETS[name], out)
        except BuildError as error:
            print(error, file=sys.stderr)
            failed.append(name)
            continue
        builds.append(result)
        over = "  RAM OVER LIMIT" if result.ram_share > RAM_LIMIT else ""
        print(result.line() + over)
    print(json.dumps({"builds": [asdict(b) for b in builds], "failed": failed,
                      "ram_limit": RAM_LIMIT}))
    too_big = [b for b in builds if b.ram_share > RAM_LIMIT]
    return 1 if failed or too_big else 0


if __name__ == "__main__":
    sys.exit(main())
