"""What a host's correction would change, before it is sent (the `correct_preview` host
message of docs/socket-protocol.md): the corrected part and each changed field before and
after, in the host's language and the game's words (companion/table/correction_words.py),
from the `corrected` event the correction would emit. A game that emits none gets the
public board's changed values, leaf by leaf."""
from __future__ import annotations

from companion.game.views import Namer
from companion.table.correction_words import Words, short
from engine.api import Refused, correction_preview


def leaf_changes(before, after, path: str, out: list, most: int = 12) -> None:
    """The leaves that differ between two JSON values, as (path, before, after)."""
    if len(out) >= most or before == after:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for k in sorted(set(before) | set(after), key=str):
            leaf_changes(before.get(k), after.get(k), f"{path}.{k}", out, most)
    elif (isinstance(before, list) and isinstance(after, list)
          and len(before) == len(after)):
        for i, (b, a) in enumerate(zip(before, after, strict=True)):
            leaf_changes(b, a, f"{path}[{i}]", out, most)
    else:
        out.append((path, before, after))


def correction_diff(live, action: dict, lang: str = "en") -> dict:
    """A correction tried on the live state (nothing changes): ``{"preview": {"what",
    "changed": [{"key", "label", "before", "after"}]}}``, each changed field of the corrected
    part in words (for the host to check first)."""
    with live.lock:
        shown = correction_preview(live.kind.module, live.state, action)
        if "refused" in shown:
            raise Refused(shown["refused"]["code"], **shown["refused"].get("params", {}))
        words = Words(live, lang, Namer(live, lang))
        said = [words.changes(e.get("part"), e.get("key"), e.get("before"), e.get("after"))
                for e in shown["events"] if e.get("type") == "corrected"]
    if said:
        rows = [{"key": f"{s['what']}|{r['field']}", "label": s["what"], "field": r["field"],
                 "before": r["before"], "after": r["after"]} for s in said for r in s["rows"]]
        return {"preview": {"what": said[0]["what"], "changed": rows}}
    leaves: list = []
    for k in shown["changed"]:
        if k not in ("prompts", "log", "scores"):
            leaf_changes(shown["before"].get(k), shown["after"].get(k), k, leaves)
    return {"preview": {"what": "", "changed": [
        {"key": path, "label": path, "field": "", "before": short(b), "after": short(a)}
        for path, b, a in leaves]}}
