"""`apply`: check an action against the game position and carry it out on a copy.

Every handler works on a private copy of the state, so a refusal anywhere leaves the
caller's state untouched (the copy is simply dropped).
"""
from __future__ import annotations

from engine.api import Refused
from engine.wwe import cards, corrections, duties, effects, flow, projects
from engine.wwe import state as st
from engine.wwe.steps import await_step, head, push_front

TABLE = ("table", "host")
MAX_PERMANENT_PER_CHAPTER = 3  # R3.7.2 (IT:187, PL:210)


def _head(s: dict, kind: str) -> dict:
    h = head(s)
    if s["over"]:
        raise Refused("game_over")
    if h is None or h["kind"] != kind:
        raise Refused("wrong_phase", expected=h["kind"] if h else None, got=kind)
    return h


def _by_seat(s: dict, action: dict, seat: str, table_ok: bool = False) -> None:
    by = action.get("by")
    if table_ok and by in TABLE:
        return
    if by != seat:
        raise Refused("not_your_turn", seat=seat)


MAX_CORRECTION = 1000  # a host correction moves at most this much at once


def _int_field(action: dict, key: str) -> int:
    v = action.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise Refused("bad_params", field=key)
    return v


def reveal_refusal(s: dict, card) -> Refused | None:
    """Why ``card`` may not be revealed now (read-only: the handler's own first check, so
    the choices need no copy to refuse a card already used)."""
    spec = s["cat"]["events"].get(card) if isinstance(card, str) else None
    if spec is None:
        return Refused("unknown_card", card=card)
    if int(spec.get("chapter", 0)) != s["chapter"]:
        return Refused("wrong_chapter", card=card, chapter=s["chapter"])
    if any(card in cards_ for cards_ in s["revealed"].values()):
        return Refused("card_already_used", card=card)
    if s["options"]["first_game"] and not spec.get("starred"):
        return Refused("event_not_starred", card=card)
    if spec.get("permanent"):  # R3.7.2: at most 3 permanent events in a chapter
        events = s["cat"]["events"]
        shown = [c for c in s["revealed"][str(s["chapter"])] if events[c].get("permanent")]
        if len(shown) >= MAX_PERMANENT_PER_CHAPTER:
            return Refused("too_many_permanent", card=card, chapter=s["chapter"],
                           max=MAX_PERMANENT_PER_CHAPTER)
    return None


def reveal_event(s, a, ev):
    h = _head(s, "reveal_event")
    _by_seat(s, a, h["seat"], table_ok=True)
    card = a.get("card")
    refusal = reveal_refusal(s, card)
    if refusal is not None:
        raise refusal
    spec = s["cat"]["events"][card]
    s["queue"].pop(0)
    s["event"] = card
    s["revealed"][str(s["chapter"])].append(card)
    s["targets"][card] = {"active": s["active"], "chosen": None}
    ev.append({"type": "event_revealed", "card": card, "permanent": bool(spec.get("permanent"))})
    steps = []
    loc = spec.get("plague")
    if s["chapter"] >= 3 and loc is not None and s["plague"]:
        tok = s["plague"].get(str(loc))
        if tok is None or tok["state"] != "hidden":
            ev.append({"type": "no_reinfection", "location": int(loc)})
        elif tok["value"] is None:
            steps.append(await_step("reveal_plague", "table", location=int(loc)))
        else:
            tok["state"] = "sick"
            ev.append({"type": "plague_flipped", "location": int(loc), "value": tok["value"]})
    if effects.needs_target(s, card):
        steps.append(await_step("choose_target", s["active"], card=card))
    if not spec.get("permanent"):
        steps += effects.schedule(s, card, continuous=False)
    steps.append(await_step("orient_event", s["active"], card=card))
    push_front(s, steps)


def plague_values_left(s: dict) -> list[int]:
    """Values a face-down token may still show. With the owner's real token set these are the
    tokens not yet turned up; with a demo set any demo value is accepted."""
    tokens = list(s["cat"]["plague_tokens"]) or list(st.PLAGUE_VALUES)
    if s["cat"].get("plague_tokens_demo", True):
        return sorted(set(tokens))
    for tok in s["plague"].values():
        if tok["state"] != "hidden" and tok["value"] in tokens:
            tokens.remove(tok["value"])
    return sorted(set(tokens))


def reveal_plague(s, a, ev):
    h = _head(s, "reveal_plague")
    _by_seat(s, a, s["active"], table_ok=True)
    value = _int_field(a, "value")
    if value not in plague_values_left(s):
        allowed = plague_values_left(s)
        raise Refused("bad_plague_value", value=value, allowed=allowed)
    s["queue"].pop(0)
    tok = s["plague"][str(h["location"])]
    tok["value"] = value
    tok["state"] = "sick"
    ev.append({"type": "plague_flipped", "location": h["location"], "value": value})


def income(s: dict, seat: str, corner: str, ev: list) -> None:
    """R3.4: the corner facing the seat, as changed by income modifiers in force (A-7)."""
    printed = corner
    corner, bonus = effects.modified_income(s, seat, corner)
    if corner != printed:
        ev.append({"type": "income_modified", "seat": seat, "item": printed,
                   "replacement": corner or "none"})
    if corner is not None:
        corner_income(s, seat, corner, ev)
    st.gain_items(s, seat, bonus, ev, "event")  # what the supply has, no substitute


def _corner(corner: str) -> tuple[str, int]:
    return ("gold", int(corner[4:] or 1)) if corner.startswith("gold") else (corner, 1)


def corner_income(s: dict, seat: str, corner: str, ev: list) -> None:
    """One corner's income; an empty supply gives 1 VP instead (R3.4.4, A-25)."""
    if corner == "vp":
        st.add_vp(s, seat, 1, ev, "income")
        return
    item, n = _corner(corner)
    got = st.take(s, item, n)
    if got < n and not s["options"]["income_partial"]:
        if s["supply"].get(item) is not None:
            s["supply"][item] += got
        st.add_vp(s, seat, 1, ev, "income_substitute")
        return
    s["players"][seat]["res"][item] += got
    if got:
        ev.append({"type": "income", "seat": seat, "item": item, "amount": got})
    if got < n:
        st.add_vp(s, seat, n - got, ev, "income_substitute")


def _add(bag: dict, item: str, n: int) -> None:
    if n:
        bag[item] = bag.get(item, 0) + n


def income_preview(s: dict, card: str, rotation: int, mods: dict | None = None) -> dict:
    """Every seat's income for a rotation: {seat: {item: n}} (read-only). ``mods``: each
    seat's `effects.income_mods` of this state, when the caller has them (the choices ask
    for the four rotations of one state)."""
    corners = s["cat"]["events"][card]["corners"]
    out = {}
    left = dict(s["supply"])  # the supply as the seats before this one leave it (step 3's order)
    for k in range(4):
        seat = st.seat_of_rotation(s, k, rotation)
        if seat not in s["players"]:
            continue
        gets: dict = {}
        out[seat] = gets
        if s["round_flags"][seat].get("begging"):
            continue
        corner, bonus = effects.modified_income(s, seat, corners[k],
                                                mods.get(seat) if mods else None)
        if corner == "vp":
            _add(gets, "vp", 1)
        elif corner is not None:
            item, n = _corner(corner)
            have = left.get(item)
            got = n if have is None else min(have, n)
            if got == n or s["options"]["income_partial"]:
                _add(gets, item, got)
                _add(gets, "vp", n - got)
                if have is not None:
                    left[item] = have - got
            else:
                _add(gets, "vp", 1)
        for item, n in bonus.items():
            have = None if item == "vp" else left.get(item)
            got = int(n) if have is None else min(have, int(n))
            _add(gets, item, got)
            if have is not None:
                left[item] = have - got
    return out


def orient_event(s, a, ev):
    h = _head(s, "orient_event")
    _by_seat(s, a, s["active"])
    r = a.get("rotation")
    if type(r) is not int or r not in (0, 1, 2, 3):  # not True, not -0.0
        raise Refused("bad_params", field="rotation")
    card = s["event"]
    spec = s["cat"]["events"][card]
    value = st.favor_value(s, spec, r)
    after_income = s["options"]["outlaws_check"] == "after_income"
    refusal = None if after_income else cards.favor_refusal(s, s["active"], value)
    if refusal:
        raise refusal
    s["queue"].pop(0)
    s["rotation"] = r
    ev.append({"type": "event_oriented", "card": h["card"], "rotation": r, "favor": value})
    for k, corner in enumerate(spec["corners"]):                         # step 3
        seat = st.seat_of_rotation(s, k, r)
        if seat not in s["players"]:
            continue
        if s["round_flags"][seat].get("begging"):
            ev.append({"type": "income_lost", "seat": seat, "reason": "begging"})
            continue
        income(s, seat, corner, ev)
    refusal = cards.favor_refusal(s, s["active"], value) if after_income else None
    if refusal:  # R3.3.3 judged when the gold is paid: step 4, after this card's income
        raise refusal  # the handler's copy is dropped: nothing of the income stays
    if value > 0:                                                        # step 4
        cards.grant_favor(s, s["active"], cards.favor_landing(s, value), ev)
    steps = effects.schedule(s, card, continuous=True) if spec.get("permanent") else []
    push_front(s, steps + [{"do": "actions"}, {"do": "end_round"}])


def play_card(s, a, ev):
    h = _head(s, "play_card")
    seat = h["seat"]
    _by_seat(s, a, seat)
    player = s["players"][seat]
    card = a.get("card")
    if card not in player["hand"]:
        raise Refused("card_not_in_hand", card=card)
    perform = a.get("perform", True)
    params = a.get("params") or {}
    if not isinstance(perform, bool) or not isinstance(params, dict):
        raise Refused("malformed_action")
    discard = a.get("discard")
    flags = s["round_flags"][seat]
    random_discard = (effects.random_discard(s, seat)
                      and s["options"]["random_discards"] == "app")
    needs_discard = st.twelve_card_mode(s) and not flags.get("penance") and not random_discard
    if needs_discard:
        if discard is None:
            raise Refused("discard_required")
        if discard == card:
            raise Refused("discard_same_card", card=card)
        if discard not in player["hand"]:
            raise Refused("card_not_in_hand", card=discard)
    elif discard is not None:
        raise Refused("no_discard_allowed")
    s["queue"].pop(0)
    player["hand"].remove(card)
    lost = effects.action_lost(s, seat)
    why_lost = effects.lost_why(s, seat)
    performed = perform and lost is None
    no_effect = cards.carry_out(s, seat, card, params, ev) if performed else None
    player = s["players"][seat]  # carry_out replaces the state's containers
    flags = s["round_flags"][seat]
    if no_effect is not None:
        performed = False
    player["played"].append(card)
    player["performed"].append(performed)
    ev.append({"type": "card_played", "seat": seat, "card": card, "performed": performed,
               "lost": lost})
    if why_lost is not None:  # R4.1.4: the card went down, the action is lost (and why)
        ev.append({"type": "action_lost", "seat": seat, "card": card,
                   "cause": why_lost.params.get("card", "royal_court"),
                   "why": why_lost.to_json()})
    if no_effect is not None:  # R4.1.2: played, and it simply does nothing
        ev.append({"type": "card_no_effect", "seat": seat, "card": card,
                   "reason": no_effect.code, "why": no_effect.to_json()})
    if needs_discard:
        player["hand"].remove(discard)
        player["discards"].append(discard)
    elif random_discard and st.twelve_card_mode(s) and not flags.get("penance"):
        discard = st.rng(s).choice(sorted(player["hand"]))
        player["hand"].remove(discard)
        player["discards"].append(discard)
        ev.append({"type": "random_discard", "seat": seat})
    if discard is not None:
        ev.append({"type": "card_discarded", "seat": seat, "card": discard, "private": seat})


def answer_trade(s, a, ev):
    h = head(s)
    if s["over"] or h is None:
        raise Refused("wrong_phase", expected=None, got="answer_trade")
    accept = a.get("accept")
    if not isinstance(accept, bool):
        raise Refused("bad_params", field="accept")
    if h["kind"] == "answer_trade":
        _by_seat(s, a, h["seat"])
        e = effects.card_effects(s, h["card"])[h["index"]]
        if accept:
            effects.trade(s, h["seat"], e, ev, h["card"], effects.trade_count(a, e))
        else:
            ev.append({"type": "trade_declined", "seat": h["seat"], "card": h["card"]})
        s["queue"].pop(0)
        return
    if h["kind"] == "play_card":  # a permanent event's trade, once per round (R3.2.6)
        _by_seat(s, a, h["seat"])
        offers = [(c, i, e) for c, i, e in effects.permanent_trades(s, h["seat"])
                  if c == a.get("card") and a.get("index", i) == i]
        if not offers:
            raise Refused("no_trade_offer")
        card, index, e = offers[0]
        if accept:
            effects.trade(s, h["seat"], e, ev, card, effects.trade_count(a, e))
        s["round_trades"].append([h["seat"], card, index])
        return
    raise Refused("wrong_phase", expected=h["kind"], got="answer_trade")


def roll_tax(s, a, ev):
    h = _head(s, "roll_tax")
    _by_seat(s, a, h["seat"], table_ok=True)
    value = _int_field(a, "value")
    faces = sorted(set(s["cat"]["game"]["tax_die"]["faces"]))  # (the catalog requires it)
    if value not in faces:
        raise Refused("bad_die_value", value=value, faces=faces)
    s["queue"].pop(0)
    s["tax"] = value
    ev.append({"type": "tax_rolled", "value": value})
    duties.settle(s, value, ev)


def record_discard(s, a, ev):
    """A-11 (random_discards: table): the card drawn at the table for Penance."""
    h = _head(s, "record_discard")
    _by_seat(s, a, h["seat"], table_ok=True)
    player = s["players"][h["seat"]]
    card = a.get("card")
    if card not in player["hand"]:
        raise Refused("card_not_in_hand", card=card)
    s["queue"].pop(0)
    player["hand"].remove(card)
    player["discards"].append(card)
    ev.append({"type": "penance_discard", "seat": h["seat"]})
    ev.append({"type": "penance_card", "seat": h["seat"], "card": card, "private": h["seat"]})


def choose_protection(s, a, ev):
    h = _head(s, "choose_protection")
    seat = a.get("by")
    if seat not in h["seats"]:
        raise Refused("no_decision_owed", seat=seat)
    duties.protect(s, seat, a.get("cancel"), ev)
    h["seats"].remove(seat)
    if h["seats"]:
        h["seat"] = h["seats"][0]
    else:
        s["queue"].pop(0)


def choose_target(s, a, ev):
    h = _head(s, "choose_target")
    _by_seat(s, a, h["seat"])
    target = a.get("seat")
    if not isinstance(target, str) or target not in s["players"]:
        raise Refused("unknown_seat", seat=target)
    s["targets"][h["card"]]["chosen"] = target
    s["queue"].pop(0)
    ev.append({"type": "target_chosen", "card": h["card"], "seat": target})


def resolve_manual(s, a, ev):
    h = _head(s, "resolve_manual")
    _by_seat(s, a, s["active"], table_ok=True)
    s["queue"].pop(0)
    ev.append({"type": "manual_resolved", "card": h["card"]})


def cure(s, a, ev):
    h = _head(s, "cure")
    _by_seat(s, a, h["seat"])
    loc = a.get("location")
    locs = a.get("locations")
    s["queue"].pop(0)
    if loc is None and not locs:
        ev.append({"type": "cure_skipped", "seat": h["seat"]})
        return
    if s["options"]["hospital_cures_per_donor"] == "sum" and locs is not None:
        push_front(s, projects.cure(s, h["seat"], locs, ev))
        return
    if locs is not None:
        raise Refused("too_many_cures", limit=1)
    push_front(s, projects.cure(s, h["seat"], [loc], ev))  # one location: within the limit of 1


def place_free_house(s, a, ev):
    h = _head(s, "place_free_house")
    _by_seat(s, a, h["seat"])
    site = a.get("site")
    s["queue"].pop(0)
    if site is None:
        ev.append({"type": "free_house_skipped", "seat": h["seat"]})
        return
    if not isinstance(site, str):
        raise Refused("bad_params", field="site")
    projects.place_house(s, h["seat"], site, True, ev)


def return_houses(s, a, ev):
    h = _head(s, "return_houses")
    sites = a.get("sites")
    if not isinstance(sites, list) or not all(type(x) in (str, int) for x in sites):
        raise Refused("bad_params", field="sites")
    if h["seat"] == "table":
        _by_seat(s, a, s["active"], table_ok=True)
    else:  # one house of the player's own (scope one_per_player)
        _by_seat(s, a, h["seat"], table_ok=True)
        if len(sites) != 1 or s["sites"].get(sites[0]) != h["seat"]:
            raise Refused("not_your_house", site=sites[0] if sites else None)
    s["queue"].pop(0)
    for site in sites:
        projects.return_house(s, site, ev)


def adjust(s, a, ev):
    """A host correction (also how a `manual` event's effects are entered)."""
    if a.get("by") != "host":
        raise Refused("host_only")
    seat = a.get("seat")
    if not isinstance(seat, str) or seat not in s["players"]:
        raise Refused("unknown_seat", seat=seat)
    item = a.get("item")
    if not isinstance(item, str):
        raise Refused("unknown_item", item=item)
    delta = _int_field(a, "delta")
    if not -MAX_CORRECTION <= delta <= MAX_CORRECTION:
        raise Refused("bad_params", field="delta")
    if item == "vp":
        st.add_vp(s, seat, delta, ev, "adjust")
    elif item in st.ITEMS:
        res = s["players"][seat]["res"]
        if delta > 0:
            have = s["supply"].get(item)
            if have is not None and have < delta:
                raise Refused("out_of_supply", item=item)
            st.give(s, seat, item, delta)
        elif res[item] < -delta:
            # the host is usually a player too: no count of another seat in the refusal
            raise Refused("correction_below_zero", seat=seat, item=item)
        else:
            st.return_to_supply(s, seat, item, -delta)
    else:
        raise Refused("unknown_item", item=item)
    player = s["players"][seat]
    if item == "vp":  # VP are public: the log says what they are now
        ev.append({"type": "adjusted", "seat": seat, "item": item, "delta": delta,
                   "after": player["vp"], "reason": str(a.get("reason", ""))})
    else:  # a seat's resources are its secret (views.secrets): the change, not the count
        ev.append({"type": "adjusted_secret", "seat": seat, "item": item, "delta": delta,
                   "reason": str(a.get("reason", ""))})


def set_start_player(s, a, ev):
    """A-8: the table may override who holds the start-player token before a reveal."""
    h = _head(s, "reveal_event")
    if a.get("by") != "host":
        raise Refused("host_only")
    seat = a.get("seat")
    if not isinstance(seat, str) or seat not in s["players"]:
        raise Refused("unknown_seat", seat=seat)
    s["active"] = seat
    h["seat"] = seat
    ev.append({"type": "start_player", "seat": seat})


HANDLERS = {
    "reveal_event": reveal_event,
    "reveal_plague": reveal_plague,
    "orient_event": orient_event,
    "play_card": play_card,
    "answer_trade": answer_trade,
    "roll_tax": roll_tax,
    "choose_protection": choose_protection,
    "record_discard": record_discard,
    "choose_target": choose_target,
    "resolve_manual": resolve_manual,
    "cure": cure,
    "place_free_house": place_free_house,
    "return_houses": return_houses,
    "adjust": adjust,
    "set_start_player": set_start_player,
    "correct": corrections.correct,
}


def apply(state: dict, action: dict, copy=st.fast_copy) -> tuple[dict, list]:
    """``action`` carried out on a copy of ``state``: (the new state, its events). ``copy``:
    how the copy is made (the choices try event cards on `state.event_copy`)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise Refused("malformed_action")
    handler = HANDLERS.get(action["type"])
    if handler is None:
        raise Refused("unknown_action", type=action["type"])
    by = action.get("by")
    if not isinstance(by, str) or (by not in TABLE and by not in state["players"]):
        raise Refused("unknown_seat", seat=by)
    s = copy(state)
    ev: list = []
    try:
        handler(s, action, ev)
    except (TypeError, KeyError, IndexError, ValueError, AttributeError) as exc:
        # input of a shape no handler expects (the copy is dropped: nothing changes)
        raise Refused("malformed_action") from exc
    flow.advance(s, ev)
    s["n"] += 1
    return s, ev
