"""The web folder of the game 'pillars' (docs/engine.md)."""
