"""The guided setup's routes: the TV's page, the steps with the progress (and each phone's
starting pieces), and the table's or the host's taps (done, skip, back, resume a step).

The steps are the rulebook's, public to anyone at the table; only the paired table display
and the host may move the guide on. The progress is the game service's
(`GameService.setup_progress`: kept in SQLite, read, changed and written under the game's
lock), so a tap and a camera tick at the same moment are both kept.

The camera's step (its check "marker") carries the focus meter (`companion.table.focus_meter`):
ticked only once the marker is sharp, and a tap on it refused while the marker is soft;
``{"op": "focus"}`` asks a camera with a focus lens for one scan on the table.
"""
from __future__ import annotations

from flask import Blueprint, abort, jsonify

from companion import context
from companion.blueprints import common
from companion.context import CameraSnapshot
from companion.game.service import LiveGame
from companion.server import i18n
from companion.table import table_guide as guide_mod
from companion.wiring import focus_meter

bp = Blueprint("table_guide", __name__)


def _guide(live):
    guide = guide_mod.guide_of(live.kind.module.info.table_guide)
    if guide is None:
        abort(common.json_error("no_setup_guide", {}, 404, live))
    return guide


def camera_sees(seen: CameraSnapshot, live: LiveGame) -> set[str]:
    """The camera checks met now: "marker" (the board marker in view, north known and the
    marker sharp),
    "stickers" (stickers in view, none too small to read from this height), "card" and
    "card:<zone>" (a card at rest, and in that zone: one the game has taken there, when the
    game says what it has, `Bindings.zone_cards`; the camera alone ticks no step the game
    then denies). Empty while the camera's readings go to another game."""
    if seen.game != live.id or seen.frame is None:
        return set()
    out = set()
    if seen.marker_seen and seen.calibration_source != "none" and not focus_meter.is_soft(seen):
        out.add("marker")
    report = seen.sticker_report()
    if report.get("stickers") and not report.get("small"):
        out.add("stickers")
    has = live.kind.module.info.bindings.zone_cards
    placed = has(live.state) if has is not None else None
    for card in seen.cards:
        out.add("card")
        if card.zone and (placed is None or card.card in placed.get(card.zone, ())):
            out.add(f"card:{card.zone}")
    return out


def snapshot_for(live: LiveGame) -> CameraSnapshot | None:
    """What the running camera sees now, if it sees it for ``live`` (None without a
    camera, or while its readings go to another game)."""
    parts = context.current()
    camera = parts.hardware.camera
    if camera is None or parts.service.access.current() is not live:
        return None
    return camera.snapshot()


def camera_state(live: LiveGame) -> str:
    """What the setup page may say of the camera: "here" (running for this game: it ticks
    steps off), "elsewhere" (running for the game at the table) or "absent"."""
    parts = context.current()
    state = parts.hardware.status().get("camera", {}).get("state")
    if state not in ("ok", "starting"):
        return "absent"
    return "here" if parts.service.access.current() is live else "elsewhere"


def focus_for(live: LiveGame, seen: CameraSnapshot | None) -> dict | None:
    """The focus meter (`focus_meter.state`) while the camera runs for ``live``."""
    if seen is None:
        return None
    camera = context.current().hardware.camera
    return focus_meter.state(seen, camera.status().get("optics") if camera else None)


def _soft_at(progress: dict, steps: list[dict], seen: CameraSnapshot | None) -> bool:
    """The current step is the camera's and the marker is measured soft."""
    at = min(max(int(progress.get("at", 0)), 0), len(steps) - 1)
    return steps[at].get("camera") == "marker" and focus_meter.is_soft(seen)


class MarkerSoft(Exception):
    """A tap on the camera's step while the marker is soft: nothing changes."""


def _ticked(live: LiveGame, guide: dict, seen: CameraSnapshot | None):
    """A change of the progress (`GameService.setup_progress`, under the game's lock): the
    checks the camera's snapshot ``seen`` meets ticked off; None when it ticks nothing new."""
    steps = guide_mod.steps_for(guide, len(live.seats))

    def tick(progress: dict) -> dict | None:
        met = camera_sees(seen, live) if seen is not None else set()  # reads live.state
        return progress if guide_mod.tick(progress, steps, met) else None

    return tick


@bp.get("/table/<game_id>/setup")
def page(game_id: str):
    live = common.live_or_404(game_id)
    _guide(live)
    may_act = (common.table_identity(game_id) or common.host_identity(game_id)) is not None
    return common.render_page("setup.html", "table", live, may_act=may_act)


@bp.get("/games/<game_id>/setup.json")
def state(game_id: str):
    live = common.live_or_404(game_id)
    guide = _guide(live)
    lang = i18n.page_lang()
    seen = snapshot_for(live)
    progress = common.service().setup_progress(live.id, _ticked(live, guide, seen))
    out = guide_mod.public(guide, live, progress, lang)
    out["camera"] = camera_state(live)  # may the page promise ticks?
    out["focus"] = focus_for(live, seen)
    seat = common.seat_identity(game_id)
    if seat is not None:  # a phone: its own starting pieces
        out["mine"] = guide_mod.pieces_for(guide, live, seat.seat, lang)
    return jsonify(out)


@bp.post("/games/<game_id>/setup")
def act(game_id: str):
    """{"op": done | skip | back | goto | finish | restart | focus, "step": id (goto)}."""
    common.check_csrf()
    live = common.live_or_404(game_id)
    who = common.table_identity(game_id) or common.host_identity(game_id)
    if who is None:
        return common.json_error("not_paired", {}, 403, live)
    guide = _guide(live)
    body = common.json_body(2048)
    op = body.get("op") if isinstance(body, dict) else None
    step = body.get("step") if isinstance(body, dict) else None
    if not isinstance(op, str) or (step is not None and not isinstance(step, str)):
        return common.json_error("bad_request", {}, 400, live)
    steps = guide_mod.steps_for(guide, len(live.seats))
    seen = snapshot_for(live)
    tick = _ticked(live, guide, seen)
    if op == "focus":  # one focus scan on the table, then the usual state
        camera = context.current().hardware.camera
        if seen is None or camera is None or not camera.refocus():
            return common.json_error("no_focus_lens", {}, 409, live)
        op = "none"

    def tap(progress: dict) -> dict:
        tick(progress)  # what the camera sees is kept with the tap
        if op == "none":
            return progress
        if op == "done" and _soft_at(progress, steps, seen):
            raise MarkerSoft
        return guide_mod.apply_op(progress, steps, op[:20], step, who.role)

    try:
        progress = common.service().setup_progress(live.id, tap)
    except MarkerSoft:
        return common.json_error("marker_soft", {}, 409, live)
    except ValueError:
        return common.json_error("bad_request", {}, 400, live)
    out = guide_mod.public(guide, live, progress, i18n.page_lang())
    out["camera"] = camera_state(live)
    out["focus"] = focus_for(live, seen)
    return jsonify(out)
