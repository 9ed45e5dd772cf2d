"""The host's camera page (issue 4 §6): live preview with overlays, status, calibration.

The running camera is the hardware manager's ``camera`` handle (a
`companion.wiring.camera.CameraWiring`); without one the page says so (translated) and the
stream answers 503. Every route needs the host of the game (cookie or Bearer token).
"""
from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, stream_with_context

from companion.blueprints import common
from companion.blueprints.hardware_status import (
    hardware_handle,
    hardware_status_for,
    status_json,
)
from companion.server import i18n
from companion.wiring import hardware_texts
from engine.api import Refused

bp = Blueprint("camera", __name__)


def text(code: str, **params) -> str:
    return hardware_texts.message(i18n.page_lang(), code, params)


@bp.get("/host/<game_id>/camera")
def camera_page(game_id: str):
    live = common.live_or_404(game_id)
    if common.host_identity(game_id) is None:
        return common.render_page("host_login.html", "host", live, 401)
    return tray_page(live)


def tray_page(live, status: int = 200, tray_error: str | None = None,
              tray: list | None = None):
    from flask import request

    from companion.server.settings import from_app
    from companion.wiring.camera_dice import load_tray

    handle = hardware_handle("camera")
    running = handle is not None and hasattr(handle, "mjpeg")
    saved = load_tray(from_app(current_app).config_path)
    notice = text("tray_saved") if request.args.get("tray") == "saved" else None
    return common.render_page("camera.html", "host", live, status, running=running,
                              hw=hardware_status_for(live, "camera"),
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
    handle = hardware_handle("camera")
    if handle is None or not hasattr(handle, "mjpeg"):
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
    handle = hardware_handle("camera")
    if handle is None or not hasattr(handle, "save_calibration"):
        return jsonify(ok=False, code="no_camera", message=text("no_camera")), 503
    try:
        calibration = handle.save_calibration()
    except Refused as exc:
        from companion.wiring.camera import MESSAGES

        message = hardware_texts.message(i18n.page_lang(), exc.code, exc.params,
                                         live.kind.reasons, MESSAGES.get(exc.code))
        return jsonify(ok=False, code=exc.code, params=exc.params, message=message), 409
    stickers = handle.sticker_report() if hasattr(handle, "sticker_report") else {}
    return jsonify(ok=True, calibration=calibration, stickers=stickers,
                   message=text("calibration_saved") + measured(calibration, stickers))


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
    handle = hardware_handle("camera")
    if handle is None or not hasattr(handle, "set_acting"):
        return Response(text("no_camera"), status=503, mimetype="text/plain")
    handle.set_acting(request.form.get("on") == "1")
    return redirect(url_for("camera.camera_page", game_id=game_id), code=303)


@bp.post("/host/<game_id>/camera/tray")
def save_tray(game_id: str):
    """The dice tray's rectangle in board mm (config.json camera.tray): the camera reads
    dice only inside it, from the next frame on."""
    from flask import redirect, request, url_for

    from companion.server.settings import from_app
    from companion.wiring import camera_dice

    common.check_csrf()
    live = common.host_only(game_id, as_json=False)
    given = [request.form.get(k, "").strip().replace(",", ".") for k in ("x0", "y0", "x1", "y1")]
    try:
        tray = camera_dice.parse_tray([float(v) for v in given])
    except ValueError:
        tray = None
    if tray is None:
        return tray_page(live, 400, text("tray_bad"), given)
    camera_dice.save_tray(from_app(current_app).config_path, tray)
    dice = hardware_handle("dice")
    if getattr(dice, "camera", None) is not None:
        dice.camera.reset()
    return redirect(url_for("camera.camera_page", game_id=game_id, tray="saved"), code=303)
