"""English templates of Monasterium's refusals, log events and prompts (the app translates
them with the game's message catalog)."""
from __future__ import annotations

REASONS: dict[str, str] = {
    "bad_action": "The action is malformed.",
    "bad_setup": "The game cannot be set up: {reason}.",
    "bad_field": "The value for {field} is missing or not allowed.",
    "bad_face": "A die cannot show {value}.",
    "unknown_action": "Unknown action {action}.",
    "unknown_seat": "There is no seat {seat} in this game.",
    "unknown_option": "There is no option {option}.",
    "bad_option": "Option {option} cannot be {value}.",
    "game_over": "The game is over.",
    "not_for_seat": "Only the table or {seat} records this roll.",
    "host_only": "Only the host may correct the game.",
    "not_your_turn": "It is not the turn of {seat} (now: {active}).",
    "decide_first": "First {seat} must decide: {kind}.",
    "new_die_first": "First the table rolls the new personal die.",
    "nothing_to_roll": "No dice are waiting to be rolled.",
    "wrong_dice": "The roll must hold exactly these dice: {need}.",
    "wrong_phase": "That is not possible now ({phase}).",
    "reroll_used": "The reroll tile is already used this round.",
    "roll_first": "Roll your dice first.",
    "no_die_shows": "None of your dice shows {face}.",
    "not_your_die": "Another player's personal die may never be taken.",
    "too_many_dice": ("At most {most} die from this space.",
                      "At most {most} dice from this space.", "most"),
    "personal_first": "Take your own personal dice on this space first.",
    "action_closed": "This action ({act}, column {column}) is not open to you.",
    "once_per_turn": "Row {act} of column {column} is used once per turn.",
    "action_possible": "An action is still possible: a die is lost only when none is.",
    "nothing_to_decide": "There is nothing to decide now.",
    "cannot_afford": "Not enough {item}: {need} needed, you have {have}.",
    "no_novice": "No novice {novice} is left on your board.",
    "no_access": "Your messenger gives no access to {monastery}.",
    "wrong_row": "A novice of row {row} cannot go to the {place}.",
    "chapel_full": "The chapel of {monastery} is full.",
    "space_taken": "Space {space} is taken.",
    "no_supporter": "Space {space} touches none of your buildings.",
    "no_chapel_novice": "You have no novice in the chapel of {monastery}.",
    "window_full_for": "No tile of {monastery} fits your window there.",
}
EVENT_TEXTS: dict[str, str | tuple[str, str]] = {  # a pair: by its count
    "rolled": "{seat} rolls {shown}.",
    "reroll": ("{seat} rerolls {count} die.", "{seat} rerolls {count} dice."),
    "dice_placed": "{seat} places dice on space {space}: {count} ×.",
    "die_placed": "The new die of {seat} shows {space}.",
    "actions_started": "The action phase begins.",
    "dice_taken": ("{seat} takes {count} die from space {space} to column {column}.",
                   "{seat} takes {count} dice from space {space} to column {column}."),
    "die_used": "{seat} uses a die of column {column}.",
    "die_lost": "{seat} loses a die of column {column}: no action is possible.",
    "skipped": "{seat} has no die to take.",
    "gain": "{seat} receives {amount} {item}.",
    "paid": "{seat} pays {amount} {item}.",
    "supply_exceeded": "The players now hold {held} {item}, more than the {supply} in the box: "
                       "use a substitute.",
    "supply_empty": "No {item} is left in the supply.",
    "messenger": "The messenger of {seat} moves to road space {space}.",
    "novice_sent": "{seat} sends a novice to the {place} of {monastery}.",
    "glass": "{seat} builds a stained-glass tile of {monastery}.",
    "glass_lost": "{seat} cannot build the tile of {monastery}.",
    "bonus_lost": "{seat} cannot use the road bonus.",
    "tile_yellow": "Column {column} of {seat} turns yellow.",
    "extra_die": "{seat} takes a new personal die.",
    "extra_forfeit": "{seat} forfeits the extra novice of row {row}.",
    "mission": ("{seat} completes a mission: {points} prestige.",
                "{seat} completes a mission: {points} prestige.", "points"),
    "round_ended": "Year {year}, round {round} ends.",
    "round_started": "Year {year}, round {round} begins; {first} is first player.",
    "year_started": "Novitiate year {year} begins.",
    "final_score": "{seat}: final scoring {total}.",
    "game_over": "The game is over.",
    "adjusted": "Correction for {seat}: {item} {delta}, now {after} ({reason}).",
    "corrected": "Correction of {part}: {before} → {after} ({reason}).",
}
PROMPT_TEXTS: dict[str, str] = {
    "roll": "Roll the dice of {player}.",
    "place": "{seat}: choose a number and place every die showing it.",
    "take": "{seat}: take dice from one dice space.",
    "use": "{seat}: use your dice in column {column}.",
    "road_bonus": "{seat}: choose the road bonus.",
    "extra_action": "{seat}: take one extra action.",
    "extra_die": "{seat}: a new personal die or 5 prestige.",
    "roll_extra": "Roll the new personal die.",
    "extra_novice": "{seat}: send the extra novice now.",
}

# Scoped words of event and prompt params: a column, a monastery or a place is not a seat
# (the letters A-E and N/E/S/W overlap), and a place reads as words.
TERMS: dict[str, str] = {
    **{f"column:{c}": c for c in "ABCDE"},
    **{f"monastery:{m}": f"Monastery {m}" for m in "ABCDE"},
    **{f"place:{k}": v for k, v in (("lay", "lay building"), ("workshop", "workshop"),
                                     ("hall", "common hall"), ("chapel", "chapel"),
                                     ("cloister", "cloister"))},
    # the resources and prestige of gains, payments and corrections
    "item:influence": "influence", "item:soup": "soup", "item:rosary": "rosary",
    "item:tool": "tool", "item:book": "book", "item:prestige": "prestige",
    # what a refusal names ("That is not possible now (Actions).", "First Anna must decide:
    # the road bonus."): the phases in the TV's words, the decisions a seat owes
    "place": "Placing dice", "act": "Actions",
    "road_bonus": "the road bonus", "extra_action": "an extra action",
    "extra_die": "a new personal die or 5 prestige",
    "roll_extra": "the roll of the new personal die", "extra_novice": "the extra novice",
}

# The templates of events stored before their fields grew (Texts.older_events): a count
# correction recorded before it said "now {after}" has no ``after``.
OLDER_EVENT_TEXTS: dict[str, tuple[str, ...]] = {
    "adjusted": ("Correction for {seat}: {item} {delta} ({reason}).",),
}
