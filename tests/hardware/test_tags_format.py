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
    payload = card_payload("wwe", "E", "because_the_works")
    assert len(payload) <= 15  # fits a version-2 QR at level H in alphanumeric mode
    assert set(payload) <= set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
    tag = parse(payload)
    assert (tag.namespace, tag.kind, tag.code) == ("wwe", "E", short_code("because_the_works"))
    assert resolve(tag, ["grain", "because_the_works"]) == "because_the_works"
    assert resolve(parse(card_payload("wwe", "E", "other")), ["grain"]) is None


def test_board_marker_is_reserved():
    tag = parse(BOARD_MARKER)
    assert tag.is_board_marker and tag.kind == "M" and tag.namespace == "tc"
    assert not parse(card_payload("wwe", "A", "grain")).is_board_marker
    with pytest.raises(ValueError):
        card_payload("tc", "M", "north")
    with pytest.raises(ValueError):
        card_payload("wwe", "event", "grain")  # a kind is one capital letter


@pytest.mark.parametrize("payload, code", [
    ("https://example.com", "tag_not_ours"),
    ("TC1:WWE:E", "tag_not_ours"),
    ("tc1:wwe:e:abcd", "tag_not_ours"),
    ("TC2:WWE:E:ABCD", "tag_version_unsupported"),
    ("TC1:WWE:EE:ABCD", "tag_not_ours"),
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


def test_kind_letters_are_the_namespace_s_business():
    """Hardware knows no game: any capital letter is a kind; games say what it means."""
    tag = parse("TC1:PILLAR:C:ABCD")
    assert (tag.namespace, tag.kind, tag.code) == ("pillar", "C", "ABCD")
