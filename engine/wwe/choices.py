"""Legal choices for a seat, each with cost and effect preview, and the refused ones with
their reason. Previews are computed by trying the action on a copy (so they can never
disagree with `apply`) and reporting only the deciding seat's own changes, plus public
facts (every seat's income for a rotation is printed on the card).
"""
from __future__ import annotations

import itertools
import random

from engine.api import Choice, Refused
from engine.wwe import actions, cards, effects, projects
from engine.wwe import state as st
from engine.wwe.steps import head


def _delta(before: dict, after: dict, seat: str) -> tuple[dict, dict]:
    if seat not in before["players"]:
        return {}, {}
    b, a = before["players"][seat], after["players"][seat]
    b_res, a_res = b["res"], a["res"]
    cost, gain = {}, {}
    for item in st.ITEMS:
        d = a_res[item] - b_res[item]
        if d < 0:
            cost[item] = -d
        elif d > 0:
            gain[item] = d
    if a["vp"] != b["vp"]:
        (gain if a["vp"] > b["vp"] else cost)["vp"] = abs(a["vp"] - b["vp"])
    return cost, gain


def trial(s: dict, action: dict, seat: str, extra: dict | None = None,
          copy=st.fast_copy) -> Choice:
    try:
        after, events = actions.apply(s, action, copy)
    except Refused as r:
        return Choice(action=action, refused=r.to_json(), effect=dict(extra or {}))
    cost, gain = _delta(s, after, seat)
    effect = {**gain, **(extra or {})}
    for e in events:  # R4.1.2: playable, but it would do nothing (and why)
        if e["type"] in ("card_no_effect", "action_lost"):
            effect["no_effect"] = e["why"]
    return Choice(action=action, cost=cost, effect=effect)


def _after_income(s: dict, income: dict) -> dict:
    """``s`` with each seat's previewed income taken from the supply into its holdings (a
    shallow copy, for `cards.favor_preview`)."""
    players, supply = dict(s["players"]), dict(s["supply"])
    for seat, got in income.items():
        res = dict(players[seat]["res"])
        for item, n in got.items():
            if item in res:
                res[item] += n
                if supply.get(item) is not None:
                    supply[item] -= n
        players[seat] = {**players[seat], "res": res}
    return {**s, "players": players, "supply": supply}


def choices(s: dict, seat: str) -> list[Choice]:
    h = head(s)
    if s["over"] or h is None:
        return []
    kind = h["kind"]
    if kind == "choose_protection":
        if seat not in h["seats"]:
            return []
    elif (h["seat"] != seat and not (h["seat"] == "table" and seat == s["active"])
          and not (seat == "table" and kind in ("reveal_event", "roll_tax"))):
        return []
    by = seat
    out: list[Choice] = []
    if kind == "reveal_event":
        for card, spec in s["cat"]["events"].items():
            if int(spec.get("chapter", 0)) == s["chapter"]:
                action = {"type": "reveal_event", "by": by, "card": card}
                refusal = actions.reveal_refusal(s, card)
                if refusal is not None:
                    out.append(Choice(action=action, refused=refusal.to_json()))
                elif reveal_keeps_holdings(s, card):
                    out.append(Choice(action=action))  # what its trial says: no change
                else:
                    out.append(trial(s, action, seat, copy=st.event_copy))
    elif kind == "reveal_plague":  # the revealed card's effects run after the token
        kept = s["event"] is not None and reveal_keeps_holdings(s, s["event"])
        for v in actions.plague_values_left(s):
            action = {"type": "reveal_plague", "by": by, "value": v}
            out.append(Choice(action=action) if kept
                       else trial(s, action, seat, copy=st.event_copy))
    elif kind == "orient_event":
        spec = s["cat"]["events"][s["event"]]
        mods = {who: effects.income_mods(s, who) for who in s["players"]}
        # nothing but income and the favor happens in an orientation unless a permanent
        # card's one-shot effects run with it: then the copy is an event card's
        copy = (st.event_copy if spec.get("permanent")
                and effects.schedule(s, s["event"], continuous=True) else orient_copy)
        for r in range(4):
            value = st.favor_value(s, spec, r)
            space = (cards.favor_cycle(s)[cards.favor_landing(s, value)] if value else None)
            income = actions.income_preview(s, s["event"], r, mods)
            extra = {"favor": value, "space": space,
                     # the favor comes after the income (step 4): the King's VP count the
                     # loyalty the card just gave
                     "favor_gain": cards.favor_preview(_after_income(s, income), seat, space)
                     if space else {},
                     "income": income,
                     # what the table display may show to everyone (no private counts)
                     "public": {"favor": value, "space": space, "income": income}}
            out.append(trial(s, {"type": "orient_event", "by": by, "rotation": r}, seat, extra,
                             copy))
    elif kind == "play_card":
        out += play_choices(s, seat)
    elif kind == "answer_trade":
        e = effects.card_effects(s, h["card"])[h["index"]]
        for count in range(1, effects.trade_times(e) + 1):
            out.append(trial(s, trade_action(by, e, count), seat, {"trade": e}))  # the terms
        out.append(trial(s, {"type": "answer_trade", "by": by, "accept": False}, seat))
    elif kind == "roll_tax":
        for v in sorted(set(s["cat"]["game"]["tax_die"]["faces"])):
            out.append(trial(s, {"type": "roll_tax", "by": by, "value": v}, seat))
    elif kind == "choose_protection":
        from engine.wwe import duties
        opts = duties.protection_options(s, seat)
        loyalty = s["players"][seat]["res"]["loyalty"]
        for n in range(0, min(len(opts), loyalty) + 1):
            for combo in itertools.combinations(opts, n):
                out.append(trial(s, {"type": "choose_protection", "by": by,
                                     "cancel": list(combo)}, seat))
    elif kind == "record_discard":
        # the recorded card only moves from the hand to the discards, and the next step
        # (another record, the reveal) waits: no cost, no gain, as its trial says
        nxt = s["queue"][1] if len(s["queue"]) > 1 else {}
        quiet = nxt.get("do") == "await" and nxt.get("kind") in ("record_discard",
                                                                 "reveal_event")
        for card in s["players"][h["seat"]]["hand"]:
            action = {"type": "record_discard", "by": by, "card": card}
            out.append(Choice(action=action) if quiet else trial(s, action, seat))
    elif kind == "choose_target":
        for target in s["seats"]:
            out.append(trial(s, {"type": "choose_target", "by": by, "seat": target}, seat))
    elif kind == "resolve_manual":
        out.append(trial(s, {"type": "resolve_manual", "by": by}, seat, {"text": h["text"]}))
    elif kind == "cure":
        sick = [int(x) for x in sorted(s["plague"], key=int) if s["plague"][x]["state"] == "sick"]
        for loc in sick:
            out.append(cure_choice(s, {"type": "cure", "by": by, "location": loc}, seat,
                                   [loc], 1))
        if s["options"]["hospital_cures_per_donor"] == "sum":
            for n in range(2, min(3, len(sick)) + 1):
                for combo in itertools.combinations(sick, n):
                    out.append(cure_choice(s, {"type": "cure", "by": by,
                                               "locations": list(combo)}, seat, list(combo),
                                           None))
        out.append(trial(s, {"type": "cure", "by": by, "location": None}, seat))
    elif kind == "place_free_house":
        for site in s["sites"]:
            out.append(trial(s, {"type": "place_free_house", "by": by, "site": site}, seat))
        out.append(trial(s, {"type": "place_free_house", "by": by, "site": None}, seat))
    elif kind == "return_houses":
        out.append(trial(s, {"type": "return_houses", "by": by, "sites": []}, seat))
        for site, owner in s["sites"].items():
            if owner:
                out.append(trial(s, {"type": "return_houses", "by": by, "sites": [site]}, seat))
    return out


def orient_copy(s: dict) -> dict:
    """`state.fast_copy` for trying an orientation with no effects to run (an immediate card,
    or a permanent one with only continuous effects): `actions.orient_event` changes only
    the players' resources and VP (income, the favor), the supply, the favor marker and the
    queue (then `flow.advance` queues the plays and stops at the first), so only those are
    copied. tests/engine/test_choices_performed.py checks the state stays unchanged."""
    players = {seat: dict(p, res=dict(p["res"])) for seat, p in s["players"].items()}
    return dict(s, players=players, supply=dict(s["supply"]), favor=dict(s["favor"]),
                queue=[dict(step) for step in s["queue"]])


# Immediate effects that change no player's resources or VP when they run at the reveal
# (engine/wwe/effects.py `run_effect`): they queue decisions, change the board, the market,
# the round's rules or flags. `gain`, `lose`, `complete_tower` (the spire, the donors) and
# any kind not listed here are tried.
HOLDINGS_KEPT = frozenset(("trade", "introduce_project", "cover", "uncover", "open_market",
                           "price", "card_modifier", "lose_action", "random_discard",
                           "income_modifier", "event_modifier", "return_houses", "manual"))


def reveal_keeps_holdings(s: dict, card: str) -> bool:
    """True when revealing ``card`` (allowed now) changes no player's resources or VP, so
    its trial reports no cost and no gain: a permanent card's effects wait for its
    orientation and step 5; an immediate card's are all of `HOLDINGS_KEPT`. Nothing else
    in a reveal does (the plague token it flips, the decisions it queues: `apply` stops
    at the first, the orientation at the latest). The same holds for the plague value
    entered after it (`reveal_plague`: the card's effects run then).
    tests/engine/test_choices_performed.py compares each such choice with its trial."""
    spec = s["cat"]["events"][card]
    return bool(spec.get("permanent")) or all(
        effects.kind(e) in HOLDINGS_KEPT for e in spec.get("effects", ()))


def cure_choice(s: dict, action: dict, seat: str, locations: list, limit: int | None
                ) -> Choice:
    """A donor's cure: refused by the handler's own read-only check
    (`projects.cure_refusal`, what `projects.cure` raises first) without a copy; tried
    when it passes."""
    refusal = projects.cure_refusal(s, head(s)["seat"], locations, limit)
    if refusal is not None:
        return Choice(action=action, refused=refusal.to_json())
    return trial(s, action, seat)


# Decisions the table may answer as well as a seat, by the same action: the handler takes
# "table" in place of that seat and reads nothing else of who sent it.
TABLE_ALIKE = frozenset(("reveal_event", "roll_tax", "reveal_plague"))


def choices_of(s: dict, askers: list[str]) -> dict[str, list[Choice]]:
    """`choices` of several askers of one state at once (the server asks for every seat and
    the table). The table's options of a decision it answers alike with a seat are that
    seat's, tried once: the same refusals, and no cost or gain (the table holds nothing)."""
    out = {asker: choices(s, asker) for asker in askers if asker != "table"}
    if "table" not in askers:
        return out
    h = head(s)
    twin = None
    if h is not None and not s["over"] and h["kind"] in TABLE_ALIKE:
        twin = s["active"] if h["kind"] == "reveal_plague" else h["seat"]
    if twin in s["players"]:
        mine = out[twin] if twin in out else choices(s, twin)
        out["table"] = [Choice(action={**c.action, "by": "table"}, refused=c.refused)
                        for c in mine]
    else:
        out["table"] = choices(s, "table")
    return out


def play_choices(s: dict, seat: str) -> list[Choice]:
    p = s["players"][seat]
    hand = list(p["hand"])
    flags = s["round_flags"][seat]
    needs_discard = (st.twelve_card_mode(s) and not flags.get("penance")
                     and not (effects.random_discard(s, seat)
                              and s["options"]["random_discards"] == "app"))
    out = []
    lost = effects.lost_why(s, seat)
    # a face-down card drawn by the app needs one left in hand after the play
    drawn = (not needs_discard and st.twelve_card_mode(s) and not flags.get("penance")
             and effects.random_discard(s, seat))
    quiet = quiet_after_play(s) and not (drawn and len(hand) < 2)
    mods: dict = {}  # card -> the event cards' modifiers of it in this state, asked once
    idle: dict = {}  # a card played for nothing, tried once (see `unperformed`)
    alike: dict = {}  # variants whose outcome for the seat is the same (see `performed`)
    for card in hand:
        discards = [c for c in hand if c != card] if needs_discard else []
        discard = discards[0] if discards else None
        extra = {"discard_options": discards}
        base = {"type": "play_card", "by": seat, "card": card, "discard": discard}
        # the turn's own checks pass (a discard given exactly when one is owed) and nothing
        # after the play changes a resource: the choice is the card's own doing
        plain = quiet and (discard is not None) == needs_discard
        if lost is not None:
            # R4.1.4: the action is lost whatever is asked; what the rules leave is which
            # card goes down (and which face down): one choice per card, saying why
            choice = unperformed(s, {**base, "params": {}, "perform": False}, seat, extra,
                                 idle, plain)
            if choice.refused is None:  # what the play's `action_lost` event says (trial)
                choice = Choice(action=choice.action, cost=choice.cost,
                                effect={**choice.effect, "no_effect": lost.to_json()})
            out.append(choice)
            continue
        options = cards.card_param_options(s, seat, card)
        # each variant's read-only check (cards.perform_refusal), asked once: can_carry_out
        # reads the same answers; a refusal it gives is the trial's own, an UNKNOWN is tried
        checks = cards.perform_refusals(s, seat, card, options, mods)
        if not cards.can_carry_out(s, seat, card, mods, checks):
            # R4.1.2: no way to carry it out: one choice, played for nothing (or refused,
            # when the input itself is wrong), as `cards.carry_out` says
            action = {**base, "params": options[0], "perform": True}
            why = checks[0]
            if plain and why is not cards.UNKNOWN and why.code in cards.INPUT_CODES:
                out.append(Choice(action=action, refused=why.to_json(), effect=dict(extra)))
            elif plain and why is not cards.UNKNOWN:
                out.append(Choice(action=action, effect={**extra, "no_effect": why.to_json()}))
            else:
                out.append(trial(s, action, seat, extra))
            out.append(unperformed(s, {**base, "params": {}, "perform": False}, seat, extra,
                                   idle, plain))
            continue
        for params, check in zip(options, checks, strict=True):
            action = {**base, "params": params, "perform": True}
            done = (performed(s, seat, card, params, mods, alike)
                    if plain and check is None else None)
            if done is not None:  # carried out: no refusal and no "no effect" can follow
                cost, gain = done
                out.append(Choice(action=action, cost=cost, effect={**gain, **extra}))
            elif check is not None and check is not cards.UNKNOWN:
                out.append(Choice(action=action, refused=check.to_json(), effect=dict(extra)))
            else:
                out.append(trial(s, action, seat, extra))
        out.append(unperformed(s, {**base, "params": {}, "perform": False}, seat, extra, idle,
                               plain))
    for card, index, e in effects.permanent_trades(s, seat):
        for count in range(1, effects.trade_times(e) + 1):
            action = {**trade_action(seat, e, count), "card": card, "index": index}
            out.append(trial(s, action, seat, {"trade": e}))
    return out


def quiet_after_play(s: dict) -> bool:
    """True when nothing `apply` runs after the play at the queue's head changes anyone's
    resources or VP: the next step is another seat's play, or the end of a round before the
    6th (which only files the event and starts the next round: flags and the queue). The
    last play of a chapter runs the chapter's end (E1 progress, completions): not quiet."""
    queue = s["queue"]
    nxt = queue[1] if len(queue) > 1 else None
    if nxt is None:
        return False
    if nxt.get("do") == "await":
        return nxt.get("kind") == "play_card"
    return nxt.get("do") == "end_round" and s["round"] < 6


# The cards `performed` may carry out on its narrow copy (see there what it copies).
PERFORMED_ALONE = frozenset(("grain", "piety", "building_material", "building_project",
                             "sell_wool_cloth", "build_house", "rent", "donation", "weaver",
                             "medicine", "favor"))


def performed(s: dict, seat: str, card: str, params: dict, mods: dict, alike: dict
              ) -> tuple[dict, dict] | None:
    """The seat's cost and gain of carrying out ``card`` with ``params`` once its check
    passed, found by performing it (`cards.perform`, the rules' own code) on a copy of only
    what the card can change: the seat's resources, VP, houses and seals, the supply, the
    favor marker, the sites, the project it names (every player's VP, resources and seals
    when it completes that project: the spire and the donors' rewards), the plague tokens
    it cures and the queue (the free houses and cures it owes are queued, not yet done).
    With `quiet_after_play` and the turn's own checks passing, this is what the trial of
    the play reports (tests/engine/test_choices_performed.py compares them). None for a card
    it does not know (only the whole trial tells). ``alike``: a dict kept by the caller for
    one state and seat, holding the outcome of each `outcome_key` performed."""
    target = cards.resolve_privilege(s, seat) if card == "privilege" else card
    if target not in PERFORMED_ALONE:
        return None
    key = outcome_key(s, target, params)
    if key is not None and key in alike:
        cost, gain = alike[key]
        return dict(cost), dict(gain)
    players = dict(s["players"])
    touched = [seat]
    copy = dict(s, players=players, supply=dict(s["supply"]), favor=dict(s["favor"]),
                sites=dict(s["sites"]), queue=list(s["queue"]))
    if target in ("building_project", "donation"):
        pid = params["project"]
        project = s["projects"][pid]
        if target == "building_project" and all(
                n == params.get(m, 0) for m, n in st.project_open(s, pid).items()):
            touched = s["seats"]  # it completes the project: the spire, the donors
        copy["projects"] = {**s["projects"], pid: {**project, "seals": list(project["seals"])}}
    elif target == "medicine" and params.get("mode", "help") != "help":
        plague = copy["plague"] = dict(s["plague"])
        for loc in params["locations"]:
            plague[str(loc)] = dict(plague[str(loc)])
    for who in touched:
        p = players[who]
        players[who] = dict(p, res=dict(p["res"]), houses=list(p["houses"]),
                            seals=list(p["seals"]))
    try:
        cards.perform(copy, seat, card, params, [], mods)
    except (Refused, TypeError, KeyError, IndexError, ValueError, AttributeError):
        return None  # not what a passed check leads to: let the whole trial say it
    cost, gain = _delta(s, copy, seat)
    if key is not None:
        alike[key] = dict(cost), dict(gain)
    return cost, gain


def outcome_key(s: dict, target: str, params: dict) -> tuple | None:
    """What, of a passing variant's params, the seat's cost and gain depend on, for the
    cards whose variants differ in a place only: a house costs its site's material and a
    gold wherever it stands; a donation costs a gold whichever project it goes to; materials
    on a project cost themselves and give 3 VP each whichever project (unless they complete
    it: its donors' rewards and the spire differ). None: every variant is its own."""
    if target == "build_house":
        return target, s["cat"]["sites"][params["site"]].get("material")
    if target == "donation":
        return (target,)
    if target == "building_project":
        pid = params["project"]
        amounts = tuple(params.get(m, 0) for m in st.MATERIALS)
        if amounts == tuple(st.project_open(s, pid)[m] for m in st.MATERIALS):
            return None  # it completes the project
        return (target, *amounts)
    return None


def unperformed(s: dict, action: dict, seat: str, extra: dict, tried: dict,
                plain: bool = False) -> Choice:
    """A card played for nothing (``perform`` False, or any play of a seat whose action is
    lost), tried once per state and answered alike for every card of the hand: such a play
    only moves the card (and the discard) between the seat's hand and piles, and nothing
    after it in the round reads which card it was, so its cost, gain and refusal are the
    same for every card. Only whether a discard is given can differ (a hand of two equal
    cards has none to give); ``tried`` keeps one trial for each (tests/engine/
    test_choices_shared.py checks them all). ``plain`` (see `play_choices`): the play
    passes the turn's checks and nothing after it changes a resource, so neither does it."""
    key = action["discard"] is None
    known = tried.get(key)
    if known is None:
        known = tried[key] = (Choice(action=action, effect=dict(extra)) if plain
                              else trial(s, action, seat, extra))
        return known
    if known.refused is not None:
        return Choice(action=action, refused=known.refused, effect=dict(extra))
    effect = {k: v for k, v in known.effect.items() if k not in extra and k != "no_effect"}
    effect.update(extra)
    if "no_effect" in known.effect:
        effect["no_effect"] = known.effect["no_effect"]
    return Choice(action=action, cost=dict(known.cost), effect=effect)


def trade_action(by: str, e: dict, count: int) -> dict:
    """Accepting a trade offer ``count`` times (``count`` is sent only for multi offers)."""
    action = {"type": "answer_trade", "by": by, "accept": True}
    if effects.trade_times(e) > 1:
        action["count"] = count
    return action


def random_action(s: dict, rnd: random.Random) -> dict | None:
    """A random legal action for whoever owes a decision (for property tests and benches).

    Picks the first prompt's seat, a random non-refused choice, and a random discard among
    the allowed ones. Returns None when the game is over.
    """
    h = head(s)
    if s["over"] or h is None:
        return None
    seat = h["seats"][0] if h["kind"] == "choose_protection" else h["seat"]
    if seat == "table":
        seat = s["active"]
    legal = [c for c in choices(s, seat) if c.refused is None]
    legal = [c for c in legal if c.action["type"] != "answer_trade" or h["kind"] != "play_card"
             or rnd.random() < 0.3] or legal
    choice = rnd.choice(legal)
    action = dict(choice.action)
    if action["type"] == "play_card" and choice.effect.get("discard_options"):
        action["discard"] = rnd.choice(choice.effect["discard_options"])
    return action
