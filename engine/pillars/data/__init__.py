"""The shipped catalog of The Pillars of the Earth: one JSON file per part (package data)."""
