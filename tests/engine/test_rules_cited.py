"""Every rule cited (docs/rules-cited.md), per game: every refusal code the engine can raise
(its declared reasons and every Refused("...") in its source), every log event it can emit
(its declared events and every event literal appended in its source) and every prompt kind
cites a rule with a reference for every language and a text translated in every language."""
from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

from engine import citations
from tests.rules_reference import SEEDS, needed
from web import i18n_tool

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("wwe", "pillars", "monasterium")
LANGS = ("en", "it", "pl", "es", "de")
REFUSED = re.compile(r'Refused\(\s*"([a-z0-9_]+)"')
EMITTED = re.compile(r'\b(?:ev|events)\.append\(\{"type": "([a-z0-9_]+)"')


def texts(game: str):
    return importlib.import_module(f"engine.{game}").GAME.info.texts


def source(game: str) -> str:
    return "\n".join(p.read_text(encoding="utf-8")
                     for p in sorted((ROOT / "engine" / game).rglob("*.py")))


def codes(game: str) -> set[str]:
    return set(texts(game).reasons) | set(REFUSED.findall(source(game)))


def events(game: str) -> set[str]:
    return set(texts(game).events) | set(EMITTED.findall(source(game)))


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    return request.param


@pytest.fixture(scope="module")
def translated(game):
    """{lang: {msgid: msgstr}} of the game's gettext domain."""
    domain = i18n_tool.domain(game)
    out = {}
    for lang in LANGS[1:]:
        catalog = i18n_tool.read(lang, domain)
        out[lang] = {m.id: m.string for m in catalog if m.id and "fuzzy" not in m.flags}
    return out


def assert_cited(game, translated, section: str, key: str) -> None:
    found = citations.rule_of(texts(game), section, key)
    assert found, f"{game}: {section} {key!r} cites no rule"
    rid, rule = found
    # a reference every language can read: its edition's place, else the section's subject
    # (the topic) translated; never the rules reference's "§4.3" (issue 32 #10)
    if not citations.is_app(rule):
        for lang in LANGS:
            assert citations.ref(rule, lang) or rule["topic"], f"{game}: {rid} in {lang}"
        for lang, strings in translated.items():
            assert strings.get(rule["topic"], "").strip(), \
                f"{game}: the topic of rule {rid} is not translated into {lang}"
    assert rule["text"].strip()
    for lang, strings in translated.items():
        assert strings.get(rule["text"], "").strip(), \
            f"{game}: rule {rid} is not translated into {lang}: {rule['text']!r}"


def test_the_engine_raises_and_emits_what_it_declares(game):
    """The scans find codes and events (so the next test checks what the engine can emit)."""
    assert REFUSED.findall(source(game)) and EMITTED.findall(source(game))
    assert set(REFUSED.findall(source(game))) <= codes(game)


def test_every_refusal_code_cites_a_rule_in_every_language(game, translated):
    for code in sorted(codes(game)):
        assert_cited(game, translated, "reasons", code)


def test_every_log_event_cites_a_rule_in_every_language(game, translated):
    for kind in sorted(events(game)):
        assert_cited(game, translated, "events", kind)


def test_every_step_cites_a_rule_in_every_language(game, translated):
    for kind in sorted(texts(game).prompts):
        assert_cited(game, translated, "prompts", kind)


def test_the_rules_file_is_sound_and_every_rule_is_cited(game):
    path = ROOT / "engine" / game / "data" / "rules.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert citations.check(data) == []
    cited = {rid for s in citations.SECTIONS for rid in data.get(s, {}).values()}
    assert cited == set(data["rules"]), "a rule nobody cites, or a citation of no rule"
    for rule in data["rules"].values():
        assert set(rule["ref"]) <= {"*", *LANGS}
        assert all(citations.edition_place(p) for k, p in rule["ref"].items() if k != "*")
    # a refined citation ("vp:reason=duties") names an event type the game has
    for key in data["events"]:
        assert key.split(":")[0] in events(game), key
    # the declaration the app reads is this file
    assert texts(game).rules == data["rules"]


def test_a_refined_event_cites_its_own_rule_else_the_type_rule():
    t = texts("wwe")
    assert citations.event_rule(t, {"type": "vp", "seat": "N", "delta": -3,
                                    "reason": "duties"})[0] == "duties"
    assert citations.event_rule(t, {"type": "vp", "seat": "N", "delta": 2,
                                    "reason": "something_new"})[0] == "vp_track"
    assert citations.event_rule(t, {"type": "no_such_event"}) is None


def test_a_broken_rules_file_is_named_not_half_loaded():
    assert citations.check({"rules": {"x": {"ref": {}, "text": ""}},
                            "reasons": {"c": "y"}}) == [
        'rule x: "ref" needs a "*" reference', 'rule x: "text" is missing',
        "reasons.c: no rule 'y'"]
    # a place in an edition names its section; a rule of the game names its topic
    assert citations.check({"rules": {"x": {"ref": {"*": "§1", "it": "Regolamento, p. 3"},
                                            "text": "t"}}}) == [
        'rule x: the it reference needs a "section" (and maybe a "page" and a "step")',
        'rule x: "topic" is missing']
    assert citations.check({"rules": {"x": {"ref": {"*": "App"}, "text": "t"}}}) == []
    assert citations.check([]) != []


def test_every_quoted_section_title_is_in_its_edition(game):
    """A reference cites only what its edition prints: every section title of a language's
    reference (and of the setup guide's) is found in that language's rulebook text
    (rules.json "editions")."""
    data = json.loads((ROOT / "engine" / game / "data" / "rules.json").read_text("utf-8"))
    guide = json.loads((ROOT / "engine" / game / "table_guide.json").read_text("utf-8"))
    cited = {**data["rules"], "setup guide": guide["rulebook"]}
    # a language without an edition here has no place of its own: only the topic names it
    for rule in cited.values():
        assert set(rule["ref"]) - {"*"} <= set(data["editions"])
    needed(SEEDS)
    for lang, name in data["editions"].items():
        text = (SEEDS / name).read_text(encoding="utf-8").lower()
        for rid, rule in cited.items():
            place = rule["ref"].get(lang)
            if place:
                title = place["section"]
                assert title.lower() in text, f"{game} {rid} {lang}: «{title}» not in {name}"


# A refusal's "Why?" opens inside the phone's toast: its rule must be a short statement that
# a 360-pixel phone shows whole. TOAST_MAX characters in every language. The rules below are
# still the long ones the log's "Why?" shows; each is to get its own short statement for the
# toast (a refusal code can cite a shorter rule, as "not_your_turn" cites "turn_order").
TOAST_MAX = 160
STILL_LONG = {
    "wwe": {"round_steps", "first_game", "permanent_events", "cover_tiles", "play_card",
            "building_project", "donation", "build_house", "plague", "medicine", "game_end",
            "app_corrections"},
    "pillars": {"round", "preparation", "draft", "afford", "architects", "privileges", "tax",
                "market", "cathedral", "app_corrections"},
    "monasterium": {"structure", "placement", "taking", "using", "alt_actions", "send_novice",
                    "window", "final_scoring", "app_corrections"},
}


def test_a_refusals_rule_fits_the_phone_toast_in_every_language(game, translated):
    data = json.loads((ROOT / "engine" / game / "data" / "rules.json").read_text("utf-8"))
    too_long = set()
    for rid in set(data["reasons"].values()):
        english = data["rules"][rid]["text"]
        shown = [english] + [translated[lang][english] for lang in LANGS[1:]]
        if max(len(text) for text in shown) > TOAST_MAX:
            too_long.add(rid)
    # "not your turn" is the refusal a player meets most: never a long rule
    assert "not_your_turn" not in {c for c, rid in data["reasons"].items() if rid in too_long}
    # the list only shrinks: a rule shortened comes off it
    assert too_long == STILL_LONG[game]
