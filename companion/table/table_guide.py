"""The guided physical setup: the game's setup steps one at a time, each player's starting
pieces, and what the camera can tick off by itself. Knows no game: the steps, pieces and
tie-break come from the file a game names in ``GameInfo.table_guide`` (docs/setup-guide.md).

The progress of a game's setup (where it is, what was done, by whom, what was skipped) is
kept on the server in SQLite, so the guide resumes where it was left on any screen; the
game service owns it (`GameService.setup_progress`: read, changed and written under the
game's lock), the functions here only compute it.
"""
from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from companion.server import i18n
from companion.table import citations as citing
from engine import citations

# the shared diagrams, web/static/setup/<name>.svg
PICTURES = ("board", "camera", "pieces", "cards", "track", "bag", "screen")
OPS = ("done", "skip", "back", "goto", "finish", "restart")
MAX_STEPS = 60


class GuideError(ValueError):
    """A game's guide file that does not have the documented shape."""


def _count_map(value: Any, where: str) -> dict[int, int] | int:
    if type(value) is int:
        return value
    if isinstance(value, dict) and all(k.isdigit() and type(v) is int for k, v in value.items()):
        return {int(k): v for k, v in value.items()}
    raise GuideError(f"{where}: a number, or an object of player counts to numbers")


def _text(value: Any) -> bool:
    """A guide's text: a msgid, or [singular, plural] of a text with a count ({n})."""
    return isinstance(value, str) or (isinstance(value, list) and len(value) == 2 and all(
        isinstance(form, str) for form in value))


def parse(data: Any) -> dict:
    """The guide file checked: ``{"tiebreak", "steps": [...], "pieces": [...]}``."""
    if not isinstance(data, dict):
        raise GuideError("the guide is not an object")
    steps, seen = [], set()
    for i, step in enumerate(data.get("steps") or []):
        where = f"steps[{i}]"
        if not isinstance(step, dict) or not isinstance(step.get("id"), str) or \
                not _text(step.get("text")) or step["id"] in seen:
            raise GuideError(f"{where}: needs a distinct id and a text")
        seen.add(step["id"])
        camera = step.get("camera")
        if camera is not None and not (camera in ("marker", "stickers") or (
                isinstance(camera, str) and camera.startswith("card"))):
            raise GuideError(f"{where}: camera is marker, stickers, card or card:<zone>")
        if step.get("picture") not in (None, *PICTURES):
            raise GuideError(f"{where}: picture is one of {', '.join(PICTURES)}")
        players = step.get("players")
        if players is not None and not (isinstance(players, list) and all(
                type(p) is int for p in players)):
            raise GuideError(f"{where}: players is a list of player counts")
        steps.append({"id": step["id"], "text": step["text"], "rule": str(step.get("rule", "")),
                      "picture": step.get("picture"), "camera": camera, "players": players,
                      "n": _count_map(step["n"], where) if "n" in step else None})
    if not steps or len(steps) > MAX_STEPS:
        raise GuideError(f"1 to {MAX_STEPS} steps")
    pieces = []
    for i, piece in enumerate(data.get("pieces") or []):
        where = f"pieces[{i}]"
        if not isinstance(piece, dict) or not _text(piece.get("text")):
            raise GuideError(f"{where}: needs a text")
        by_position = piece.get("by_position")
        if by_position is not None and not (isinstance(by_position, list) and all(
                type(n) is int for n in by_position)):
            raise GuideError(f"{where}: by_position is a list of numbers")
        pieces.append({"text": piece["text"], "by_position": by_position,
                       "n": _count_map(piece["n"], where) if "n" in piece else None})
    tiebreak = data.get("tiebreak", "")
    if not isinstance(tiebreak, str):
        raise GuideError("tiebreak is a text")
    rulebook = data.get("rulebook")  # where the rulebooks set the game up (rules.json's form)
    if rulebook is not None:
        problems = citations.ref_problems("rulebook", rulebook) if isinstance(
            rulebook, dict) else ["rulebook is an object"]
        if problems:
            raise GuideError("; ".join(problems))
    return {"steps": steps, "pieces": pieces, "tiebreak": tiebreak, "rulebook": rulebook}


@cache
def guide_of(spec: str) -> dict | None:
    """The guide a game names (``"package:file.json"``), or None when it names none."""
    if not spec:
        return None
    package, _, name = spec.partition(":")
    text = resources.files(package).joinpath(name or "table_guide.json").read_text("utf-8")
    return parse(json.loads(text))


def msgids(spec: str) -> list[tuple[str, str]]:
    """Every text of a guide with where it is (for the translation tool)."""
    guide = guide_of(spec)
    if guide is None:
        return []
    out = [(s["text"], f"setup step: {s['id']}") for s in guide["steps"]]
    out += [(p["text"], "starting piece") for p in guide["pieces"]]
    if guide["tiebreak"]:
        out.append((guide["tiebreak"], "tie-break"))
    if guide["rulebook"] and guide["rulebook"].get("topic"):
        out.append((guide["rulebook"]["topic"], "the rulebook's setup, for a language without "
                                                "its own edition"))
    return out


def _n(value, players: int) -> int | None:
    if isinstance(value, dict):
        return value.get(players)
    return value


def steps_for(guide: dict, players: int) -> list[dict]:
    """The steps of a table of ``players``, in order (a step may be for some counts only)."""
    return [s for s in guide["steps"] if s["players"] is None or players in s["players"]]


def seat_order(live) -> list[str]:
    """The seats from the start player on, in the game's seat order (clockwise)."""
    order = [s.id for s in live.kind.module.info.seats]
    seats = sorted(live.seats, key=lambda s: order.index(s) if s in order else len(order))
    start = live.row["setup"].get("start_seat")
    if start in seats:
        i = seats.index(start)
        seats = seats[i:] + seats[:i]
    return seats


def pieces_for(guide: dict, live, seat: str, lang: str) -> list[str]:
    """``seat``'s starting pieces in words, in ``lang``."""
    players = len(live.seats)
    position = seat_order(live).index(seat)
    out = []
    for piece in guide["pieces"]:
        if piece["by_position"] is not None:
            n = piece["by_position"][position] if position < len(piece["by_position"]) else None
        else:
            n = _n(piece["n"], players)
        if n is not None or "{n}" not in str(piece["text"]):
            out.append(i18n.text(lang, piece["text"], {"n": n}, game=live.kind.name))
    return out


# ---- progress, kept per game ----------------------------------------------------------------
def fresh_progress() -> dict:
    return {"at": 0, "done": {}, "skipped": [], "finished": False}


def load_progress(store, game_id: str) -> dict:
    raw = store.setup_progress(game_id)
    progress = fresh_progress()
    if isinstance(raw, dict):
        progress.update({k: raw[k] for k in progress if k in raw})
    return progress


def apply_op(progress: dict, steps: list[dict], op: str, step: Any, by: str) -> dict:
    """The progress after ``op`` (done / skip / back / goto / finish / restart). Raises
    ValueError on an unknown op or step: nothing changes then."""
    ids = [s["id"] for s in steps]
    out = json.loads(json.dumps(progress))
    at = min(max(int(out["at"]), 0), len(ids) - 1)
    if op not in OPS:
        raise ValueError("op")
    if op == "goto":
        if step not in ids:
            raise ValueError("step")
        out["at"], out["finished"] = ids.index(step), False
        return out
    if op == "restart":
        return fresh_progress()
    if op == "finish":
        out["finished"] = True
        return out
    if op == "back":
        out["at"] = max(at - 1, 0)
        return out
    current = ids[at]
    if op == "done":
        out["done"].setdefault(current, by)
        out["skipped"] = [s for s in out["skipped"] if s != current]
    else:  # skip
        if current not in out["done"] and current not in out["skipped"]:
            out["skipped"].append(current)
    if at + 1 < len(ids):
        out["at"] = at + 1
    else:
        out["finished"] = True
    return out


# ---- what the camera ticks off ------------------------------------------------------------
def tick(progress: dict, steps: list[dict], seen: set[str]) -> bool:
    """Mark every step whose camera check is met as done by the camera; True if any was.
    ``seen``: the checks met now ("marker", "stickers", "card", "card:<zone>";
    companion/blueprints/table_guide.py reads them from the camera's snapshot)."""
    changed = False
    for step in steps:
        if step["camera"] and step["camera"] in seen and step["id"] not in progress["done"]:
            progress["done"][step["id"]] = "camera"
            progress["skipped"] = [s for s in progress["skipped"] if s != step["id"]]
            changed = True
    return changed


def drawn_names(live, lang: str) -> dict[str, list[str]]:
    """By step id, the names (in ``lang``) of the cards the game drew itself for that step
    (``GameInfo.setup_drawn``: Monasterium's missions); {} for a game that draws none."""
    drawn = live.kind.module.info.setup_drawn
    if drawn is None or live.state is None:
        return {}

    def name(entry: str) -> str:  # the catalog's name, as every view names an entry
        names = live.kind.names.get(entry) or {}
        return i18n.in_lang(names, lang, entry)

    return {step: [name(entry) for entry in entries]
            for step, entries in drawn(live.state).items()}


def public(guide: dict, live, progress: dict, lang: str) -> dict:
    """What every screen shows of the setup: the steps in ``lang``, where it is, the ticks,
    and under a step that lays what the game drew, those cards by name (``drawn``)."""
    players = len(live.seats)
    steps = steps_for(guide, players)
    game = live.kind.name
    drawn = drawn_names(live, lang)
    rule = citing.reference(live.kind, guide["rulebook"], lang) if guide["rulebook"] else ""
    return {
        "players": players,
        "at": min(progress["at"], len(steps) - 1),
        "finished": bool(progress["finished"]),
        "rule": rule,  # where the rulebook a player of ``lang`` reads sets the game up
        "steps": [{"id": s["id"], "text": i18n.text(lang, s["text"], {"n": _n(s["n"], players)},
                                                    game=game),
                   "rule": rule, "picture": s["picture"], "camera": s["camera"],
                   "drawn": drawn.get(s["id"], []),
                   "done": progress["done"].get(s["id"]),
                   "skipped": s["id"] in progress["skipped"]} for s in steps],
    }
