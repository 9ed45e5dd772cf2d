"""Every [BEST READING] of the rules (pillars-of-the-earth.md §14, P-A1…P-A23) as a named option.

One table: name -> (default, allowed values, rule reference, what it does). The defaults are
the recommended readings. docs/pillars-options.md lists the same table; a test checks both
agree and that every P-A id is either here or listed in NOT_OPTIONS with the reason.
"""
from __future__ import annotations

from engine.api import Refused

OPTIONS: dict[str, tuple] = {
    "two_player_marker_zero": (
        True, (True,), "P-A1, §6.1",
        "2 players: after the 6th draw the cost marker goes to 0; the deferred placements "
        "are free. No other reading changes play, so this has one value."),
    "free_draws_must_place": (
        True, (False, True), "P-A2, §6.1",
        "An architect drawn at cost 0 (8th draw on) must be placed now. False: it may also "
        "pass and is placed free later with the passed ones."),
    "placement_needs_gold": (
        True, (False, True), "P-A3, §6.1",
        "Placing needs gold at least the current cost; otherwise the only option is to pass. "
        "False: a player may place and pay what they can (the shortfall rule applies)."),
    "refusal_moves_marker": (
        False, (False, True), "P-A4, §6.1",
        "True: a draw the start player refuses moves the cost marker one sector down."),
    "architect_limit_event": (
        "next_round", ("next_round", "ignore"), "P-A5, §6.4",
        "next_round: the 2-architect event limits the next round's Phase II; a colour's "
        "third drawn architect is set aside without moving the marker. ignore: no effect."),
    "bishop_choice_at_reveal": (
        True, (True,), "P-A6, §7.2",
        "The Bishop's player chooses protection or a market cube when the event is revealed; "
        "after a positive event they take the cube."),
    "court_metal": (
        "metal_space", ("metal_space", "first_placed"), "P-A8, §6.3, §7.7",
        "metal_space: the architect on the court's metal space takes the metal. first_placed:"
        " the first architect placed at the court takes it, whichever space."),
    "spaces_any_order": (
        True, (False, True), "P-A9, §6.3",
        "Any free space of a location may be taken. False: a location's spaces fill in "
        "number order (Prior 1 before 2, market 1 to 4)."),
    "same_player_two_spaces": (
        True, (False, True), "P-A10, §6.3",
        "A player may have architects on two spaces of one location. False: one a location."),
    "workers_fungible": (
        True, (True,), "P-A11, §5.1",
        "Workers are integer units (12, plus grey and black workers); the large worker is "
        "5 units and may be split."),
    "gold_cap_all_gains": (
        True, (False, True), "P-A12, §7.3",
        "The 30-gold cap applies to every gain. False: only to mill income."),
    "vp_floor_zero": (
        True, (False, True), "P-A13, §7.11",
        "VP never go below 0. False: VP may go negative."),
    "metal_counts_storage": (
        True, (False, True), "P-A14, §7.11",
        "Metal counts toward the 5-cube storage limit. False: only wood, stone and sand."),
    "sell_then_buy": (
        True, (False, True), "P-A15, §7.10",
        "A player may buy back a type they sold this round. False: no buying a sold type."),
    "market_leave_final": (
        True, (True,), "P-A16, §7.10",
        "A player who leaves the market cannot trade again this round."),
    "master_carpenter_counts": (
        False, (False, True), "P-A17, §8.3",
        "True: the Master carpenter also allows buying wood. Default: only the Carpenter."),
    "site_shortage": (
        "owe", ("owe", "lose"), "P-A19, §7.6, Appendix",
        "owe: cubes a production site cannot give are noted and given when the site has "
        "cubes again. lose: they are lost."),
    "unused_colours_out": (
        True, (True,), "P-A20, §2",
        "The pieces and starting craftsmen of unused colours stay in the box."),
    "tie_shared_win": (
        True, (True,), "P-A21, §12",
        "Most VP wins; then more gold; a tie beyond gold is a shared win."),
    "deferred_no_space": (
        "unused", ("unused",), "P-A23, §6.2",
        "A passed architect with no legal free space is not used this round."),
    "refusal_any_colour": (
        True, (False, True), "§6.1",
        "The start player may refuse a draw of any colour, their own included. False: only "
        "another player's architect."),
    "privileges_public": (
        True, (True,), "§9",
        "Held privilege cards lie face up and are public (they are in the public view)."),
    "conditions_at_use": (
        True, (True,), "§8.3",
        "Craftsman conditions are tested when used: the Carpenter and Stone carver at each "
        "market action, the Mortar mixer at step 13."),
    "buy_needs_gold": (
        True, (True,), "§7.10",
        "A player cannot buy more cubes than they can pay for."),
    "market_top_up": (
        True, (True,), "§4",
        "Before each round every market type is topped up to 4 (also its maximum)."),
}

# Best readings that are no rule choice, and why (checked by the tests).
NOT_OPTIONS: dict[str, str] = {
    "P-A7": "catalog: board.json gives the spaces of the Bishop's seat, King's court and "
            "cathedral",
    "P-A18": "catalog: craftsmen.json gives each Potter's input, output and capacity",
    "P-A22": "terminology only (round and turn)",
}


def defaults() -> dict:
    return {k: v[0] for k, v in OPTIONS.items()}


def resolve(given) -> dict:
    """The options of a new game: the defaults, overridden by ``given`` (checked)."""
    out = defaults()
    if given is None:
        return out
    if not isinstance(given, dict):
        raise Refused("bad_setup", reason="options must be an object")
    for key, value in given.items():
        if key not in OPTIONS:
            raise Refused("bad_option", option=str(key))
        allowed = OPTIONS[key][1]
        if not any(type(a) is type(value) and a == value for a in allowed):
            raise Refused("bad_option_value", option=key, value=str(value))
        out[key] = value
    return out
