"""The host's camera page (issue 4 §6): live preview with overlays, status, calibration.

The running camera is the context's camera port (``hardware.camera``, a
`companion.context.CameraPort`); without one the page says so (translated) and the stream
answers 503. Every route needs the host of the game (cookie or Bearer token).
"""
from __future__ import annotations

from flask import Blueprint, Response, jsonify, stream_with_context

from companion import context
from companion.blueprints import common
from companion.blueprints.hardware_status import hardware_status_for, status_json
from companion.context import CameraPort
from companion.game import hardware_texts
from companion.server import i18n
from engine.api import Refused

bp = Blueprint("camera", __name__)


def text(code: str, **params) -> str:
    return hardware_texts.message(i18n.page_lang(), code, params)


def running() -> CameraPort | None:
    """The running camera, or None."""
    return context.current().hardware.camera


@bp.get("/host/<game_id>/camera")
def camera_page(game_id: str):
    live = common.live_or_404(game_id)
    if common.host_identity(game_id) is None:
        return common.render_page("host_login.html", "host", live, 401)
    return tray_page(live)


def tray_page(live, status: int = 200, tray_error: str | None = None,
              tray: list | None = None):
    from flask import request

    from companion.wiring.camera_dice import load_tray

    saved = load_tray(context.current().settings.config_path)
    notice = text("tray_saved") if request.args.get("tray") == "saved" else None
    hw = hardware_status_for(live, "camera")
    mains = request.args.get("mains")
    return common.render_page("camera.html", "host", live, status,
                              running=running() is not None,
                              hw=hw, optics=optics_texts(hw.get("optics")),
                              mains=current_mains(hw.get("optics")),
                              mains_notice=text("mains_saved", hz=mains)
                              if mains in ("50", "60") else None,
                              no_camera=text("no_camera"), tray_error=tray_error,
                              tray_notice=notice,
                              tray=tray or (list(saved) if saved else ["", "", "", ""]))


@bp.get("/host/<game_id>/camera/status.json")
def camera_status(game_id: str):
    return status_json(game_id, "camera")


@bp.get("/host/<game_id>/camera.mjpg")
def camera_stream(game_id: str):
    """The MJPEG preview for an <img>; 503 with a translated text when no camera runs."""
    common.host_only(game_id, as_json=False)
    handle = running()
    if handle is None:
        return Response(text("no_camera"), status=503, mimetype="text/plain")
    response = Response(stream_with_context(handle.mjpeg()),
                        mimetype="multipart/x-mixed-replace; boundary=frame")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/host/<game_id>/camera/calibrate")
def calibrate(game_id: str):
    """The wizard's last step: keep the board marker's north (config.json camera.calibration)."""
    common.check_csrf()
    live = common.host_only(game_id)
    handle = running()
    if handle is None:
        return jsonify(ok=False, code="no_camera", message=text("no_camera")), 503
    try:
        calibration = handle.save_calibration()
    except Refused as exc:
        from companion.wiring.camera_plan import MESSAGES

        message = hardware_texts.message(i18n.page_lang(), exc.code, exc.params,
                                         live.kind.reasons, MESSAGES.get(exc.code))
        return jsonify(ok=False, code=exc.code, params=exc.params, message=message), 409
    stickers = handle.snapshot().sticker_report()
    return jsonify(ok=True, calibration=calibration, stickers=stickers,
                   message=text("calibration_saved") + measured(calibration, stickers))


def optics_texts(optics: dict | None) -> list[str]:
    """The Camera Module's focus and the room's lights in words (issue 62): a line each."""
    if not isinstance(optics, dict) or not optics.get("sensor"):
        return []
    if optics.get("sharp"):
        focus = text("focus_sharp")
    else:
        focus = text("focus_soft_ring" if optics.get("focus_mode") == "ring" else "focus_soft")
    if optics.get("rescans"):  # the focus watch's own scans (companion/wiring/focus_watch.py)
        focus += " " + text("focus_rescanned", n=optics["rescans"])
    mains, exposure = optics.get("mains_hz"), optics.get("exposure_us")
    if not optics.get("banding_measured"):  # just (re)started: nothing to say yet
        return [focus]
    if not optics.get("flickering"):
        lights = text("lights_steady")
    elif mains and isinstance(exposure, (int, float)) and exposure < 0.98e6 / (2 * mains):
        lights = text("lights_flicker_bright")
    else:
        lights = text("lights_flicker", hz=60 if mains == 50 else 50)
    return [focus, lights]


def current_mains(optics: dict | None) -> int:
    """The mains frequency the camera cancels now (the setting, else the default)."""
    from hardware.camera.settings import mains_for

    if isinstance(optics, dict) and optics.get("mains_hz") in (50, 60):
        return optics["mains_hz"]
    return mains_for(context.current().settings.camera, None)


@bp.post("/host/<game_id>/camera/mains")
def save_mains(game_id: str):
    """The room's mains frequency (config.json camera.mains_hz, 50 or 60): rpicam-vid's
    --flicker-period; the Camera Module restarts with it at once."""
    from flask import redirect, request, url_for

    from hardware import config_file

    common.check_csrf()
    live = common.host_only(game_id, as_json=False)
    given = request.form.get("hz", "")
    if given not in ("50", "60"):
        return tray_page(live, 400, text("mains_bad"))
    hz = int(given)
    config_file.update(context.current().settings.config_path,
                       lambda data: data.setdefault("camera", {}).__setitem__("mains_hz", hz))
    handle = running()
    if handle is not None:
        handle.set_mains(hz)
    return redirect(url_for("camera.camera_page", game_id=game_id, mains=given), code=303)


def measured(calibration: dict, stickers: dict) -> str:
    """Numbers after the saved message: the residual error (mm) of a calibration from
    several markers, the smallest sticker's pixels per module and a warning sign below 3."""
    parts = []
    if calibration.get("residual_mm") is not None:
        parts.append(f"± {calibration['residual_mm']:.1f} mm ({calibration['markers']} markers)")
    if stickers.get("module_px_min") is not None:
        parts.append(f"{stickers['module_px_min']:.1f} px/module"
                     + (" ⚠ < 3" if stickers.get("small") else ""))
    return (" " + " · ".join(parts)) if parts else ""


@bp.post("/host/<game_id>/camera/acting")
def acting(game_id: str):
    """Let the camera act in the game, or only show on this page what it would do."""
    from flask import redirect, request, url_for

    common.check_csrf()
    common.host_only(game_id, as_json=False)
    handle = running()
    if handle is None:
        return Response(text("no_camera"), status=503, mimetype="text/plain")
    handle.set_acting(request.form.get("on") == "1")
    return redirect(url_for("camera.camera_page", game_id=game_id), code=303)


@bp.post("/host/<game_id>/camera/tray")
def save_tray(game_id: str):
    """The dice tray's rectangle in board mm (config.json camera.tray): the camera reads
    dice only inside it, from the next frame on."""
    from flask import redirect, request, url_for

    from companion.wiring import camera_dice

    common.check_csrf()
    live = common.host_only(game_id, as_json=False)
    given = [request.form.get(k, "")[:40] for k in ("x0", "y0", "x1", "y1")]
    tray = camera_dice.tray_from_form(given)
    if tray is None:
        return tray_page(live, 400, text("tray_bad"), given)
    camera_dice.save_tray(context.current().settings.config_path, tray)
    dice = context.current().hardware.dice
    if dice is not None:
        dice.tray_changed()
    return redirect(url_for("camera.camera_page", game_id=game_id, tray="saved"), code=303)


# ------------------------------------------- "which card is this?" (cards known by face)
def _answerer(game_id: str):
    """The paired table display or the host: who may name a card the camera asks about."""
    return common.table_identity(game_id) or common.host_identity(game_id)


@bp.get("/games/<game_id>/camera/unknown.json")
def unknown_cards(game_id: str):
    """The zones where a card lies that the camera does not know by its face, with their
    names, and the cards it may be (the game's face cards, by name), for the TV's question."""
    from companion.box.taught_cards import face_cards

    live = common.live_or_404(game_id)
    if _answerer(game_id) is None:
        return common.json_error("not_paired", {}, 403, live)
    camera = running()
    lang = i18n.page_lang()
    info = live.kind.module.info
    zones = {z.id: i18n.text(lang, z.name, game=live.kind.name) for z in info.bindings.zones}
    asked = camera.status().get("unknown", []) if camera is not None else []
    cards = [{"id": c.id, "name": i18n.in_lang(c.names, lang, c.id)}
             for c in face_cards(info, live.kind.catalog)]
    return jsonify({"ok": True, "zones": [{"zone": z, "name": zones.get(z, z)} for z in asked],
                    "cards": cards})


@bp.post("/games/<game_id>/camera/unknown")
def name_unknown_card(game_id: str):
    """``{"zone", "card"}``: the card the camera asked about in ``zone`` is ``card``; its
    face is taught as that card's (the camera knows it from now on) and the game is told."""
    from companion.blueprints.deck import refused
    from companion.box.catalog import CatalogError, problem

    common.check_csrf()
    live = common.live_or_404(game_id)
    if _answerer(game_id) is None:
        return common.json_error("not_paired", {}, 403, live)
    body = common.json_body(2048)
    camera = running()
    try:
        if not isinstance(body, dict) or type(body.get("zone")) is not str \
                or type(body.get("card")) is not str:
            raise CatalogError([problem("(faces)", None, None, "face_request")])
        if camera is None:
            raise CatalogError([problem("(camera)", None, None, "no_unknown_card")])
        camera.answer_unknown(body["zone"][:80], body["card"][:80])
    except CatalogError as exc:
        return refused(live.kind.name, exc)
    context.current().kinds.changed(live.kind.name)
    return jsonify({"ok": True})
