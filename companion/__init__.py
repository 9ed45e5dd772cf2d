"""The application: Flask + Socket.IO server, sessions and seats, persistence, wiring
hardware observations into engine actions, and the `companion` command line.

Its parts import one way, bottom first (tests/companion/test_layers.py checks every import,
README's layout table lists them in this order): a part may import only the parts before
it. Within a part, modules import each other without a circle
(tests/companion/test_import_circles.py).
"""

LAYERS = (
    ("server",),  # plumbing: settings, security, limits, transport, i18n: no game
    ("table",),  # the table's guidance, pure functions over the game objects it is handed
    ("game",),  # the game service, its store, the views, the sender
    ("box",),  # the owner's box: catalogs, deck, backups
    ("context",),  # the typed context and the ports the parts meet through
    ("wiring",),  # hardware observations -> game actions; the hardware manager
    ("blueprints",),  # HTTP routes and the Socket.IO handlers
    ("app",),  # the factory: makes every part and the context
    ("doctor",),  # `companion doctor`'s checks of the whole installation
    ("commands",),  # the `companion` CLI's commands
    ("cli",),  # finds the commands
)
