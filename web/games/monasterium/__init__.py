"""The web folder of the game 'monasterium' (docs/engine.md)."""
