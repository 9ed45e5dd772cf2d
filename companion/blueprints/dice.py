"""The host's dice page (issue 5 §2-§3): the reader's status and which die plays which role.

The roles are kept in ``DATA/config.json`` under ``dice.roles.<game kind>`` (die id -> role;
other settings are kept, the file is replaced atomically) and the dice wiring reads them at
each roll, so a change applies to the next roll without a restart.
"""
from __future__ import annotations

import re
from pathlib import Path

from flask import Blueprint, redirect, request, url_for

from companion import context
from companion.blueprints import common
from companion.blueprints.hardware_status import hardware_status_for, status_json
from companion.game import hardware_texts
from companion.server import i18n
from engine.api import Refused
from hardware import config_file

bp = Blueprint("dice", __name__)

DIE_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")  # the protocol's die ids (docs/dice-protocol.md)
EMPTY_ROWS = 2


def config_path() -> Path:
    return context.current().settings.config_path


def declared_roles(live) -> tuple:
    """The die roles the game declares (engine.api.DieRole)."""
    return tuple(live.kind.module.info.bindings.dice)


def parse_roles(allowed, dice: list[str], roles: list[str]) -> dict[str, str]:
    """The submitted rows as die id -> role; Refused on the first bad row. A row without a
    die id, or with no role chosen, is left out. ``allowed``: the game's role ids."""
    out: dict[str, str] = {}
    seen: set[str] = set()
    for die, role in zip(dice, roles, strict=False):
        die, role = die.strip(), role.strip()
        if not die:
            continue
        if not DIE_ID.fullmatch(die):
            raise Refused("dice_bad_die_id", die=die[:40])
        if role and role not in allowed:
            raise Refused("dice_unknown_role", role=role[:40])
        if die in seen:
            raise Refused("dice_duplicate_die", die=die)
        seen.add(die)
        if role:
            out[die] = role
    return out


def save_roles(path: Path, game: str, roles: dict[str, str]) -> None:
    """Write dice.roles.<game> into config.json, keeping every other key."""
    def change(data: dict) -> None:
        dice = data.get("dice")
        if isinstance(dice, str):  # the short form: just the port
            dice = {"port": dice}
        if not isinstance(dice, dict):
            dice = {}
        if not isinstance(dice.get("roles"), dict):
            dice["roles"] = {}
        dice["roles"][game] = roles
        data["dice"] = dice

    config_file.update(path, change)


def page(live, status: int = 200, error: dict | None = None, notice: str | None = None):
    from companion.wiring.dice import load_settings, roles_for  # only when the page is shown

    game = live.kind.name
    declared = declared_roles(live)
    current = roles_for(load_settings(context.current().settings.data_dir), game, declared)
    rows = [{"die": d, "role": r} for d, r in sorted(current.items())]
    rows += [{"die": "", "role": ""}] * EMPTY_ROWS
    return common.render_page(
        "dice.html", "host", live, status, error=error, notice=notice, rows=rows,
        roles=[r.id for r in declared], hw=hardware_status_for(live, "dice"),
        role_names={r.id: i18n.text(i18n.page_lang(), r.name) for r in declared},
        no_roles=hardware_texts.message(i18n.page_lang(), "dice_no_roles"))


@bp.get("/host/<game_id>/dice")
def dice_page(game_id: str):
    live = common.live_or_404(game_id)
    if common.host_identity(game_id) is None:
        return common.render_page("host_login.html", "host", live, 401)
    notice = None
    if request.args.get("saved"):
        notice = hardware_texts.message(i18n.page_lang(), "dice_roles_saved")
    return page(live, notice=notice)


@bp.get("/host/<game_id>/dice/status.json")
def dice_status(game_id: str):
    return status_json(game_id, "dice")


@bp.post("/host/<game_id>/dice/roles")
def save(game_id: str):
    common.check_csrf()
    live = common.host_only(game_id, as_json=False)
    try:
        roles = parse_roles({r.id for r in declared_roles(live)}, request.form.getlist("die"),
                            request.form.getlist("role"))
    except Refused as exc:
        lang = i18n.page_lang()
        error = {"code": exc.code, "params": exc.params,
                 "message": hardware_texts.message(lang, exc.code, exc.params)}
        return page(live, 400, error=error)
    save_roles(config_path(), live.kind.name, roles)
    context.current().hardware.changed()  # the screens say at once which dice are read
    return redirect(url_for("dice.dice_page", game_id=game_id, saved=1), code=303)
