"""The toy game's web folder (docs/engine.md, "Writing a game: the web folder")."""
