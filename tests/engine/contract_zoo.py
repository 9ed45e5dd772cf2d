# ruff: noqa: E501  (the edits quote the game's lines whole)
"""The contract kit's zoo: broken plug-ins, each Liar's dice lite (tests/plugins/liarsdice,
the walk-through's game of docs/engine.md; `ZOO`) or the toy game (tests/plugins/toygame, a
game of hidden cards and hidden coins; `TOY_ZOO`) with one planted fault, and the words the
kit's report must hold for it (so each is caught for its fault, not by chance).

A fault is a list of edits ``(file in the package, old text, new text)``; the old text must
occur exactly once. Issue 47's table is the first part; the rest are the other promises of
docs/engine.md, "The contract kit".
"""
from __future__ import annotations

RULES, INIT, DE = "rules.py", "__init__.py", "web/translations/de/LC_MESSAGES/messages.po"
PUBLIC_VIEW = '''            "last": state["last"], "over": state["over"]}'''
PRIVATE_VIEW = '''    return {"seat": seat, "dice": list(state["dice"].get(seat, []))}'''

ZOO: dict[str, tuple[list[tuple[str, str, str]], str]] = {
    # ---- issue 47's table: what the old kit passed --------------------------------------
    "every hand in the public view, as numbers": ([(RULES, PUBLIC_VIEW, PUBLIC_VIEW[:-1]
                                                    + ', "hands": state["dice"]}')],
                                                  "public: public view.hands"),
    "every hand in the public view, as text": ([(RULES, PUBLIC_VIEW, PUBLIC_VIEW[:-1] + (
        ', "table_talk": {s: "holds " + " and ".join(map(str, d))'
        ' for s, d in state["dice"].items()}}'))], "public: public view.table_talk"),
    "a neighbour's dice in a seat's view": ([(RULES, PRIVATE_VIEW, '''    seats = state["seats"]
    left = seats[(seats.index(seat) + 1) % len(seats)] if seat in seats else seat
    return {"seat": seat, "dice": list(state["dice"].get(seat, [])),
            "left_hand": state["dice"].get(left)}''')], "sees: "),
    "a refusal code with no text": ([(RULES, '''    "bid_not_higher": "Bid more dice, or as many of a higher face, than {count} × {face}.",
''', "")], "refusal 'bid_not_higher' ("),
    "a changed English refusal without its German": ([(
        RULES, "Bid more dice, or as many of a higher face, than {count} × {face}.",
        "Bid more dice, or the same number of a higher face, than {count} × {face}.")],
        "refusal 'bid_not_higher' has no de text"),
    "a choice refused with a code that has no text": ([(
        RULES, '''        turn = Refused("not_your_turn", seat=state["active"]).to_json()''',
        '''        wait = "wait_your_turn"  # a code in a variable: only play finds it
        turn = Refused(wait, seat=state["active"]).to_json()''')],
        "refusal 'wait_your_turn' (a choice's refused)"),
    "an event text naming {round} the event lacks": ([(
        RULES, '''    "bid": "{seat} bids {count} × {face}.",''',
        '''    "bid": "{seat} bids {count} × {face} in round {round}.",''')],
        "event 'bid' lacks ['round']"),
    "a correction text naming {after} the correction event lacks": ([(
        RULES, '''                "after": s["points"][seat], "reason": action.get("reason", "")}]''',
        '''                "reason": action.get("reason", "")}]''')], "event 'adjusted' lacks ['after']"),
    "the start player ignored": ([(RULES, '''"active": table.start,''',
                                   '''"active": table.seats[0],''')], "is asked first, not"),
    # ---- more hidden information --------------------------------------------------------
    "how many sixes the table holds, in the public view": ([(RULES, PUBLIC_VIEW, PUBLIC_VIEW[:-1] + (
        ', "sixes": sum(d == 6 for dice in state["dice"].values() for d in dice)}'))],
        "public: public view.sixes"),
    "the active seat's dice in the prompt": ([(
        RULES, '''    return [] if state["over"] else [Prompt(state["active"], "bid")]''',
        '''    return [] if state["over"] else [Prompt(state["active"], "bid", {
        "holding": state["dice"][state["active"]]})]''')], "public: prompts"),
    "the active seat's dice in another seat's refusal": ([(
        RULES, '''        turn = Refused("not_your_turn", seat=state["active"]).to_json()''',
        '''        turn = Refused("not_your_turn", seat=state["active"],
                       dice=state["dice"][state["active"]]).to_json()''')], "sees: "),
    "a roll told to everyone": ([(RULES, '''        events.append({"type": "rolled", "private": seat,''',
                                  '''        events.append({"type": "rolled",''')],
                                "event 'rolled' shows"),
    "a bid telling the bidder's dice": ([(
        RULES, '''    return s, [{"type": "bid", "seat": s["bid"]["seat"], "count": count, "face": face}]''',
        '''    return s, [{"type": "bid", "seat": s["bid"]["seat"], "count": count, "face": face,
                "sure_of": s["dice"][s["bid"]["seat"]]}]''')], "event 'bid' shows"),
    "the seed in the public view": ([(RULES, PUBLIC_VIEW, PUBLIC_VIEW[:-1] + ', "seed": state["seed"]}')],
                                    "changes with the secret seed"),
    "no declaration of what is private": ([(INIT, '''    secrets=secret_paths("dice.{seat}", "seed"),
''', "")], "GameInfo.secrets is not declared"),
    "a declaration naming a place the state does not have": ([(
        INIT, 'secret_paths("dice.{seat}", "seed")', 'secret_paths("die.{seat}", "seed")')],
        "names die.{seat}, which is not in the state"),
    "the seed told at the end of each round": ([(
        RULES, '''              {"type": "round_won", "seat": winner, "n": s["points"][winner]}]''',
        '''              {"type": "round_won", "seat": winner, "n": s["points"][winner],
               "seed": s["seed"]}]''')], "event 'round_won' shows the secret seed"),
    "an event private to nobody": ([(RULES, '''        events.append({"type": "rolled", "private": seat,''',
                                     '''        events.append({"type": "rolled", "private": "Z" + seat,''')],
                                   "is private to no seat"),
    # ---- issue 68's table: what the word-matching kit passed ------------------------------
    "the new dice named to everyone (the starter's first die, a face many dice show)": ([(
        RULES, '''    return s, events + _roll(s)''', '''    rolled = _roll(s)
    events[-1]["opens_with"] = s["dice"][s["active"]][0]
    return s, events + rolled''')], "event 'round_won' shows"),
    "the bidder's dice named in the public log text (translated)": ([
        (RULES, '''    return s, [{"type": "bid", "seat": s["bid"]["seat"], "count": count, "face": face}]''',
         '''    mine = sum(d == face for d in s["dice"][s["bid"]["seat"]])
    return s, [{"type": "bid", "seat": s["bid"]["seat"], "count": count, "face": face,
                "mine": mine}]'''),
        (RULES, '''    "bid": "{seat} bids {count} × {face}.",''',
         '''    "bid": "{seat} bids {count} × {face} ({mine} of them in the cup).",'''),
        (DE, 'msgid "{seat} bids {count} × {face}."\nmsgstr "{seat} bietet {count} × {face}."',
         'msgid "{seat} bids {count} × {face} ({mine} of them in the cup)."\n'
         'msgstr "{seat} bietet {count} × {face} ({mine} davon im Becher)."')],
        "event 'bid' shows"),
    "a bid accepted from any seat (a turn's move out of turn)": ([(
        RULES, '''    if by != s["active"]:''', '''    if kind == "call" and by != s["active"]:''')],
        "neither prompted nor offered a 'bid'"),
    "a call answered by a seat that was not asked": ([(
        RULES, '''    if by != s["active"]:''', '''    if kind == "bid" and by != s["active"]:''')],
        "neither prompted nor offered a 'call'"),
    # ---- words --------------------------------------------------------------------------
    "a refusal text naming a param the refusal lacks": ([(
        RULES, '''        raise Refused("too_many_dice", total=total)''',
        '''        raise Refused("too_many_dice")''')], "refusal 'too_many_dice' (to"),
    "a prompt without text": ([(RULES, '''PROMPT_TEXTS = {"bid": "{seat} bids or calls."}''',
                                '''PROMPT_TEXTS = {}''')], "prompt 'bid' has no text"),
    "a German text naming a field the English one lacks": ([(
        DE, 'msgstr "{seat} bietet {count} × {face}."',
        'msgstr "{seat} bietet {count} × {face} ({total})."')], "placeholders"),
    "a language declared without its translations": ([(
        INIT, '''    languages=("en", "de"),''', '''    languages=("en", "de", "it"),''')],
        "has no it translations"),
    "a language the app does not speak": ([(INIT, '''    languages=("en", "de"),''',
                                            '''    languages=("en", "fr"),''')],
                                          "only languages the app speaks"),
    # ---- corrections ----------------------------------------------------------------------
    "no host correction declared": ([(INIT, '''    "adjust": action({"seat": one_of(*rules.SEATS), "item": one_of("points"),
                      "delta": ints(-10, 10)}, {"reason": TEXT}),
''', "")], "declare 'adjust'"),
    "a host correction that changes nothing": ([(RULES, '''    s["points"][seat] += delta
''', "")], "was accepted but changed nothing"),
    "a host correction always refused": ([(RULES, '''    if action.get("by") != "host":
        raise Refused("host_only")''', '''    if action.get("by") != "table":
        raise Refused("host_only")''')], "host corrections (adjust"),
    # ---- turns, scores, the end ------------------------------------------------------------
    "scores without a rank": ([(RULES, '''"rank": 1 + sum(o > p for o in points.values())}
                   for seat, p in points.items()), key=lambda row: row["rank"])''',
                                '''"place": 1 + sum(o > p for o in points.values())}
                   for seat, p in points.items()), key=lambda row: row["place"])''')],
                              "needs rank"),
    "ties ranked without the skip after them": ([(
        RULES, '''"rank": 1 + sum(o > p for o in points.values())}''',
        '''"rank": 1 + len({o for o in points.values() if o > p})}''')], "are not standings"),
    "the fewest points ranked first": ([(
        RULES, '''"rank": 1 + sum(o > p for o in points.values())}''',
        '''"rank": 1 + sum(o < p for o in points.values())}''')], "fewer vp"),
    "a prompt after the end": ([(RULES, '''    return [] if state["over"] else [Prompt(state["active"], "bid")]''',
                                 '''    return [Prompt(state["active"], "bid")]''')],
                               "the game is over but prompts remain"),
    "a game that never ends": ([(RULES, '''    if s["points"][winner] >= s["to_win"]:''',
                                 '''    if s["points"][winner] >= s["to_win"] + 1000:''')],
                               "no random game ended"),
    # ---- the rest of the contract ----------------------------------------------------------
    "a crash on a bid too high": ([(RULES, '''        raise Refused("too_many_dice", total=total)''',
                                    '''        raise KeyError(total)''')], "raised KeyError"),
    "a bid offered that the rules refuse": ([(RULES, "for c in range(lowest[0], min(total, lowest[0] + 2) + 1)",
                                              "for c in range(lowest[0], lowest[0] + 3)")],
                                            "offered as allowed, was refused"),
    "apply changing the state it is given": ([(RULES, '''    s = copy.deepcopy(state)
    kind, by''', '''    s = state
    kind, by''')], "changed the state it was given"),
    "dice rolled without the seed": ([(RULES, '''        rng = random.Random(f"{s['seed']}:{s['n']}")''',
                                       '''        rng = random.Random()''')],
                                     "the record replays to another state"),
    "a view that is not JSON": ([(RULES, '''    return {"seats": state["seats"], "active"''',
                                  '''    return {"seats": set(state["seats"]), "active"''')],
                                "is not JSON"),
    "dice the table reads, no roll action named": ([(
        INIT, "    bindings=Bindings(),  # no camera, no dice reader: the app rolls",
        "    bindings=Bindings(roll=lambda state, dice: []),  # a reader, its rolls unnamed")],
        "declares no roll_actions"),
}

# ---- the toy game: hidden cards (ids) and hidden coins (numbers) --------------------------
TOY_PUBLIC = '''            "hand_sizes": {s: len(h) for s, h in state["hands"].items()}}'''
TOY_ZOO: dict[str, tuple[list[tuple[str, str, str]], str]] = {
    "a card of the active seat's hand in the public view (an id)": ([(
        RULES, TOY_PUBLIC, TOY_PUBLIC[:-1] + ', "next_up": state["hands"][state["active"]][0]}')],
        "public: public view.next_up"),
    "a card drawn told to everyone (an id)": ([(
        RULES, '''{"type": "drew", "private": by, "card": new}''', '''{"type": "drew", "card": new}''')],
        "event 'drew' shows"),
    "a secret count corrected in front of everyone (a number)": ([(
        RULES, '''"reason": action.get("reason") or "",
                    "private": seat}]''', '''"reason": action.get("reason") or ""}]''')],
        "event 'adjusted' shows"),
    "a secret count written in a public event's text": ([(
        RULES, '''[{"type": "played", "seat": by, "card": card},''',
        '''[{"type": "played", "seat": by, "card": card,
                   "note": f"{by} still has {s['coins'][by]} coins"},''')],
        "event 'played' shows"),
    "the richest seat named in the public view (a comparison)": ([(
        RULES, TOY_PUBLIC, TOY_PUBLIC[:-1] + ', "richest": max(state["coins"], key=state["coins"].get)}')],
        "public: public view.richest"),
    "a seat's coins in another seat's view": ([(
        RULES, '''                coins=state["coins"][seat])''',
        '''                coins=state["coins"][seat], all_coins=dict(state["coins"]))''')],
        "sees: "),
    "the start player ignored": ([(RULES, '''"active": table.start,''', '''"active": seats[0],''')],
                                 "is asked first, not"),
    # ---- issue 68's table: what the word-matching kit passed ------------------------------
    "the card drawn told to everyone by its last digit (a value many cards share)": ([(
        RULES, '''[{"type": "played", "seat": by, "card": card},''',
        '''[{"type": "played", "seat": by, "card": card, "next": new[-1]},''')],
        "event 'played' shows"),
    "the card drawn named in the public log text (translated)": ([
        (RULES, '''[{"type": "played", "seat": by, "card": card},''',
         '''[{"type": "played", "seat": by, "card": card, "mark": new[-2:]},'''),
        (RULES, '''    "played": "{seat} played {card}.",''',
         '''    "played": "{seat} played {card} and drew a card marked {mark}.",'''),
        *[(f"web/translations/{lang}/LC_MESSAGES/messages.po", f'msgid "{{seat}} played {{card}}."\nmsgstr "{old}"',
           f'msgid "{{seat}} played {{card}} and drew a card marked {{mark}}."\nmsgstr "{old[:-1]} ({{mark}})."')
          for lang, old in (("de", "{seat} hat {card} gespielt."), ("es", "{seat} ha jugado {card}."),
                            ("it", "{seat} ha giocato {card}."), ("pl", "{seat} zagrywa kartę {card}."))]],
        "event 'played' shows"),
    "a card played accepted from any seat (a turn's move out of turn)": ([(
        RULES, '''        if by != s["active"]:
            raise Refused("not_your_turn", seat=s["active"])
        card''', '''        card''')], "neither prompted nor offered a 'play'"),
}
