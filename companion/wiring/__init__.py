"""Wiring: hardware observations (camera sightings, dice rolls) turned into engine actions.

Each hardware area has one module here (`camera.py`, `dice.py`) started once by
`companion.wiring.hardware_manager` with the interface described there.
"""
