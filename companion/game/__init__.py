"""A game in play: the service every change goes through, its SQLite store, the installed games
and their shapes, the views built per recipient and the patches between them, the refusal texts.
"""
