"""The evening kept: every finished game of this box as a summary (date, players, scores,
the winner with the tie-break in words, duration, VP over the game), and the two exports a
player's own stats can read: CSV, and a BG Stats play file (docs/history.md).

Knows no game: scores are the game's ``scores(state)``; the tie-break rule in words is the
game's (its table guide file); the VP over the game comes from replaying the game's actions
and asking ``scores`` after each.
"""
from __future__ import annotations

import json
import math
import uuid
from datetime import UTC, datetime

from companion.server import i18n, spreadsheet
from companion.server import text as text_rule
from companion.server.lru import LRU
from companion.table import table_guide as guide_mod

# the winner in words (gettext msgids: web/translations translates them)
TEXTS = {
    "shared": "{names} share the victory with {vp} {unit}: a tie the tie-break does not "
              "break. {rule}",
    "most": "{name} wins with the most {unit} ({vp}).",
    "tie": "{name} and {others} both have {vp} {unit}; {name} wins on the tie-break. {rule}",
    # a tie at the top of a game ended early (no winner): broken by the game's rule or not
    "tie_ahead": "{name} and {others} have {vp} {unit} each; the tie-break puts {name} "
                 "ahead. {rule}",
    "tie_even": "{names} all have {vp} {unit}: a tie the tie-break does not break (the same "
                "rank).",
    "early": "Ended early by the host: no winner. The scores are those of that moment.",
    "early_note": "Ended early by the host (unfinished): no winner; scores at that moment.",
}
MAX_POINTS = 120  # points per seat on the VP chart
# (game, version) -> series: the chart of the version the host looks at, a few games'
_series_cache = LRU(8)


def _time(text: str | None) -> datetime | None:
    """A stored time (the app writes UTC with its offset); one without an offset is UTC.
    A time that is not one, or beyond what the local clock can show, is no time."""
    try:
        at = datetime.fromisoformat(text) if isinstance(text, str) and text else None
        at = at.replace(tzinfo=UTC) if at is not None and at.tzinfo is None else at
        return at.astimezone() if at is not None else None
    except (ValueError, OverflowError, OSError):
        return None


def vp_series(service, live) -> dict[str, list[list[float]]]:
    """Seat -> [[action number, VP], ...] over the whole game (replayed once, then kept)."""
    key = (live.id, live.version)
    found = _series_cache.get(key)
    if found is not None:
        return found
    module = live.kind.module
    actions = service.rebuilder.actions_in_effect(live.id)
    state = service.rebuilder.initial_state(live)
    series: dict[str, list[list[float]]] = {s: [[0, _vp(module, state, s)]] for s in live.seats}
    every = max(1, len(actions) // MAX_POINTS)
    for i, action in enumerate(actions, 1):
        state, _ = module.apply(state, action)
        if i % every == 0 or i == len(actions):
            for seat in live.seats:
                series[seat].append([i, _vp(module, state, seat)])
    return _series_cache.put(key, series)


def _vp(module, state, seat: str) -> float:
    for row in module.scores(state):
        if row.get("seat") == seat:
            return row.get("vp", 0)
    return 0


def chart(series: dict[str, list[list[float]]], width: int = 600, height: int = 220
          ) -> dict:
    """Polyline points per seat in a ``width`` x ``height`` box (y up), and the axes' tops."""
    last = max((p[0] for pts in series.values() for p in pts), default=1) or 1
    top = max((p[1] for pts in series.values() for p in pts), default=1) or 1
    lines = {}
    for seat, pts in series.items():
        lines[seat] = " ".join(f"{p[0] / last * width:.1f},{height - p[1] / top * height:.1f}"
                               for p in pts)
    return {"lines": lines, "actions": last, "vp": top, "width": width, "height": height}


def _number(vp):
    """A score as a number (3, not 3.0); what is not a finite number is shown as its text
    (a result the rules did not write: an export never fails on what the store holds)."""
    if type(vp) is int or (type(vp) is float and math.isfinite(vp) and not vp.is_integer()):
        return vp
    if type(vp) is float and math.isfinite(vp):
        return int(vp)
    return str(vp)


def _fmt(vp) -> str:
    return str(_number(vp))


def _rows(result: list) -> list[dict]:
    """The result's rows as the page and the exports read them: a seat as text, a score
    and a rank as they are (shown by `_fmt`); what is not a row is left out."""
    return [{"seat": text_rule.sendable(r.get("seat", "")), "vp": r.get("vp", 0),
             "rank": r.get("rank")} for r in result if isinstance(r, dict)]


def summary(service, live, lang: str) -> dict:
    """One finished game for the history page and the exports."""
    info = live.kind.module.info
    # the store's text as it can be sent (a lone surrogate stored before the text rule)
    names = {text_rule.sendable(p["seat"]): text_rule.sendable(p["name"]) for p in live.players}
    colours = {text_rule.sendable(p["seat"]): p.get("colour") for p in live.players}
    result = live.row.get("result")
    rows = sorted(_rows(result if isinstance(result, list) else []),
                  key=lambda r: r["rank"] if type(r["rank"]) is int else 99)
    actions = service.store.actions(live.id)
    started = _time(live.row["created"])
    ended = _time(actions[-1]["at"]) if actions else started
    minutes = round((ended - started).total_seconds() / 60) if started and ended else 0
    order = guide_mod.seat_order(live)  # from the start player, clockwise
    start_seat = order[0] if order else None
    early = bool(live.row.get("ended_early"))  # ended by the host: nobody won
    scores = [{"seat": r["seat"], "name": names.get(r["seat"], r["seat"]),
               "colour": colours.get(r["seat"]), "vp": r["vp"], "vp_text": _fmt(r["vp"]),
               "rank": r["rank"], "winner": not early and r["rank"] == 1,
               "start": r["seat"] == start_seat,
               "order": order.index(r["seat"]) + 1 if r["seat"] in order else 0}
              for r in rows]
    return {"id": live.id, "game": live.kind.name,
            "title": i18n.in_lang(info.names, lang, live.kind.name),
            "title_en": info.names.get("en") or live.kind.name,
            "started": started, "ended": ended, "minutes": max(minutes, 0),
            "date": started.astimezone().strftime("%Y-%m-%d %H:%M") if started else "",
            "scores": scores, "why": why_won(live, scores, lang), "actions": len(actions),
            "ended_early": early, "unit": score_unit(live, lang),
            "unit_en": score_unit(live, "en")}


def score_unit(live, lang: str) -> str:
    """What the game scores, in ``lang`` (the game's ``score_name``: "VP", "prestige")."""
    name = live.kind.module.info.score_name or "VP"
    return i18n.text(lang, name, game=live.kind.name)


def why_won(live, scores: list[dict], lang: str) -> str:
    """The winner in words; a tie for the most points said, with how the game's tie-break
    (its rule in words: the table guide's ``tiebreak``) broke it, or that it did not (the
    tied share a rank). A game ended early has no winner, but its tie is said all the same."""
    early = bool(live.row.get("ended_early"))
    said = [i18n.text(lang, TEXTS["early"])] if early else []
    if not scores:
        return " ".join(said)
    top = scores[0]["vp"]
    tied = [s for s in scores if s["vp"] == top]
    unit = score_unit(live, lang)
    names = {"name": scores[0]["name"], "vp": scores[0]["vp_text"], "unit": unit,
             "names": ", ".join(s["name"] for s in tied),
             "others": ", ".join(s["name"] for s in tied[1:])}
    if len(tied) == 1:
        if not early:
            said.append(i18n.text(lang, TEXTS["most"], names))
        return " ".join(said)
    names["rule"] = tiebreak_rule(live, lang)
    first = [s for s in tied if s["rank"] == scores[0]["rank"]]
    if len(first) > 1:  # the tie-break did not break it: they share the rank
        key = "tie_even" if early else "shared"
        names["names"] = ", ".join(s["name"] for s in first)
    else:
        key = "tie_ahead" if early else "tie"
        names["others"] = ", ".join(s["name"] for s in tied if s is not scores[0])
    said.append(i18n.text(lang, TEXTS[key], names).strip())
    return " ".join(said)


def tiebreak_rule(live, lang: str) -> str:
    """The game's tie-break in words (its table guide's ``tiebreak``), or ""."""
    guide = guide_mod.guide_of(live.kind.module.info.table_guide) or {}
    return i18n.text(lang, guide["tiebreak"], game=live.kind.name) if guide.get(
        "tiebreak") else ""


def outcome(live, lang: str) -> str:
    """`why_won` of a finished game, from its stored result alone (the table display's
    last screen says it, as the history does)."""
    result = live.row.get("result")
    rows = sorted(_rows(result if isinstance(result, list) else []),
                  key=lambda r: r["rank"] if type(r["rank"]) is int else 99)
    names = {text_rule.sendable(p["seat"]): text_rule.sendable(p["name"]) for p in live.players}
    early = bool(live.row.get("ended_early"))
    scores = [{"seat": r["seat"], "name": names.get(r["seat"], r["seat"]), "vp": r["vp"],
               "vp_text": _fmt(r["vp"]), "rank": r["rank"],
               "winner": not early and r["rank"] == 1} for r in rows]
    return why_won(live, scores, lang)


CSV_FIELDS = ("date", "game", "game_id", "duration_min", "seat", "player", "colour", "score",
              "rank", "winner", "start_player", "score_name", "incomplete")


def to_csv(s: dict) -> str:
    """One row per player; column names in English (a spreadsheet's import reads them).
    Written by `companion.server.spreadsheet`: a name a spreadsheet would run as a formula
    is kept as text."""
    return spreadsheet.to_csv(CSV_FIELDS, (
        [s["date"], s["title_en"], s["id"], s["minutes"], p["seat"], p["name"], p["colour"],
         _number(p["vp"]), p["rank"], "yes" if p["winner"] else "no",
         "yes" if p["start"] else "no", s["unit_en"], "yes" if s["ended_early"] else "no"]
        for p in s["scores"]))


def to_bgstats(s: dict) -> dict:
    """A BG Stats play file (``.bgsplay``: players, locations, games, plays), for "Open in"
    BG Stats. Ids inside the file only link its own lists; uuids are stable per game.
    A game ended early is an unfinished play: ``ignored`` (BG Stats' "ignore this play for
    statistics"), nobody a winner, a comment saying why (BGG: incomplete, no win stats)."""
    stamp = lambda d: d.astimezone().strftime("%Y-%m-%d %H:%M:%S") if d else ""  # noqa: E731
    base = uuid.uuid5(uuid.NAMESPACE_URL, f"table-companion:{s['id']}")
    modified = stamp(s["ended"])
    players = [{"id": i + 1, "uuid": str(uuid.uuid5(base, f"player:{p['name']}")),
                "name": p["name"], "isAnonymous": False, "modificationDate": modified,
                "bggUsername": ""} for i, p in enumerate(s["scores"])]
    return {
        "about": "A play exported by Table Companion. Open it with BG Stats.",
        "players": players,
        "locations": [{"id": 1, "uuid": str(uuid.uuid5(base, "location")),
                       "name": "Table Companion", "modificationDate": modified}],
        "games": [{"id": 1, "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL,
                                                   f"table-companion-game:{s['game']}")),
                   "name": s["title_en"], "modificationDate": modified, "cooperative": False,
                   "highestWins": True, "noPoints": False, "usesTeams": False}],
        "plays": [{"uuid": str(uuid.uuid5(base, "play")), "modificationDate": modified,
                   "entryDate": modified, "playDate": stamp(s["started"]),
                   "usesTeams": False, "durationMin": s["minutes"],
                   "ignored": s["ended_early"],
                   "comments": i18n.text("en", TEXTS["early_note"]) if s["ended_early"] else "",
                   "manualWinner": False, "rounds": 0, "locationRefId": 1, "gameRefId": 1,
                   "board": "", "importPlayId": 0, "scoringSetting": 0,
                   "playerScores": [{"score": p["vp_text"], "winner": p["winner"],
                                     "newPlayer": False, "startPlayer": p["start"],
                                     "playerRefId": i + 1, "rank": p["rank"],
                                     "role": p["colour"] or "", "seatOrder": p["order"]}
                                    for i, p in enumerate(s["scores"])],
                   "expansionPlays": []}],
    }


def bgstats_text(s: dict) -> str:
    return json.dumps(to_bgstats(s), ensure_ascii=False, indent=1)
