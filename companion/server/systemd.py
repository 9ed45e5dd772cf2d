"""What systemd says about this machine: a unit's state, whether the clock is synchronised.

Each answer is None (or False for `is_active`) where there is no systemd to ask (a laptop,
a container), so callers can tell "not running" from "cannot know".
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def available(tool: str = "systemctl") -> bool:
    """systemd runs this machine and ``tool`` is installed."""
    return Path("/run/systemd/system").is_dir() and shutil.which(tool) is not None


def unit_state(unit: str) -> str | None:
    """`systemctl is-active UNIT` (active, inactive, failed, ...), or None without systemd."""
    if not available():
        return None
    try:
        out = subprocess.run(["systemctl", "is-active", unit], capture_output=True, text=True,
                             timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


def is_active(unit: str) -> bool:
    """What `systemctl is-active --quiet UNIT` answers with its exit code."""
    return unit_state(unit) in ("active", "reloading")


def ntp_synchronized() -> bool | None:
    """timedatectl's NTPSynchronized, or None where it cannot be asked (no systemd)."""
    if not available("timedatectl"):
        return None
    try:
        out = subprocess.run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"],
                             capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return {"yes": True, "no": False}.get(out.stdout.strip())
