"""Monasterium's readings of its OCR-damaged rulebook (monasterium.md §14, M-A1…M-A22) that
change play, as named options with the recommended default. The others are catalog data
(which action sits where, the board) or single readings: NOT_OPTIONS says why for each
(docs/monasterium-options.md lists both; a test checks they agree)."""
from __future__ import annotations

from engine.api import Refused

OPTIONS: dict[str, tuple] = {
    "chapel_cost": (
        "per_player", ("per_player", "per_chapel"), "M-A5, §6.5",
        "per_player: the Influence a chapel novice costs (1, 2, 3, then 3) counts the player's "
        "row-III novices in all chapels. per_chapel: it counts their novices in that chapel."),
    "yellow_scores_twice": (
        False, (False, True), "M-A7, §7.2",
        "False: a die scores +1 once on a yellow tile (when placed on it, or when the tile "
        "turns yellow under it). True: the dice under a turning tile score again when used."),
    "joker_on_yellow_scores": (
        True, (False, True), "M-A8, §7.2",
        "A 6 placed in a yellow column scores +1 like any die. False: the joker never scores."),
    "extra_action_once_limits": (
        True, (False, True), "M-A10, §6.2",
        "The road's extra action (R1) keeps the once-per-turn limit of rows II and III. "
        "False: it may repeat an alternative already used this turn."),
    "majority_needs_novice": (
        True, (False, True), "M-A12, §12",
        "A monastery's majority needs at least one novice there. False: when nobody has one, "
        "every player ties and scores."),
    "new_die_when_passing": (
        True, (False, True), "M-A13, §6.2",
        "The last road space gives its new die (or +5) when the messenger passes it too, once "
        "a lap. False: only when the messenger stops on it."),
    "extra_novice_counts_cost": (
        False, (False, True), "M-A16, §6.7",
        "False: an extra novice sent to a chapel or cloister does not raise the cost of the "
        "player's next one. True: it counts like any other."),
    "extra_novice_forfeit_only_if_stuck": (
        True, (False, True), "M-A15, §6.7",
        "A completed row's extra novice is sent at once if it can be; it is forfeited only "
        "when it cannot. False: the player may also decline to send it."),
}


def resolve(given) -> dict:
    out = {k: v[0] for k, v in OPTIONS.items()}
    if given is None:
        return out
    if not isinstance(given, dict):
        raise Refused("bad_setup", reason="options must be an object")
    for k, v in given.items():
        if k not in OPTIONS:
            raise Refused("unknown_option", option=str(k)[:40])
        if v not in OPTIONS[k][1] or type(v) is not type(OPTIONS[k][0]):
            raise Refused("bad_option", option=k, value=str(v)[:20])
        out[k] = v
    return out


# The readings that are not options, and why.
NOT_OPTIONS: dict[str, str] = {
    "M-A1": "catalog: the standard action of each column (actions.json `standard`)",
    "M-A2": "catalog: the row I alternatives (actions.json `I`)",
    "M-A3": "catalog: the row II alternatives (actions.json `II`)",
    "M-A4": "catalog: the resource tile counts (board.json `resources`)",
    "M-A6": "catalog: which cloister spaces each building touches (board.json)",
    "M-A9": "a player who can take no die is skipped: no other reading keeps the game going",
    "M-A11": "catalog: the window's completion points (board.json `window`)",
    "M-A14": "a completed mission is claimed at once: waiting never pays more",
    "M-A17": "one reroll of any subset, then a forced choice: the only reading of the text",
    "M-A18": "supplies are unlimited and the table is warned when the players hold more than "
             "the box's count; the catalog's board.resources.limited makes them limited",
    "M-A19": "a common hall's tile that cannot be built is lost; the +3 prestige stays",
    "M-A20": "a 6 placed in column A may send a novice (a joker does any action there)",
    "M-A21": "any novice of any row may be sent; its row decides where and what it costs",
    "M-A22": "action tile n lies in column n (die value n)",
}
