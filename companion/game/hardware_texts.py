"""Translated texts for the hardware on the host pages and in the views.

The camera wiring keeps its warnings as ``{code, params, template}`` (template: an English
gettext msgid from `companion.wiring.camera_plan.MESSAGES` or the engine's REASONS); the dice
wiring keeps ``{code, params}`` like an engine refusal. `translated()` adds the ``message``
in the recipient's language next to them, so no page has to translate English itself.
`MESSAGES` are the host hardware pages' own errors and results (gettext msgids, extracted
by web/i18n_tool.py).
"""
from __future__ import annotations

from companion.game.reasons import SERVER_REASONS
from companion.server import i18n

MESSAGES: dict[str, str] = {
    "no_camera": "No camera is running. Set camera.source in config.json (or "
                 "COMPANION_CAMERA) and restart the companion.",
    "no_camera_frame": "The camera has not delivered a picture yet.",
    "calibration_saved": "Calibration saved: north is where the board marker points.",
    "dice_bad_die_id": "\"{die}\" is not a die id: use 1 to 16 letters, digits, _ or -.",
    "dice_unknown_role": "\"{role}\" is not a dice role in this game.",
    "dice_duplicate_die": "Die \"{die}\" is listed twice.",
    "dice_roles_saved": "Dice roles saved. The next roll uses them.",
    "dice_no_roles": "This game uses no dice.",
    # the camera's tray holds more dice than the awaited roll (companion/wiring/dice.py)
    "dice_too_many": ("The camera sees {seen} die in the tray, but this roll has {thrown}: "
                      "take out the dice that were not thrown.",
                      "The camera sees {seen} dice in the tray, but this roll has {thrown}: "
                      "take out the dice that were not thrown.", "seen"),
    "tray_saved": "Dice tray saved. The camera reads dice only inside it.",
    "tray_bad": "The tray needs four numbers in millimetres from the board marker (left, top, "
                "right, bottom), at least 20 mm apart each way.",
    # the Camera Module's focus and the room's lights (issue 62, the host's camera page)
    "mains_saved": "Mains frequency saved: {hz} Hz. The camera restarts with it.",
    "mains_bad": "The mains frequency is 50 or 60 Hz.",
    "lights_flicker": "The room's lights flicker: set {hz} Hz.",
    "lights_flicker_bright": "The room's lights flicker and the room is too bright to cancel "
                             "it: shade the table from the lamp.",
    "lights_steady": "The room's lights do not flicker.",
    "focus_sharp": "Focus: sharp.",
    "focus_soft_ring": "Focus: soft. Turn the lens ring slowly until this says sharp.",
    "focus_soft": "Focus: soft. Focus the camera on the table again.",
    "focus_rescanned": "The table went soft with nothing over it (the camera bumped?), so the "
                       "camera focused on it again by itself. Scans of its own so far: {n}.",
    # what the simulated camera would record (the host's camera page)
    "would_card": "Record the card “{card}”.",
    "would_card_for": "Record the card “{card}” for {seat}.",
    "would_turn": ("Record the card turned {rotation} quarter turn.",
                   "Record the card turned {rotation} quarter turns.", "rotation"),
    "would_other": "Record a step of the table.",
    # a game that is not the one at the table (companion.wiring.hardware_manager.away)
    "table_elsewhere": "The camera and the dice reader are with {game} ({players}) at the "
                       "table: nothing records this game's cards or rolls. To move them here, "
                       "the host taps “Play this game at the table” on the host page, with "
                       "the host PIN of {game}.",
    "table_free": "The camera and the dice reader serve no game now. To use them for this "
                  "game, the host taps “Play this game at the table” on the host page.",
}


def would_text(lang: str, action: dict, names) -> str:
    """What the camera would record, in words (never the raw action)."""
    params = {k: names(v) if names else v for k, v in action.items()}
    seat = action.get("by") if action.get("by") not in ("table", "host", None) else None
    if action.get("card"):
        key = "would_card_for" if seat else "would_card"
        return i18n.text(lang, MESSAGES[key], dict(params, seat=params.get("by")))
    if action.get("rotation") is not None:
        return i18n.text(lang, MESSAGES["would_turn"], params)
    return i18n.text(lang, MESSAGES["would_other"])


def template_of(code: str, reasons: dict | None = None, template: str | None = None) -> str:
    """The English msgid for a warning or refusal code (camera warnings carry theirs)."""
    return (template or (reasons or {}).get(code) or SERVER_REASONS.get(code)
            or MESSAGES.get(code) or code)


def message(lang: str, code: str, params: dict | None = None, reasons: dict | None = None,
            template: str | None = None, names=None) -> str:
    params = params or {}
    shown = {k: names(v) if names else v for k, v in params.items()}
    return i18n.text(lang, template_of(code, reasons, template), shown)


def _warning(warning, lang: str, reasons: dict | None, names) -> object:
    if not isinstance(warning, dict) or "code" not in warning:
        return warning
    return dict(warning, message=message(lang, warning["code"], warning.get("params"),
                                         reasons, warning.get("template"), names))


def game_title(title: dict | None, lang: str) -> str:
    title = title if isinstance(title, dict) else {}
    return i18n.in_lang(title, lang)


def where_text(where: dict, lang: str, hardware: dict) -> str:
    """Where the camera and the dice reader are, for a game not at the table ("" when
    they are here, or when there is no hardware to speak of)."""
    if where.get("here") or not any(
            isinstance(s, dict) and s.get("state") == "elsewhere" for s in hardware.values()):
        return ""
    if where.get("game"):
        return i18n.text(lang, MESSAGES["table_elsewhere"],
                         {"game": game_title(where.get("title"), lang),
                          "players": where.get("players") or ""})
    return i18n.text(lang, MESSAGES["table_free"])


def _pending(pending, lang: str, game: str | None):
    """A waiting camera roll with the names of the dice the camera has not learnt yet (its
    roles' names, English msgids) in ``lang``."""
    if not isinstance(pending, dict) or not isinstance(pending.get("missing"), list):
        return pending
    return dict(pending, missing=[
        dict(die, name=i18n.text(lang, die["name"], game=game))
        if isinstance(die, dict) and isinstance(die.get("name"), str) else die
        for die in pending["missing"]])


def translated(hardware: dict | None, lang: str, reasons: dict | None = None,
               names=None, game: str | None = None) -> dict:
    """A copy of the hardware status with a translated ``message`` on every warning, and
    on ``table`` (where the hardware is) when it is with another game; the dice waiting to
    be entered named in ``lang`` (their roles' names in ``game``'s domain)."""
    out = {}
    for part, status in (hardware or {}).items():
        if not isinstance(status, dict):
            out[part] = status
            continue
        if part == "table":
            out[part] = dict(status, message=where_text(status, lang, hardware))
            continue
        status = dict(status)
        if isinstance(status.get("warnings"), list):
            status["warnings"] = [_warning(w, lang, reasons, names) for w in status["warnings"]]
        if isinstance(status.get("would"), list):
            status["would"] = [dict(w, text=would_text(lang, w.get("action") or {}, names))
                               for w in status["would"] if isinstance(w, dict)]
        if status.get("warning"):
            status["warning"] = _warning(status["warning"], lang, reasons, names)
        if status.get("pending"):
            status["pending"] = _pending(status["pending"], lang, game)
        out[part] = status
    return out
