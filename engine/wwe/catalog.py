"""Validator of the World Without End catalog (the printed facts of cards and board).

Pure: it takes the catalog dict (one key per data file: ``game``, ``action_cards``,
``event_cards``, ``projects``, ``building_sites``, ``plague``) and returns a list of
problems, each ``{"file", "entry", "field", "code", "params", "reason"}``. ``code`` is a
stable key (translatable with ``params``), ``reason`` the same in English. It checks the
schema (types, enums, required fields, unique ids, references between files), the facts
the rulebooks state (world-without-end.md §1, §2, §6, §7) and the name translations.
The file format is documented in docs/catalog.md.
"""
from __future__ import annotations

import re
from functools import partial
from typing import Any

from engine.api import catalog_problem

PARTS = ("game", "action_cards", "event_cards", "projects", "building_sites", "plague")
LANGS_REQUIRED = ("en", "it", "pl", "es")
LANGS = (*LANGS_REQUIRED, "de")
SEATS = ["N", "E", "S", "W"]
ITEMS = ("stone", "wood", "grain", "piety", "metal", "wool", "cloth", "loyalty", "mk", "gold")
GAIN_ITEMS = (*ITEMS, "vp")  # what an effect, rent or reward may hand out or take
CORNER_ITEMS = ("stone", "wood", "grain", "piety", "wool", "loyalty", "mk", "gold1", "gold2",
                "vp")
ACTION_CARDS = ("grain", "piety", "building_material", "building_project", "sell_wool_cloth",
                "privilege", "build_house", "rent", "donation", "weaver", "medicine", "favor")
FAVOR_SPACES = ("outlaws", "queen", "prior", "guild", "prioress", "merchants", "king", "earl",
                "bishop")
NAMED_PROJECTS = ("bridge", "tower", "fulling_mill", "lady_chapel", "hospital", "prior_house")
MARKET_SPACES = ("wool", "cloth")
WHO = ("all", "active", "others", "chosen")
RETURN_SCOPES = ("all", "one_per_player", "chosen")
COVER_TARGETS = ("favor", "market", "project")
COLOURS = ("blue", "red", "green", "yellow")

# Facts stated by the rulebooks (world-without-end.md §1.2, §1.4, §1.6, §2, §6.1, §7).
FACT_SUPPLIES = {"stone": 25, "wood": 15, "grain": 10, "piety": 12, "metal": 1}
FACT_START = {"vp": 8, "wool": 1, "gold": 2}
FORMS = ("of",)  # the grammatical forms a favor space's name may be given in (game.forms)
FACT_GAME = {"cover_tiles": 5, "chapters": 4, "rounds": 6, "pile_size": 11,
             "houses_per_player": 4, "seals_per_player": 2}
FACT_MARKET = {"wool": 2, "cloth": 4, "cloth_max": 1}
TAX_RANGE = (2, 5)
SITES = 14
PLAGUE_LOCATIONS = 11
PROJECTS_TOTAL = 7
EVENTS_PER_CHAPTER = 6
STARRED_PER_CHAPTER = 6
MAX_PERMANENT_STARRED = 3
MAX_TRADE_TIMES = 10  # a trade offer's "times": how often one player may exchange at once

ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
COMMON = ("id", "names", "demo", "demo_fields", "note")

REASONS = {
    "not_object": "must be a JSON object",
    "not_list": "must be a JSON list",
    "missing_part": "the catalog has no {part} part (file {path})",
    "missing_field": "required field is missing",
    "unknown_field": "unknown field (a typo?)",
    "wrong_type": "must be {expected}",
    "bad_value": "must be one of: {allowed}",
    "out_of_range": "must be between {min} and {max}",
    "bad_id": "id must be snake_case text (a-z, 0-9, _)",
    "duplicate_id": "the id {id} is used more than once",
    "unknown_reference": "refers to {kind} {ref}, which does not exist",
    "missing_language": "the name has no {lang} translation",
    "unknown_language": "unknown language {lang} (known: en, it, pl, es, de)",
    "empty_text": "text must not be empty",
    "rule_fact": "the rulebooks state {expected} (found {found})",
    "count": "there must be {expected} (found {found})",
    "too_few_events": "chapter {chapter} needs at least {min} event cards (found {found})",
    "starred_count": "chapter {chapter} needs exactly {expected} starred cards (found {found})",
    "too_many_permanent": ("the starred cards of chapter {chapter} hold {found} permanent events"
                           " (at most {max})"),
    "plague_chapter": "only chapter III and IV cards carry a plague number",
    "plague_missing": "chapter III and IV cards must carry a plague number 1-11",
    "bad_effect": "unknown effect type {type}",
    "bad_demo_field": "demo_fields names {name}, which is not a field of this entry",
    "demo_flag": "an entry with demo_fields must have \"demo\": true",
    "not_event_project": "project {ref} is not brought in by an event (at start or after a "
                         "chapter)",
    "empty_effect": "card_modifier needs at least one of bonus, cost, disabled",
    "empty_modifier": "{type} needs at least one of: {fields}",
    "permanent_only": "{type} changes later event cards, so only a permanent card may carry it",
    "mk_never_lost": "medical knowledge is never lost (R7.8)",
    "duplicate_project_intro": "project {ref} is also brought in by {other}",
}


problem = partial(catalog_problem, REASONS)  # (file, entry, field, code, **params)


class _Checker:
    """Collects problems for one file while walking its entries."""

    def __init__(self, file: str, out: list[dict]) -> None:
        self.file = file
        self.out = out

    def add(self, entry: Any, field: str | None, code: str, **params: Any) -> None:
        self.out.append(problem(self.file, entry, field, code, **params))

    # -- primitive checks, each returning whether the value was fine --
    def is_int(self, entry, field, value, lo=None, hi=None, *, nullable=False) -> bool:
        if value is None and nullable:
            return True
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(entry, field, "wrong_type",
                     expected="a whole number or null" if nullable else "a whole number")
            return False
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.add(entry, field, "out_of_range", min=lo, max="any" if hi is None else hi)
            return False
        return True

    def is_bool(self, entry, field, value) -> bool:
        if not isinstance(value, bool):
            self.add(entry, field, "wrong_type", expected="true or false")
            return False
        return True

    def is_str(self, entry, field, value) -> bool:
        if not isinstance(value, str):
            self.add(entry, field, "wrong_type", expected="text")
            return False
        if not value.strip():
            self.add(entry, field, "empty_text")
            return False
        return True

    def is_dict(self, entry, field, value) -> bool:
        if not isinstance(value, dict):
            self.add(entry, field, "wrong_type", expected="an object")
            return False
        return True

    def is_list(self, entry, field, value) -> bool:
        if not isinstance(value, list):
            self.add(entry, field, "wrong_type", expected="a list")
            return False
        return True

    def one_of(self, entry, field, value, allowed) -> bool:
        if isinstance(value, (dict, list)) or value not in allowed:
            self.add(entry, field, "bad_value", allowed=", ".join(map(str, allowed)))
            return False
        return True

    def fact(self, entry, field, value, expected) -> None:
        if value != expected:
            self.add(entry, field, "rule_fact", expected=expected, found=value)

    def require(self, entry, obj: dict, fields: tuple, optional: tuple = (),
                prefix: str = "") -> bool:
        """Required fields present, no unknown fields. False when a required one is missing."""
        ok = True
        for name in fields:
            if name not in obj:
                self.add(entry, prefix + name, "missing_field")
                ok = False
        for name in obj:
            if name not in fields and name not in optional:
                self.add(entry, prefix + name, "unknown_field")
        return ok

    def names(self, entry, field, value, *, required=LANGS_REQUIRED) -> None:
        if not self.is_dict(entry, field, value):
            return
        for lang in required:
            if lang not in value:
                self.add(entry, f"{field}.{lang}", "missing_language", lang=lang)
        for lang, text in value.items():
            if lang not in LANGS:
                self.add(entry, f"{field}.{lang}", "unknown_language", lang=lang)
            else:
                self.is_str(entry, f"{field}.{lang}", text)

    def items(self, entry, field, value, allowed=GAIN_ITEMS, *, empty_ok=False) -> None:
        """A bag of items: {item: positive count}."""
        if not self.is_dict(entry, field, value):
            return
        if not value and not empty_ok:
            self.add(entry, field, "wrong_type", expected="a non-empty object of item: count")
        for item, count in value.items():
            if self.one_of(entry, f"{field}.{item}", item, allowed):
                self.is_int(entry, f"{field}.{item}", count, 1)

    def demo(self, entry, obj: dict) -> None:
        if "demo" in obj:
            self.is_bool(entry, "demo", obj["demo"])
        if "note" in obj:
            self.is_str(entry, "note", obj["note"])
        if "demo_fields" in obj:
            fields = obj["demo_fields"]
            if self.is_list(entry, "demo_fields", fields):
                for name in fields:
                    if not isinstance(name, str) or name not in obj:
                        self.add(entry, "demo_fields", "bad_demo_field", name=name)
                if fields and obj.get("demo") is not True:
                    self.add(entry, "demo", "demo_flag")

    def entry_list(self, value) -> list[tuple[Any, dict]]:
        """The (id, entry) pairs of a list file; reports bad ids and duplicates."""
        if not self.is_list(None, None, value):
            return []
        seen: set = set()
        out = []
        for pos, entry in enumerate(value):
            if not isinstance(entry, dict):
                self.add(f"#{pos}", None, "not_object")
                continue
            eid = entry.get("id")
            if "id" not in entry:
                self.add(f"#{pos}", "id", "missing_field")
                eid = f"#{pos}"
            elif not isinstance(eid, str) or not ID_RE.match(eid):
                self.add(eid if isinstance(eid, (str, int)) else f"#{pos}", "id", "bad_id")
            if eid in seen:
                self.add(eid, "id", "duplicate_id", id=eid)
            seen.add(eid)
            out.append((eid, entry))
        return out


def validate(catalog: Any) -> list[dict]:
    """Every problem of the catalog; an empty list means it is usable."""
    out: list[dict] = []
    if not isinstance(catalog, dict):
        return [problem("(catalog)", None, None, "not_object")]
    for part in PARTS:
        if part not in catalog:
            out.append(problem(f"{part}.json", None, None, "missing_part", part=part,
                               path=f"{part}.json"))
    game = catalog.get("game")
    actions = catalog.get("action_cards")
    projects = catalog.get("projects")
    if "game" in catalog:
        _game(_Checker("game.json", out), game)
    action_ids = _actions(_Checker("action_cards.json", out), actions) if "action_cards" in \
        catalog else set()
    project_info = _projects(_Checker("projects.json", out), projects) if "projects" in \
        catalog else {}
    if "building_sites" in catalog:
        _sites(_Checker("building_sites.json", out), catalog["building_sites"])
    if "plague" in catalog:
        _plague(_Checker("plague.json", out), catalog["plague"])
    if "event_cards" in catalog:
        favor_ids = set(game["favor_spaces"]) if isinstance(game, dict) and isinstance(
            game.get("favor_spaces"), dict) else set(FAVOR_SPACES)
        refs = {"action": action_ids, "project": project_info, "favor": favor_ids}
        _events(_Checker("event_cards.json", out), catalog["event_cards"], refs)
    return out


# ------------------------------------------------------------------------------ game.json
def _game(c: _Checker, game: Any) -> None:
    if not c.is_dict(None, None, game):
        return
    fields = ("id", "names", "seats", "colours", "players", "start", "supplies", "cover_tiles",
              "chapters", "rounds", "pile_size", "tax_die", "favor_track", "favor_spaces",
              "council", "market", "resources", "houses_per_player", "seals_per_player")
    c.require(None, game, fields, ("seat_names", "market_spaces", "forms", "note", "demo"))
    if "id" in game:
        c.fact("id", "id", game["id"], "wwe")
    if "names" in game:
        c.names("names", "names", game["names"])
    if "seats" in game:
        c.fact("seats", "seats", game["seats"], SEATS)
    if "seat_names" in game and c.is_dict("seat_names", None, game["seat_names"]):
        for seat, names in game["seat_names"].items():
            if c.one_of("seat_names", seat, seat, SEATS):
                c.names("seat_names", seat, names)
    if "colours" in game and c.is_dict("colours", None, game["colours"]):
        c.fact("colours", None, sorted(game["colours"]), sorted(COLOURS))
        for colour, names in game["colours"].items():
            c.names("colours", colour, names)
    if "players" in game and c.is_dict("players", None, game["players"]):
        c.fact("players", None, game["players"], {"min": 2, "max": 4})
    if "start" in game and c.is_dict("start", None, game["start"]):
        c.fact("start", None, game["start"], FACT_START)
    for key, expected in FACT_GAME.items():
        if key in game and c.is_int(key, key, game[key], 0):
            c.fact(key, key, game[key], expected)
    if "supplies" in game:
        _supplies(c, game["supplies"])
    if "tax_die" in game:
        _tax_die(c, game["tax_die"])
    spaces = game.get("favor_spaces")
    if "favor_spaces" in game and c.is_dict("favor_spaces", None, spaces):
        c.fact("favor_spaces", None, sorted(spaces), sorted(FAVOR_SPACES))
        for sid, names in spaces.items():
            c.names("favor_spaces", sid, names)
    if "favor_track" in game:
        _favor_track(c, game["favor_track"], spaces if isinstance(spaces, dict) else {})
    if "forms" in game and c.is_dict("forms", None, game["forms"]):
        # a favor space's name with its article and case after "of", in each language
        # (the log's "receives the favor of the Queen": companion/game/games.forms_index)
        for form, by_id in game["forms"].items():
            if c.one_of("forms", form, form, FORMS) and c.is_dict("forms", form, by_id):
                for sid, texts in by_id.items():
                    if c.one_of("forms", f"{form}.{sid}", sid, FAVOR_SPACES):
                        c.names("forms", f"{form}.{sid}", texts)
    if "council" in game:
        council = game["council"]
        if c.is_dict("council", None, council) and c.require("council", council,
                                                           ("side_values",), ("demo", "note")):
            values = council["side_values"]
            if c.is_list("council", "side_values", values) and sorted(
                    v for v in values if isinstance(v, int)) != [0, 1, 2, 3]:
                c.add("council", "side_values", "rule_fact", expected="0, 1, 2, 3 in some order",
                      found=values)
            c.demo("council", council)
    if "market" in game and c.is_dict("market", None, game["market"]):
        market = game["market"]
        c.require("market", market, tuple(FACT_MARKET))
        for key, expected in FACT_MARKET.items():
            if key in market and c.is_int("market", key, market[key], 0):
                c.fact("market", key, market[key], expected)
    if "market_spaces" in game and c.is_dict("market_spaces", None, game["market_spaces"]):
        c.fact("market_spaces", None, sorted(game["market_spaces"]), sorted(MARKET_SPACES))
        for sid, names in game["market_spaces"].items():
            c.names("market_spaces", sid, names)
    if "resources" in game and c.is_dict("resources", None, game["resources"]):
        missing = [i for i in GAIN_ITEMS if i not in game["resources"]]
        for item in missing:
            c.add("resources", item, "missing_field")
        for item, names in game["resources"].items():
            if c.one_of("resources", item, item, GAIN_ITEMS):
                c.names("resources", item, names)


def _supplies(c: _Checker, supplies: Any) -> None:
    if not c.is_dict("supplies", None, supplies):
        return
    for item in ITEMS:
        if item not in supplies:
            c.add("supplies", item, "missing_field")
    for item, spec in supplies.items():
        if not c.one_of("supplies", item, item, ITEMS):
            continue
        if not c.is_dict("supplies", item, spec):
            continue
        c.require("supplies", spec, ("size",), ("demo", "note"), prefix=f"{item}.")
        fact = item in FACT_SUPPLIES
        if "size" in spec and c.is_int("supplies", f"{item}.size", spec["size"], 0,
                                       nullable=not fact) and fact:
            c.fact("supplies", f"{item}.size", spec["size"], FACT_SUPPLIES[item])
        if "demo" in spec:
            c.is_bool("supplies", f"{item}.demo", spec["demo"])


def _tax_die(c: _Checker, die: Any) -> None:
    if not c.is_dict("tax_die", None, die) or not c.require("tax_die", die, ("faces",),
                                                           ("demo", "note")):
        return
    faces = die["faces"]
    if c.is_list("tax_die", "faces", faces):
        if not faces:
            c.add("tax_die", "faces", "wrong_type", expected="a non-empty list")
        for pos, face in enumerate(faces):
            if isinstance(face, int) and not isinstance(face, bool) and not (
                    TAX_RANGE[0] <= face <= TAX_RANGE[1]):
                c.add("tax_die", f"faces[{pos}]", "rule_fact", expected="a tax of 2-5 gold",
                      found=face)
            else:
                c.is_int("tax_die", f"faces[{pos}]", face, *TAX_RANGE)
    c.demo("tax_die", die)


def _favor_track(c: _Checker, track: Any, spaces: dict) -> None:
    if not c.is_dict("favor_track", None, track) or not c.require(
            "favor_track", track, ("cycle", "start"), ("demo", "note")):
        return
    cycle = track["cycle"]
    known = tuple(spaces) or FAVOR_SPACES
    if c.is_list("favor_track", "cycle", cycle):
        for pos, sid in enumerate(cycle):
            base = re.sub(r"_\d+$", "", sid) if isinstance(sid, str) else sid
            if not isinstance(sid, str) or (sid not in known and base not in known):
                c.add("favor_track", f"cycle[{pos}]", "unknown_reference", kind="favor space",
                      ref=sid)
        bases = {re.sub(r"_\d+$", "", x) for x in cycle if isinstance(x, str)}
        for sid in known:
            if sid not in bases:
                c.add("favor_track", "cycle", "count", expected=f"the space {sid} on the track",
                      found="none")
        c.is_int("favor_track", "start", track["start"], 0, max(len(cycle) - 1, 0))
    c.demo("favor_track", track)


# ---------------------------------------------------------------------- action_cards.json
def _actions(c: _Checker, cards: Any) -> set:
    entries = c.entry_list(cards)
    ids = {eid for eid, _ in entries}
    for eid, card in entries:
        c.require(eid, card, ("id", "names", "starred"), COMMON)
        if eid not in ACTION_CARDS:
            c.add(eid, "id", "bad_value", allowed=", ".join(ACTION_CARDS))
        if "names" in card:
            c.names(eid, "names", card["names"])
        if "starred" in card:
            c.is_bool(eid, "starred", card["starred"])
        c.demo(eid, card)
    if isinstance(cards, list):
        for cid in ACTION_CARDS:
            if cid not in ids:
                c.add(cid, None, "count", expected=f"the action card {cid}", found="none")
        if len(entries) != len(ACTION_CARDS):
            c.add(None, None, "count", expected="12 action cards", found=len(entries))
        starred = sum(1 for _, card in entries if card.get("starred") is True)
        if starred != 6:
            c.add(None, "starred", "count", expected="6 starred action cards", found=starred)
    return ids


# -------------------------------------------------------------------------- projects.json
def _projects(c: _Checker, projects: Any) -> dict:
    """Returns {id: entry} for the references from event cards."""
    entries = c.entry_list(projects)
    fields = ("id", "names", "stone", "wood", "spire", "at_start", "enters_after_chapter",
              "donor_reward")
    for eid, proj in entries:
        c.require(eid, proj, fields, (*COMMON, "alt_names"))
        if "names" in proj:
            c.names(eid, "names", proj["names"])
        if "alt_names" in proj:
            c.names(eid, "alt_names", proj["alt_names"], required=())
        for key in ("stone", "wood"):
            if key in proj:
                c.is_int(eid, key, proj[key], 0, 20)
        if isinstance(proj.get("stone"), int) and isinstance(proj.get("wood"), int) and (
                proj["stone"] + proj["wood"] < 1):
            c.add(eid, "stone", "out_of_range", min=1, max=40)
        for key in ("spire", "at_start"):
            if key in proj:
                c.is_bool(eid, key, proj[key])
        if "enters_after_chapter" in proj:
            c.is_int(eid, "enters_after_chapter", proj["enters_after_chapter"], 1, 3,
                     nullable=True)
        if "donor_reward" in proj:
            _reward(c, eid, "donor_reward", proj["donor_reward"])
        c.demo(eid, proj)
    by_id = {eid: proj for eid, proj in entries}
    if not isinstance(projects, list):
        return by_id
    for pid in NAMED_PROJECTS:
        if pid not in by_id:
            c.add(pid, None, "count", expected=f"the project {pid}", found="none")
    if len(entries) != PROJECTS_TOTAL:
        c.add(None, None, "count", expected="7 projects (Bridge, Tower and 5 brought in by "
              "events)", found=len(entries))
    tower = by_id.get("tower")
    if isinstance(tower, dict):
        for key, expected in (("stone", 6), ("wood", 2), ("spire", True),
                              ("enters_after_chapter", 2), ("at_start", False),
                              ("donor_reward", {"vp": 2})):
            c.fact("tower", key, tower.get(key), expected)
    bridge = by_id.get("bridge")
    if isinstance(bridge, dict):
        c.fact("bridge", "at_start", bridge.get("at_start"), True)
    if isinstance(by_id.get("lady_chapel"), dict):
        c.fact("lady_chapel", "donor_reward", by_id["lady_chapel"].get("donor_reward"),
               {"vp": 2})
    if isinstance(by_id.get("hospital"), dict):
        reward = by_id["hospital"].get("donor_reward")
        if not (isinstance(reward, dict) and reward.get("cure") is True):
            c.add("hospital", "donor_reward", "rule_fact", expected={"cure": True}, found=reward)
    for eid, proj in entries:
        if eid not in ("tower", "bridge"):
            for key, expected in (("spire", False), ("at_start", False),
                                  ("enters_after_chapter", None)):
                if key in proj:
                    c.fact(eid, key, proj[key], expected)
    return by_id


def _reward(c: _Checker, eid, field, reward: Any) -> None:
    """A donor or plague reward: {"vp": n, "items": {...}, "free_house": true, "cure": true}."""
    if not c.is_dict(eid, field, reward):
        return
    for key, value in reward.items():
        sub = f"{field}.{key}"
        if key == "vp":
            c.is_int(eid, sub, value, 0, 20)
        elif key == "items":
            c.items(eid, sub, value, ITEMS)
        elif key in ("free_house", "cure"):
            c.is_bool(eid, sub, value)
        else:
            c.add(eid, sub, "unknown_field")


# -------------------------------------------------------------------- building_sites.json
def _sites(c: _Checker, sites: Any) -> None:
    entries = c.entry_list(sites)
    for eid, site in entries:
        c.require(eid, site, ("id", "names", "material", "rent"), COMMON)
        if "names" in site:
            c.names(eid, "names", site["names"])
        if "material" in site:
            c.one_of(eid, "material", site["material"], ("stone", "wood"))
        rent = site.get("rent")
        if "rent" in site and c.is_dict(eid, "rent", rent):
            c.require(eid, rent, ("item", "amount"), prefix="rent.")
            if "item" in rent:
                c.one_of(eid, "rent.item", rent["item"], tuple(i for i in GAIN_ITEMS
                                                              if i != "metal"))
            if "amount" in rent:
                c.is_int(eid, "rent.amount", rent["amount"], 1, 10)
        c.demo(eid, site)
    if isinstance(sites, list) and len(entries) != SITES:
        c.add(None, None, "count", expected="14 building sites", found=len(entries))


# ---------------------------------------------------------------------------- plague.json
def _plague(c: _Checker, plague: Any) -> None:
    if not c.is_dict(None, None, plague):
        return
    c.require(None, plague, ("cure_vp", "locations", "tokens"), ("tokens_demo", "note"))
    if "cure_vp" in plague:
        c.fact("cure_vp", "cure_vp", plague["cure_vp"], 2)
    locations = plague.get("locations")
    if "locations" in plague and c.is_list("locations", None, locations):
        seen = set()
        for pos, loc in enumerate(locations):
            if not isinstance(loc, dict):
                c.add(f"#{pos}", None, "not_object")
                continue
            lid = loc.get("id", f"#{pos}")
            c.require(lid, loc, ("id", "names", "reward"), COMMON)
            if "id" in loc and c.is_int(lid, "id", loc["id"], 1, PLAGUE_LOCATIONS):
                if lid in seen:
                    c.add(lid, "id", "duplicate_id", id=lid)
                seen.add(lid)
            if "names" in loc:
                c.names(lid, "names", loc["names"])
            if "reward" in loc:
                _reward(c, lid, "reward", loc["reward"])
                if "cure" in loc["reward"]:
                    c.add(lid, "reward.cure", "unknown_field")
            c.demo(lid, loc)
            if lid == 9:
                c.fact(9, "reward.free_house", loc.get("reward", {}).get("free_house"), True)
            if lid == 11:
                c.fact(11, "reward", loc.get("reward"), {})
        if seen != set(range(1, PLAGUE_LOCATIONS + 1)):
            c.add("locations", None, "count", expected="the 11 plague locations 1-11",
                  found=sorted(seen))
    tokens = plague.get("tokens")
    if "tokens" in plague and c.is_list("tokens", None, tokens):
        if len(tokens) != PLAGUE_LOCATIONS:
            c.add("tokens", None, "count", expected="11 plague tokens", found=len(tokens))
        for pos, value in enumerate(tokens):
            c.is_int("tokens", f"[{pos}]", value, 1, 5)
    if "tokens_demo" in plague:
        c.is_bool("tokens_demo", None, plague["tokens_demo"])


# ----------------------------------------------------------------------- event_cards.json
def _events(c: _Checker, cards: Any, refs: dict) -> None:
    entries = c.entry_list(cards)
    fields = ("id", "chapter", "starred", "permanent", "names", "text", "corners", "arrow",
              "plague", "effects")
    intro: dict[str, str] = {}
    for eid, card in entries:
        c.require(eid, card, fields, COMMON)
        if "chapter" in card:
            c.is_int(eid, "chapter", card["chapter"], 1, 4)
        for key in ("starred", "permanent"):
            if key in card:
                c.is_bool(eid, key, card[key])
        if "names" in card:
            c.names(eid, "names", card["names"])
        if "text" in card:
            c.names(eid, "text", card["text"], required=("en",))
        corners = card.get("corners")
        if "corners" in card and c.is_list(eid, "corners", corners):
            if len(corners) != 4:
                c.add(eid, "corners", "count", expected="4 corners", found=len(corners))
            for pos, item in enumerate(corners):
                c.one_of(eid, f"corners[{pos}]", item, CORNER_ITEMS)
        if "arrow" in card:
            c.is_int(eid, "arrow", card["arrow"], 0, 3)
        if "plague" in card:
            chapter = card.get("chapter")
            if chapter in (1, 2) and card["plague"] is not None:
                c.add(eid, "plague", "plague_chapter")
            elif chapter in (3, 4) and card["plague"] is None:
                c.add(eid, "plague", "plague_missing")
            else:
                c.is_int(eid, "plague", card["plague"], 1, PLAGUE_LOCATIONS, nullable=True)
        effects = card.get("effects")
        if "effects" in card and c.is_list(eid, "effects", effects):
            for pos, effect in enumerate(effects):
                _effect(c, eid, f"effects[{pos}]", effect, refs, intro,
                        permanent=card.get("permanent") is True)
        c.demo(eid, card)
    if not isinstance(cards, list):
        return
    for eid, chapters in NAMED_CHAPTERS.items():
        card = next((card for cid, card in entries if cid == eid), None)
        if card is not None and "chapter" in card and card["chapter"] not in chapters:
            allowed = " or ".join(map(str, chapters))
            c.add(eid, "chapter", "rule_fact", expected=f"chapter {allowed}",
                  found=card["chapter"])
    for chapter in (1, 2, 3, 4):
        pile = [card for _, card in entries if card.get("chapter") == chapter]
        if len(pile) < EVENTS_PER_CHAPTER:
            c.add(None, "chapter", "too_few_events", chapter=chapter, min=EVENTS_PER_CHAPTER,
                  found=len(pile))
        starred = [card for card in pile if card.get("starred") is True]
        if len(starred) != STARRED_PER_CHAPTER:
            c.add(None, "starred", "starred_count", chapter=chapter,
                  expected=STARRED_PER_CHAPTER, found=len(starred))
        permanent = sum(1 for card in starred if card.get("permanent") is True)
        if permanent > MAX_PERMANENT_STARRED:
            c.add(None, "permanent", "too_many_permanent", chapter=chapter, found=permanent,
                  max=MAX_PERMANENT_STARRED)


# Chapters the rules imply for named cards (§9): King Edward III's exception speaks of the
# first event of chapter II; Merthin completes the Tower, which is on the board from III.
NAMED_CHAPTERS = {"king_edward_iii": (2,), "merthin_fulfilled_his_dream": (3, 4)}

EFFECT_FIELDS = {
    "gain": (("who", "items"), ()),
    "lose": (("who", "items"), ()),
    "trade": (("give", "get"), ("times", "who")),
    "introduce_project": (("project",), ()),
    "cover": (("target", "ids"), ()),
    "open_market": (("space",), ()),
    "price": (("item", "price"), ()),
    "card_modifier": (("card",), ("bonus", "cost", "disabled")),
    "lose_action": (("who",), ("royal_court_exempt_if_first",)),
    "random_discard": (("who",), ()),
    "complete_tower": ((), ()),
    "return_houses": (("scope",), ()),
    "manual": (("text",), ()),
    "income_modifier": (("who", "item"), ("replacement", "bonus")),
    "event_modifier": (("effect", "who", "disabled"), ()),
}
INCOME_MATCH = (*CORNER_ITEMS, "any")          # income_modifier.item
INCOME_REPLACEMENT = (*CORNER_ITEMS, "none")   # income_modifier.replacement
EVENT_MODIFIABLE = ("gain", "lose")            # event_modifier.effect


def _effect(c: _Checker, eid, field, effect: Any, refs: dict, intro: dict,
            permanent: bool = True) -> None:
    if not c.is_dict(eid, field, effect):
        return
    kind = effect.get("type")
    if kind not in EFFECT_FIELDS:
        c.add(eid, f"{field}.type", "bad_effect", type=kind)
        return
    required, optional = EFFECT_FIELDS[kind]
    c.require(eid, {k: v for k, v in effect.items() if k != "type"}, required, optional,
              prefix=f"{field}.")
    fields = {k: f"{field}.{k}" for k in effect}
    if "who" in effect:
        c.one_of(eid, fields["who"], effect["who"], WHO)
    if kind in ("gain", "lose") and "items" in effect:
        c.items(eid, fields["items"], effect["items"])
        if kind == "lose" and isinstance(effect["items"], dict) and "mk" in effect["items"]:
            c.add(eid, f"{fields['items']}.mk", "mk_never_lost")
    elif kind == "trade":
        for key in ("give", "get"):
            if key in effect:
                c.items(eid, fields[key], effect[key])
        if "times" in effect:
            c.is_int(eid, fields["times"], effect["times"], 1, MAX_TRADE_TIMES)
    elif kind == "introduce_project" and "project" in effect:
        _project_ref(c, eid, fields["project"], effect["project"], refs, intro)
    elif kind == "cover":
        _cover(c, eid, field, effect, refs)
    elif kind == "open_market" and "space" in effect:
        c.one_of(eid, fields["space"], effect["space"], MARKET_SPACES)
    elif kind == "price":
        if "item" in effect:
            c.one_of(eid, fields["item"], effect["item"], MARKET_SPACES)
        if "price" in effect:
            c.is_int(eid, fields["price"], effect["price"], 0, 10)
    elif kind == "card_modifier":
        if "card" in effect and (not isinstance(effect["card"], str)
                                 or effect["card"] not in refs["action"]):
            c.add(eid, fields["card"], "unknown_reference", kind="action card",
                  ref=effect["card"])
        if not any(k in effect for k in ("bonus", "cost", "disabled")):
            c.add(eid, field, "empty_effect")
        for key in ("bonus", "cost"):
            if key in effect:
                c.items(eid, fields[key], effect[key])
        if "disabled" in effect:
            c.is_bool(eid, fields["disabled"], effect["disabled"])
    elif kind == "lose_action" and "royal_court_exempt_if_first" in effect:
        c.is_bool(eid, fields["royal_court_exempt_if_first"],
                  effect["royal_court_exempt_if_first"])
    elif kind == "return_houses" and "scope" in effect:
        c.one_of(eid, fields["scope"], effect["scope"], RETURN_SCOPES)
    elif kind == "income_modifier":
        if "item" in effect:
            c.one_of(eid, fields["item"], effect["item"], INCOME_MATCH)
        if "replacement" in effect:
            c.one_of(eid, fields["replacement"], effect["replacement"], INCOME_REPLACEMENT)
        if "bonus" in effect:
            c.items(eid, fields["bonus"], effect["bonus"])
        if not any(k in effect for k in ("replacement", "bonus")):
            c.add(eid, field, "empty_modifier", type=kind, fields="replacement, bonus")
    elif kind == "event_modifier":
        if "effect" in effect:
            c.one_of(eid, fields["effect"], effect["effect"], EVENT_MODIFIABLE)
        if "disabled" in effect and effect["disabled"] is not True:
            c.add(eid, fields["disabled"], "bad_value", allowed="true")
        if not permanent:
            c.add(eid, f"{field}.type", "permanent_only", type=kind)
    elif kind == "manual" and "text" in effect:
        c.names(eid, fields["text"], effect["text"], required=("en",))


def _project_ref(c: _Checker, eid, field, ref, refs: dict, intro: dict) -> None:
    projects = refs["project"]
    if not isinstance(ref, str) or ref not in projects:
        c.add(eid, field, "unknown_reference", kind="project", ref=ref)
        return
    proj = projects[ref]
    if isinstance(proj, dict) and (proj.get("at_start") or proj.get("enters_after_chapter")):
        c.add(eid, field, "not_event_project", ref=ref)
    if ref in intro:
        c.add(eid, field, "duplicate_project_intro", ref=ref, other=intro[ref])
    else:
        intro[ref] = eid


def _cover(c: _Checker, eid, field, effect: dict, refs: dict) -> None:
    target = effect.get("target")
    if "target" in effect and not c.one_of(eid, f"{field}.target", target, COVER_TARGETS):
        return
    if "ids" not in effect:
        return
    ids = effect["ids"]
    if ids == "all_other_projects":
        if target != "project":
            c.add(eid, f"{field}.ids", "bad_value", allowed="a list of ids")
        return
    if not c.is_list(eid, f"{field}.ids", ids):
        return
    known = {"favor": refs["favor"], "market": set(MARKET_SPACES),
             "project": set(refs["project"])}.get(target, set())
    kind = {"favor": "favor space", "market": "market space", "project": "project"}[target]
    if not ids:
        c.add(eid, f"{field}.ids", "wrong_type", expected="a non-empty list")
    for pos, ref in enumerate(ids):
        if not isinstance(ref, str) or ref not in known:
            c.add(eid, f"{field}.ids[{pos}]", "unknown_reference", kind=kind, ref=ref)


# ------------------------------------------------------------------------- demo listing
def demo_entries(catalog: dict) -> list[dict]:
    """Every guessed (demo) entry or field: ``{"file", "entry", "fields"}``.

    ``fields`` is None when the whole entry is invented, else the guessed fields.
    """
    out = []
    game = catalog.get("game", {})
    if isinstance(game, dict):
        for section in ("tax_die", "favor_track", "council"):
            if isinstance(game.get(section), dict) and game[section].get("demo"):
                out.append({"file": "game.json", "entry": section, "fields": None})
        for item, spec in (game.get("supplies") or {}).items():
            if isinstance(spec, dict) and spec.get("demo"):
                out.append({"file": "game.json", "entry": "supplies", "fields": [item]})
    for part in ("action_cards", "event_cards", "projects", "building_sites"):
        entries = catalog.get(part)
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and entry.get("demo"):
                out.append({"file": f"{part}.json", "entry": entry.get("id"),
                            "fields": entry.get("demo_fields") or None})
    plague = catalog.get("plague", {})
    if isinstance(plague, dict):
        for loc in plague.get("locations") or []:
            if isinstance(loc, dict) and loc.get("demo"):
                out.append({"file": "plague.json", "entry": loc.get("id"),
                            "fields": loc.get("demo_fields") or None})
        if plague.get("tokens_demo"):
            out.append({"file": "plague.json", "entry": "tokens", "fields": None})
    return out
