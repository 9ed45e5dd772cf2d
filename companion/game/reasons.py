"""Refusal codes the server itself raises (each game declares its own in `Texts.reasons`).

The English texts are gettext msgids: web/translations translates them.
"""
from engine.api import Refused


class DeviceRefused(Refused):
    """A refusal of the camera or the dice (companion/wiring/), not of a game's rules: the
    same code and params as every refusal, so every door translates and answers it alike
    (its code is one of `SERVER_REASONS` or the camera's own)."""


SERVER_REASONS: dict[str, str] = {
    "bad_request": "The request is malformed.",
    "unknown_game": "There is no such game.",
    "no_page": "The page you asked for does not exist.",
    "unknown_seat": "There is no such seat in this game.",
    "not_joined": "This phone has not joined the game. Scan your seat's QR code.",
    "not_host": "Only the host may do this. Enter the host PIN.",
    "seat_has_phone": "This seat's phone is connected: its player plays on it.",
    "too_big": "Too much data in this request ({what}).",
    "bad_value": "A value in this request is out of range ({what}).",
    "seat_taken": "This seat is already taken by another phone. The host can give it to this "
                  "phone with a new join code.",
    "not_paired": "This screen only watches the game. The host pairs the table display.",
    "not_for_table": "The table display cannot do this; the player or the host does.",
    "host_only": "Only the host may do this.",
    "wrong_code": "The join code is wrong.",
    "table_taken": "The camera and the dice reader serve another game in play. Only its "
                   "host moves them (with its host PIN); they come free when it ends.",
    "pairing_expired": ("This pairing link has expired: it works for {minutes} minute, once. "
                        "The host makes a new one on the host page, under “Pair the table "
                        "display”.",
                        "This pairing link has expired: it works for {minutes} minutes, once. "
                        "The host makes a new one on the host page, under “Pair the table "
                        "display”.", "minutes"),
    "pairing_invalid": "This pairing link does not work: it was used already or is "
                       "incomplete. The host makes a new one on the host page, under “Pair "
                       "the table display”.",
    "wrong_pin": "The PIN is wrong.",
    "too_many_new_games": "Too many new games from this network lately. Wait a few minutes, or "
                          "go on with a game of the lobby.",
    "too_many_games_open": ("{count} game is not finished: its host ends it on its host page "
                            "before another starts.",
                            "{count} games are not finished: the host of one ends it on its "
                            "host page before another starts.", "count"),
    "server_busy": "The server is busy with too many connections from this device or this "
                   "network. Try again in a few seconds.",
    "rate_limited": "Too many attempts. Wait a minute and try again.",
    "game_paused": "The game is paused.",
    "game_closed": "The game has ended.",
    "nothing_to_undo": "There is nothing to undo.",
    "csrf_failed": "The form has expired. Reload the page and try again.",
    "bad_record": "The game record cannot be read: {detail}",
    "bad_setup": "The game cannot be set up: {detail}",
    "storage_error": "The action could not be saved. Nothing changed.",
    "unknown_action": "Unknown action: {type}",
}
SERVER_REASONS.update({
    "internal_error": "Something went wrong on the server. Nothing changed.",
    "not_your_turn": "It is not your turn.",
    "no_table_step": "The table owes no such step now.",
    "bad_action": "This move is not in the expected form (at {path}). Nothing changed.",
    "bad_pin": "The PIN must be 4 to 8 digits.",
    "bad_text": "The text of {field} holds a character that is not plain text (a control "
                "character or broken Unicode). Nothing changed.",
})
SERVER_REASONS.update({  # the guided setup and the finished games' history
    "no_setup_guide": "This game has no setup guide.",
    "marker_soft": "The board marker is not sharp yet, so the camera is not ready: focus it "
                   "until the meter says sharp (or skip this step for now).",
    "no_focus_lens": "This camera has no focus lens to drive: turn its ring by hand.",
    "not_finished": "This game has not finished yet.",
})
SERVER_REASONS.update({  # the dice read by the camera or the reader (companion/wiring/dice.py)
    "dice_bad_source": "Choose the camera, the dice reader or the phones.",
    "dice_not_waiting": "No die is waiting to be entered.",
    "dice_not_your_roll": "Only the player who rolled enters these dice.",
    "dice_bad_face": "That is not a face of this die.",
    "dice_not_running": "The dice are not set up on this server.",
    "roll_read_by_serial": "The dice reader records this roll: roll the dice on it. Nothing "
                           "changed.",
    "roll_read_by_camera": "The camera reads this roll in the dice tray: roll the dice there "
                           "(your phone asks only for a die it cannot read). Nothing changed.",
})
