"""For every test: a view part shared between recipients that anybody changes in place fails
the test where it is next given out (engine/viewparts.py, `Parts.checking`)."""
from __future__ import annotations

from engine import viewparts

viewparts.Parts.checking = True
