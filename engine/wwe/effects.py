"""Event-card effects: the declarative vocabulary of the catalog (brief Appendix 3).

An effect is ``{"type": <name>, ...}``. Immediate cards run their effects at reveal, in
order (R3.2.4). Permanent cards run their one-shot effects when step 5 begins and keep their
continuous effects (``CONTINUOUS``) while they are in force (R3.2.5, A-24).
"""
from __future__ import annotations

from engine.api import Refused
from engine.wwe import projects
from engine.wwe import state as st
from engine.wwe.steps import await_step, in_force, push_front

CONTINUOUS = ("price", "card_modifier", "trade", "lose_action", "random_discard",
              "income_modifier", "event_modifier")
KNOWN = CONTINUOUS + ("gain", "lose", "introduce_project", "cover", "uncover", "open_market",
                      "complete_tower", "return_houses", "manual")


def kind(effect: dict) -> str:
    return effect.get("type") or effect.get("effect") or effect.get("kind") or "manual"


def card_effects(s: dict, card: str) -> list[dict]:
    return list(s["cat"]["events"][card].get("effects", []))


def needs_target(s: dict, card: str) -> bool:
    return any(e.get("who") == "chosen" for e in card_effects(s, card))


def seats_for(s: dict, card: str, who: str | None) -> list[str]:
    """The seats an effect hits, clockwise from the player who was active at the reveal."""
    tgt = s["targets"].get(card, {})
    active = tgt.get("active", s["active"])
    order = st.clockwise_from(s, active)
    if who in (None, "all"):
        return order
    if who == "active":
        return [active]
    if who == "others":
        return order[1:]
    if who == "chosen":
        return [tgt["chosen"]] if tgt.get("chosen") else []
    return []


def schedule(s: dict, card: str, continuous: bool) -> list[dict]:
    """The effect steps to run now: all of an immediate card, the one-shots of a blue one."""
    steps = []
    for i, e in enumerate(card_effects(s, card)):
        if continuous and kind(e) in CONTINUOUS:
            continue
        steps.append({"do": "effect", "card": card, "index": i})
    return steps


def uncover_and_clear(s: dict, ev: list) -> None:
    """E2 (every cover tile back, cloth space opens) and E3 (events leave the board)."""
    s["covers"] = {"favor": [], "market": [], "project": []}
    s["price_mods"] = {}
    s["council"] = []
    s["slots"] = []
    s["targets"] = {}
    ev.append({"type": "covers_removed"})
    ev.append({"type": "events_cleared"})


def run_effect(s: dict, step: dict, ev: list) -> None:
    if step.get("internal") == "uncover_and_clear":
        uncover_and_clear(s, ev)
        return
    card = step["card"]
    e = card_effects(s, card)[step["index"]]
    k = kind(e)
    permanent = bool(s["cat"]["events"][card].get("permanent"))
    seats = seats_for(s, card, e.get("who"))
    if k in EVENT_MODIFIABLE:
        seats = spare(s, card, k, seats, ev)
    if k == "gain":
        for seat in seats:
            st.gain_items(s, seat, e.get("items", {}), ev, "event")
    elif k == "lose":
        for seat in seats:
            for item, n in e.get("items", {}).items():
                if item == "vp":
                    st.add_vp(s, seat, -int(n), ev, "event")
                elif item != "mk":  # R7.8: MK is never lost
                    paid = st.return_to_supply(s, seat, item, int(n))
                    if paid:  # a player with none loses nothing, and the log says nothing
                        ev.append({"type": "lose", "seat": seat, "item": item,
                                   "amount": paid, "reason": "event"})
    elif k == "trade" and not permanent:
        offers = [await_step("answer_trade", seat, card=card, index=step["index"])
                  for seat in seats]
        push_front(s, offers)
    elif k == "introduce_project":
        pid = e["project"]
        if pid not in s["projects"]:
            s["projects"][pid] = st.new_project()
            ev.append({"type": "project_introduced", "project": pid})
    elif k in ("cover", "uncover"):
        cover(s, card, e, ev, k == "uncover")
    elif k == "open_market":
        space = e.get("space", "cloth")
        if space in s["covers"]["market"]:
            s["covers"]["market"].remove(space)
        ev.append({"type": "market_opened", "space": space})
    elif k == "price" and not permanent:
        s["price_mods"][e["item"]] = int(e["price"])
        ev.append({"type": "price_changed", "item": e["item"], "price": int(e["price"])})
    elif k in ("lose_action", "random_discard") and not permanent:
        for seat in seats:
            flag = "lose_action" if k == "lose_action" else "random_discard"
            if (k == "lose_action" and e.get("royal_court_exempt_if_first")
                    and s["round_flags"][seat].get("royal_court")
                    and s["chapter"] == 2 and s["revealed"]["2"][:1] == [card]):
                # §5.5 King Edward III: the Royal Court player loses only one action.
                ev.append({"type": "royal_court_exempt", "seat": seat})
                continue
            s["round_flags"][seat][flag] = True
    elif k == "card_modifier" and not permanent:
        s["round_mods"].append(e)
    elif k == "income_modifier" and not permanent:  # this round's step 3
        s["round_mods"].append({**e, "source": card})
    elif k == "complete_tower":
        projects.complete_tower(s, ev)
    elif k == "return_houses":
        scope = e.get("scope", "all")
        if scope == "all":
            for seat in s["seats"]:
                for site in list(s["players"][seat]["houses"]):
                    projects.return_house(s, site, ev)
        elif scope == "one_per_player":  # each player picks one own house
            push_front(s, [await_step("return_houses", seat, card=card, scope=scope)
                                for seat in seats if s["players"][seat]["houses"]])
        else:  # the table picks any houses
            push_front(s, [await_step("return_houses", "table", card=card,
                                                scope=scope)])
    elif k == "manual" or k not in KNOWN:
        text = e.get("text") or s["cat"]["events"][card].get("text", {})
        push_front(s, [await_step("resolve_manual", "table", card=card, text=text)])


def cover(s: dict, card: str, e: dict, ev: list, undo: bool) -> None:
    target = e.get("target", "favor")
    ids = e.get("ids", [])
    if ids == "all_other_projects":
        own = [x.get("project") for x in card_effects(s, card)
               if kind(x) == "introduce_project"]
        ids = [p for p in s["projects"] if p not in own and not s["projects"][p]["complete"]]
    covers = s["covers"].setdefault(target, [])
    for tid in ids:
        if undo:
            if tid in covers:
                covers.remove(tid)
                ev.append({"type": "uncovered", "target": target, "id": tid})
            continue
        if tid in covers:
            continue
        used = sum(len(v) for v in s["covers"].values())
        if used >= int(s["cat"]["game"].get("cover_tiles", 5)):
            ev.append({"type": "no_cover_tile", "target": target, "id": tid})
            continue
        covers.append(tid)
        ev.append({"type": "covered", "target": target, "id": tid})


def continuous(s: dict, name: str) -> list[tuple[str, dict]]:
    """(card, effect) pairs of continuous effect ``name`` from the permanent events in force."""
    cards = in_force(s)
    if not cards:
        return []
    events = s["cat"]["events"]
    return [(card, e) for card in cards for e in events[card].get("effects", ())
            if kind(e) == name]


def price(s: dict, item: str) -> int:
    p = s["prices"][item]
    if item in s["price_mods"]:
        p = s["price_mods"][item]
    for _card, e in continuous(s, "price"):
        if e.get("item") == item:
            p = int(e["price"])
    return p


def card_mods(s: dict, card_id: str) -> list[dict]:
    mods = [e for _c, e in continuous(s, "card_modifier")] + list(s["round_mods"])
    return [e for e in mods if kind(e) == "card_modifier" and e.get("card") in (card_id, "all")]


# ------------------------------------------------ permanent events on income and events

EVENT_MODIFIABLE = ("gain", "lose")  # later event effects an `event_modifier` may cancel


def income_mods(s: dict, seat: str) -> list[dict]:
    """The `income_modifier`s acting on ``seat``'s step 3 now, oldest first.

    A permanent card changes the rules from step 5 of its own round (R3.2.5), so in step 3
    only the cards in the slots act; an immediate card's modifier acts in its own round."""
    out = []
    for card in s["slots"]:
        for e in card_effects(s, card):
            if kind(e) == "income_modifier" and seat in seats_for(s, card, e.get("who")):
                out.append(e)
    for e in s["round_mods"]:
        if kind(e) == "income_modifier" and seat in seats_for(s, e["source"], e.get("who")):
            out.append(e)
    return out


def modified_income(s: dict, seat: str, corner: str, mods: list | None = None
                    ) -> tuple[str | None, dict]:
    """The corner ``seat`` collects after the modifiers in force (None: nothing) and the
    bonus items on top. A modifier matches its ``item`` or ``"any"`` corner; replacements
    chain in arrival order. ``mods``: `income_mods` of this state and seat, when the caller
    has them already."""
    bonus: dict = {}
    for e in income_mods(s, seat) if mods is None else mods:
        if corner is None or e.get("item") not in (corner, "any"):
            continue
        if "replacement" in e:
            corner = None if e["replacement"] == "none" else e["replacement"]
        for item, n in e.get("bonus", {}).items():
            bonus[item] = bonus.get(item, 0) + int(n)
    return corner, bonus


def spare(s: dict, card: str, effect_kind: str, seats: list[str], ev: list) -> list[str]:
    """Drop the seats that an `event_modifier` in force spares from ``card``'s effect.

    Only other cards' modifiers count (they change *later* event cards, A-7); with A-24
    up to three permanent events may act at once."""
    spared = set()
    for other in in_force(s):
        if other == card:
            continue
        for e in card_effects(s, other):
            if (kind(e) == "event_modifier" and e.get("effect") == effect_kind
                    and e.get("disabled", True)):
                spared.update(seat for seat in seats
                              if seat in seats_for(s, other, e.get("who")))
    for seat in seats:
        if seat in spared:
            ev.append({"type": "event_spared", "seat": seat, "card": card})
    return [seat for seat in seats if seat not in spared]


def action_lost(s: dict, seat: str) -> str | None:
    """Why ``seat``'s face-up card this round is not performed (None: it is)."""
    why = lost_why(s, seat)
    return None if why is None else lost_cause(why)


def lost_cause(why: Refused) -> str:
    """A lost action's cause by its kind: "royal_court" or "event"."""
    return "royal_court" if why.code == "action_lost_royal_court" else "event"


def lost_why(s: dict, seat: str) -> Refused | None:
    """What makes ``seat`` lose this round's action, as the reason the phone shows before
    the tap (R4.1.4: the card still goes down, it is not carried out): the Royal Court
    (§5.5), or the event card that takes it (§9: this round's event, or one in force)."""
    flags = s["round_flags"][seat]
    if flags.get("royal_court"):
        return Refused("action_lost_royal_court")
    if flags.get("lose_action"):
        return Refused("action_lost_event", card=s["event"])
    for card, e in continuous(s, "lose_action"):
        if seat in seats_for(s, card, e.get("who")):
            return Refused("action_lost_event", card=card)
    return None


def random_discard(s: dict, seat: str) -> bool:
    if s["round_flags"][seat].get("random_discard"):
        return True
    return any(seat in seats_for(s, card, e.get("who"))
               for card, e in continuous(s, "random_discard"))


def permanent_trades(s: dict, seat: str) -> list[tuple[str, int, dict]]:
    """Trades of permanent events usable by ``seat`` this round (once per round, R3.2.6)."""
    out = []
    for card in in_force(s):
        for i, e in enumerate(card_effects(s, card)):
            if (kind(e) == "trade" and seat in seats_for(s, card, e.get("who"))
                    and [seat, card, i] not in s["round_trades"]):
                out.append((card, i, e))
    return out


def trade_times(e: dict) -> int:
    """How many times one player may make a trade offer's exchange at once (default 1)."""
    return int(e.get("times", 1))


def trade_count(a: dict, e: dict) -> int:
    """The ``count`` of an accepting `answer_trade`: 1 by default, at most the offer's times."""
    count = a.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int):
        raise Refused("bad_params", field="count")
    if not 1 <= count <= trade_times(e):
        raise Refused("too_many_trades", count=count, max=trade_times(e))
    return count


def trade(s: dict, seat: str, e: dict, ev: list, card: str, count: int = 1) -> None:
    """Pay ``give`` and receive ``get``, ``count`` times; refused when unaffordable or the
    supply is short (nothing changes then)."""
    give = {item: int(n) * count for item, n in e.get("give", {}).items()}
    get = {item: int(n) * count for item, n in e.get("get", {}).items()}
    res = s["players"][seat]["res"]
    for item, n in give.items():
        if item != "vp" and res.get(item, 0) < n:
            raise Refused("cannot_afford", item=item, need=n, have=res.get(item, 0))
    for item, n in get.items():
        have = s["supply"].get(item)
        if item != "vp" and have is not None and have < n:
            raise Refused("out_of_supply", item=item)
    for item, n in give.items():
        if item == "vp":
            st.add_vp(s, seat, -n, ev, "trade")
        else:
            st.return_to_supply(s, seat, item, n)
    for item, n in get.items():
        if item == "vp":
            st.add_vp(s, seat, n, ev, "trade")
        else:
            st.give(s, seat, item, n)
    ev.append({"type": "traded", "seat": seat, "card": card, "give": give, "get": get,
               "count": count})
