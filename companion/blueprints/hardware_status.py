"""The running camera and dice as the host's hardware pages show them: the hardware
manager's handles and their status, translated for the page's language, with the start-up
settings of that part and where each came from (``settings``: key, value, from)."""
from __future__ import annotations

from flask import jsonify

from companion import context
from companion.blueprints import common
from companion.game import hardware_texts
from companion.game.service import LiveGame
from companion.game.views import Namer
from companion.server import i18n


def part_status(part: str) -> dict:
    return context.current().hardware.status().get(part, {"state": "absent"})


def of_this_game(status: dict, live: LiveGame) -> dict:
    """``status`` with only the warnings and would-be actions of ``live`` (or of no game):
    another game's name its cards by ids this game's page cannot name, and those of a game
    the camera served before are stale here. A card of another game seen on the table is
    named by that game's title, not its sticker namespace."""
    status = dict(status)
    for key in ("warnings", "would"):
        if isinstance(status.get(key), list):
            status[key] = [w for w in status[key] if not isinstance(w, dict)
                           or w.get("game") in (None, live.id)]
    if isinstance(status.get("warnings"), list):
        status["warnings"] = [_titled(w) for w in status["warnings"]]
    return status


def _titled(warning):
    """A "card of another game" warning with the game's title in place of its namespace."""
    params = warning.get("params") if isinstance(warning, dict) else None
    if not isinstance(params, dict) or warning.get("code") != "camera_other_game":
        return warning
    title = game_titles().get(str(params.get("game", "")).lower())
    if title is None:
        return warning
    name = i18n.in_lang(title, i18n.page_lang(), params["game"])
    return dict(warning, params=dict(params, game=name))


def game_titles() -> dict:
    """{sticker namespace (lower case): the game's title by language} of the installed
    games."""
    from companion.game import games
    from engine.api import sticker_namespace

    out = {}
    for name in games.known():
        info = games.module_of(name).info
        out[sticker_namespace(info)] = dict(info.names) or {"en": name}
    return out


def hardware_status_for(live: LiveGame, part: str) -> dict:
    lang = i18n.page_lang()
    namer = Namer(live, lang)
    status = hardware_texts.translated({part: of_this_game(part_status(part), live)}, lang,
                                       live.kind.reasons, namer, live.kind.name)[part]
    if isinstance(status.get("selected"), dict):  # card ids -> the printed card names
        status["selected_names"] = {seat: i18n.in_lang(namer.catalog.get(card, {}), lang, card)
                                    for seat, card in status["selected"].items()}
    status["settings"] = [row for row in context.current().settings.describe()
                          if row["key"].startswith(part + ".")]
    return status


def status_json(game_id: str, part: str):
    """What the host's camera or dice page polls: ``part``'s status, for the host only."""
    return jsonify(hardware_status_for(common.host_only(game_id), part))
