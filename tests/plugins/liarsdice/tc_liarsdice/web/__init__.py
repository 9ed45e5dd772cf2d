"""The web folder of Liar's dice lite (docs/engine.md, "Writing a game: the web folder")."""
