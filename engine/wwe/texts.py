"""Every event type of the World Without End engine -> English log template.

The server uses these templates as gettext msgids with the event's fields as parameters.
"""

EVENT_TEXTS: dict[str, str] = {
    "action_lost": "This round's action of {seat} is lost ({cause}): {card} is not carried "
                   "out.",
    "adjusted": "Correction for {seat}: {item} {delta}, now {after} ({reason}).",
    # a resource's correction: the count stays the seat's secret
    "adjusted_secret": "Correction for {seat}: {item} {delta} ({reason}).",
    "built": "{seat} placed {amount} {item} on {project}.",
    "card_discarded": "{seat} discarded {card} face down.",
    "card_no_effect": "{card} of {seat} has no effect: it cannot be carried out now.",
    "card_played": "{seat} played {card}.",
    "chapter_ended": "Chapter {chapter} ends.",
    "chapter_started": "Chapter {chapter} begins.",
    "corrected": "Correction of {part}: {before} → {after} ({reason}).",
    "covered": "A cover tile now covers {id} ({target}).",
    "covers_removed": "All cover tiles are removed.",
    "cure_skipped": "{seat} cures nobody.",
    "cured": "{seat} cured the sick resident at location {location}.",
    "donated": "{seat} donated to {project}.",
    "donor_extra_withheld": "The supply cannot reward every donor of {project}: no extra item.",
    "duties_paid": "{seat} hands in for the duties: {handed}; missing: {missing}.",
    "event_oriented": "The event card was turned ↻{rotation}: favor +{favor}.",
    "event_spared": "An event in force spares {seat} from event card {card}.",
    "event_revealed": "Event card {card} revealed.",
    "events_cleared": "The event cards leave the board.",
    # {space.of}: the name with its article and case (catalog game.forms.of, "of the Queen")
    "favor": "{seat} receives the favor {space.of}.",
    "free_house_skipped": "{seat} does not place the free house.",
    "gain": "{seat} receives {amount} {item}.",
    "game_over": "The game is over.",
    "house_built": "{seat} built a house on {site}.",
    "house_returned": "The house of {seat} on {site} returns to its owner.",
    "income": "{seat} receives {amount} {item} as income.",
    "income_lost": "{seat} gets no income (begging).",
    "income_modified": "An event in force turns the {item} income of {seat} into {replacement}.",
    "lose": "{seat} loses {amount} {item}.",
    "manual_resolved": "The table has carried out event card {card}.",
    "market_opened": "The {space} space of the market is open.",
    "no_cover_tile": "No cover tile left for {id}.",
    "no_reinfection": "Location {location}: nobody falls sick again.",
    "penance_card": "Penance: your card {card} was discarded at random.",
    "penance_discard": "Penance: a random card of {seat} is discarded.",
    "permanent_discarded": "The oldest permanent event {card} leaves the board.",
    "plague_flipped": ("Plague at location {location}: {value} medical knowledge needed.",
                       "Plague at location {location}: {value} medical knowledge needed.",
                       "value"),
    "plague_placed": "The plague tokens are placed face down.",
    "price_changed": ("{item} now sells for {price} gold.", "{item} now sells for {price} gold.",
                      "price"),
    "progress": "{project} receives 1 {item} from the supply.",
    "progress_skipped": "{project} gets no {item}: the supply is empty.",
    "project_completed": "{project} is complete.",
    "project_introduced": "{project} enters the board.",
    "protected": "{seat} paid loyalty to cancel {cancel}.",
    "punished": "{seat} faces {punishments} next chapter.",
    "random_discard": "A random card of {seat} is discarded face down.",
    "round_started": "Chapter {chapter}, round {round}: {active} is the start player.",
    "royal_court_exempt": "{seat} is at the Royal Court and loses no further action.",
    "seal_returned": "{seat} takes the seal back from {project}.",
    # three counts: the gold's noun follows its count, wool and cloth are named before theirs
    "sold": ("{seat} sold wool ({wool}) and cloth ({cloth}) for {gold} gold.",
             "{seat} sold wool ({wool}) and cloth ({cloth}) for {gold} gold.", "gold"),
    "spire_placed": "The spire is placed; most loyalty: {leaders}.",
    "start_player": "{seat} is now the start player.",
    "target_chosen": "{seat} is chosen for event card {card}.",
    "tax_rolled": "The tax die shows {value}.",
    "tower_completed_by_event": "The Tower is completed by an event.",
    "trade_declined": "{seat} declines the offer.",
    "traded": "{seat} trades.",
    "uncovered": "The cover tile on {id} ({target}) is removed.",
    "vp": "{seat}: {delta} VP ({reason}).",
    "woven": ("{seat} wove {amount} wool into cloth.", "{seat} wove {amount} wool into cloth."),
}

# Every prompt kind (a decision owed now, `prompts()`) -> an English template. The server
# fills it with the prompt's params plus ``seat`` (the seat owing it) and uses it as a gettext
# msgid. Kinds owed by "the table" do not name the seat.
PROMPT_TEXTS: dict[str, str] = {
    "answer_trade": "{seat} may accept the trade offer of event card {card}.",
    "choose_protection": "{seat} decides on loyalty protection.",
    "choose_target": "{seat} chooses the player hit by event card {card}.",
    "cure": "{seat} may cure a sick resident ({source} is complete).",
    "orient_event": "{seat} turns the event card {card}.",
    "place_free_house": "{seat} may place a house for free (plague location {location}).",
    "play_card": "{seat} plays an action card.",
    "record_discard": "Penance: draw a card of {seat} at random and enter it.",
    "resolve_manual": "The table carries out event card {card} and enters the changes.",
    "return_houses": "Event card {card}: houses go back to their owners; pick which.",
    "reveal_event": "{seat} reveals the next event card.",
    "reveal_plague": "Plague at location {location}: turn its token over and enter the value.",
    "roll_tax": "The table rolls the tax die.",
}


# Words the engine puts into event and prompt params that are neither seats nor catalog ids
# (catalog ids are shown by their catalog names). English msgids the server translates.
# "param:value" keys apply to that param only ("favor" as a cover target is the favor
# track, while the card "favor" elsewhere is the Favor action card).
TERMS: dict[str, str] = {
    # chapters in the log as everywhere else in the game: "Chapter I", not "Chapter 1"
    "chapter:1": "I", "chapter:2": "II", "chapter:3": "III", "chapter:4": "IV",
    "target:favor": "favor track",
    "target:market": "market",
    "target:project": "building project",
    # why VP or goods changed ("Ala: -8 VP (duties)."): the `reason` of vp/gain events
    "reason:duties": "duties",
    "reason:income": "income",
    "reason:income_substitute": "income in place of goods",
    "reason:favor": "favor",
    "reason:building": "building",
    "reason:rent": "rent",
    "reason:medicine": "medicine",
    "reason:event": "event card",
    "reason:trade": "trade",
    "reason:spire": "spire",
    "reason:donation": "donation",
    "reason:cure": "cure",
    "reason:adjust": "correction",
    "reason:card": "action card",
    # what a seat handed in and what was missing at the chapter end (`duties_paid`)
    "handed:nothing": "nothing",
    "missing:nothing": "nothing",
    "penance": "Penance",
    "begging": "Begging",
    "royal_court": "Royal Court",
    # the decisions a refusal names ("Now the game expects “Play an action card”, not …"):
    # the phone's own words for them (web/games/wwe/ui_strings.json action_<kind>)
    **{kind: text for kind, text in (
        ("reveal_event", "Reveal the event card"), ("orient_event", "Turn the event card"),
        ("play_card", "Play an action card"), ("answer_trade", "Answer the trade offer"),
        ("roll_tax", "Tax die"), ("choose_protection", "Protection with loyalty"),
        ("reveal_plague", "Value of the plague token"), ("choose_target", "Choose a player"),
        ("resolve_manual", "The event card is carried out"),
        ("return_houses", "Return houses"), ("place_free_house", "Place a free house"),
        ("cure", "Cure"), ("record_discard", "Discard face down"),
        # the host's: a correction, the start player
        ("adjust", "Correct a player's stock"), ("correct", "Correct the game"),
        ("set_start_player", "Set the start player"))},
}

# The templates of events stored before their fields grew (Texts.older_events): a count
# correction recorded before it said "now {after}" has no ``after``.
OLDER_EVENT_TEXTS: dict[str, tuple[str, ...]] = {
    "adjusted": ("Correction for {seat}: {item} {delta} ({reason}).",),
}
