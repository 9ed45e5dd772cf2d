"""Which games the companion can run: plug-ins found through the entry-point group
``table_companion.games`` (docs/engine.md, "Writing a game").

Each entry point names a game module object (engine/api.py `GameModule`) whose ``info``
declares everything the app needs. Tests may register other modules through the app config
``GAMES`` ({name: (module, catalog)}). Nothing here knows any particular game.
"""
from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib.metadata import entry_points
from typing import Any

GROUP = "table_companion.games"
log = logging.getLogger(__name__)


@dataclass
class GameKind:
    """A game module with its loaded catalog and what the server derives from them."""

    name: str
    module: Any
    catalog: Any
    reasons: dict = field(default_factory=dict)
    event_texts: dict = field(default_factory=dict)
    names: dict = field(default_factory=dict)  # catalog id -> {lang: name}
    prompt_texts: dict = field(default_factory=dict)  # prompt kind -> English template
    terms: dict = field(default_factory=dict)  # engine word in event params -> English msgid

    shaped: Any = None  # the module's info with this catalog's shapes (`kind_of`)
    # catalog id -> {form: {lang: text}}: a name with its article/case (`forms_index`)
    forms: dict = field(default_factory=dict)

    @property
    def info(self):
        return self.shaped or self.module.info

    @property
    def title(self) -> dict:
        return dict(self.info.names) or {"en": self.name}

    @cached_property
    def state_catalog(self) -> Any:
        """What a state carries of this catalog (``state["cat"]``, `GameInfo.catalog_state`),
        made once per kind; None for a game whose states carry none. A pure function of the
        catalog: two threads that make it at once make equal values."""
        build = self.module.info.catalog_state
        return build(self.catalog) if build is not None else None


@cache
def discovered() -> dict[str, Any]:
    """Every installed game module by id, in the order of their titles."""
    found = {}
    for point in entry_points(group=GROUP):
        try:
            module = point.load()
        except Exception:  # one broken plug-in must not take the others down
            log.exception("the game plug-in %s cannot be loaded", point.value)
            continue
        found[module.info.id] = module
    return dict(sorted(found.items(), key=lambda kv: kv[1].info.names.get("en", kv[0])))


def known() -> tuple[str, ...]:
    return tuple(discovered())


def module_of(name: str):
    """The game module ``name``; KeyError when no such game is installed."""
    return discovered()[name]


@dataclass(frozen=True)
class Installed:
    """The games one app plays: the app config's ``GAMES`` (tests) first, then the
    installed plug-ins. What the languages (companion/server/i18n.py) are given to find a
    game's web folder and the games whose texts a text without a game may come from."""

    overrides: dict = field(default_factory=dict)  # {name: (module, catalog)}

    def known(self) -> list[str]:
        configured = list(self.overrides)
        return configured + [g for g in known() if g not in configured]

    def module_of(self, name: str):
        """The game module ``name`` (KeyError: no such game)."""
        return self.overrides[name][0] if name in self.overrides else module_of(name)


def _walk(node: Any, visit: Callable[[Any, str | None], bool], key: str | None = None) -> None:
    """Every dict in the catalog with the key it sits under, depth first; ``visit``
    returns True where the walk should not go deeper (the two indexes below share it)."""
    if isinstance(node, dict):
        if visit(node, key):
            return
        for k, value in node.items():
            _walk(value, visit, k)
    elif isinstance(node, list):
        for value in node:
            _walk(value, visit)


def names_index(catalog: Any) -> dict:
    """Every catalog entry ``{"id", "names"}`` anywhere in the catalog, by id."""
    index: dict = {}

    def visit(node: dict, key: str | None) -> bool:
        if key == "forms":  # grammatical forms, not names (`forms_index`)
            return True
        if key not in (None, "names", "text", "alt_names") and _is_language_map(node):
            index.setdefault(key, node)  # {"guild": {"en": "Guild", "pl": "Cech"}}
            return True
        if isinstance(node.get("names"), dict):
            ident = node.get("id", key)
            if isinstance(ident, str | int):
                index.setdefault(str(ident), node["names"])
        return False

    _walk(catalog, visit)
    return index


def forms_index(catalog: Any) -> dict:
    """Every name's grammatical forms the catalog gives, by id: ``{id: {form: {lang:
    text}}}`` from each ``"forms": {form: {id: {lang: text}}}`` anywhere in the catalog.

    A name after a word may need its article and case, which differ by language (a
    person's name after "of": "of the X", German's genitive "der X", Italian's "della X",
    Polish's own case ending): a text asks for the form with ``{param.form}`` ("{seat}
    is helped {helper.of}."), the owner edits the forms as catalog data beside the names,
    and a name with no such form shows plain (`i18n.fill`)."""
    index: dict = {}

    def visit(node: dict, key: str | None) -> bool:
        if key != "forms":
            return False
        for form, by_id in node.items():
            if not isinstance(by_id, dict):
                continue
            for ident, texts in by_id.items():
                if isinstance(texts, dict) and _is_language_map(texts):
                    index.setdefault(str(ident), {}).setdefault(str(form), texts)
        return True

    _walk(catalog, visit)
    return index


def _is_language_map(node: dict) -> bool:
    return bool(node) and "en" in node and all(
        isinstance(k, str) and len(k) == 2 and isinstance(v, str) for k, v in node.items())


def kind_of(module: Any, catalog: Any) -> GameKind:
    """A GameKind from a module and a catalog (the catalog a game was created with)."""
    texts = module.info.texts
    return GameKind(module.info.id, module, catalog, dict(texts.reasons), dict(texts.events),
                    names_index(catalog), dict(texts.prompts), dict(texts.terms),
                    shaped_info(module.info, catalog), forms=forms_index(catalog))


def shaped_info(info: Any, catalog: Any) -> Any:
    """``info`` with the shapes of ``catalog``'s ids (``GameInfo.catalog_shapes``), or None
    when the game declares none or they cannot be made of this catalog (the static shapes
    then hold)."""
    make = info.catalog_shapes
    if make is None or not dataclasses.is_dataclass(info):
        return None
    try:
        extra = make(catalog)
    except Exception:  # a broken owner catalog: the static shapes, the rules still check
        return None
    return dataclasses.replace(info, action_shapes={**info.action_shapes, **extra})
