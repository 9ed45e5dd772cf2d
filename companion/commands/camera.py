"""`companion camera`: try a camera, calibrate north, make a synthetic test video."""
from __future__ import annotations

import json
import math
import time
from pathlib import Path

import click

from hardware.camera import calibration as calibration_file
from hardware.camera.sources import FolderSource, OpenCVSource, SourceLost, open_source
from hardware.camera.tracker import to_json

command = click.Group("camera", help="Camera: test a source, calibrate north, synthetic video.")

DATA = click.option("--data", "data_dir", type=click.Path(file_okay=False, path_type=Path),
                    default=Path("instance"), show_default=True,
                    help="Data directory (config.json holds camera settings and calibration).")


def _marker_mm(ctx, param, value: float | None) -> float | None:
    """--marker-mm: a finite size in mm above 0 and at most 1000 (click's float reads "nan"
    and "inf", which no range refuses and config.json may not hold)."""
    if value is not None and not (math.isfinite(value) and 0 < value <= 1000):
        raise click.BadParameter("a size in mm above 0 and at most 1000")
    return value


def _recognizer(config: Path):
    """The recogniser from config.json; a setting whose numbers are not board numbers
    (hardware/camera/board_numbers.py) is said in one line, not a traceback."""
    from hardware.camera.settings import build_recognizer, load_settings

    try:
        return build_recognizer(load_settings(config), config)
    except ValueError as exc:
        raise click.ClickException(f"{config}: camera {exc}") from None


def _source(spec: str, realtime: bool):
    source = open_source(spec)
    if isinstance(source, FolderSource):  # --fast: no 30 fps pacing, stop at the end
        source = FolderSource(source.folder, fps=30.0 if realtime else 0.0, loop=False)
    if isinstance(source, OpenCVSource) and source.is_file:
        source.loop, source.pace = False, realtime
    return source


@command.command("test")
@click.argument("source_spec", metavar="SOURCE")
@DATA
@click.option("--seconds", type=float, default=None, help="Stop after this long.")
@click.option("--frames", type=int, default=None, help="Stop after this many frames.")
@click.option("--realtime/--fast", default=False,
              help="Play video files at their frame rate (default: as fast as decoded).")
def test_command(source_spec: str, data_dir: Path, seconds: float | None, frames: int | None,
                 realtime: bool) -> None:
    """Print the observations of SOURCE as JSON lines, then one line of statistics.

    SOURCE: 0 or /dev/video0 (USB), picamera2, synthetic[:SEED], folder:DIR, a video file,
    or an http:// / rtsp:// stream.
    """
    config = data_dir / "config.json"
    recognizer = _recognizer(config)
    source = _source(source_spec, realtime)
    try:
        source.open()
    except SourceLost as error:
        raise click.ClickException(f"camera not available: {error}") from error
    count, decode_ms, start = 0, [], time.monotonic()
    try:
        while (frames is None or count < frames) and (
                seconds is None or time.monotonic() - start < seconds):
            try:
                image = source.read()
            except SourceLost:
                break
            at = time.monotonic() - start
            result = recognizer.process(image, at)
            count += 1
            decode_ms.append(result.decode_ms)
            for observation in result.observations:
                click.echo(json.dumps(dict(to_json(observation), frame=count - 1)))
    finally:
        source.close()
    decode_ms.sort()
    click.echo(json.dumps({"type": "stats", "frames": count,
                           "decode_median_ms": round(decode_ms[len(decode_ms) // 2], 2)
                           if decode_ms else None,
                           "calibration": recognizer.calibration_source}))


@command.command("calibrate")
@click.argument("source_spec", metavar="SOURCE")
@DATA
@click.option("--marker-mm", type=float, default=None, callback=_marker_mm,
              help="Printed size of the board markers' QR symbols (default from config, 30).")
@click.option("--frames", type=int, default=150, show_default=True,
              help="Give up when no board marker is seen in this many frames.")
@click.option("--tray", default=None, metavar="LEFT,TOP,RIGHT,BOTTOM",
              help="The dice tray in mm from the board marker's centre (camera.tray): the "
                   "camera reads dice only inside it.")
def calibrate_command(source_spec: str, data_dir: Path, marker_mm: float | None,
                      frames: int, tray: str | None) -> None:
    """Lay the board marker (and any corner markers) pointing north, then run this once.

    With two or more markers in view the calibration is a homography that holds a tilted
    camera; it prints the residual error in mm and the pixels per module of the stickers in
    view (a warning below 3)."""
    from companion.wiring import camera_dice
    from hardware.camera.decode import Decoder, to_gray
    from hardware.camera.rescue import RescueSettings, second_pass
    from hardware.camera.settings import load_settings

    config = data_dir / "config.json"
    tray_mm = None
    if tray is not None:
        tray_mm = camera_dice.tray_from_form(tray.split(","))
        if tray_mm is None:
            raise click.BadParameter("four numbers in mm, left,top,right,bottom, at least 20 "
                                     "mm apart each way", param_hint="--tray")
    settings = load_settings(config)
    size = marker_mm or settings.marker_mm
    try:
        positions = calibration_file.marker_positions(settings.markers)
    except ValueError as exc:
        raise click.ClickException(f"{config}: camera.markers {exc}") from None
    source = _source(source_spec, realtime=False)
    decoder, rescue = Decoder(), RescueSettings(budget_ms=50.0)
    best, first_seen = None, None
    try:
        source.open()
        for index in range(frames):
            try:
                gray = to_gray(source.read())
            except SourceLost:
                break
            frame_size = (gray.shape[1], gray.shape[0])
            detections = decoder.decode(gray)
            detections += second_pass(decoder, gray, detections, [], rescue)[0]
            markers = [d for d in detections if d.payload in positions]
            if not markers:
                continue
            first_seen = index if first_seen is None else first_seen
            if best is None or len({m.payload for m in markers}) > len(
                    {m.payload for m in best[1]}):
                best = (detections, markers)
            if len(best[1]) >= len(positions) or index - first_seen >= 15:
                break
    except SourceLost as error:
        raise click.ClickException(f"camera not available: {error}") from error
    finally:
        source.close()
    if best is None:
        raise click.ClickException("no board marker was seen: is it in view and lit?")
    detections, markers = best
    calibration = calibration_file.Calibration.from_markers(markers, size, positions)
    data_dir.mkdir(parents=True, exist_ok=True)
    calibration_file.save(config, calibration)
    report = calibration_file.sticker_report(detections)
    if tray_mm is not None:
        camera_dice.save_tray(config, tray_mm)
        report["tray"] = camera_dice.tray_report(tray_mm, calibration, frame_size)
    click.echo(json.dumps({"saved": str(config), **calibration.to_json(),
                           "residual_mm": calibration.residual_mm,  # None: one marker
                           "markers": calibration.markers,
                           "markers_seen": sorted(m.payload for m in markers), **report}))
    if report["small"]:
        click.echo(f"warning: the smallest sticker shows {report['module_px_min']} px per "
                   f"module (below {calibration_file.MIN_MODULE_PX:g}): use bigger stickers "
                   "or bring the camera closer", err=True)


@command.command("synthetic")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              required=True, help="Video file to write (.avi, MJPG).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--event", default=None, help="Payload of the event card (default a demo one).")
@click.option("--action", default=None, help="Payload of the action card.")
def synthetic_command(out_path: Path, seed: int, event: str | None, action: str | None) -> None:
    """Write the scripted synthetic table video and its ground truth (.truth.json)."""
    from hardware.synthetic.video import demo_script, write_video

    path = write_video(out_path, demo_script(event, action), seed)
    click.echo(str(path))


@command.command("snapshot")
@click.argument("source_spec", metavar="SOURCE")
@DATA
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              required=True, help="JPEG to write.")
@click.option("--frames", type=int, default=30, show_default=True,
              help="Frames to read first (the camera's exposure settles; the debounce fills).")
def snapshot_command(source_spec: str, data_dir: Path, out_path: Path, frames: int) -> None:
    """Save one frame with overlays (zones, codes, names, rotation) to check the setup."""
    from hardware.camera.overlay import draw_overlay, jpeg

    config = data_dir / "config.json"
    recognizer = _recognizer(config)
    source = _source(source_spec, realtime=False)
    last = None
    try:
        source.open()
        for index in range(frames):
            try:
                image = source.read()
            except SourceLost:
                break
            last = (image, recognizer.process(image, index / 30))
    except SourceLost as error:
        raise click.ClickException(f"camera not available: {error}") from error
    finally:
        source.close()
    if last is None:
        raise click.ClickException("no frame was read")
    image, result = last
    out_path.write_bytes(jpeg(draw_overlay(image, result, recognizer.zones,
                                           recognizer.calibration), quality=85))
    click.echo(json.dumps({"written": str(out_path), "codes": len(result.detections),
                           "calibration": recognizer.calibration_source}))


@command.command("dice")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--die-px", type=click.FloatRange(min=8.0), default=None,
              help="The dice's side in pixels, if known (default: the typical blob).")
@click.option("--game", default=None,
              help="Also read this game's dice taught by pictures on the deck page (dice "
                   "whose faces are not pips), from the data directory; they carry \"die\".")
@DATA
def dice_command(files: tuple[Path, ...], die_px: float | None, game: str | None,
                 data_dir: Path) -> None:
    """Read the pip dice in still images (each whole image is the tray): one JSON line per
    file. A die that cannot be read with confidence has "face": null."""


    from hardware.camera.dice_faces import read_tray

    taught = []
    if game is not None:
        from companion.box.taught_dice import taught_for
        from companion.game import games

        if game not in games.known():
            raise click.UsageError(f"no game {game} (installed: {', '.join(games.known())})")
        taught = taught_for(game, data_dir)
        if not taught:
            raise click.UsageError(f"no die of {game} is taught in {data_dir} (every face "
                                   "needs its picture: the host's \"Your deck\" page)")

    def line(image) -> dict:
        reading = read_tray(image, die_px, taught)
        return {"clear": reading.clear, "dice": [d.to_json() for d in reading.dice]}

    _each_image(files, line)


def _each_image(files, line) -> None:
    """One JSON line per file: {"file", **line(image)}, or its error when it is no image
    (the others are still read); exit status 1 when any was not an image."""
    import cv2

    failed = False
    for path in files:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            click.echo(json.dumps({"file": str(path), "error": "not an image"}))
            failed = True
            continue
        click.echo(json.dumps({"file": str(path), **line(image)}))
    if failed:
        raise SystemExit(1)


@command.command("cards")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--taught", "taught_dir", required=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Folder with one upright picture of each card's face, <id>.png or <id>.jpg.")
@click.option("--min-px", type=click.FloatRange(min=16.0), default=40.0, show_default=True,
              help="The shortest card side in pixels to look for.")
def cards_command(files: tuple[Path, ...], taught_dir: Path, min_px: float) -> None:
    """Name the cards in still images by their printed face (no sticker): one JSON line per
    FILE, {"file", "cards": [{"id", "turn", "turn_known", "corners", "score"}]}; "id" is
    null for a card not known with confidence, "turn" the degrees clockwise from upright;
    "turn_known" false for a face that looks the same turned half round: "turn" is then 0
    or 90 and may be 180 more."""
    import cv2

    from hardware.camera.card_faces import FaceBook, recognise

    if not taught_dir.is_dir():
        raise click.UsageError(f"no folder {taught_dir} (--taught: one picture per card face)")
    pictures, unreadable = {}, []
    for path in sorted(taught_dir.iterdir()):
        if path.suffix.lower() in (".png", ".jpg", ".jpeg"):
            image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if image is None or image.size == 0:
                unreadable.append(path.name)
            else:
                pictures[path.stem] = image
    if unreadable:
        raise click.UsageError(f"not an image in {taught_dir}: {', '.join(unreadable)}")
    if not pictures:
        raise click.UsageError(f"no card picture (<id>.png or <id>.jpg) in {taught_dir}")
    book = FaceBook.from_pictures(pictures)
    _each_image(files, lambda image: {"cards": [s.to_json() for s in
                                                recognise(image, book, min_px=min_px)]})
