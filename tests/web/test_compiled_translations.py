"""The browser tests' servers start on a data folder given this run's compiled translations
(tests/web/conftest.py `give_translations`): the app then compiles no domain of its own."""
from __future__ import annotations

from pathlib import Path

from tests.web.conftest import give_translations


def mo_files(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*.mo"))}


def test_an_app_on_a_given_data_folder_compiles_no_translation(tmp_path):
    """Planted fault: the games' domains laid out beside the shared one (``target / game``,
    not ``target / "games" / game``) -> the app compiles each game's .mo anew."""
    from companion import context
    from companion.app import create_app
    from companion.game.games import known
    from companion.server import i18n

    data = tmp_path / "data"
    give_translations(data)
    given = mo_files(data / "translations")
    assert {p.split("/")[0] for p in given} >= set(i18n.LANGUAGES) - {"en"} | {"games"}
    assert {p.split("/")[1] for p in given if p.startswith("games/")} == set(known())
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    try:
        with app.app_context():
            for lang in i18n.LANGUAGES:
                for game in (None, *known()):
                    chain = i18n.translations(lang, game)
                    if lang == "pl":  # the given catalogs are read, not only left alone
                        assert chain.gettext("Language") == "Język"
        assert mo_files(data / "translations") == given
    finally:
        context.of(app).service.store.close()
