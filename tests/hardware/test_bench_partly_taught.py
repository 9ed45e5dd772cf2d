"""bench/cards_by_face.py's partly taught family counts what the camera says: an untaught
card named at all is counted, a taught one is right, wrong or unknown (issue 63)."""
from bench.cards_by_face import partly_faces, run_partly_taught
from hardware.camera.card_faces import FaceBook, identify
from hardware.synthetic.set_faces import seen_sideways as _seen


def test_the_partly_taught_family_counts_untaught_cards_named():
    got = run_partly_taught((200,), ("capsule",))
    r = got["left_out"]["capsule"]
    faces = partly_faces()
    book = FaceBook.from_pictures({f: p for f, p in faces.items() if "capsule" not in f})
    named = [(f, identify(*_seen(p, 200, seed), book).id)
             for seed, (f, p) in enumerate(faces.items())]
    assert r["untaught"] == 18 and r["taught"] == 18
    assert r["untaught_named"] == sum(g is not None for f, g in named if "capsule" in f)
    assert r["right"] == sum(g == f for f, g in named if "capsule" not in f)
    assert r["right"] + r["wrong"] + r["unknown"] == r["taught"]
    assert got["untaught_named"] == r["untaught_named"]
