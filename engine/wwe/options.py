"""Every [BEST READING] of the rules (world-without-end.md §10) as a named option.

One table: name -> (default, choices, rule reference, what it does). The defaults are the
recommended readings. docs/options.md lists the same table for people; a test checks that
both agree.
"""
from __future__ import annotations

from engine.api import Refused

# name: (default, allowed values, rule reference, description)
OPTIONS: dict[str, tuple] = {
    "first_game": (
        False, (False, True), "S4, S10, R4.2",
        "First-game variant: chapter I with the 6 starred action cards (no discard) and the "
        "starred event cards only."),
    "favor_wrap": (
        "catalog", ("catalog", "bishop_to_queen"), "A-2, R3.5.5",
        "catalog: the marker follows the catalog's favor cycle (default passes Outlaws after "
        "Bishop). bishop_to_queen: the IT/PL reading, Outlaws is only the start space."),
    "extra_start_pass_at_chapter_end": (
        False, (False, True), "A-8, E6",
        "True: the start player passes the token once more at the chapter end (after duties)."),
    "privilege_repeats_unperformed": (
        True, (False, True), "A-9",
        "Privilege may repeat a card that was played without effect."),
    "chapter4_loyalty_per_type": (
        True, (False, True), "A-18, R5.8.2",
        "After chapter IV, 1 loyalty per failed duty type removes the doubling for that type. "
        "False: loyalty cannot remove the doubling."),
    "partial_duty_payment": (
        True, (False, True), "A-19, R5.3.2",
        "Hand in what you have (up to the duty) and lose VP per missing unit. False: a player "
        "short of a duty hands in nothing of it and loses VP for the whole duty."),
    "donor_extra_all_or_nothing": (
        True, (False, True), "A-20, R6.5.3",
        "If the supply cannot give the donor extra item to every donor, nobody gets it. "
        "False: donors in turn from the active player get it while the supply lasts."),
    "spire_tie_at_zero": (
        True, (False, True), "A-22, R6.6.2",
        "The spire tie rule also applies when the most loyalty is 0 (everybody 1 VP). "
        "False: with no loyalty anywhere nobody scores for the spire (metal still placed)."),
    "income_partial": (
        True, (False, True), "A-25, R3.4.4",
        "Income: give what the supply has and 1 VP per missing unit. False: if the supply "
        "cannot give the whole corner, 1 VP instead of all of it."),
    "favor_card_outlaws_needs_gold": (
        True, (False, True), "A-26",
        "The Favor action card has no effect (played, the marker does not move, R4.1.2) "
        "when it would land on Outlaws and the player has no gold. False: it lands and the "
        "player pays what they can (nothing)."),
    "outlaws_check": (
        "after_income", ("after_income", "before_income"), "R3.3.3, R3.5.1",
        "after_income: an orientation landing on Outlaws is illegal only if the active "
        "player cannot pay 1 gold at the favor step, after this card's income (step 3). "
        "before_income: judged with the gold held when the card is oriented."),
    "chapter4_end_steps": (
        True, (False, True), "A-29",
        "After chapter IV run project progress, cover removal and event clearing before the "
        "duties. False: only the duties."),
    "permanent_third_acts": (
        True, (False, True), "A-24, R3.7.3",
        "In the round a 3rd permanent event appears, all 3 apply in step 5."),
    "covered_projects_no_progress": (
        True, (False, True), "E1, §6.9",
        "Covered (blocked) projects get no end-of-chapter material."),
    "shared_victory": (
        True, (False, True), "A-34, R8.3",
        "A tie beyond piety, loyalty and MK is a shared victory (same rank)."),
    "sell_any_wool": (
        True, (False, True), "A-1",
        "Sell Wool & Cloth sells any number of wool. False: the PL sentence read literally, "
        "at most 1 wool per action."),
    "hospital_cures_per_donor": (
        "one", ("one", "sum"), "A-21, R6.5.6",
        "Each Hospital donor may cure one resident. sum: as many as their MK covers (the "
        "Medicine sum rule), sent as cure.locations."),
    "free_house_same_rent": (
        True, (False, True), "A-28, R7.6",
        "The free house of plague location 9 obeys the same-rent restriction. False: only "
        "a free site and a house in reserve are needed."),
    "random_discards": (
        "app", ("app", "table"), "A-11, A-14, issue 2 §2",
        "app: Penance's random discard and 'During the plague…' draws come from the seeded "
        "generator. table: a player draws the card at the table; Penance is recorded with "
        "record_discard, a random face-down discard is recorded as the play_card discard."),
    "plague_values": (
        "table", ("table", "app"), "R7.1, issue 2 §2",
        "table: the physical token's value is entered (reveal_plague) when it is flipped. "
        "app: the app shuffles the tokens with the seeded generator after chapter II."),
}


def defaults() -> dict:
    return {name: spec[0] for name, spec in OPTIONS.items()}


def resolve(given: dict | None) -> dict:
    """The full option set: defaults overridden by ``given``. Unknown names are refused."""
    out = defaults()
    for name, value in (given or {}).items():
        if name not in OPTIONS:
            raise Refused("unknown_option", option=name)
        if value not in OPTIONS[name][1]:
            raise Refused("bad_option_value", option=name, value=value)
        out[name] = value
    return out
