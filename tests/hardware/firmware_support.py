"""Shared by the firmware tests: one Uno build per test session, and the simavr harness
(hardware/firmware/sim/dicereader_sim.c) running it with its UART on a pty."""
from __future__ import annotations

import functools
import queue
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

from hardware.firmware import build as fw

SIM_SOURCE = Path(fw.__file__).resolve().parent / "sim" / "dicereader_sim.c"
SIMAVR_HEADERS = Path("/usr/include/simavr")

needs_avr_toolchain = pytest.mark.skipif(
    not (shutil.which("avr-gcc") and (fw.ARDUINO_DIR / "Arduino.mk").exists()),
    reason="arduino-mk/gcc-avr absent (make test installs them)")
needs_simavr = pytest.mark.skipif(
    not (SIMAVR_HEADERS / "sim_avr.h").exists(),
    reason="libsimavr-dev absent (make test installs it)")


@functools.cache
def workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="tc-firmware-"))


@functools.cache
def uno_build() -> fw.Build:
    return fw.build(fw.TARGETS["uno"], workdir())


@functools.cache
def simulator_binary() -> Path:
    binary = workdir() / "dicereader_sim"
    subprocess.run(
        ["gcc", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-O2",
         f"-I{SIMAVR_HEADERS}", f"-I{SIMAVR_HEADERS / 'parts'}", str(SIM_SOURCE),
         "-o", str(binary), "-lsimavrparts", "-lsimavr", "-lpthread", "-lutil"],
        check=True, capture_output=True, text=True)
    return binary


class SimulatedBoard:
    """The Uno build running in simavr; ``port`` is its UART's pty. Commands (press,
    release, reset, garble) return once the harness has carried them out."""

    def __init__(self, elf: str) -> None:
        self._process = subprocess.Popen(
            [str(simulator_binary()), elf], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.port = self._expect("PTY ").split(" ", 1)[1]

    def _read(self) -> None:
        for line in self._process.stdout:
            self._lines.put(line.strip())
        self._lines.put(None)

    def _expect(self, prefix: str) -> str:
        while True:
            line = self._lines.get(timeout=30)
            if line is None:
                raise RuntimeError("the simulator stopped")
            if line.startswith(prefix):
                return line

    def command(self, name: str) -> None:
        self._process.stdin.write(name + "\n")
        self._process.stdin.flush()
        self._expect(f"OK {name}")

    def stop(self) -> None:
        if self._process.poll() is None:
            self._process.stdin.write("quit\n")
            self._process.stdin.flush()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
