"""The sticker payload format (docs/tags.md)."""
import pytest

from hardware.tags.format import (
    BOARD_MARKER,
    TagError,
    card_payload,
    code_table,
    parse,
    resolve,
    short_code,
)


def test_card_payload_round_trips_and_is_short_alphanumeric():
    payload = card_payload("wwe", "event", "because_the_works")
    assert len(payload) <= 15  # fits a version-2 QR at level H in alphanumeric mode
    assert set(payload) <= set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
    tag = parse(payload)
    assert (tag.namespace, tag.kind, tag.code) == ("wwe", "event", short_code("because_the_works"))
    assert resolve(tag, ["grain", "because_the_works"]) == "because_the_works"
    assert resolve(parse(card_payload("wwe", "event", "other")), ["grain"]) is None


def test_board_marker_is_reserved():
    tag = parse(BOARD_MARKER)
    assert tag.is_board_marker and tag.kind == "marker" and tag.namespace == "tc"
    assert not parse(card_payload("wwe", "action", "grain")).is_board_marker
    with pytest.raises(ValueError):
        card_payload("wwe", "marker", "north")


@pytest.mark.parametrize("payload, code", [
    ("https://example.com", "tag_not_ours"),
    ("TC1:WWE:E", "tag_not_ours"),
    ("tc1:wwe:e:abcd", "tag_not_ours"),
    ("TC2:WWE:E:ABCD", "tag_version_unsupported"),
    ("TC1:WWE:Z:ABCD", "tag_kind_unknown"),
    ("", "tag_not_ours"),
])
def test_foreign_payloads_are_refused_with_a_code(payload, code):
    with pytest.raises(TagError) as error:
        parse(payload)
    assert error.value.code == code


def test_short_codes_are_stable_and_collisions_are_detected(monkeypatch):
    assert short_code("grain") == short_code("grain") != short_code("piety")
    assert len(code_table(["grain", "piety", "rent"])) == 3
    import hardware.tags.format as fmt
    monkeypatch.setattr(fmt, "short_code", lambda _id: "AAAA")
    with pytest.raises(ValueError, match="collision"):
        fmt.code_table(["grain", "piety"])
