"""The host's "Your deck" page: the owner enters their own cards (issue 12).

Every catalog part of a game with its entries and how far they are entered; a form per
entry built in the browser from the part's JSON Schema (the game declares it), checked as
the owner types with the same checks as ``companion catalog check`` (nothing written), saved
through `companion.box.deck`; export and import of the owner's catalog; a picture of a card
taken from the camera's latest frame (found by its sticker); its stickers as a printable
PDF. Knows no game: only `GameInfo` and the catalog tools. Every route needs the host of
the game in the URL (the owner); ``game`` may name any installed game's deck.
"""
from __future__ import annotations

import io
import json
import re
import time

from flask import Blueprint, Response, current_app, request, send_file

from companion import context
from companion.blueprints import common
from companion.box import deck
from companion.box.catalog import REASONS as LOADER_REASONS
from companion.box.catalog import (
    CatalogError,
    assemble,
    override_dir,
    override_files,
    problem,
    shipped_dir,
)
from companion.game import games, views
from companion.server import i18n
from companion.server.limits import MAX_STRING

bp = Blueprint("deck", __name__)
MAX_ENTRY = 64 * 1024  # bytes of one entry's JSON
MAX_BUNDLE = 2 * 1024 * 1024  # bytes of an imported catalog
# The frame of a problem shown to the owner: which entry and field, and what is wrong.
PROBLEM = "{entry} · {field}: {problem}"
PROBLEM_FIELD = "{field}: {problem}"  # not about one entry (e.g. a chapter's count)
PROBLEM_ENTRY = "{entry}: {problem}"  # about a whole entry
TEXTS = {"problem": PROBLEM, "problem_field": PROBLEM_FIELD, "problem_entry": PROBLEM_ENTRY,
         "progress": deck.PROGRESS}  # the shared domain (web/i18n_tool.py)


def data_dir():
    return context.current().settings.data_dir


def deck_game(live) -> str:
    """The game whose deck is asked for (``?game=`` or the JSON body's ``game``): an
    installed game, by default the game of the URL."""
    wanted = request.args.get("game")
    if wanted is None and request.is_json:
        body = common.json_body(MAX_BUNDLE)
        wanted = body.get("game") if isinstance(body, dict) else None
    wanted = wanted or live.kind.name
    if not isinstance(wanted, str) or wanted not in games.known():
        raise CatalogError([{"file": "(catalog)", "entry": None, "field": "game",
                             "code": "unknown_game", "params": {"game": str(wanted)[:40]},
                             "reason": ""}])
    return wanted


# What a part's JSON Schema refused, in words (companion/box/catalog.py `_rule`); the English
# message of the schema library is the fallback.
SCHEMA_TEXTS = {
    "minimum": "must be at least {limit}",
    "maximum": "must be at most {limit}",
    "exclusiveMinimum": "must be more than {limit}",
    "exclusiveMaximum": "must be less than {limit}",
    "minLength": "needs at least {limit} characters",
    "maxLength": "may have at most {limit} characters",
    "minItems": "needs at least {limit} items",
    "maxItems": "may have at most {limit} items",
    "enum": "must be one of: {limit}",
    "required": "must be filled in",
    "additionalProperties": "is not a field of this entry",
    "pattern": "has characters that are not allowed here",
    "uniqueItems": "lists an item twice",
    "oneOf": "is not one of the kinds of value this field takes",
    "type": "has the wrong kind of value",
    "type_integer": "must be a whole number",
    "type_number": "must be a number",
    "type_string": "must be text",
    "type_boolean": "must be yes or no",
    "type_array": "must be a list",
    "type_object": "must be a group of fields",
    "type_null": "must be empty",
}


def _part_id(file: str) -> str:
    """The catalog part a problem's file belongs to (``.../event_cards.chapter1.json``)."""
    name = str(file).replace("\\", "/").rsplit("/", 1)[-1].removeprefix("export:")
    return name.split(".", 1)[0]


def field_labels(game: str, lang: str) -> dict[str, dict[str, str]]:
    """part id -> {field: its label in ``lang``}: the ``title`` of each property of an
    entry (the game's msgid, translated in its domain); fields without one keep their key."""
    out = {}
    for part in games.module_of(game).info.parts:
        node = entry_schema(part.schema, part.nested) or part.schema
        props = node.get("properties") or {} if isinstance(node, dict) else {}
        out[part.id] = {key: i18n.text(lang, sub["title"], game=game)
                        for key, sub in props.items()
                        if isinstance(sub, dict) and isinstance(sub.get("title"), str)}
    return out


def _field_text(labels: dict, field) -> str:
    """"corners[0]" -> "Corners … [0]": the field's label, then the rest of the path."""
    if not isinstance(field, str) or not field:
        return "–"
    root = re.split(r"[.\[]", field, maxsplit=1)[0]
    return labels.get(root, root) + field[len(root):]


def _framed(lang: str, entry, field: str | None, text: str) -> str:
    """What is wrong, after the entry and the field it is about (where there are)."""
    template = (PROBLEM if field else PROBLEM_ENTRY) if entry is not None else (
        PROBLEM_FIELD if field else None)
    if template is None:
        return text
    return i18n.text(lang, template, {"entry": entry, "field": field, "problem": text})


def problem_messages(game: str, problems: list[dict], lang: str,
                     names: dict | None = None) -> list[dict]:
    """Each problem for the owner, in their language: entry (by its name where ``names``
    knows it), field (by its label) and what is wrong."""
    info = games.module_of(game).info
    templates = {**LOADER_REASONS, **(info.texts.reasons or {}), **(info.texts.catalog or {})}
    labels = field_labels(game, lang)
    names = names or {}
    out = []
    for p in problems[:50]:
        params = dict(p.get("params") or {})
        field = p.get("field")
        part_labels = labels.get(_part_id(p.get("file", "")), {})
        template = templates.get(p.get("code"))
        if p.get("code") == "schema" and params.get("rule") in SCHEMA_TEXTS:
            template = SCHEMA_TEXTS[params["rule"]]
            if params["rule"] in ("required", "additionalProperties") and params.get("limit"):
                key = str(params["limit"]).split(", ")[0]  # the field it is about
                field = f"{field}.{key}" if field else key
        text = (i18n.text(lang, template, params, game=game) if template
                else str(p.get("reason", p.get("code"))))
        entry = p.get("entry")
        shown = names.get(str(entry)) or entry
        out.append({"entry": entry, "field": field, "code": p.get("code"),
                    "file": str(p.get("file", "")).rsplit("/", 1)[-1],
                    "message": _framed(lang, shown, _field_text(part_labels, field)
                                       if field else None, text)})
    return out


def refused(game: str, exc: CatalogError, status: int = 422, names: dict | None = None):
    return current_app.response_class(json.dumps({
        "ok": False, "problems": problem_messages(game, exc.problems, i18n.page_lang(), names)},
        ensure_ascii=False), status=status, mimetype="application/json")


def names_of(entries, key: str, lang: str) -> dict[str, str]:
    """entry id -> its name in ``lang`` (else English), for the entries of a list part."""
    out = {}
    for entry in entries if isinstance(entries, list) else []:
        names = entry.get("names") if isinstance(entry, dict) else None
        if isinstance(names, dict):
            name = names.get(lang) or names.get("en")
            if isinstance(name, str) and name:
                out[str(entry.get(key))] = name
    return out


def deck_status_for(game: str, lang: str, names: dict | None = None) -> dict:
    status = deck.status(game, data_dir())
    info = games.module_of(game).info
    for part in status["parts"]:
        params = dict(part["progress"]["params"])
        params["part"] = i18n.text(lang, part["title"], game=game)
        part["title_text"] = params["part"]
        if lang != "en":  # English keeps the lower-case title ("37 of 44 event cards ...")
            part["progress"]["text"] = i18n.text(lang, part["progress"]["template"], params,
                                                 game=game)
    status["problems"] = problem_messages(game, status["problems"], lang, names)
    status["title"] = i18n.in_lang(info.names, lang, game)
    return status


def parts_of(game: str) -> list[dict]:
    """Each part's schema and the merged entries (shipped + the owner's files)."""
    info = games.module_of(game).info
    loaded = assemble(game, shipped_dir(game), override_files(override_dir(data_dir(), game)))
    kinds = {k.part: k for k in info.stickers}
    pictures = override_dir(data_dir(), game) / "pictures"
    have = {p.stem for p in pictures.glob("*.jpg")} if pictures.is_dir() else set()
    out = []
    for part in info.parts:
        value = loaded.data.get(part.id)
        if part.nested is not None and isinstance(value, dict):
            value = value.get(part.nested)
        entries = value if isinstance(value, list) else None
        out.append({"id": part.id, "key": part.key, "merge": part.merge,
                    "nested": part.nested, "schema": part.schema,
                    "entry_schema": entry_schema(part.schema, part.nested),
                    # the form's fields in the schema's order (JSON objects lose it)
                    "fields": list((entry_schema(part.schema, part.nested) or {})
                                    .get("properties") or {}),
                    "stickers": part.id in kinds,
                    "entries": entries if entries is not None else value,
                    "pictures": sorted(have)})
    return out


def ordered(node):
    """The schema with ``x-order`` (its properties in the schema's order) on every object of
    fields: the page's JSON has its keys sorted, and a form follows the schema's order."""
    if isinstance(node, list):
        return [ordered(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: ordered(v) for k, v in node.items()}
    if isinstance(node.get("properties"), dict):
        out["x-order"] = list(node["properties"])
    return out


def entry_schema(schema: dict, nested: str | None) -> dict | None:
    """The schema of one entry of a list part (the items of the list), else None."""
    node = schema
    if nested is not None:
        node = (node.get("properties") or {}).get(nested) or {}
    if node.get("type") == "array":
        return node.get("items") or {}
    props = node.get("properties") or {}
    entries = props.get("entries")
    if isinstance(entries, dict) and entries.get("type") == "array":
        return entries.get("items") or {}
    return None


@bp.get("/host/<game_id>/deck")
def deck_page(game_id: str):
    live = common.live_or_404(game_id)
    if common.host_identity(game_id) is None:
        return common.render_page("host_login.html", "host", live, 401)
    lang = i18n.page_lang()
    try:
        game = deck_game(live)
    except CatalogError:
        game = live.kind.name
    others = []
    for name in games.known():
        try:
            names = games.module_of(name).info.names
        except Exception:  # noqa: BLE001 - a broken plug-in is left out of the list
            current_app.logger.warning("game %s left out of the deck list", name,
                                       exc_info=True)
            continue
        others.append({"id": name, "name": i18n.in_lang(names, lang, name)})
    return common.render_page("deck.html", "host", live, deck_of=game, decks=others,
                              has_camera=context.current().hardware.camera is not None)


@bp.get("/host/<game_id>/deck/data.json")
def deck_data(game_id: str):
    live = common.host_only(game_id)
    try:
        game = deck_game(live)
        lang = i18n.page_lang()
        parts = parts_of(game)
        names = {}
        for part in parts:
            names.update(names_of(part["entries"], part["key"], lang))
            if part["entry_schema"] is not None:
                part["entry_schema"] = ordered(views.titled(part["entry_schema"], lang, game))
            else:  # a part that is one object: the page's form is of all of it
                part["schema"] = ordered(views.titled(part["schema"], lang, game))
        return {"ok": True, "game": game, "status": deck_status_for(game, lang, names),
                "parts": parts}
    except CatalogError as exc:
        return refused(live.kind.name, exc)


def entry_request(live):
    """(game, part id, entry) of a check or save; bounded and typed first."""
    body = common.json_body(MAX_ENTRY)
    if not isinstance(body, dict) or not isinstance(body.get("part"), str) \
            or not isinstance(body.get("entry"), dict) or len(body["part"]) > MAX_STRING:
        raise CatalogError([{"file": "(request)", "entry": None, "field": "entry",
                             "code": "entry_shape", "params": {"part": "?",
                                                               "expected": "an object"},
                             "reason": ""}])
    return deck_game(live), body["part"], body["entry"]


@bp.post("/host/<game_id>/deck/check")
def check(game_id: str):
    """The problems an entry would bring if saved; nothing is written."""
    common.check_csrf()
    live = common.host_only(game_id)
    game = live.kind.name
    try:
        game, part, entry = entry_request(live)
        problems = deck.check_entry(game, data_dir(), part, entry)
    except CatalogError as exc:
        return refused(game, exc)
    return {"ok": not problems,
            "problems": problem_messages(game, problems, i18n.page_lang(),
                                         request_names(game, part, entry))}


def request_names(game: str, part_id: str, entry: dict) -> dict[str, str]:
    """The entry being checked, by the name the owner is typing."""
    part = next((p for p in games.module_of(game).info.parts if p.id == part_id), None)
    return names_of([entry], part.key, i18n.page_lang()) if part else {}


@bp.post("/host/<game_id>/deck/save")
def save(game_id: str):
    common.check_csrf()
    live = common.host_only(game_id)
    game, part, entry = live.kind.name, None, None
    try:
        game, part, entry = entry_request(live)
        deck.save_entry(game, data_dir(), part, entry)
    except CatalogError as exc:
        return refused(game, exc, names=request_names(game, part, entry) if entry else None)
    context.current().kinds.changed(game)
    return {"ok": True, "status": deck_status_for(game, i18n.page_lang())}


@bp.get("/host/<game_id>/deck/export.json")
def export(game_id: str):
    live = common.host_only(game_id)
    try:
        game = deck_game(live)
        bundle = deck.export_bundle(game, data_dir())
    except CatalogError as exc:
        return refused(live.kind.name, exc)
    response = current_app.response_class(json.dumps(bundle, indent=1, ensure_ascii=False),
                                          mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="table-companion-catalog-{game}.json"')
    return response


@bp.post("/host/<game_id>/deck/import")
def import_(game_id: str):
    """An export file (the request body) becomes this table's catalog of ``?game=``."""
    common.check_csrf()
    live = common.host_only(game_id)
    game = request.args.get("game") or live.kind.name
    try:
        if game not in games.known():
            raise CatalogError([{"file": "(catalog)", "entry": None, "field": "game",
                                 "code": "unknown_game", "params": {"game": game[:40]},
                                 "reason": ""}])
        bundle = common.json_body(MAX_BUNDLE)
        deck.import_bundle(game, data_dir(), bundle)
    except CatalogError as exc:
        return refused(live.kind.name, exc)
    context.current().kinds.changed(game)
    return {"ok": True, "status": deck_status_for(game, i18n.page_lang())}


@bp.post("/host/<game_id>/deck/photo")
def photo(game_id: str):
    """Keep a straight picture of the card whose sticker the camera sees now."""
    from engine.api import sticker_namespace
    from hardware.camera.picture import CardLayout
    from hardware.tags.format import card_payload

    common.check_csrf()
    live = common.host_only(game_id)
    game = live.kind.name
    try:
        game, part, entry = entry_request(live)
        info = games.module_of(game).info
        if part not in {p.id for p in info.parts}:
            raise CatalogError([problem("(catalog)", None, None, "unknown_part", part=part[:80],
                                        expected=", ".join(p.id for p in info.parts))])
        kind = next((k for k in info.stickers if k.part == part), None)
        eid = entry.get("id")
        camera = context.current().hardware.camera
        seen = camera.snapshot() if camera is not None else None
        payload = card_payload(sticker_namespace(info), kind.letter, str(eid)) if kind else None
        found = [d for d in (seen.detections if seen else ())
                 if d.payload == payload] if payload else []
        if not found:
            raise CatalogError([{"file": "(camera)", "entry": eid, "field": None,
                                 "code": "not_in_view", "params": {}, "reason": ""}])
        deck.save_picture(game, data_dir(), eid, seen.frame.image, found[0].corners,
                          CardLayout(*kind.card))
    except CatalogError as exc:
        return refused(game, exc)
    return {"ok": True, "url": f"/host/{game_id}/deck/picture/{game}/{eid}.jpg"}


@bp.get("/host/<game_id>/deck/picture/<game>/<entry>.jpg")
def picture(game_id: str, game: str, entry: str):
    common.host_only(game_id, as_json=False)
    try:
        if game not in games.known():
            raise CatalogError([])
        path = deck.picture_path(game, data_dir(), entry)
    except CatalogError:
        return Response(status=404)
    if not path.is_file():
        return Response(status=404)
    response = send_file(path, mimetype="image/jpeg", max_age=0)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/host/<game_id>/deck/stickers.pdf")
def stickers(game_id: str):
    """Printable sticker sheets of the deck's entries (``entries=a,b``: only those)."""
    from companion.box.catalog import load_catalog
    from companion.box.stickers import stickers_for_catalog
    from hardware.tags.sheet import render_sheets

    live = common.host_only(game_id, as_json=False)
    try:
        game = deck_game(live)
        catalog = load_catalog(game, data_dir())
    except CatalogError:
        return Response(status=404)
    info = games.module_of(game).info
    wanted = {e for e in request.args.get("entries", "")[:4000].split(",") if e}
    chosen = stickers_for_catalog(info, catalog, i18n.page_lang())
    if wanted:
        from engine.api import sticker_namespace
        from hardware.tags.format import card_payload

        ns = sticker_namespace(info)
        keep = {card_payload(ns, k.letter, e) for k in info.stickers for e in wanted}
        chosen = [s for s in chosen if s.payload in keep]
    if not chosen:
        return Response(status=404)
    pages = render_sheets(chosen, 30.0, dpi=150)
    out = io.BytesIO()
    pages[0].save(out, format="PDF", save_all=True, append_images=pages[1:], resolution=150.0)
    out.seek(0)
    return send_file(out, mimetype="application/pdf", download_name=f"{game}-stickers.pdf")


# ---------------------------------------------------------------- dice the camera learns
def _taught_request(live):
    """(game, info, catalog, role, face) of a request about one face of a taught die."""
    from companion.box.catalog import load_catalog

    body = common.json_body(MAX_ENTRY)
    if not isinstance(body, dict) or type(body.get("role")) is not str \
            or type(body.get("face")) is not int:
        raise CatalogError([problem("(dice)", None, None, "die_request")])
    game = deck_game(live)
    return (game, games.module_of(game).info, load_catalog(game, data_dir()),
            body["role"], body["face"])


def _tray_picture():
    """The dice tray as the camera sees it now, in colour: the camera's tray zone, at full
    resolution where the source can (`CameraDice.tray_image`), not the whole frame (which
    the Pi's camera gives in grey)."""
    dice = context.current().hardware.dice
    image = dice.tray_image() if dice is not None else None
    if image is None:
        raise CatalogError([problem("(camera)", None, None, "no_tray")])
    return image


def _taught_status(live, status):
    """The deck's game and what the camera was taught of it: ``status(game, data dir, info,
    catalog)`` (taught dice or taught card faces); a catalog that does not load raises
    `CatalogError`."""
    from companion.box.catalog import load_catalog

    game = deck_game(live)
    info = games.module_of(game).info
    return game, status(game, data_dir(), info, load_catalog(game, data_dir()))


@bp.get("/host/<game_id>/deck/dice.json")
def dice_data(game_id: str):
    """The game's dice the camera can be taught, each face with its picture if taken."""
    from companion.box import taught_dice

    live = common.host_only(game_id)
    try:
        game, dice = _taught_status(live, taught_dice.status)
    except CatalogError as exc:
        return refused(live.kind.name, exc)
    lang = i18n.page_lang()
    for die in dice:
        die["name_text"] = i18n.text(lang, die["name"], game=game)
        for face in die["faces"]:
            face["url"] = (_face_url(game_id, game, die["role"], face["face"])
                           if face["taught"] else None)
    return {"ok": True, "game": game, "dice": dice}


def _face_url(game_id: str, game: str, role, face) -> str:
    return f"/host/{game_id}/deck/die/{game}/{role}/{face}.png"


def _change_face(game_id: str, change) -> dict:
    """A host's change to one face of a taught die: ``change(game, info, catalog, role,
    face)`` (raising `CatalogError` to refuse, in the page's language); the reader of the
    camera's dice and the screens are told through the context's ``kinds.changed``
    (companion/wiring/dice.py)."""
    from companion.box import taught_dice

    common.check_csrf()
    live = common.host_only(game_id)
    game = live.kind.name
    try:
        game, info, catalog, role, face = _taught_request(live)
        answer = change(game, info, catalog, role, face)
    except CatalogError as exc:  # said of the die by its name ("Tax die: …")
        lang = i18n.page_lang()
        names = {r.id: i18n.text(lang, r.name, game=game)
                 for r in taught_dice.taught_roles(games.module_of(game).info)}
        return refused(game, exc, names=names)
    context.current().kinds.changed(game)
    return {"ok": True, **answer}


DEMO_TRIES, DEMO_WAIT_S = 20, 0.1  # the demo camera's die is seen within 2 s


def _demo_lays(info, catalog, role: str, face) -> bool:
    """In the demo (the synthetic camera) no hand lays a die in the tray: the camera's scene
    lays the one being taught, in its role's colour, the face asked up. False with a real
    camera."""
    from companion.box import taught_dice
    from companion.wiring.dice import role_colour

    camera = context.current().hardware.camera
    if camera is None:
        return False
    declared = {r.id: r for r in taught_dice.taught_roles(info)}.get(role)
    colour = (role_colour(declared, catalog) if declared else None) or "white"
    try:
        return camera.lay_demo_die(colour, int(face))
    except (TypeError, ValueError):
        return False


@bp.post("/host/<game_id>/deck/die_face")
def die_face(game_id: str):
    """Keep the camera's picture of the one die in the tray as one face of a taught die."""
    from companion.box import taught_dice
    from hardware.camera.dice_faces import lone_die

    def take(game, info, catalog, role, face) -> dict:
        taught_dice.check_face(info, catalog, role, face)  # the game's die and face, or refused
        demo = _demo_lays(info, catalog, role, face)
        for attempt in range(DEMO_TRIES if demo else 1):
            try:
                square = lone_die(_tray_picture())
                break
            except ValueError as exc:  # no die, several, a hand, a cocked die
                if attempt + 1 >= (DEMO_TRIES if demo else 1):
                    raise CatalogError([problem("(camera)", role, None, str(exc))]) from None
                time.sleep(DEMO_WAIT_S)  # the demo's next frames show the die it laid
        taught_dice.save_face(game, data_dir(), info, catalog, role, face, square)
        return {"url": _face_url(game_id, game, role, face)}

    return _change_face(game_id, take)


@bp.post("/host/<game_id>/deck/die_face/forget")
def forget_die_face(game_id: str):
    """Drop one face's picture: the die is entered by hand until it is taken again."""
    from companion.box import taught_dice

    def forget(game, info, catalog, role, face) -> dict:
        taught_dice.forget_face(game, data_dir(), info, catalog, role, face)
        return {}

    return _change_face(game_id, forget)


# a face of a taught die, at most 999: a face number of 300 digits is no face, and never
# becomes a file name too long for the file system (the router answers 404)
@bp.get("/host/<game_id>/deck/die/<game>/<role>/<int(max=999):face>.png")
def die_picture(game_id: str, game: str, role: str, face: int):
    from companion.box import taught_dice

    common.host_only(game_id, as_json=False)
    if game not in games.known() or role not in {
            r.id for r in taught_dice.taught_roles(games.module_of(game).info)}:
        return Response(status=404)
    path = taught_dice.face_path(game, data_dir(), role, face)
    if not path.is_file():
        return Response(status=404)
    response = send_file(path, mimetype="image/png", max_age=0)
    response.headers["Cache-Control"] = "no-store"
    return response


# ------------------------------------------------------ cards the camera knows by face
def _face_request(live, body=None):
    """(game, info, catalog, entry) of a request about one card taught by its face."""
    from companion.box.catalog import load_catalog

    if body is None:
        body = common.json_body(MAX_ENTRY)
    if not isinstance(body, dict) or type(body.get("entry")) is not str:
        raise CatalogError([problem("(faces)", None, None, "face_request")])
    game = deck_game(live)
    return game, games.module_of(game).info, load_catalog(game, data_dir()), body["entry"]


def _card_face_url(game_id: str, game: str, entry: str) -> str:
    return f"/host/{game_id}/deck/face/{game}/{entry}.png"


@bp.get("/host/<game_id>/deck/faces.json")
def faces_data(game_id: str):
    """The cards the game lets the camera know by face, each with its picture if taught,
    the pairs of taught cards too alike to tell apart at the table's resolution (the
    camera's crop of a card: `CameraWiring.card_px`), and the taught cards whose turn the
    camera cannot tell there. That judgement (seconds, minutes on a Pi) is made on the
    app's `FaceJudge` thread: the page is answered at once, ``checking`` while it runs
    (the page asks again)."""
    from companion.box import taught_cards

    live = common.host_only(game_id)
    hardware = context.current().hardware
    camera = hardware.camera
    width = camera.card_px() if camera is not None else taught_cards.TABLE_CARD_PX
    try:
        game, faces = _taught_status(live, lambda *a: taught_cards.status(
            *a, width, verdict=hardware.judge.verdict))
    except CatalogError as exc:
        return refused(live.kind.name, exc)
    lang = i18n.page_lang()
    titles = {p.id: p.title or p.id for p in games.module_of(game).info.parts}
    for card in faces["cards"]:
        card["name_text"] = i18n.in_lang(card["names"], lang, card["id"])
        # the page heads each kind of card (a game may let several go bare)
        card["part_title"] = i18n.text(lang, titles.get(card["part"], card["part"]), game=game)
        card["url"] = _card_face_url(game_id, game, card["id"]) if card["taught"] else None
    return {"ok": True, "game": game, **faces}


def _change_card_face(game_id: str, change, body=None) -> dict:
    """A host's change to one taught card face: ``change(game, info, catalog, entry)``
    (raising `CatalogError` to refuse, in the page's language); the camera is told through
    the context's ``kinds.changed`` (its face book is made again)."""
    common.check_csrf()
    live = common.host_only(game_id)
    game = live.kind.name
    try:
        game, info, catalog, entry = _face_request(live, body)
        answer = change(game, info, catalog, entry)
    except CatalogError as exc:
        return refused(game, exc)
    context.current().kinds.changed(game)
    return {"ok": True, **answer}


def _demo_lays_card(game: str, info, catalog, entry: str) -> bool:
    """In the demo (the synthetic camera) the camera's scene lays the card being taught
    alone in the tray, face up; False with a real camera (the host lays it)."""
    from companion.wiring import demo_faces

    camera = context.current().hardware.camera
    if camera is None:
        return False
    return camera.lay_demo_card(demo_faces.face_of(game, data_dir(), info, catalog, entry))


@bp.post("/host/<game_id>/deck/card_face")
def card_face(game_id: str):
    """Keep the camera's picture of the one card in the taught zone (the dice tray) as the
    face of a card the game lets the camera know by face."""
    from companion.box import taught_cards

    def take(game, info, catalog, entry) -> dict:
        taught_cards.check_card(info, catalog, entry)  # the game's face card, or refused
        demo = _demo_lays_card(game, info, catalog, entry)
        for attempt in range(DEMO_TRIES if demo else 1):
            try:
                picture = taught_cards.lone_card(_tray_picture())
                break
            except CatalogError:  # no card yet, several
                if attempt + 1 >= (DEMO_TRIES if demo else 1):
                    raise
                time.sleep(DEMO_WAIT_S)  # the demo's next frames show the card it laid
        taught_cards.save_face(game, data_dir(), info, catalog, entry, picture)
        return {"url": _card_face_url(game_id, game, entry)}

    return _change_card_face(game_id, take)


@bp.post("/host/<game_id>/deck/card_face/upload")
def upload_card_face(game_id: str):
    """Keep an imported scan or photo of a card's face (the request's body, the card in the
    query: ``?game=&entry=``)."""
    from companion.box import taught_cards

    def keep(game, info, catalog, entry) -> dict:
        taught_cards.check_card(info, catalog, entry)
        picture = taught_cards.decode_upload(request.get_data(cache=True))
        taught_cards.save_face(game, data_dir(), info, catalog, entry, picture)
        return {"url": _card_face_url(game_id, game, entry)}

    return _change_card_face(game_id, keep, {"entry": request.args.get("entry")})


@bp.post("/host/<game_id>/deck/card_face/forget")
def forget_card_face(game_id: str):
    """Drop one card's face: it needs its sticker again until taught anew."""
    from companion.box import taught_cards

    def forget(game, info, catalog, entry) -> dict:
        taught_cards.forget_face(game, data_dir(), info, catalog, entry)
        return {}

    return _change_card_face(game_id, forget)


@bp.get("/host/<game_id>/deck/face/<game>/<entry>.png")
def card_face_picture(game_id: str, game: str, entry: str):
    from companion.box import taught_cards
    from companion.box.catalog import load_catalog

    common.host_only(game_id, as_json=False)
    if game not in games.known():
        return Response(status=404)
    try:
        taught_cards.check_card(games.module_of(game).info, load_catalog(game, data_dir()),
                                entry)
    except CatalogError:
        return Response(status=404)
    path = taught_cards.face_path(game, data_dir(), entry)
    if not path.is_file():
        return Response(status=404)
    response = send_file(path, mimetype="image/png", max_age=0)
    response.headers["Cache-Control"] = "no-store"
    return response
