"""The guided setup's routes: the TV's page, the steps with the progress (and each phone's
starting pieces), and the table's or the host's taps (done, skip, back, resume a step).

The steps are the rulebook's, public to anyone at the table; only the paired table display
and the host may move the guide on. The progress is kept in SQLite (companion/table/table_guide.py).
"""
from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify

from companion.blueprints import common
from companion.server import i18n
from companion.table import table_guide as guide_mod

bp = Blueprint("table_guide", __name__)


def _guide(live):
    guide = guide_mod.guide_of(live.kind.module.info.table_guide)
    if guide is None:
        abort(common.json_error("no_setup_guide", {}, 404, live))
    return guide


def _state(live, guide: dict) -> dict:
    """The progress, with what the camera sees now ticked off (and kept)."""
    store = common.service().store
    progress = guide_mod.load_progress(store, live.id)
    steps = guide_mod.steps_for(guide, len(live.seats))
    if guide_mod.tick(progress, steps, guide_mod.camera_sees(current_app, live)):
        store.save_setup_progress(live.id, progress)
    return progress


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
    out = guide_mod.public(guide, live, _state(live, guide), lang)
    out["camera"] = guide_mod.camera_state(current_app, live)  # may the page promise ticks?
    seat = common.seat_identity(game_id)
    if seat is not None:  # a phone: its own starting pieces
        out["mine"] = guide_mod.pieces_for(guide, live, seat.seat, lang)
    return jsonify(out)


@bp.post("/games/<game_id>/setup")
def act(game_id: str):
    """{"op": done | skip | back | goto | finish | restart, "step": id (goto)}."""
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
    store = common.service().store
    with live.lock:
        progress = _state(live, guide)
        steps = guide_mod.steps_for(guide, len(live.seats))
        try:
            progress = guide_mod.apply_op(progress, steps, op[:20], step, who.role)
        except ValueError:
            return common.json_error("bad_request", {}, 400, live)
        store.save_setup_progress(live.id, progress)
    out = guide_mod.public(guide, live, progress, i18n.page_lang())
    out["camera"] = guide_mod.camera_state(current_app, live)
    return jsonify(out)
