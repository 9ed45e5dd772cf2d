"""The `view` message, built for one recipient (role, seat, language) from a live game.

Privacy rule in one place: a seat gets ``seat_view`` and ``choices`` of its own seat and the
events marked private to it; the table and the host get ``public_view`` and public events
only (the host is usually a player too); the table also gets the choices for seat "table"
(the prompts the table display may answer). Nothing else ever goes into a message.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from companion.game import hardware_texts
from companion.game import shared as derived
from companion.game.patches import exact, same
from companion.game.reasons import SERVER_REASONS
from companion.game.service import HOST_PLAYED, LiveGame
from companion.game.shared import Shared
from companion.server import i18n
from companion.table import citations, correction_words, history, table_steps
from engine.api import PRIVATE_PARAMS, Refused, template_fields

LOG_LENGTH = 60
# the app's own log events (gettext msgids of the shared domain): the host played a seat's
# turn on the host's device (companion/game/service.py HOST_PLAYED)
APP_EVENTS = {HOST_PLAYED: "Move played by the host for {seat}."}
COUNTS = ("amount", "count", "n")  # the params that count another param's thing


def refusal(kind_reasons: dict, lang: str, code: str, params: dict, names=None,
            game: str | None = None) -> dict:
    """``{"code", "params", "message"}`` with the message translated into ``lang`` (in
    ``game``'s translations first)."""
    template = kind_reasons.get(code) or SERVER_REASONS.get(code) or code
    shown = {k: names(v) if names else v for k, v in (params or {}).items()}
    if isinstance(names, Namer):  # "only {have} {item}": the thing in its count's form
        shown = names.count_words(params or {}, shown, template)
    chain = names.chain if isinstance(names, Namer) and names.game == game else None
    return {"code": code, "params": params or {},
            "message": i18n.text(lang, template, shown, game=game, chain=chain)}


def refused_json(live: LiveGame | None, lang: str, exc: Refused,
                 role: str = "seat") -> dict:
    """The refusal for its sender; someone who is not a seat never learns a seat's counts."""
    reasons = live.kind.reasons if live else {}
    namer = Namer(live, lang) if live else None
    params = exc.params if role == "seat" else {
        k: v for k, v in exc.params.items() if k not in PRIVATE_PARAMS}
    out = refusal(reasons, lang, exc.code, params, namer, live.kind.name if live else None)
    out["rule"] = citations.for_reason(live.kind, lang, exc.code) if live else None
    return out


@functools.lru_cache(maxsize=4096)
def _counted_by(forms: tuple) -> dict[str, str]:
    return {thing: count for form in forms if isinstance(form, str)
            for count, thing in re.findall(r"\{(\w+)\} \{(\w+)\}", form)}


def counted_by(template: Any) -> dict[str, str]:
    """{thing param: the param right before it} of a template's "{have} {item}"s: the
    number that counts the thing (both forms of a plural template)."""
    if isinstance(template, str):
        return _counted_by((template,))
    if isinstance(template, list | tuple):
        return _counted_by(tuple(template))
    return {}


class Namer:
    """Shows ids by their names: seats by player names, catalog ids by catalog names."""

    def __init__(self, live: LiveGame, lang: str) -> None:
        self.lang = lang
        self.game = live.kind.name
        self.catalog = live.kind.names
        self.terms = live.kind.terms
        self.names_forms = live.kind.forms
        self.players = {p["seat"]: p["name"] for p in live.players}
        self._chain: i18n.Chain | None = None
        self._ui: dict | None = None

    @property
    def chain(self) -> i18n.Chain:
        """The game's translations into the language (looked up once per namer)."""
        if self._chain is None:
            self._chain = i18n.translations(self.lang, self.game)
        return self._chain

    def counted(self, value: Any, n: int) -> str | None:
        """The word for ``n`` of the thing ``value`` in this language, without the number
        the text writes itself ("wełny" of "2 wełny"): the game's plural UI string
        ``count_<id>`` (forms by CLDR category) picked by the language's plural rules. None
        when the game counts no such thing."""
        if not isinstance(value, str):
            return None
        if self._ui is None:  # once per namer: each look-up finds the game's folder and
            self._ui = i18n.ui_strings(self.lang, game=self.game)  # stats its files (issue 71)
        forms = self._ui.get(f"count_{value}")
        if not isinstance(forms, dict):
            return None
        text = forms.get(i18n.plural_category(self.lang, abs(n))) or forms.get("other")
        return " ".join(text.replace("{n}", " ").split()) if text else None

    def forms(self, params: dict, shown: dict) -> dict:
        """``shown`` with each catalog name of ``params`` also in its grammatical forms, as
        ``"<param>.<form>"`` for a text's ``{param.form}`` (`games.forms_index`)."""
        for key, value in params.items():
            if isinstance(value, str) and value in self.names_forms:
                for form, texts in self.names_forms[value].items():
                    shown[f"{key}.{form}"] = i18n.in_lang(texts, self.lang, value)
        return shown

    def count_words(self, params: dict, shown: dict, template: Any = None) -> dict:
        """``shown`` with each counted thing of ``params`` in the form its count asks
        for ("1 monetę", "5 monet"): the count is the number standing right before it in
        the English ``template`` ("only {have} {item}"), else the text's ``amount``,
        ``count`` or ``n``."""
        before = counted_by(template)
        n = next((params[k] for k in COUNTS if type(params.get(k)) is int), None)
        for key, value in params.items():
            by = before.get(key)
            count = params[by] if by and type(params.get(by)) is int else n
            word = None if key in COUNTS or count is None else self.counted(value, count)
            if word:
                shown[key] = word
        return shown

    def __call__(self, value: Any, param: str | None = None) -> Any:
        if type(value) is int and param == "delta":  # a change, never a count: "+1", "-2"
            return f"{value:+d}"
        if type(value) is int and param:  # a number the game words itself ("chapter:1")
            scoped = self.terms.get(f"{param}:{value}")
            if scoped:
                return i18n.text(self.lang, scoped, game=self.game, chain=self.chain)
            return value
        if isinstance(value, str):
            scoped = self.terms.get(f"{param}:{value}")
            if scoped:
                return i18n.text(self.lang, scoped, game=self.game, chain=self.chain)
            if value in self.players:
                return self.players[value]
            names = self.catalog.get(value)
            if names:
                return i18n.in_lang(names, self.lang, value)
            if value in self.terms:
                return i18n.text(self.lang, self.terms[value], game=self.game,
                                 chain=self.chain)
            base, digits = value.rstrip("0123456789"), value[len(value.rstrip("0123456789")):]
            if digits and base in self.catalog:  # a numbered space of a place: "market2"
                names = self.catalog[base]
                return f"{names.get(self.lang) or names.get('en') or base} {digits}"
        elif isinstance(value, list):
            return ", ".join(str(self(v, param)) for v in value)
        elif isinstance(value, dict):
            return ", ".join(f"{self(k, param)} {v}" for k, v in value.items())
        return value


def log_window(live: LiveGame, lang: str, namer: Namer) -> list[tuple[str | None, dict]]:
    """The end of the log, translated (each entry once per language), with the seat each
    entry is private to: back to the LOG_LENGTH-th public entry, as no recipient's last
    LOG_LENGTH visible entries reach further back (everyone sees every public one).

    After an action the log only grew (`GameService` extends the same list; undo and a
    rebuild make a new one): the window before, plus the new entries, cut at the front."""
    log, cache = live.log, live.log_cache
    known = cache.get(("window", lang))
    if known is not None and known[0] is log and known[1] <= len(log):
        _log, length, window, public = known
        window = list(window)
        for position in range(length, len(log)):
            private, entry = _log_entry(live, lang, namer, position)
            window.append((private, entry))
            public += private is None
        drop = 0
        while public > LOG_LENGTH or (public == LOG_LENGTH and window[drop][0] is not None):
            public -= window[drop][0] is None
            drop += 1
        del window[:drop]
    else:
        window, public = [], 0
        for position in range(len(log) - 1, -1, -1):
            private, entry = _log_entry(live, lang, namer, position)
            window.append((private, entry))
            if private is None:
                public += 1
                if public >= LOG_LENGTH:
                    break
        window.reverse()
    cache[("window", lang)] = (log, len(log), window, public)
    _forget_before(cache, lang, len(log) - len(window))
    return window


def _forget_before(cache: dict, lang: str, start: int) -> None:
    """Drop the translated entries of ``lang`` before the log's position ``start``: the
    window only moves forward (an undo makes a new log and a new cache), so they are never
    asked for again, and the cache stays the window's size however long the evening."""
    for key in [k for k in cache if len(k) == 3 and k[0] == lang and k[1] < start]:
        del cache[key]


def event_template(kind: Any, event: dict) -> str | list:
    """The log template of ``event``: the game's current one, or, for an event stored before
    its fields grew (a game record made by an earlier version), the newest of the game's
    older templates (``Texts.older_events``) whose fields the event has, so that an old
    record reads right instead of showing "{after}"."""
    etype = event.get("type")
    if etype in APP_EVENTS and etype not in kind.event_texts:
        return APP_EVENTS[etype]
    template = kind.event_texts.get(etype, etype or "")
    if template_fields(template) <= event.keys():
        return template
    older = kind.info.texts.older_events or {}
    return next((t for t in older.get(etype, ()) if template_fields(t) <= event.keys()), template)


def _log_entry(live: LiveGame, lang: str, namer: Namer, position: int) -> tuple:
    """(the seat it is private to or None, the entry in ``lang``) of the log's ``position``."""
    seq, _action, event = live.log[position]
    key = (lang, position, seq)
    entry = live.log_cache.get(key)
    if entry is None:
        params = {k: v for k, v in event.items() if k != "type"}
        template = event_template(live.kind, event)
        shown = namer.forms(params, namer.count_words(
            params, {k: namer(v, k) for k, v in params.items()}, template))
        if event.get("type") == "corrected":  # a host's correction: before and after in words
            shown.update(correction_words.event_params(live, lang, namer, event))
        entry = live.log_cache[key] = {
            "seq": seq, "type": event.get("type"), "params": params,
            "text": i18n.text(lang, template, shown, game=live.kind.name, chain=namer.chain),
            "rule": citations.id_for_event(live.kind, event)}
    return event.get("private"), entry


def log_entries(live: LiveGame, seat: str | None, lang: str, namer: Namer,
                window: list | None = None) -> list[dict]:
    """The last entries this recipient may see (of ``window``, else the log's end now)."""
    if window is None:
        window = log_window(live, lang, namer)
    entries = [entry for private, entry in window
               if private is None or (seat is not None and private == seat)]
    return entries[-LOG_LENGTH:]


def seen_log(live: LiveGame, shared: Shared, seat: str | None, lang: str,
             namer: Namer) -> list[dict]:
    """`log_entries` of ``seat`` (kept): the public list itself when no entry of the window
    is private to the seat, so every recipient of that list shares its patch."""
    window = shared.get(("log_window", lang), lambda: log_window(live, lang, namer))
    private = shared.get(("log_private", lang), lambda: {
        owner for owner, _entry in window if owner is not None})
    if seat not in private:
        seat = None
    return kept(shared, ("log", seat, lang),
                lambda: log_entries(live, seat, lang, namer, window))


def prompt_entries(live: LiveGame, lang: str, namer: Namer,
                   shared: Shared | None = None) -> list[dict]:
    """The prompts owed now in ``lang``; each entry made once per game and language while
    the prompt is the same JSON (a prompt often stays for several actions)."""
    texts = live.kind.prompt_texts
    out = []
    found = (shared.get(("prompts_raw",), lambda: live.kind.module.prompts(live.state))
             if shared else live.kind.module.prompts(live.state))
    for prompt in found:
        data = prompt.to_json()
        key = ("prompt", lang, exact(data))
        known = live.text_cache.get(key)
        if known is not None:
            out.append(known)
            continue
        template = texts.get(prompt.kind) or live.kind.event_texts.get(f"prompt_{prompt.kind}")
        params = dict(prompt.params, seat=prompt.seat)
        shown = namer.count_words(params, {k: namer(v, k) for k, v in params.items()},
                                  template)
        data["text"] = (i18n.text(lang, template, shown, game=live.kind.name,
                                  chain=namer.chain) if template else None)
        data["rule"] = citations.id_for_prompt(live.kind, prompt.kind)
        live.text_cache.put(key, data)
        out.append(data)
    return out


LANGS = frozenset(i18n.LANGUAGES)


def localize(node: Any, lang: str) -> Any:
    """Catalog texts keyed by language ({"en": ..., "pl": ...}) cut to ``lang`` and English.

    The web picks ``names[lang] || names.en``; the other three languages would only make
    every message a third bigger. (Scalars are not visited: this runs for every view.)
    """
    kind = type(node)
    if kind is dict:
        if _is_names(node):
            return {k: node[k] for k in (lang, "en") if k in node}
        return {k: localize(v, lang) if type(v) in _NESTED else v for k, v in node.items()}
    if kind is list:
        return [localize(v, lang) if type(v) in _NESTED else v for v in node]
    return node


_NESTED = (dict, list)
_ABSENT = object()


def _is_names(node: dict) -> bool:
    """A catalog text by language ({"en": ..., "pl": ...})."""
    return 2 < len(node) <= len(LANGS) and node.keys() <= LANGS


def hardware_for(role: str, seat: str | None, hardware: dict | None) -> dict | None:
    """The host sees every hardware detail and warning; the table and the phones only
    whether each device works (one short status), and a phone its own camera pre-selection.
    So a camera warning repeating itself never redraws the TV or a phone."""
    if role == "host" or not isinstance(hardware, dict):
        return hardware
    out = {}
    for device, status in hardware.items():
        if not isinstance(status, dict):
            continue
        if device == "table":  # where the camera and dice are: every screen says it
            out[device] = status
            continue
        out[device] = {"state": status.get("state")}
        if device == "dice" and "source" in status:  # every screen says what reads the
            # dice, and which die waits to be entered
            out[device].update(source=status.get("source"), pending=status.get("pending"),
                               reads=status.get("reads", False))
            if "untaught" in status:  # the camera's: the dice it has not learnt yet
                out[device]["untaught"] = status["untaught"]
        if device == "camera" and role == "table" and status.get("unknown"):
            # a card the camera does not know by face: the TV asks which it is
            out[device]["unknown"] = status["unknown"]
        if device == "camera" and role == "table" and status.get("faces_checking"):
            # the taught faces being judged: the TV says why a card laid is not named yet
            out[device]["faces_checking"] = True
        selected = status.get("selected")
        if role == "seat" and isinstance(selected, dict) and seat in selected:
            out[device]["selected"] = {seat: selected[seat]}
    return out


def board_corrections(live: LiveGame, lang: str) -> list[dict]:
    """What the host may correct of the shared board now (the game's ``corrections``): each
    with its title in ``lang``, the current value, the JSON Schema of a new value and the
    action to send with ``value`` and ``reason`` added."""
    listed = live.kind.module.info.corrections
    if listed is None or live.state is None or live.status == "finished":
        return []
    out = []
    words = correction_words.Words(live, lang, Namer(live, lang))
    for c in listed(live.state):
        title = i18n.text(lang, c.get("title") or c.get("part", ""), game=live.kind.name)
        label = words.what(words.form(c.get("part"), c.get("key")), c.get("part"), c.get("key"))
        out.append(dict(c, title=title, label=label,
                        schema=titled(c.get("schema"), lang, live.kind.name)))
    return out


def titled(node: Any, lang: str, game: str) -> Any:
    """A JSON Schema with every ``title`` in ``lang`` (the labels of a form built from it)."""
    if isinstance(node, list):
        return [titled(x, lang, game) for x in node]
    if not isinstance(node, dict):
        return node
    return {k: (i18n.text(lang, v, game=game) if k == "title" and isinstance(v, str)
                else titled(v, lang, game)) for k, v in node.items()}


def build(live: LiveGame, role: str, seat: str | None, lang: str, *,
          connected: set[str] = frozenset(), hardware: dict | None = None,
          shared: Shared | None = None, hosted: set[str] = frozenset(),
          by_host: bool = False) -> dict:
    """The whole `view` payload for one recipient (see docs/socket-protocol.md).

    What depends on the state only (views, choices, prompts, log, by seat and language)
    comes from ``shared``: the state's `companion.game.shared` values unless given (a `Fresh`
    makes everything anew)."""
    with live.lock:
        shared = shared or derived.of(live)
        namer = shared.get(("namer", lang), lambda: Namer(live, lang))
        is_seat = role == "seat"
        mine = seat if is_seat else None
        choices = []
        if role in ("seat", "table"):
            choices = choice_entries(live, shared, seat if is_seat else "table", is_seat,
                                     lang, namer)
        finished = live.status == "finished"
        payload = {
            "game": live.id, "version": live.version, "role": role,
            "seat": mine, "lang": lang, "status": live.status,
            "paused": live.status == "paused", "closed": finished,
            # ``host_plays``: the host has the seat's screen open ("Play for ...")
            "players": kept(shared, ("players", frozenset(connected), frozenset(hosted)),
                            lambda: [dict(p, connected=p["seat"] in connected,
                                          host_plays=p["seat"] in hosted)
                                     for p in live.players]),
            "play_on": live.play_on, "by_host": bool(is_seat and by_host),
            "view": view_of(live, shared, mine if is_seat else None, is_seat, lang),
            "prompts": kept(shared, ("prompts", lang),
                            lambda: prompt_entries(live, lang, namer, shared)),
            "choices": choices,
            "log": seen_log(live, shared, mine, lang, namer),
            "hardware": shared.get_for(
                ("hardware", role, mine, lang), hardware, lambda: hardware_for(
                    role, seat, shared.get_for(
                        ("hardware_texts", lang), hardware, lambda: hardware_texts.translated(
                            hardware, lang, live.kind.reasons, namer, live.kind.name)))),
            "preview": live.preview,
            # what the table owes by hand: depends on the devices too (one status a push)
            "steps": shared.get_for(("steps", lang, live.status), hardware,
                                    lambda: table_steps.entries(live, lang, namer, hardware)),
            "scores": live.row.get("result") if finished else None, "host": None,
            # who won and why, a tie and its tie-break said (as the history says it)
            "outcome": shared.get(("outcome", lang), lambda: history.outcome(live, lang))
            if finished else None,
            "ended_early": bool(finished and live.row.get("ended_early")),
        }
        if role == "host":
            last = []
            for entry in payload["log"][-10:]:
                last.append({"seq": entry["seq"], "type": entry["type"], "text": entry["text"]})
            payload["host"] = {
                "can_undo": live.version, "last": last,
                "corrections": shared.get(("corrections", lang, live.status),
                                          lambda: board_corrections(live, lang))}
        return payload


def kept(shared: Shared, key: tuple, make: Callable[[], Any]) -> Any:
    """``shared.get(key, make)``, but the state before's value of ``key`` when it is the same
    JSON (`patches.same`): a part that did not change stays the same object, which the
    patches of every recipient then skip at once."""
    def make_kept() -> Any:
        value = make()
        previous = shared.previous
        before = previous.peek(key) if previous is not None else None
        return before if before is not None and same(before, value) else value

    return shared.get(key, make_kept)


def view_of(live: LiveGame, shared: Shared, seat: str | None, is_seat: bool,
            lang: str) -> dict:
    """The engine's view for a seat (``is_seat``) or everyone, cut to ``lang``.

    A seat view is mostly the public view: the game's ``private_view`` (or the parts of its
    seat view that differ from the public view) on top of the public view, translated once
    per language for every seat."""
    module, state = live.kind.module, live.state
    public = shared.get(("public",), lambda: module.public_view(state))
    shown = shared.get(("view", None, lang), lambda: localized_public(shared, public, lang))
    if not is_seat:
        return shown
    private = getattr(module, "private_view", None)
    if private is not None and shared.keep:
        def mine() -> dict:
            raw = shared.get(("private", seat), lambda: private(state, seat))
            return {**shown, **shared.get(("private", seat, lang), lambda: _localized(
                shared, ("private", seat), ("private", seat, lang), raw, lang))}

        return shared.get(("view", seat, lang), mine)
    raw = shared.get(("seat_view", seat), lambda: module.seat_view(state, seat))
    if not shared.keep or type(raw) is not dict or _is_names(raw):
        return localize(raw, lang)

    def compose() -> dict:
        out = {}
        for key, value in raw.items():
            before = public.get(key, _ABSENT) if type(public) is dict else _ABSENT
            if key in shown and same(value, before):
                out[key] = shown[key]
            else:
                out[key] = localize(value, lang) if type(value) in _NESTED else value
        return out

    return shared.get(("view", seat, lang), compose)


def localized_public(shared: Shared, public: Any, lang: str) -> Any:
    """``localize(public, lang)``, reusing the previous state's translation of every part
    (two levels deep) equal in both states (`patches.same`: the same JSON, key order too):
    most of a board stays as it was, and a reused part is the same object, which the
    patches skip at once."""
    return _localized(shared, ("public",), ("view", None, lang), public, lang)


def _localized(shared: Shared, raw_key: tuple, shown_key: tuple, raw: Any, lang: str) -> Any:
    """``localize(raw, lang)``, where ``raw`` is the value of ``raw_key`` and its translation
    is kept as ``shown_key``: the parts equal in the state before keep their translation."""
    previous = shared.previous
    old = previous.peek(shown_key) if previous is not None else None
    old_raw = previous.peek(raw_key) if previous is not None else None
    if (old is None or type(raw) is not dict or type(old_raw) is not dict
            or type(old) is not dict or _is_names(raw)):
        return localize(raw, lang)
    texts = (previous.get(("texts",), _Texts), shared.get(("texts",), _Texts))
    return _reuse(raw, old_raw, old, lang, 2, texts)


class _Texts(dict):
    """`patches.exact` of the raw parts of one state, each made once: the next state
    compares its parts with them (`patches.same`, without making them again)."""

    def of(self, node: Any) -> bytes:
        found = self.get(id(node))
        if found is None or found[0] is not node:
            found = self[id(node)] = (node, exact(node))  # the node kept: its id stays its own
        return found[1]


_PLAIN = frozenset((str, int, bool, type(None)))


def _reuse(new: dict, old_raw: dict, old: dict, lang: str, depth: int,
           texts: tuple[_Texts, _Texts]) -> dict:
    """``new`` translated, each part that is the same JSON as in ``old_raw`` (`patches.same`,
    its marshal bytes made once per state; repr where they differ) taken from ``old``, its
    translation."""
    out = {}
    before_texts, texts_now = texts
    for key, value in new.items():
        if key in old_raw and key in old:
            before = old_raw[key]
            kind = type(value)
            if before is value or (kind is type(before) and before == value and (
                    kind in _PLAIN or before_texts.of(before) == texts_now.of(value)
                    or repr(before) == repr(value))):
                out[key] = old[key]
                continue
            if (depth > 1 and kind is dict and type(before) is dict
                    and type(old[key]) is dict and not _is_names(value)
                    and not _is_names(before)):
                out[key] = _reuse(value, before, old[key], lang, depth - 1, texts)
                continue
        out[key] = localize(value, lang) if type(value) in _NESTED else value
    return out


def choice_entries(live: LiveGame, shared: Shared, asker: str, is_seat: bool, lang: str,
                   namer: Namer) -> list[dict]:
    """The choices of ``asker`` with refusals in ``lang``. The table gets only the prompts it
    may answer itself (which event card, which die face ...): actions by "table" only, which
    carry no seat's holdings."""
    def make() -> list[dict]:
        out = []
        found = derived.choices(live, shared, asker)
        for choice in found:
            data = choice.to_json()
            if not is_seat and data["action"].get("by") != "table":
                continue
            if choice.refused:
                data["refused"] = choice_refusal(live, lang, choice.refused["code"],
                                                 choice.refused.get("params", {}), namer)
                data["refused"]["rule"] = citations.id_for_reason(live.kind,
                                                                  choice.refused["code"])
            idle = choice.effect.get("no_effect")  # legal, but would do nothing: why
            if isinstance(idle, dict) and isinstance(idle.get("code"), str):
                data["effect"] = dict(data["effect"], no_effect=dict(
                    choice_refusal(live, lang, idle["code"], idle.get("params", {}), namer),
                    rule=citations.id_for_reason(live.kind, idle["code"])))
            out.append(data)
        return out

    return kept(shared, ("choice_entries", asker, is_seat, lang), make)


def choice_refusal(live: LiveGame, lang: str, code: str, params: dict, namer: Namer) -> dict:
    """`refusal` for a choice, its message translated once per game, language, code and
    params (the same JSON: `patches.exact`): most refusals come back at every action."""
    key = ("refusal", lang, code, exact(params))
    message = live.text_cache.get(key)
    if message is None:
        message = live.text_cache.put(key, refusal(live.kind.reasons, lang, code, params,
                                                   namer, live.kind.name)["message"])
    return {"code": code, "params": params or {}, "message": message}
