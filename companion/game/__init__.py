"""A game in play: the service every change goes through, its SQLite store, the installed games
and their shapes, the views built per recipient, the patches between them and the one sender
of views, the refusal and hardware texts.
"""
