"""A game's die roles read against its catalog: the faces a role shows.

Pure helpers kept apart from the dice wiring so that the owner's box (the taught dice of
companion/box/taught_dice.py) and the wiring (companion/wiring/dice.py) both read one
definition without importing each other.
"""
from __future__ import annotations


def catalog_value(catalog, path: str | None):
    """The catalog's value at a dotted ``path`` (None when absent)."""
    node = catalog if path else None
    for key in (path or "").split("."):
        node = node.get(key) if isinstance(node, dict) else None
    return node


def role_faces(role, catalog) -> list[int]:
    """A role's faces, once each and in order: the catalog's (``faces_from``) when it gives a
    list of numbers, else the role's own. The one source for the phones' buttons, the
    camera's taught pictures (companion/box/taught_dice.py) and the checks of an entered die."""
    faces = catalog_value(catalog, role.faces_from)
    if not (isinstance(faces, list) and faces and all(type(f) is int for f in faces)):
        faces = role.faces
    return sorted(set(faces))
