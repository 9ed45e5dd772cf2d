"""The web folders of the in-tree games, one package per game id."""
