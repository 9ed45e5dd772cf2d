"""Whole games of World Without End, played to the final score, checked against results
worked out by hand (the working is in the comments next to each round).

The games use a small fixed test catalog built here from the shipped one, with every
guessed (demo) part replaced by explicit test values, so changes to the demo deck never
change these games. It is validated like any catalog.

Conventions of the test catalog (see `build_test_catalog`):
- every event card has corners [gold2, grain, piety, vp] and its arrow on position 0;
  council side values [0, 1, 2, 3]. So with rotation r the favor marker moves r steps, and
  the seat at index j of N, E, S, W gets corner (j - r) % 4:
      r=0: N 2 gold, E grain, S piety, W VP      r=1: N VP, E 2 gold, S grain, W piety
      r=2: N piety, E VP, S 2 gold, W grain      r=3: N grain, E piety, S VP, W 2 gold
- favor cycle (index: space): 0 outlaws, 1 queen, 2 prior, 3 guild, 4 prioress,
  5 merchants, 6 king, 7 earl, 8 bishop, then 0 again; the marker starts on 0.
- sites: site_01 stone, rent 2 gold; site_02 wood, rent 1 grain; site_03 wood, rent 2 gold
  (same rent as site_01); the others below.
- projects: bridge 3 stone + 2 wood (donors 1 VP + 2 gold), tower 6 + 2 + spire, others
  below; supplies: stone 25, wood 15, grain 10, piety 12, metal 1, wool 15, cloth 12,
  loyalty/MK/gold unlimited.
- each chapter has t<chapter>_1..6 (no effects; chapters III/IV carry plague numbers) plus
  the x and y cards of EXTRA_EFFECTS (plague 10 in chapters III/IV). The starred (first-game)
  deck of chapter I is t1_1..6; of chapters II-IV the two y cards and t*_1..4.
Resources are written as "vp8 gold2 wool1": only the non-zero ones.
"""
from __future__ import annotations

import copy

import pytest

from companion.box.catalog import load_catalog
from engine.wwe import GAME
from engine.wwe.catalog import validate

CORNERS = ["gold2", "grain", "piety", "vp"]


def names(en: str) -> dict:
    return {"en": en, "it": en, "pl": en, "es": en}


def event(cid: str, chapter: int, plague: int | None = None, effects=(),
          permanent: bool = False, starred: bool = True) -> dict:
    return {"id": cid, "chapter": chapter, "starred": starred, "permanent": permanent,
            "names": names(f"Test {cid}"), "text": {"en": f"Test card {cid}."},
            "corners": list(CORNERS), "arrow": 0, "plague": plague, "effects": list(effects)}


PLAGUE_NUMBERS = {3: [9, 2, 2, 11, 5, 7], 4: [9, 1, 3, 4, 6, 8]}
EXTRA_EFFECTS = {
    # card id: effects (x cards: the 3-player game; y cards, starred: the 4-player first game)
    "x1_trade": [{"type": "trade", "give": {"wool": 1}, "get": {"gold": 3}}],
    "x1_mill": [{"type": "introduce_project", "project": "fulling_mill"}],
    "x2_loyal": [{"type": "gain", "who": "all", "items": {"loyalty": 1}}],
    "x2_chapel": [{"type": "introduce_project", "project": "lady_chapel"}],
    "x3_mk": [{"type": "gain", "who": "all", "items": {"mk": 2}}],
    "x3_hospital": [{"type": "introduce_project", "project": "hospital"}],
    "x4_tower": [{"type": "complete_tower"}],
    "x4_tax": [{"type": "lose", "who": "others", "items": {"gold": 2}}],
    "y2_fair": [{"type": "card_modifier", "card": "sell_wool_cloth", "bonus": {"gold": 1}}],
    "y2_cover": [{"type": "cover", "target": "favor", "ids": ["prior"]},
                 {"type": "gain", "who": "all", "items": {"wool": 2}}],
    "y3_price": [{"type": "price", "item": "wool", "price": 3}],
    "y3_accuse": [{"type": "lose_action", "who": "active"}],
    "y4_houses": [{"type": "return_houses", "scope": "all"}],
    "y4_wood": [{"type": "trade", "give": {"gold": 1}, "get": {"wood": 1}}],
}
PERMANENT = ("y2_fair", "y3_price", "y4_wood")


def build_test_catalog() -> dict:
    cat = copy.deepcopy(load_catalog("wwe"))
    game = cat["game"]
    game["supplies"].update({"wool": {"size": 15}, "cloth": {"size": 12},
                             "loyalty": {"size": None}, "mk": {"size": None},
                             "gold": {"size": None}})
    game["tax_die"] = {"faces": [2, 3, 4, 5]}
    game["favor_track"] = {"cycle": ["outlaws", "queen", "prior", "guild", "prioress",
                                     "merchants", "king", "earl", "bishop"], "start": 0}
    game["council"] = {"side_values": [0, 1, 2, 3]}
    cards = []
    for chapter in (1, 2, 3, 4):
        numbers = PLAGUE_NUMBERS.get(chapter, [None] * 6)
        for i in range(6):
            # the first-game decks (starred) of chapters II-IV use the y cards instead of
            # t*_5 and t*_6
            starred = chapter == 1 or i < 4
            cards.append(event(f"t{chapter}_{i + 1}", chapter, numbers[i], starred=starred))
    for cid, effects in EXTRA_EFFECTS.items():
        chapter = int(cid[1])
        card = event(cid, chapter, 10 if chapter >= 3 else None, effects,
                     permanent=cid in PERMANENT, starred=cid.startswith("y"))
        cards.append(card)
    cat["event_cards"] = cards
    starred = ("grain", "piety", "building_material", "building_project", "sell_wool_cloth",
               "privilege")
    for card in cat["action_cards"]:
        card["starred"] = card["id"] in starred
    sites = [("stone", "gold", 2), ("wood", "grain", 1), ("wood", "gold", 2),
             ("stone", "piety", 1), ("wood", "wool", 1), ("stone", "loyalty", 1),
             ("wood", "gold", 1), ("stone", "cloth", 1), ("wood", "piety", 1),
             ("stone", "grain", 1), ("wood", "vp", 1), ("stone", "mk", 1),
             ("wood", "stone", 1), ("stone", "wood", 1)]
    cat["building_sites"] = [{"id": f"site_{i:02d}", "names": names(f"Site {i}"),
                              "material": m, "rent": {"item": item, "amount": n}}
                             for i, (m, item, n) in enumerate(sites, start=1)]
    specs = {"bridge": (3, 2, {"vp": 1, "items": {"gold": 2}}),
             "fulling_mill": (1, 1, {"vp": 1, "items": {"cloth": 1}}),
             "lady_chapel": (2, 1, {"vp": 2}),
             "hospital": (1, 1, {"cure": True}),
             "prior_house": (2, 1, {"vp": 1, "items": {"piety": 1}}),
             "demo_guild_hall": (1, 1, {"vp": 1, "items": {"loyalty": 1}})}
    for proj in cat["projects"]:
        if proj["id"] in specs:
            proj["stone"], proj["wood"], proj["donor_reward"] = specs[proj["id"]]
    rewards = {1: {"items": {"gold": 2}}, 2: {"vp": 1}, 3: {"items": {"loyalty": 1}},
               4: {"items": {"cloth": 1}}, 5: {"items": {"wool": 1}}, 6: {"vp": 2},
               7: {"items": {"piety": 1}}, 8: {"items": {"gold": 1}}, 10: {"vp": 3}}
    for loc in cat["plague"]["locations"]:
        if loc["id"] in rewards:
            loc["reward"] = rewards[loc["id"]]
    cat["plague"]["tokens"] = [1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5]
    return cat


CATALOG = build_test_catalog()


def test_the_test_catalog_is_valid():
    assert validate(CATALOG) == []


class Script:
    """Feeds a game its decisions from a per-chapter script and records checkpoints."""

    def __init__(self, chapters: list[dict], plague: dict[int, int]):
        self.chapters = chapters
        self.plague = plague
        self.vp_at_chapter_start: dict[int, dict] = {}

    def action(self, s: dict) -> dict:
        prompt = GAME.prompts(s)[0]
        chapter = self.chapters[s["chapter"] - 1]
        kind, seat = prompt.kind, prompt.seat
        if kind == "reveal_event":
            card, _rotation = chapter["rounds"][s["round"] - 1]
            return {"type": "reveal_event", "by": "table", "card": card}
        if kind == "reveal_plague":
            loc = prompt.params["location"]
            return {"type": "reveal_plague", "by": "table", "value": self.plague[loc]}
        if kind == "orient_event":
            _card, rotation = chapter["rounds"][s["round"] - 1]
            return {"type": "orient_event", "by": seat, "rotation": rotation}
        if kind == "play_card":
            card, params, discard = chapter["plays"][seat].pop(0)
            if card == "trade":  # a permanent event's trade, used during one's own turn
                return {"type": "answer_trade", "by": seat, "card": params, "index": 0,
                        "accept": True}
            perform = params is not None
            return {"type": "play_card", "by": seat, "card": card, "discard": discard,
                    "params": params or {}, "perform": perform}
        if kind == "roll_tax":
            return {"type": "roll_tax", "by": "table", "value": chapter["tax"]}
        if kind == "choose_protection":
            return {"type": "choose_protection", "by": seat,
                    "cancel": chapter["protect"][seat]}
        if kind == "answer_trade":
            return {"type": "answer_trade", "by": seat,
                    "accept": chapter["trades"][seat].pop(0)}
        if kind in ("cure", "place_free_house"):
            key = "location" if kind == "cure" else "site"
            return {"type": kind, "by": seat, key: chapter[kind][seat].pop(0)}
        raise AssertionError(f"unexpected decision {prompt}")

    def play(self, setup: dict) -> dict:
        s = GAME.setup(CATALOG, setup)
        self.vp_at_chapter_start[1] = {seat: p["vp"] for seat, p in s["players"].items()}
        for _ in range(1000):
            if s["over"]:
                break
            s, events = GAME.apply(s, self.action(s))
            if any(e["type"] == "chapter_started" for e in events):
                self.vp_at_chapter_start[s["chapter"]] = {
                    seat: p["vp"] for seat, p in s["players"].items()}
        assert s["over"]
        for chapter in self.chapters:  # every scripted decision was used
            for key in ("plays", "trades", "cure", "place_free_house"):
                assert all(not left for left in chapter.get(key, {}).values()), key
        return s


def res(s: dict, seat: str) -> dict:
    p = s["players"][seat]
    out = {item: n for item, n in p["res"].items() if n}
    out["vp"] = p["vp"]
    return out


def final(s: dict) -> dict:
    return {row["seat"]: (row["vp"], row["rank"]) for row in GAME.scores(s)}


# ================================================================ 2 players: N and S
# N starts (start_seat N). Actives per chapter: rounds 1-6 = N S N S N S; the token passes
# to N after every chapter end (E6), so every chapter starts with N again.
TWO = [
    {   # ---------------------------------------------------------------- chapter I
        # start: N vp8 wool1 gold2; S vp8 wool1 gold2. Favor on 0 (outlaws).
        "rounds": [
            ("t1_1", 2),  # R1 N: r2 -> N piety, S 2 gold; favor 2 -> prior: N +1 piety
            #   N plays grain (+1 grain), S plays grain (+1 grain)
            #   N vp8 grain1 piety2 wool1 gold2; S vp8 grain1 wool1 gold4
            ("t1_2", 0),  # R2 S: r0 -> N 2 gold, S piety; no favor
            #   S piety (+1) -> S piety2; N medicine help (+1 gold, +1 VP) -> N gold5 vp9
            ("t1_3", 0),  # R3 N: r0 -> N gold7, S piety3
            #   N sells 1 wool (+2) -> N wool0 gold9; S sells 1 wool -> S wool0 gold6
            ("t1_4", 2),  # R4 S: r2 -> N piety3, S gold8; favor 2 -> prioress: S has no MK
            #   S building material stone -> stone1; N building material wood -> wood1
            ("t1_5", 1),  # R5 N: r1 -> N vp10, S grain2; favor 1 -> merchants: N wool1
            #   N puts 1 wood on the bridge (+3) -> vp13; S 1 stone on the bridge -> vp11
            ("t1_6", 1),  # R6 S: r1 -> N vp14, S grain3; favor 1 -> king: S 0 loyalty, 0 VP
            #   S medicine help -> S gold9 vp12; N piety -> N piety4
        ],
        "plays": {
            "N": [("grain", {}, "favor"), ("medicine", {"mode": "help"}, "privilege"),
                  ("sell_wool_cloth", {"wool": 1, "cloth": 0}, "weaver"),
                  ("building_material", {"item": "wood"}, "donation"),
                  ("building_project", {"project": "bridge", "stone": 0, "wood": 1}, "rent"),
                  ("piety", {}, "build_house")],
            "S": [("grain", {}, "favor"), ("piety", {}, "privilege"),
                  ("sell_wool_cloth", {"wool": 1, "cloth": 0}, "weaver"),
                  ("building_material", {"item": "stone"}, "donation"),
                  ("building_project", {"project": "bridge", "stone": 1, "wood": 0}, "rent"),
                  ("medicine", {"mode": "help"}, "build_house")],
        },
        # before the end: N vp14 grain1 piety4 wool1 gold9; S vp12 grain3 piety3 gold9
        # E1: bridge stone 1/3 wood 1/2 -> +1 stone (stone first) -> stone 2/3
        # tax 3, paid from the active player S clockwise:
        #   S pays 2 piety, 2 grain, 3 gold -> S vp12 grain1 piety1 gold6
        #   N pays 2 piety, 1 grain (1 short: -2 VP, Begging), 3 gold -> N vp12 piety2 wool1
        #   gold6; no loyalty, so no protection choice. The token passes to N.
        "tax": 3, "protect": {},
    },
    {   # ---------------------------------------------------------------- chapter II
        # start: N vp12 piety2 wool1 gold6 (Begging in round 1); S vp12 grain1 piety1 gold6.
        # Favor on 6 (king). Supplies: grain 9, piety 9, stone 23, wood 14.
        "rounds": [
            ("t2_1", 3),  # R1 N: r3 -> N grain (lost: Begging), S vp13; favor 3 -> outlaws:
            #   N pays 1 gold -> gold5. N grain -> grain1; S grain -> grain2
            ("t2_2", 2),  # R2 S: r2 -> N piety3, S gold8; favor 2 -> prior: S piety2
            #   S piety -> piety3; N piety -> piety4
            ("t2_3", 0),  # R3 N: r0 -> N gold7, S piety4
            #   N building material stone -> stone1; S building material wood -> wood1
            ("t2_4", 0),  # R4 S: r0 -> N gold9, S piety5
            #   S builds on site_02 (wood, rent 1 grain): wood0 gold7
            #   N builds on site_01 (stone, rent 2 gold): stone0 gold8
            ("t2_5", 1),  # R5 N: r1 -> N vp13, S grain3; favor 1 -> guild: N 1 house, vp14
            #   N rent site_01 -> gold10; S rent site_02 -> grain4
            ("t2_6", 1),  # R6 S: r1 -> N vp15, S grain5; favor 1 -> prioress: S no MK
            #   S plays Sell Wool & Cloth without performing it (nothing to sell)
            #   N sells 1 wool -> wool0 gold12
        ],
        "plays": {
            "N": [("grain", {}, "favor"), ("piety", {}, "privilege"),
                  ("building_material", {"item": "stone"}, "weaver"),
                  ("build_house", {"site": "site_01"}, "donation"),
                  ("rent", {"sites": ["site_01"]}, "medicine"),
                  ("sell_wool_cloth", {"wool": 1, "cloth": 0}, "building_project")],
            "S": [("grain", {}, "favor"), ("piety", {}, "privilege"),
                  ("building_material", {"item": "wood"}, "weaver"),
                  ("build_house", {"site": "site_02"}, "donation"),
                  ("rent", {"sites": ["site_02"]}, "medicine"),
                  ("sell_wool_cloth", None, "building_project")],
        },
        # before the end: N vp15 grain1 piety4 gold12; S vp13 grain5 piety5 gold7
        # E1: bridge stone 2/3 wood 1/2 -> stone 3/3. Tax 5, from S:
        #   S pays 2 piety, 2 grain, 5 gold -> S vp13 grain3 piety3 gold2
        #   N pays 2 piety, 1 grain (short 1: -2 VP, Begging), 5 gold -> N vp13 piety2 gold7
        # After chapter II: the Tower comes in and the plague tokens go face down.
        "tax": 5, "protect": {},
    },
    {   # ---------------------------------------------------------------- chapter III
        # start: N vp13 piety2 gold7 (Begging); S vp13 grain3 piety3 gold2. Favor on 4.
        # Supplies: grain 7, piety 7, stone 22, wood 13.
        "rounds": [
            ("t3_1", 0),  # R1 N: plague 9 flips (value 3). r0 -> N gold (lost: Begging),
            #   S piety4. N grain -> grain1; S grain -> grain4
            ("t3_2", 2),  # R2 S: plague 2 flips (1). r2 -> N piety3, S gold4; favor 2 ->
            #   king: S 0 loyalty. S building material wood -> wood1; N stone -> stone1
            ("t3_3", 0),  # R3 N: plague 2 again: no new case. r0 -> N gold9, S piety5
            #   N 1 stone on the Tower (+3) -> vp16; S 1 wood on the bridge (+3) -> vp16,
            #   the bridge is complete (no donors, nothing more happens)
            ("t3_4", 1),  # R4 S: plague 11 flips (5). r1 -> N vp17, S grain5; favor 1 ->
            #   earl: S grain6. S rent site_02 -> grain7; N rent site_01 -> gold11
            ("t3_5", 1),  # R5 N: plague 5 flips (2). r1 -> N vp18, S grain8; favor 1 ->
            #   bishop: N +3 (3 piety) -> vp21. N piety -> piety4; S piety -> piety6
            ("t3_6", 3),  # R6 S: plague 7 flips (4). r3 -> N grain2 (the last grain),
            #   S vp17; favor 3 -> outlaws, queen, prior: S piety7.
            #   S medicine help -> gold5 vp18; N medicine help -> gold12 vp22
        ],
        "plays": {
            "N": [("grain", {}, "favor"), ("building_material", {"item": "stone"}, "privilege"),
                  ("building_project", {"project": "tower", "stone": 1, "wood": 0}, "weaver"),
                  ("rent", {"sites": ["site_01"]}, "donation"), ("piety", {}, "build_house"),
                  ("medicine", {"mode": "help"}, "sell_wool_cloth")],
            "S": [("grain", {}, "favor"), ("building_material", {"item": "wood"}, "privilege"),
                  ("building_project", {"project": "bridge", "stone": 0, "wood": 1}, "weaver"),
                  ("rent", {"sites": ["site_02"]}, "donation"), ("piety", {}, "build_house"),
                  ("medicine", {"mode": "help"}, "sell_wool_cloth")],
        },
        # before the end: N vp22 grain2 piety4 gold12; S vp18 grain8 piety7 gold5
        # E1: Tower stone 1/6 -> 2/6. Tax 2, from S: nobody is short.
        #   S -> vp18 grain6 piety5 gold3; N -> vp22 piety2 gold10
        "tax": 2, "protect": {},
    },
    {   # ---------------------------------------------------------------- chapter IV
        # start: N vp22 piety2 gold10; S vp18 grain6 piety5 gold3. Favor on 2 (prior).
        # Supplies: grain 4, piety 5, stone 20, wood 13. Sick: 9 (3), 2 (1), 11 (5), 5 (2),
        # 7 (4); nobody has medical knowledge, so nobody can cure.
        "rounds": [
            ("t4_1", 2),  # R1 N: plague 9 is already sick. r2 -> N piety3, S gold5;
            #   favor 2 -> prioress: N no MK. N grain -> grain1; S grain -> grain7
            ("t4_2", 0),  # R2 S: plague 1 flips (2). r0 -> N gold12, S piety6
            #   S piety -> piety7; N piety -> piety4
            ("t4_3", 3),  # R3 N: plague 3 flips (1). r3 -> N grain2, S vp19; favor 3 ->
            #   earl: N takes the last grain -> grain3 (Field empty now)
            #   N building material stone -> stone1; S wood -> wood1
            ("t4_4", 1),  # R4 S: plague 4 flips (3). r1 -> N vp23, S grain: Field empty,
            #   1 VP instead -> vp20; favor 1 -> bishop: S +7 (7 piety) -> vp27
            #   S 1 wood on the Tower -> vp30; N 1 stone on the Tower -> vp26
            ("t4_5", 0),  # R5 N: plague 6 flips (4). r0 -> N gold14, S piety8 (the last)
            #   N rent site_01 -> gold16; S medicine help -> gold6 vp31
            ("t4_6", 0),  # R6 S: plague 8 flips (5). r0 -> N gold18, S piety: Cathedral
            #   empty, 1 VP instead -> vp32. S plays Sell Wool & Cloth without effect;
            #   N medicine help -> gold19 vp27
        ],
        "plays": {
            "N": [("grain", {}, "favor"), ("piety", {}, "privilege"),
                  ("building_material", {"item": "stone"}, "weaver"),
                  ("building_project", {"project": "tower", "stone": 1, "wood": 0}, "donation"),
                  ("rent", {"sites": ["site_01"]}, "build_house"),
                  ("medicine", {"mode": "help"}, "sell_wool_cloth")],
            "S": [("grain", {}, "favor"), ("piety", {}, "privilege"),
                  ("building_material", {"item": "wood"}, "weaver"),
                  ("building_project", {"project": "tower", "stone": 0, "wood": 1}, "donation"),
                  ("medicine", {"mode": "help"}, "build_house"),
                  ("sell_wool_cloth", None, "rent")],
        },
        # before the end: N vp27 grain3 piety4 gold19; S vp32 grain7 piety8 gold6
        # E1: Tower stone 3/6 -> 4/6 (not complete: nobody gets the metal).
        # Tax 4, from S: nobody is short, so nothing is doubled.
        #   S -> vp32 gold2; N -> vp27 gold15
        # Final: N 27 + 15/2 = 34.5; S 32 + 2/2 = 33. N wins.
        "tax": 4, "protect": {},
    },
]


def test_two_player_game_to_the_final_score():
    script = Script(copy.deepcopy(TWO), plague={9: 3, 2: 1, 11: 5, 5: 2, 7: 4, 1: 2, 3: 1,
                                                 4: 3, 6: 4, 8: 5})
    s = script.play({"players": [{"seat": "N", "name": "Anna", "colour": "blue"},
                                 {"seat": "S", "name": "Bo", "colour": "red"}],
                     "start_seat": "N", "seed": 1})
    assert script.vp_at_chapter_start == {1: {"N": 8, "S": 8}, 2: {"N": 12, "S": 12},
                                          3: {"N": 13, "S": 13}, 4: {"N": 22, "S": 18}}
    assert res(s, "N") == {"vp": 27, "grain": 1, "piety": 2, "gold": 15}
    assert res(s, "S") == {"vp": 32, "grain": 5, "piety": 6, "gold": 2}
    assert s["projects"]["bridge"]["complete"] and not s["projects"]["tower"]["complete"]
    assert final(s) == {"N": (34.5, 1), "S": (33.0, 2)}


# ================================================================ 3 players: N, E and S
# N starts. Actives per chapter: N E S N E S; after each chapter end the token passes from S
# to N. Corners facing W are collected by nobody. First player in each round list = active.
THREE = [
    {   # ---------------------------------------------------------------- chapter I
        # start: everyone vp8 wool1 gold2. Favor on 0. Wool supply 12.
        "rounds": [
            ("x1_trade", 1),  # R1 N: trade 1 wool for 3 gold, offered N, E, S: N and E
            #   accept (wool0 gold5), S declines. r1 -> N vp9, E gold7, S grain1;
            #   favor 1 -> queen: N has no loyalty, nothing.
            #   N grain -> grain1; E grain -> grain1; S piety -> piety1
            ("x1_mill", 0),  # R2 E: the Fulling Mill (1 stone, 1 wood) comes in.
            #   r0 -> N gold7, E grain2, S piety2. E donates to the mill (gold6),
            #   S donates (gold1), N building material wood -> wood1
            ("t1_1", 2),  # R3 S: r2 -> N piety1, E vp9, S gold3; favor 2 -> guild: S no
            #   houses. S grain -> grain2; N puts wood on the mill (+3) -> vp12 wood0;
            #   E building material stone -> stone1
            ("t1_2", 0),  # R4 N: r0 -> N gold9, E grain3, S piety3. N piety -> piety2;
            #   E puts stone on the mill (+3) -> vp12: the mill is complete, donors E and S
            #   get 1 VP + 1 cloth: E vp13 cloth1, S vp9 cloth1, seals back.
            #   S medicine help -> gold4 vp10
            ("t1_3", 1),  # R5 E: r1 -> N vp13, E gold8, S grain3; favor 1 -> prioress: no
            #   MK. E medicine help -> gold9 vp14; S sells 1 wool -> wool0 gold6 (cloth
            #   cannot be sold in chapter I); N medicine help -> gold10 vp14
            ("t1_4", 3),  # R6 S: r3 -> N grain2, E piety1, S vp11; favor 3 -> earl: S
            #   grain4. S building material stone -> stone1; N plays Sell Wool & Cloth
            #   without effect; E piety -> piety2
        ],
        "trades": {"N": [True], "E": [True], "S": [False]},
        "plays": {
            "N": [("grain", {}, "favor"), ("building_material", {"item": "wood"}, "privilege"),
                  ("building_project", {"project": "fulling_mill", "stone": 0, "wood": 1},
                   "weaver"),
                  ("piety", {}, "donation"), ("medicine", {"mode": "help"}, "rent"),
                  ("sell_wool_cloth", None, "build_house")],
            "E": [("grain", {}, "favor"), ("donation", {"project": "fulling_mill"}, "privilege"),
                  ("building_material", {"item": "stone"}, "weaver"),
                  ("building_project", {"project": "fulling_mill", "stone": 1, "wood": 0},
                   "build_house"),
                  ("medicine", {"mode": "help"}, "rent"), ("piety", {}, "sell_wool_cloth")],
            "S": [("piety", {}, "favor"), ("donation", {"project": "fulling_mill"}, "privilege"),
                  ("grain", {}, "weaver"), ("medicine", {"mode": "help"}, "build_house"),
                  ("sell_wool_cloth", {"wool": 1, "cloth": 0}, "rent"),
                  ("building_material", {"item": "stone"}, "building_project")],
        },
        # before the end: N vp14 grain2 piety2 gold10; E vp14 grain3 piety2 cloth1 gold9;
        # S vp11 stone1 grain4 piety3 cloth1 gold6. E1: bridge +1 stone (1/3).
        # Tax 5, from S: nobody is short. N vp14 gold5; E vp14 grain1 cloth1 gold4;
        # S vp11 stone1 grain2 piety1 cloth1 gold1. The cloth space opens.
        "tax": 5, "protect": {},
    },
    {   # ---------------------------------------------------------------- chapter II
        # Supplies: grain 7, piety 11, stone 22, wood 14. Favor on 7 (earl).
        "rounds": [
            ("x2_loyal", 1),  # R1 N: everyone gains 1 loyalty. r1 -> N vp15, E gold6,
            #   S grain3; favor 1 -> bishop: N has no piety, 0 VP.
            #   N grain -> grain1; E sells the cloth (4) -> gold10; S sells the cloth -> gold5
            ("x2_chapel", 3),  # R2 E: the Lady Chapel (2 stone, 1 wood) comes in.
            #   r3 -> N grain2, E piety1, S vp12; favor 3 -> outlaws, queen, prior: E piety2.
            #   E donates to the chapel (gold9); S puts her stone on it (+3) -> vp15 stone0;
            #   N donates (gold4)
            ("t2_1", 0),  # R3 S: r0 -> N gold6, E grain2, S piety2. S building material
            #   stone -> stone1; N wood -> wood1; E stone -> stone1
            ("t2_2", 1),  # R4 N: r1 -> N vp16, E gold11, S grain4; favor 1 -> guild: N no
            #   houses. N puts wood on the chapel (+3) -> vp19; E puts stone on it (+3) ->
            #   vp17: complete, donors N and E get 2 VP: N vp21, E vp19.
            #   S builds on site_10 (stone, rent 1 grain) -> stone0 gold4
            ("t2_3", 3),  # R5 E: r3 -> N grain3, E piety3, S vp16; favor 3 -> king: E has
            #   1 loyalty -> vp20. E medicine help -> gold12 vp21; S rent site_10 -> grain5
            #   (the last grain); N plays Sell Wool & Cloth without effect
            ("t2_4", 0),  # R6 S: r0 -> N gold8, E grain: Field empty, 1 VP instead ->
            #   vp22, S piety3. S plays Grain without effect (Field empty);
            #   N medicine help -> gold9 vp22; E piety -> piety4
        ],
        "plays": {
            "N": [("grain", {}, "favor"), ("donation", {"project": "lady_chapel"}, "privilege"),
                  ("building_material", {"item": "wood"}, "weaver"),
                  ("building_project", {"project": "lady_chapel", "stone": 0, "wood": 1},
                   "rent"),
                  ("sell_wool_cloth", None, "build_house"),
                  ("medicine", {"mode": "help"}, "piety")],
            "E": [("sell_wool_cloth", {"wool": 0, "cloth": 1}, "favor"),
                  ("donation", {"project": "lady_chapel"}, "privilege"),
                  ("building_material", {"item": "stone"}, "weaver"),
                  ("building_project", {"project": "lady_chapel", "stone": 1, "wood": 0},
                   "rent"),
                  ("medicine", {"mode": "help"}, "build_house"), ("piety", {}, "grain")],
            "S": [("sell_wool_cloth", {"wool": 0, "cloth": 1}, "favor"),
                  ("building_project", {"project": "lady_chapel", "stone": 1, "wood": 0},
                   "privilege"),
                  ("building_material", {"item": "stone"}, "weaver"),
                  ("build_house", {"site": "site_10"}, "donation"),
                  ("rent", {"sites": ["site_10"]}, "medicine"), ("grain", None, "piety")],
        },
        # before the end: N vp22 grain3 loyalty1 gold9; E vp22 grain2 piety4 loyalty1
        # gold12; S vp16 grain5 piety3 loyalty1 gold4. E1: bridge stone 2/3.
        # Tax 5, from S:
        #   S: 2 piety, 2 grain, 4 gold (1 short: -1 VP, Royal Court) -> vp15 grain3 piety1
        #   N: no piety (2 short: -6 VP, Penance), 2 grain, 5 gold -> vp16 grain1 gold4
        #   E: pays everything -> vp22 piety2 gold7
        # Protection (S, then N): S keeps her loyalty (Royal Court stays); N pays 1 loyalty
        # to cancel Penance. Then the Tower and the plague tokens come in.
        "tax": 5, "protect": {"S": [], "N": ["penance"]},
    },
    {   # ---------------------------------------------------------------- chapter III
        # start: N vp16 grain1 gold4; E vp22 piety2 loyalty1 gold7; S vp15 grain3 piety1
        # loyalty1 houses site_10 (Royal Court in round 1). Supplies: grain 6, piety 9,
        # stone 20, wood 13. Favor on 6 (king).
        "rounds": [
            ("x3_mk", 2),  # R1 N: plague 10 flips (value 2); everyone gains 2 MK.
            #   r2 -> N piety1, E vp23, S gold2; favor 2 -> bishop: N 1 piety -> vp17.
            #   N Medicine cures house 10 (2 <= 2 MK): +2 VP + 3 VP reward -> vp22;
            #   E grain -> grain1; S plays Grain at the Royal Court: not performed
            ("x3_hospital", 0),  # R2 E: house 10 is already cured: nothing. The Hospital
            #   (1 stone, 1 wood, donors cure) comes in. r0 -> N gold6, E grain2, S piety2.
            #   E donates to it (gold6), S donates (gold1), N building material stone
            ("t3_1", 1),  # R3 S: plague 9 flips (2). r1 -> N vp23, E gold8, S grain4;
            #   favor 1 -> outlaws: S pays her last gold (gold0).
            #   S building material wood -> wood1; N puts stone on the Hospital (+3) ->
            #   vp26; E building material wood -> wood1
            ("t3_2", 0),  # R4 N: plague 2 flips (1). r0 -> N gold8, E grain3, S piety3.
            #   N grain -> grain2. E puts wood on the Hospital (+3) -> vp26: complete; the
            #   donors E, S each cure one resident: E cures house 9 (2 VP) and places a free
            #   house on site_07 -> vp28; S cures house 2 (2 VP + 1 VP) -> vp18.
            #   S medicine help -> gold1 vp19
            ("t3_3", 2),  # R5 E: house 2 is cured: nothing. r2 -> N piety2, E vp29, S gold3;
            #   favor 2 -> prior: E piety3. E rent site_07 -> gold9; S builds on site_05
            #   (wood, rent 1 wool) -> wood0 gold2; N piety -> piety3
            ("t3_4", 3),  # R6 S: plague 11 flips (5). r3 -> N grain3 (the last), E piety4,
            #   S vp20; favor 3 -> merchants: S wool1. S piety -> piety4;
            #   N plays Sell Wool & Cloth without effect; E medicine help -> gold10 vp30
        ],
        "cure": {"E": [9], "S": [2]},
        "place_free_house": {"E": ["site_07"]},
        "plays": {
            "N": [("medicine", {"mode": "cure", "locations": [10]}, "favor"),
                  ("building_material", {"item": "stone"}, "privilege"),
                  ("building_project", {"project": "hospital", "stone": 1, "wood": 0},
                   "weaver"),
                  ("grain", {}, "donation"), ("piety", {}, "build_house"),
                  ("sell_wool_cloth", None, "rent")],
            "E": [("grain", {}, "favor"), ("donation", {"project": "hospital"}, "privilege"),
                  ("building_material", {"item": "wood"}, "weaver"),
                  ("building_project", {"project": "hospital", "stone": 0, "wood": 1},
                   "sell_wool_cloth"),
                  ("rent", {"sites": ["site_07"]}, "build_house"),
                  ("medicine", {"mode": "help"}, "piety")],
            "S": [("grain", {}, "favor"), ("donation", {"project": "hospital"}, "privilege"),
                  ("building_material", {"item": "wood"}, "weaver"),
                  ("medicine", {"mode": "help"}, "sell_wool_cloth"),
                  ("build_house", {"site": "site_05"}, "rent"),
                  ("piety", {}, "building_project")],
        },
        # before the end: N vp26 grain3 piety3 mk2 gold8; E vp30 grain3 piety4 loyalty1
        # mk2 gold10; S vp20 grain4 piety4 wool1 loyalty1 mk2 gold2.
        # E1: bridge stone 3/3, Tower stone 1/6. Tax 4, from S:
        #   S: 2 gold short (-2 VP, Royal Court) -> vp18 grain2 piety2 wool1; she pays her
        #   loyalty to cancel the Royal Court. N -> vp26 grain1 piety1 gold4;
        #   E -> vp30 grain1 piety2 gold6
        "tax": 4, "protect": {"S": ["royal_court"]},
    },
    {   # ---------------------------------------------------------------- chapter IV
        # Supplies: grain 6, piety 7, stone 17, wood 12. Favor on 5 (merchants).
        "rounds": [
            ("x4_tower", 1),  # R1 N: "Merthin": the Tower fills up from the supply (5 stone,
            #   2 wood). Spire: loyalty N 0, E 1, S 0 -> E gets the metal and 3 VP -> vp33.
            #   r1 -> N vp27, E gold8, S grain3; favor 1 -> king: N no loyalty.
            #   N grain -> grain2; E grain -> grain2; S grain -> grain4
            ("x4_tax", 2),  # R2 E: the others (S, N) lose 2 gold: N gold2, S has none.
            #   r2 -> N piety2, E vp34, S gold2; favor 2 -> bishop: E 2 piety -> vp36.
            #   E piety -> piety3; S piety -> piety3; N piety -> piety3
            ("t4_1", 0),  # R3 S: house 9 is cured: nothing. r0 -> N gold4, E grain3,
            #   S piety4. S sells 1 wool -> wool0 gold4; N medicine help -> gold5 vp28;
            #   E medicine help -> gold9 vp37
            ("t4_2", 3),  # R4 N: plague 1 flips (4). r3 -> N grain3 (the last), E piety4,
            #   S vp19; favor 3 -> prior: N piety4 (the last). N building material stone
            #   -> stone1; E rent site_07 -> gold10; S rent site_05 -> wool1
            ("t4_3", 1),  # R5 E: plague 3 flips (1). r1 -> N vp29, E gold12, S grain: Field
            #   empty, 1 VP instead -> vp20; favor 1 -> guild: E 1 house -> vp38.
            #   E building material wood -> wood1; S Medicine cures house 3 (1 <= 2 MK):
            #   +2 VP + 1 loyalty -> vp22; N plays Sell Wool & Cloth without effect
            ("t4_4", 0),  # R6 S: plague 4 flips (3). r0 -> N gold7, E grain: empty, 1 VP
            #   -> vp39, S piety: empty, 1 VP -> vp23. S building material stone -> stone1;
            #   N plays Rent without effect (no houses); E puts wood on the bridge -> vp42
        ],
        "plays": {
            "N": [("grain", {}, "favor"), ("piety", {}, "privilege"),
                  ("medicine", {"mode": "help"}, "weaver"),
                  ("building_material", {"item": "stone"}, "donation"),
                  ("sell_wool_cloth", None, "build_house"),
                  ("rent", None, "building_project")],
            "E": [("grain", {}, "favor"), ("piety", {}, "privilege"),
                  ("medicine", {"mode": "help"}, "weaver"),
                  ("rent", {"sites": ["site_07"]}, "donation"),
                  ("building_material", {"item": "wood"}, "build_house"),
                  ("building_project", {"project": "bridge", "stone": 0, "wood": 1},
                   "sell_wool_cloth")],
            "S": [("grain", {}, "favor"), ("piety", {}, "privilege"),
                  ("sell_wool_cloth", {"wool": 1, "cloth": 0}, "weaver"),
                  ("rent", {"sites": ["site_05"]}, "donation"),
                  ("medicine", {"mode": "cure", "locations": [3]}, "build_house"),
                  ("building_material", {"item": "stone"}, "building_project")],
        },
        # before the end: N vp29 stone1 grain3 piety4 mk2 gold7; E vp42 grain3 piety4
        # loyalty1 mk2 gold12; S vp23 stone1 grain4 piety4 wool1 loyalty1 mk2 gold4.
        # E1: the bridge gets its last wood and is complete (no donors).
        # Tax 5, doubled losses after chapter IV, from S:
        #   S: 1 gold short: doubled 2 VP, but she pays 1 loyalty -> only 1 VP -> vp22
        #   N -> vp29 stone1 gold2; E -> vp42 gold7
        # Final: N 29 + 1 stone + 2/2 = 31; E 42 + 7/2 = 45.5; S 22 + 1 stone = 23.
        "tax": 5, "protect": {"S": ["gold"]},
    },
]


def test_three_player_game_to_the_final_score():
    script = Script(copy.deepcopy(THREE), plague={10: 2, 9: 2, 2: 1, 11: 5, 1: 4, 3: 1, 4: 3})
    s = script.play({"players": [{"seat": "N", "name": "Anna", "colour": "blue"},
                                 {"seat": "E", "name": "Bo", "colour": "red"},
                                 {"seat": "S", "name": "Cy", "colour": "green"}],
                     "start_seat": "N", "seed": 3})
    assert script.vp_at_chapter_start == {
        1: {"N": 8, "E": 8, "S": 8}, 2: {"N": 14, "E": 14, "S": 11},
        3: {"N": 16, "E": 22, "S": 15}, 4: {"N": 26, "E": 30, "S": 18}}
    assert res(s, "N") == {"vp": 29, "stone": 1, "grain": 1, "piety": 2, "mk": 2, "gold": 2}
    assert res(s, "E") == {"vp": 42, "grain": 1, "piety": 2, "loyalty": 1, "mk": 2, "gold": 7}
    assert res(s, "S") == {"vp": 22, "stone": 1, "grain": 2, "piety": 2, "wool": 1, "mk": 2}
    assert s["projects"]["tower"]["spire"] == "E"
    assert all(p["complete"] for p in s["projects"].values())
    assert sorted(s["players"]["E"]["houses"]) == ["site_07"]
    assert final(s) == {"E": (45.5, 1), "N": (31.0, 2), "S": (23.0, 3)}


# ================================================================ 4 players, first game
# First-game variant: chapter I with the 6 starred action cards (grain, piety, building
# material, building project, sell, privilege), no discards; 12-card mode from chapter II.
# N starts. Actives: chapter I N E S W N E, then the token passes E -> S: chapter II
# S W N E S W, then N: chapter III N E S W N E, then S: chapter IV S W N E S W.
NO = None  # a card played without performing it
FOUR = [
    {   # ---------------------------------------------------------------- chapter I
        # start: everyone vp8 wool1 gold2. Favor on 0. Supplies grain 10, piety 12.
        "rounds": [
            ("t1_1", 0),  # R1 N: r0 -> N gold4, E grain1, S piety1, W vp9.
            #   N grain -> grain1; E grain -> grain2; S piety -> piety2; W sells 1 wool ->
            #   wool0 gold4
            ("t1_2", 1),  # R2 E: r1 -> N vp9, E gold4, S grain1, W piety1; favor 1 ->
            #   queen: no loyalty. E Privilege repeats Grain -> grain3; S grain -> grain2;
            #   W piety -> piety2; N piety -> piety1
            ("t1_3", 2),  # R3 S: r2 -> N piety2, E vp9, S gold4, W grain1; favor 2 -> guild:
            #   no houses. S Privilege repeats Grain -> grain3; W grain -> grain2;
            #   N building material stone; E building material wood
            ("t1_4", 3),  # R4 W: r3 -> N grain2 (the last grain), E piety1, S vp9, W gold6;
            #   favor 3 -> king: no loyalty. W building material stone; N stone on the
            #   bridge (+3) -> vp12; E wood on the bridge -> vp12; S building material wood
            ("t1_5", 0),  # R5 N: r0 -> N gold6, E grain: Field empty, 1 VP -> vp13,
            #   S piety3, W vp10. N sells 1 wool -> wool0 gold8; E piety -> piety2;
            #   S wood on the bridge -> vp12 (wood 2/2); W stone on the bridge -> vp13
            ("t1_6", 1),  # R6 E: r1 -> N vp13, E gold6, S grain: empty, 1 VP -> vp13,
            #   W piety3; favor 1 -> earl: Field empty, nothing. E sells 1 wool -> gold8;
            #   S sells 1 wool -> gold6; W and N play Privilege without effect
        ],
        "plays": {
            "N": [("grain", {}, NO), ("piety", {}, NO),
                  ("building_material", {"item": "stone"}, NO),
                  ("building_project", {"project": "bridge", "stone": 1, "wood": 0}, NO),
                  ("sell_wool_cloth", {"wool": 1, "cloth": 0}, NO), ("privilege", NO, NO)],
            "E": [("grain", {}, NO), ("privilege", {}, NO),
                  ("building_material", {"item": "wood"}, NO),
                  ("building_project", {"project": "bridge", "stone": 0, "wood": 1}, NO),
                  ("piety", {}, NO), ("sell_wool_cloth", {"wool": 1, "cloth": 0}, NO)],
            "S": [("piety", {}, NO), ("grain", {}, NO), ("privilege", {}, NO),
                  ("building_material", {"item": "wood"}, NO),
                  ("building_project", {"project": "bridge", "stone": 0, "wood": 1}, NO),
                  ("sell_wool_cloth", {"wool": 1, "cloth": 0}, NO)],
            "W": [("sell_wool_cloth", {"wool": 1, "cloth": 0}, NO), ("piety", {}, NO),
                  ("grain", {}, NO), ("building_material", {"item": "stone"}, NO),
                  ("building_project", {"project": "bridge", "stone": 1, "wood": 0}, NO),
                  ("privilege", NO, NO)],
        },
        # before the end: N vp13 grain2 piety2 gold8; E vp13 grain3 piety2 gold8;
        # S vp13 grain3 piety3 gold6; W vp13 grain2 piety3 gold6.
        # E1: bridge stone 2/3 -> 3/3: complete (no donors). Tax 3, from E: nobody short.
        #   E -> grain1 gold5; S -> grain1 piety1 gold3; W -> piety1 gold3; N -> gold5
        # The token passes to S; everyone takes all 12 cards from now on.
        "tax": 3, "protect": {},
    },
    {   # ---------------------------------------------------------------- chapter II
        # Supplies: grain 8, piety 10, stone 22, wood 13, wool 15, cloth 12. Favor on 7.
        "rounds": [
            ("y2_fair", 2),  # R1 S: permanent: Sell Wool & Cloth gives 1 extra gold.
            #   r2 -> N piety1, E vp14, S gold5, W grain1; favor 2 -> outlaws: S pays 1
            #   gold -> gold4. S grain -> grain2; W, N, E building material (W wood,
            #   N stone, E wood)
            ("y2_cover", 3),  # R2 W: the Prior space is covered; everyone gains 2 wool.
            #   r3 -> N grain1, E piety1, S vp14, W gold5; favor 3 from outlaws: queen,
            #   (prior skipped), guild, prioress: W has no MK.
            #   W Weaver 2 wool -> cloth2; N builds on site_01 (stone, rent 2 gold) ->
            #   gold4; E builds on site_03 (wood, rent 2 gold) -> gold4;
            #   S sells 2 wool: 4 + 1 extra -> gold9
            ("t2_1", 1),  # R3 N: r1 -> N vp14, E gold6, S grain3, W piety2; favor 1 ->
            #   merchants: N wool3. N sells 3 wool: 6 + 1 -> gold11; E sells 2 wool: 4 + 1
            #   -> gold11; S plays Favor: 1 step -> king: no loyalty, 0 VP;
            #   W sells 1 cloth: 4 + 1 -> gold10
            ("t2_2", 0),  # R4 E: r0 -> N gold13, E grain2, S piety2, W vp14.
            #   E rent site_03 -> gold13; S building material stone; W builds on site_05
            #   (wood, rent 1 wool) -> gold9; N rent site_01 -> gold15
            ("t2_3", 3),  # R5 S: r3 -> N grain2, E piety2, S vp15, W gold11; favor 3 ->
            #   earl, bishop, outlaws: S pays 1 -> gold8. S builds on site_04 (stone, rent
            #   1 piety) -> gold7; W rent site_05 -> wool1; N grain -> grain3;
            #   E piety -> piety3
            ("t2_4", 0),  # R6 W: r0 -> N gold17, E grain3 (the last), S piety3, W vp15.
            #   W piety -> piety3; N piety -> piety2; E Grain without effect (empty);
            #   S piety -> piety4 (the last)
        ],
        "plays": {
            "S": [("grain", {}, "rent"), ("sell_wool_cloth", {"wool": 2, "cloth": 0}, "weaver"),
                  ("favor", {}, "donation"), ("building_material", {"item": "stone"},
                                              "medicine"),
                  ("build_house", {"site": "site_04"}, "privilege"),
                  ("piety", {}, "building_project")],
            "W": [("building_material", {"item": "wood"}, "privilege"),
                  ("weaver", {"wool": 2}, "favor"),
                  ("sell_wool_cloth", {"wool": 0, "cloth": 1}, "donation"),
                  ("build_house", {"site": "site_05"}, "medicine"),
                  ("rent", {"sites": ["site_05"]}, "grain"), ("piety", {}, "building_project")],
            "N": [("building_material", {"item": "stone"}, "privilege"),
                  ("build_house", {"site": "site_01"}, "weaver"),
                  ("sell_wool_cloth", {"wool": 3, "cloth": 0}, "donation"),
                  ("rent", {"sites": ["site_01"]}, "medicine"), ("grain", {}, "favor"),
                  ("piety", {}, "building_project")],
            "E": [("building_material", {"item": "wood"}, "privilege"),
                  ("build_house", {"site": "site_03"}, "weaver"),
                  ("sell_wool_cloth", {"wool": 2, "cloth": 0}, "donation"),
                  ("rent", {"sites": ["site_03"]}, "medicine"), ("piety", {}, "favor"),
                  ("grain", NO, "building_project")],
        },
        # before the end: N vp14 grain3 piety2 gold17; E vp14 grain3 piety3 gold13;
        # S vp15 grain3 piety4 gold7; W vp15 grain1 piety3 wool1 cloth1 gold11.
        # Tax 5, from W: W 1 grain short (-2 VP, Begging) -> vp13 piety1 wool1 cloth1
        # gold6; N -> grain1 gold12; E -> grain1 piety1 gold8; S -> grain1 piety2 gold2.
        # The Tower and the plague tokens come in; the token passes to N.
        "tax": 5, "protect": {},
    },
    {   # ---------------------------------------------------------------- chapter III
        # Supplies: grain 7, piety 8, stone 22, wood 13. Favor on 0.
        "rounds": [
            ("y3_price", 0),  # R1 N: plague 10 flips (4). Permanent: wool sells for 3.
            #   r0 -> N gold14, E grain2, S piety3, W VP lost (Begging).
            #   N, E, S building material stone; W sells 1 wool at 3 -> gold9
            ("y3_accuse", 1),  # R2 E: house 10 is already sick. The active player (E)
            #   loses this round's action. r1 -> N vp15, E gold10, S grain2, W piety2;
            #   favor 1 -> queen: no loyalty. E plays Building Project: not performed;
            #   S stone on the Tower -> vp18; W building material wood; N stone on the
            #   Tower -> vp18
            ("t3_1", 2),  # R3 S: plague 9 flips (5). r2 -> N piety1, E vp15, S gold4,
            #   W grain1; favor 2 -> guild: S 1 house -> vp19. S grain -> grain3;
            #   W wood on the Tower -> vp16; N grain -> grain2; E Privilege repeats the
            #   unperformed Building Project: stone on the Tower -> vp18
            ("t3_2", 3),  # R4 W: plague 2 flips (3). r3 -> N grain3, E piety2, S vp20,
            #   W gold11; favor 3 -> king: no loyalty. W, N, E piety (W3, N2, E3);
            #   S rent site_04 -> the last piety -> piety4
            ("t3_3", 1),  # R5 N: house 2 is already sick. r1 -> N vp19, E gold12, S grain4
            #   (the last), W piety: Cathedral empty, 1 VP -> vp17; favor 1 -> earl: Field
            #   empty, nothing. N rent site_01 -> gold16; E medicine help -> gold13 vp19;
            #   S medicine help -> gold5 vp21; W rent site_05 -> wool1
            ("t3_4", 0),  # R6 E: plague 11 flips (1). r0 -> N gold18, E grain: empty, 1 VP
            #   -> vp20, S piety: empty, 1 VP -> vp22, W vp18. Everyone plays a card
            #   without effect (E sell, S piety, W grain, N sell)
        ],
        "plays": {
            "N": [("building_material", {"item": "stone"}, "favor"),
                  ("building_project", {"project": "tower", "stone": 1, "wood": 0},
                   "privilege"),
                  ("grain", {}, "weaver"), ("piety", {}, "donation"),
                  ("rent", {"sites": ["site_01"]}, "medicine"),
                  ("sell_wool_cloth", NO, "build_house")],
            "E": [("building_material", {"item": "stone"}, "favor"),
                  ("building_project", {"project": "tower", "stone": 1, "wood": 0}, "rent"),
                  ("privilege", {"project": "tower", "stone": 1, "wood": 0}, "weaver"),
                  ("piety", {}, "donation"), ("medicine", {"mode": "help"}, "grain"),
                  ("sell_wool_cloth", NO, "build_house")],
            "S": [("building_material", {"item": "stone"}, "favor"),
                  ("building_project", {"project": "tower", "stone": 1, "wood": 0},
                   "privilege"),
                  ("grain", {}, "weaver"), ("rent", {"sites": ["site_04"]}, "donation"),
                  ("medicine", {"mode": "help"}, "sell_wool_cloth"), ("piety", NO, "build_house")],
            "W": [("sell_wool_cloth", {"wool": 1, "cloth": 0}, "favor"),
                  ("building_material", {"item": "wood"}, "privilege"),
                  ("building_project", {"project": "tower", "stone": 0, "wood": 1}, "weaver"),
                  ("piety", {}, "donation"), ("rent", {"sites": ["site_05"]}, "medicine"),
                  ("grain", NO, "build_house")],
        },
        # before the end: N vp19 grain3 piety2 gold18; E vp20 grain2 piety3 gold13;
        # S vp22 grain4 piety4 gold5; W vp18 grain1 piety3 wool1 cloth1 gold11.
        # Tower stone 3/6, wood 1/2. E1: Tower stone 4/6. Tax 2, from E:
        #   E -> piety1 gold11; S -> grain2 piety2 gold3; W 1 grain short (-2 VP,
        #   Begging) -> vp16 piety1 gold9; N -> grain1 gold16. The token passes to S.
        "tax": 2, "protect": {},
    },
    {   # ---------------------------------------------------------------- chapter IV
        # Supplies: grain 7, piety 8, stone 18, wood 12. Favor on 7 (earl). Nobody has
        # loyalty or medical knowledge (so nobody cures).
        "rounds": [
            ("y4_houses", 1),  # R1 S: house 10 is already sick. Every house goes back to
            #   its owner's reserve. r1 -> N vp20, E gold13, S grain3, W income lost
            #   (Begging); favor 1 -> bishop: S 2 piety -> vp24.
            #   S, N building material stone; W building material wood; E grain -> grain1
            ("y4_wood", 2),  # R2 W: permanent: once per round, 1 gold for 1 wood.
            #   r2 -> N piety1, E vp21, S gold5, W grain1; favor 2 -> outlaws, queen: no
            #   loyalty. W trades (gold8 wood2) and puts 1 wood on the Tower -> vp19;
            #   N stone on the Tower -> vp23; E piety -> piety2; S puts the last stone
            #   on the Tower -> vp27: complete. Spire: everybody has 0 loyalty, a tie
            #   metal placed, every player +1 -> N24 E22 S28 W20
            ("t4_1", 0),  # R3 N: house 9 is sick already. r0 -> N gold18, E grain2,
            #   S piety3, W vp21. N grain -> grain2; E medicine help -> gold14 vp23;
            #   S piety -> piety4; W trades (gold7 wood2) and builds on site_05 again ->
            #   wood1 gold6
            ("t4_2", 3),  # R4 E: plague 1 flips (2). r3 -> N grain3, E piety3, S vp29,
            #   W gold8; favor 3 -> prior, guild, prioress: E has no MK.
            #   E building material wood -> wood1; S grain -> grain4 (the last);
            #   W rent site_05 -> wool2; N piety -> piety2
            ("t4_3", 0),  # R5 S: plague 3 flips (5). r0 -> N gold20, E grain: empty, 1 VP
            #   -> vp24, S piety5, W vp22. S medicine help -> gold6 vp30;
            #   W sells 2 wool and 1 cloth at 2 and 4 -> gold16; N medicine help -> gold21
            #   vp25; E trades (gold13 wood2) and builds on site_03 again -> wood1 gold12
            ("t4_4", 1),  # R6 W: plague 4 flips (3). r1 -> N vp26, E gold14, S grain:
            #   empty, 1 VP -> vp31, W piety2 (the last); favor 1 -> merchants: W wool1.
            #   Everyone plays a card without effect (W grain, N sell, E sell, S sell)
        ],
        "plays": {
            "S": [("building_material", {"item": "stone"}, "favor"),
                  ("building_project", {"project": "tower", "stone": 1, "wood": 0},
                   "privilege"),
                  ("piety", {}, "weaver"), ("grain", {}, "donation"),
                  ("medicine", {"mode": "help"}, "rent"), ("sell_wool_cloth", NO, "build_house")],
            "W": [("building_material", {"item": "wood"}, "favor"),
                  ("trade", "y4_wood", NO),
                  ("building_project", {"project": "tower", "stone": 0, "wood": 1},
                   "privilege"),
                  ("trade", "y4_wood", NO),
                  ("build_house", {"site": "site_05"}, "weaver"),
                  ("rent", {"sites": ["site_05"]}, "donation"),
                  ("sell_wool_cloth", {"wool": 2, "cloth": 1}, "medicine"),
                  ("grain", NO, "piety")],
            "N": [("building_material", {"item": "stone"}, "favor"),
                  ("building_project", {"project": "tower", "stone": 1, "wood": 0},
                   "privilege"),
                  ("grain", {}, "weaver"), ("piety", {}, "donation"),
                  ("medicine", {"mode": "help"}, "rent"), ("sell_wool_cloth", NO, "build_house")],
            "E": [("grain", {}, "favor"), ("piety", {}, "privilege"),
                  ("medicine", {"mode": "help"}, "weaver"),
                  ("building_material", {"item": "wood"}, "donation"),
                  ("trade", "y4_wood", NO),
                  ("build_house", {"site": "site_03"}, "rent"),
                  ("sell_wool_cloth", NO, "building_project")],
        },
        # before the end: N vp26 grain3 piety2 gold21; E vp24 wood1 grain2 piety3 gold14;
        # S vp31 grain4 piety5 gold6; W vp22 wood1 grain1 piety2 wool1 gold16.
        # Tax 4, doubled losses, from W: W 1 grain short: 2 x 2 = -4 -> vp18 wood1 wool1
        # gold12 (no loyalty to avoid the doubling); N -> grain1 gold17;
        # E -> wood1 piety1 gold10; S -> grain2 piety3 gold2.
        # Final: N 26 + 17/2 = 34.5; S 31 + 2/2 = 32; E 24 + 1 wood + 10/2 = 30;
        # W 18 + 1 wood + 12/2 = 25.
        "tax": 4, "protect": {},
    },
]


def test_four_player_first_game_to_the_final_score():
    script = Script(copy.deepcopy(FOUR), plague={10: 4, 9: 5, 2: 3, 11: 1, 1: 2, 3: 5, 4: 3})
    s = script.play({"players": [{"seat": seat, "name": f"Player {seat}", "colour": colour}
                                 for seat, colour in zip("NESW", ["blue", "red", "green",
                                                                  "yellow"], strict=True)],
                     "start_seat": "N", "seed": 4, "first_game": True})
    assert script.vp_at_chapter_start == {
        1: {"N": 8, "E": 8, "S": 8, "W": 8}, 2: {"N": 13, "E": 13, "S": 13, "W": 13},
        3: {"N": 14, "E": 14, "S": 15, "W": 13}, 4: {"N": 19, "E": 20, "S": 22, "W": 16}}
    assert res(s, "N") == {"vp": 26, "grain": 1, "gold": 17}
    assert res(s, "E") == {"vp": 24, "wood": 1, "piety": 1, "gold": 10}
    assert res(s, "S") == {"vp": 31, "grain": 2, "piety": 3, "gold": 2}
    assert res(s, "W") == {"vp": 18, "wood": 1, "wool": 1, "gold": 12}
    assert s["projects"]["tower"]["spire"] == "tie"
    assert {seat: sorted(p["houses"]) for seat, p in s["players"].items()} == {
        "N": [], "E": ["site_03"], "S": [], "W": ["site_05"]}
    assert final(s) == {"N": (34.5, 1), "S": (32.0, 2), "E": (30.0, 3), "W": (25.0, 4)}
if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__, "-q"])
