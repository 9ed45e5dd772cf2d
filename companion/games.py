"""Which games the companion can run: the engine module and its catalog, by short name.

Modules are found as ``engine.<name>.GAME``; catalogs through ``companion.catalog``. Tests
may register other modules through the app config ``GAMES`` ({name: (module, catalog)}).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

KNOWN = ("wwe",)


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

    @property
    def title(self) -> dict:
        game = (self.catalog or {}).get("game", {}) if isinstance(self.catalog, dict) else {}
        return game.get("names") or {"en": self.name}


def _names_index(catalog: Any) -> dict:
    """Every catalog entry ``{"id", "names"}`` anywhere in the catalog, by id."""
    index: dict = {}

    def walk(node: Any, key: str | None = None) -> None:
        if isinstance(node, dict):
            if key not in (None, "names", "text", "alt_names") and _is_language_map(node):
                index.setdefault(key, node)  # {"guild": {"en": "Guild", "pl": "Cech"}}
                return
            if isinstance(node.get("names"), dict):
                ident = node.get("id", key)
                if isinstance(ident, str | int):
                    index.setdefault(str(ident), node["names"])
            for k, value in node.items():
                walk(value, k)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(catalog)
    return index


def _is_language_map(node: dict) -> bool:
    return bool(node) and "en" in node and all(
        isinstance(k, str) and len(k) == 2 and isinstance(v, str) for k, v in node.items())


def load_kind(name: str, data_dir: str | None, overrides: dict | None = None) -> GameKind:
    """The game ``name``: an override from the config, else the engine package."""
    package = ""
    if overrides and name in overrides:
        module, catalog = overrides[name]
    else:
        package = f"engine.{name}"
        if name not in KNOWN:
            raise KeyError(name)
        module = importlib.import_module(f"engine.{name}").GAME
        from companion.catalog import load_catalog

        catalog = load_catalog(name, data_dir)
    reasons = getattr(module, "REASONS", None) or _optional(package, "reasons", "REASONS")
    texts = getattr(module, "EVENT_TEXTS", None) or _optional(package, "texts", "EVENT_TEXTS")
    prompts = (getattr(module, "PROMPT_TEXTS", None)
               or _optional(package, "texts", "PROMPT_TEXTS"))
    terms = getattr(module, "TERMS", None) or _optional(package, "texts", "TERMS")
    return GameKind(name, module, catalog, reasons or {}, texts or {}, _names_index(catalog),
                    prompts or {}, terms or {})


def _optional(package: str, module: str, attr: str) -> dict | None:
    if not package:
        return None
    try:
        return getattr(importlib.import_module(f"{package}.{module}"), attr, None)
    except ImportError:
        return None
