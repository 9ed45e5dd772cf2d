"""Property-based tests: random legal games of World Without End, checked after every action.

Hypothesis draws the setup (2-4 players on any seats, first-game variant, some rule options)
and then every decision: which prompt to answer and which of its legal choices (from
``GAME.prompts`` / ``GAME.choices``) to take, so a failing game shrinks to a short story.
After every action we check:

- conservation: for each limited item, supply + all holdings (players, project spaces, the
  Tower spire) equals the catalog's supply size; each player's 12 action cards are all in
  hand, played, discarded or set aside; houses and seals agree between players and board;
- no negative counts and VP >= 0;
- ``apply`` did not change the state it was given, and the new state survives a JSON round
  trip unchanged;
- every prompt has at least one legal choice (no dead end), and a choice listed as refused
  is really refused by ``apply`` with the same reason, changing nothing;
- views: the public view holds no seat's private data (resources, hand, discards) and no
  generator seed; each seat view adds exactly that seat's own private data;
- in 12-card mode every chapter ends with 6 played and 6 discarded cards per player;
- at the end, replaying the record reproduces every intermediate state and the final one.
"""
from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from companion.box.catalog import load_catalog
from engine import record as records
from engine.api import Refused
from engine.wwe import GAME

SEATS = ["N", "E", "S", "W"]
CATALOG = load_catalog("wwe")
LIMITED = {item: spec["size"] for item, spec in CATALOG["game"]["supplies"].items()
           if spec["size"] is not None}
CARD_IDS = sorted(c["id"] for c in CATALOG["action_cards"])
OPTION_CHOICES = {
    "favor_wrap": ["catalog", "bishop_to_queen"],
    "plague_values": ["table", "app"],
    "extra_start_pass_at_chapter_end": [False, True],
    "partial_duty_payment": [True, False],
    "donor_extra_all_or_nothing": [True, False],
    "income_partial": [True, False],
}


def digest(state: dict) -> str:
    return text_digest(json.dumps(state, sort_keys=True))


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def check_invariants(s: dict) -> None:
    players = s["players"]
    # no negative counts, VP never below 0
    for seat, p in players.items():
        assert p["vp"] >= 0, (seat, p["vp"])
        for item, n in p["res"].items():
            assert n >= 0, (seat, item, n)
    for item, n in s["supply"].items():
        assert n is None or n >= 0, (item, n)
    # conservation of every limited supply
    substitutes = sum(p["substitutes"] for p in s["projects"].values())
    totals = {}
    for item in LIMITED:
        on_board = 0
        if item in ("stone", "wood"):
            on_board = sum(p[item] for p in s["projects"].values())
        if item == "metal":
            on_board = sum(1 for p in s["projects"].values() if p["spire"] is not None)
        totals[item] = s["supply"][item] + sum(p["res"][item] for p in players.values()) \
            + on_board
    for item, size in LIMITED.items():
        if item in ("stone", "wood") and substitutes:
            continue
        assert totals[item] == size, (item, totals[item], size)
    # Merthin's substitutes stand in for missing stone or wood: the pair is conserved
    assert totals["stone"] + totals["wood"] - substitutes == LIMITED["stone"] + LIMITED["wood"]
    # every action card is somewhere, exactly once
    for seat, p in players.items():
        where = p["hand"] + p["played"] + p["discards"] + p["aside"]
        assert sorted(where) == CARD_IDS, (seat, where)
        assert len(p["played"]) == len(p["performed"])
    # houses and seals agree between players and the board
    owners = {site: seat for site, seat in s["sites"].items() if seat}
    for seat, p in players.items():
        assert len(p["houses"]) <= CATALOG["game"]["houses_per_player"]
        assert sorted(p["houses"]) == sorted(site for site, o in owners.items() if o == seat)
        assert len(p["seals"]) <= CATALOG["game"]["seals_per_player"]
        for pid in p["seals"]:
            assert seat in s["projects"][pid]["seals"]
    for pid, proj in s["projects"].items():
        for seat in proj["seals"]:
            assert pid in players[seat]["seals"]


def check_chapter_piles(s: dict, chapter: int, first_game: bool) -> None:
    for seat, p in s["players"].items():
        if first_game and chapter == 1:
            assert (len(p["played"]), len(p["discards"])) == (6, 0), seat
        else:
            assert (len(p["played"]), len(p["discards"])) == (6, 6), seat


PRIVATE_KEYS = {"res", "resources", "hand", "hand_cards", "discards", "aside", "rng", "seed"}


def keys_in(obj) -> set:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in keys_in(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in keys_in(v)}
    return set()


def check_views(s: dict) -> None:
    public = GAME.public_view(s)
    assert not keys_in(public) & PRIVATE_KEYS, keys_in(public) & PRIVATE_KEYS
    for seat, p in s["players"].items():
        view = GAME.seat_view(s, seat)
        private = view.pop("private")
        assert view.pop("seat") == seat
        assert view == public
        assert private["resources"] == p["res"] and private["hand"] == p["hand"]
        assert private["discards"] == p["discards"]


def check_refused(data, s: dict, refused: list) -> None:
    """A choice shown as not possible is refused by apply, with the same code, and the
    state it was given stays as it was."""
    if not refused:
        return
    choice = data.draw(hs.sampled_from(refused), label="refused choice")
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(Refused) as err:
        GAME.apply(s, choice.action)
    assert err.value.code == choice.refused["code"]
    assert json.dumps(s, sort_keys=True) == before


def pick_action(data, s: dict) -> dict:
    prompts = GAME.prompts(s)
    assert prompts, "the game is not over but nobody owes a decision"
    prompt = data.draw(hs.sampled_from(prompts), label="prompt")
    options = GAME.choices(s, prompt.seat)
    legal = [c for c in options if c.refused is None]
    assert legal, f"no legal choice for {prompt}"
    check_refused(data, s, [c for c in options if c.refused is not None])
    choice = data.draw(hs.sampled_from(legal), label="choice")
    action = dict(choice.action)
    options = choice.effect.get("discard_options") if action["type"] == "play_card" else None
    if options:
        action["discard"] = data.draw(hs.sampled_from(options), label="discard")
    return action


def replay_digests(record: dict) -> list[str]:
    """Digests of every state while replaying the record step by step from scratch."""
    s = GAME.setup(CATALOG, record["setup"])
    out = [digest(s)]
    for action in record["actions"]:
        s, _ = GAME.apply(s, action)
        out.append(digest(s))
    return out


def play_checked_game(data, setup: dict) -> dict:
    first_game = bool(setup["options"].get("first_game"))
    s = GAME.setup(CATALOG, setup)
    check_invariants(s)
    record = records.build("wwe", setup, [])
    # each state written out once (the state holds the catalog: ~67 kB of JSON, about 1 ms
    # a time): its digest, its JSON round trip, and what it must still be after the next
    # apply (nothing in between may change it either: views, prompts, choices)
    before = json.dumps(s, sort_keys=True)
    digests = [text_digest(before)]
    for _ in range(2000):
        if s["over"]:
            break
        action = pick_action(data, s)
        chapter = s["chapter"]
        new, events = GAME.apply(s, action)
        assert json.dumps(s, sort_keys=True) == before, \
            "the state changed since it was written out: apply changed its input (or a view, "\
            "a prompt or a choice read from it did)"
        written = json.dumps(new, sort_keys=True)
        assert json.loads(written) == new
        json.dumps(events)
        check_invariants(new)
        check_views(new)
        if any(e["type"] == "chapter_ended" for e in events):
            check_chapter_piles(new, chapter, first_game)
        record["actions"].append(action)
        digests.append(text_digest(written))
        s, before = new, written
    assert s["over"], "the game did not end"
    scores = GAME.scores(s)
    assert all(row["final"] for row in scores) and len(scores) == len(setup["players"])
    assert all(row["vp"] >= 0 for row in scores)
    stored = json.loads(json.dumps(record))
    assert records.validate(stored) == []
    final, _ = records.replay(GAME, CATALOG, stored)
    assert final == s
    assert replay_digests(stored) == digests
    return s


@hs.composite
def setups(draw) -> dict:
    n = draw(hs.integers(2, 4), label="players")
    seats = sorted(draw(hs.sets(hs.sampled_from(SEATS), min_size=n, max_size=n)),
                   key=SEATS.index)
    options = {"first_game": draw(hs.booleans(), label="first_game")}
    for name, values in OPTION_CHOICES.items():
        options[name] = draw(hs.sampled_from(values), label=name)
    return {"players": [{"seat": seat, "name": f"P{seat}", "colour": colour}
                        for seat, colour in zip(seats, ["blue", "red", "green", "yellow"],
                                                strict=False)],
            "options": options, "seed": draw(hs.integers(0, 2**31), label="seed")}


@pytest.mark.slow
@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(setup=setups(), data=hs.data())
def test_random_legal_games_keep_every_invariant(setup, data):
    play_checked_game(data, setup)
