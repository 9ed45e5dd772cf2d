"""What the server's worker imports before the hardware reads anything (issue 71): every
module is code held all evening, so what only a bench, the demo, or a dice-reading camera
needs is imported when it is needed."""
from __future__ import annotations

import subprocess
import sys
import textwrap

NOT_AT_START = (
    "hardware.camera.dice_faces",  # the camera's dice reading: at its first roll (1.4 MB)
    "hardware.synthetic",  # the renderers of the benches and tests
    "scipy",
    "numpy.ma",  # numpy's percentile and unique load it (hardware/camera/percentile.py)
)


def test_the_worker_starts_without_what_a_still_table_does_not_use():
    """The app and its camera and dice wiring imported in a fresh process. Planted fault
    caught (by hand): hardware/camera/dice_settle.py importing ``read_tray`` at its top:
    the dice faces are imported."""
    code = textwrap.dedent("""
        import sys
        import companion.app, companion.wiring.camera, companion.wiring.camera_dice
        import companion.wiring.camera_faces, companion.wiring.dice
        import companion.wiring.hardware_manager
        print(" ".join(sorted(sys.modules)))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    loaded = out.stdout.split()
    assert "companion.wiring.camera_dice" in loaded
    held = [m for m in loaded if m in NOT_AT_START or m.startswith(
        tuple(name + "." for name in NOT_AT_START))]
    assert not held, held
