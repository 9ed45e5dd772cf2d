"""The running camera and dice as the host's hardware pages show them: the hardware
manager's handles and their status, translated for the page's language, with the start-up
settings of that part and where each came from (``settings``: key, value, from)."""
from __future__ import annotations

from flask import current_app, jsonify

from companion.blueprints import common
from companion.game.service import LiveGame
from companion.game.views import Namer
from companion.server import i18n
from companion.server.settings import from_app
from companion.wiring import hardware_texts


def hardware_handle(part: str):
    """The running camera or dice handle, or None."""
    manager = current_app.extensions.get("companion.hardware")
    return manager.handles.get(part) if manager is not None else None


def part_status(part: str) -> dict:
    manager = current_app.extensions.get("companion.hardware")
    return manager.status().get(part, {"state": "absent"}) if manager else {"state": "absent"}


def hardware_status_for(live: LiveGame, part: str) -> dict:
    lang = i18n.page_lang()
    namer = Namer(live, lang)
    status = hardware_texts.translated({part: part_status(part)}, lang, live.kind.reasons,
                                       namer, live.kind.name)[part]
    if isinstance(status.get("selected"), dict):  # card ids -> the printed card names
        status["selected_names"] = {seat: namer.catalog.get(card, {}).get(lang)
                                    or namer.catalog.get(card, {}).get("en") or card
                                    for seat, card in status["selected"].items()}
    status["settings"] = [row for row in from_app(current_app).describe()
                          if row["key"].startswith(part + ".")]
    return status


def status_json(game_id: str, part: str):
    """What the host's camera or dice page polls: ``part``'s status, for the host only."""
    return jsonify(hardware_status_for(common.host_only(game_id), part))
