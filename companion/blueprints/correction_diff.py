"""What a host's correction would change on the public board, leaf by leaf, before it is
sent (the `correct_preview` host message of docs/socket-protocol.md)."""
from __future__ import annotations

import json

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


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 120 else text[:119] + "…"


def correction_diff(live, action: dict) -> dict:
    """A correction tried on the live state (nothing changes): what of the public board it
    changes, each changed value before and after (for the host to check first)."""
    with live.lock:
        shown = correction_preview(live.kind.module, live.state, action)
    if "refused" in shown:
        raise Refused(shown["refused"]["code"], **shown["refused"].get("params", {}))
    leaves: list = []
    for k in shown["changed"]:
        if k not in ("prompts", "log", "scores"):
            leaf_changes(shown["before"].get(k), shown["after"].get(k), k, leaves)
    return {"preview": {"changed": [{"key": path, "before": _short(b), "after": _short(a)}
                                    for path, b, a in leaves]}}
