"""WebSocket permessage-deflate: what it would cost the server and save on the Wi-Fi.

Browsers offer permessage-deflate on every WebSocket; simple-websocket (wsproto) accepts it
whenever offered, so each frame to a phone would be zlib-compressed in the server (and each
frame from it decompressed). The bench clients (websocket-client) never offer it, so
bench/latency.py does not see this cost. Here: the packets the server sends over a seeded
random World Without End game (the real views and patches of bench/server_cpu.py, as the
Engine.IO text frames), each framed by wsproto once with the extension negotiated and once
without, as CPU time (time.process_time) per frame; the bytes on the wire each way; and the
memory zlib keeps per connection (tracemalloc). Pi column: x5.

Usage: .venv/bin/python bench/ws_deflate.py [--actions 150] [--rounds 5]
JSON last line: {"plain_us_per_frame", "deflate_us_per_frame", "ratio_deflate_to_plain",
"bytes_plain_median", "bytes_deflate_median", "bytes_plain_total", "bytes_deflate_total",
"zlib_kb_per_connection", "frames"}
"""
import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent)
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))
import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402

from server_cpu import identity, messages, packet  # noqa: E402
from wsproto import ConnectionType, WSConnection  # noqa: E402
from wsproto.events import AcceptConnection, Request, TextMessage  # noqa: E402
from wsproto.extensions import PerMessageDeflate  # noqa: E402

from companion import context  # noqa: E402
from companion.app import create_app  # noqa: E402
from companion.game import games, views  # noqa: E402
from engine.api import random_move  # noqa: E402

PI = 5


def frames_of_a_game(actions: int, seed: int) -> list[list[str]]:
    """Every Engine.IO text frame the server sends each of the 5 recipients over a game."""
    module = games.module_of("wwe")
    seats = [s.id for s in module.info.seats][:4]
    app = create_app({"DATA_DIR": tempfile.mkdtemp(), "TESTING": True, "HARDWARE": False})
    svc = context.of(app).service
    live = svc.create("wwe", {"players": [{"seat": s, "name": s} for s in seats],
                              "seed": seed}, "1234")
    keys = [("seat", s) for s in seats] + [("table", None)]
    rnd, out, prev = random.Random(seed), [[] for _ in keys], None
    with app.test_request_context():
        for n in range(actions):
            built = [views.build(live, r, s, "en") for r, s in keys]
            for i, b in enumerate(built):  # "4": an Engine.IO message
                out[i] += ["4" + packet(m) for m in messages(prev and [prev[i]], [b], n)]
            prev = built
            action = random_move(module, live.state, rnd)
            if action is None:
                break
            svc.act(identity(live, action.get("by", "")), action)
    svc.store.close()
    return out


def server_side(deflate: bool) -> WSConnection:
    """A wsproto server connection after a real handshake (the client offering the extension
    as a browser does, or not)."""
    server, client = WSConnection(ConnectionType.SERVER), WSConnection(ConnectionType.CLIENT)
    offer = [PerMessageDeflate()] if deflate else []
    server.receive_data(client.send(Request(host="pi", target="/socket.io/",
                                            extensions=offer)))
    for event in server.events():
        if isinstance(event, Request):
            client.receive_data(server.send(AcceptConnection(
                extensions=[PerMessageDeflate()])))  # as simple-websocket answers
    return server


def cpu_per_frame(recipients: list[list[str]], deflate: bool) -> tuple[float, list[int]]:
    """Each recipient's frames through its own connection (zlib keeps a window per one)."""
    sizes = []
    spent = 0.0
    for frames in recipients:
        server = server_side(deflate)
        t = time.process_time()
        for text in frames:
            sizes.append(len(server.send(TextMessage(text))))
        spent += time.process_time() - t
    return spent / len(sizes) * 1e6, sizes


def zlib_kb_per_connection(frames: list[list[str]], connections: int = 20) -> float:
    """What zlib keeps for a connection that has sent and received a frame."""
    def traced(deflate: bool) -> int:
        """Bytes held by ``connections`` server sides that each sent the first frame."""
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        kept = []
        for _ in range(connections):
            server = server_side(deflate)
            server.send(TextMessage(frames[0][0]))
            kept.append(server)
        used = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        return used

    return (traced(True) - traced(False)) / connections / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    frames = frames_of_a_game(args.actions, args.seed)
    plain, deflate = [], []
    for _ in range(args.rounds):  # interleaved, each the median of its rounds
        us, plain_sizes = cpu_per_frame(frames, False)
        plain.append(us)
        us, deflate_sizes = cpu_per_frame(frames, True)
        deflate.append(us)
    p, d = statistics.median(plain), statistics.median(deflate)
    kb = zlib_kb_per_connection(frames)
    print(f"{sum(map(len, frames))} frames to 5 recipients over {args.actions} actions")
    print(f"plain:   {p:7.1f} us per frame (Pi x5 {p * PI:7.1f})  spread {min(plain):.1f}-"
          f"{max(plain):.1f}; bytes median {statistics.median(plain_sizes):.0f}, "
          f"total {sum(plain_sizes)}")
    print(f"deflate: {d:7.1f} us per frame (Pi x5 {d * PI:7.1f})  spread {min(deflate):.1f}-"
          f"{max(deflate):.1f}; bytes median {statistics.median(deflate_sizes):.0f}, "
          f"total {sum(deflate_sizes)}")
    print(f"ratio deflate/plain CPU {d / p:.1f}; zlib keeps {kb:.0f} kB per connection")
    print(json.dumps({"plain_us_per_frame": round(p, 1), "deflate_us_per_frame": round(d, 1),
                      "ratio_deflate_to_plain": round(d / p, 2),
                      "bytes_plain_median": statistics.median(plain_sizes),
                      "bytes_deflate_median": statistics.median(deflate_sizes),
                      "bytes_plain_total": sum(plain_sizes),
                      "bytes_deflate_total": sum(deflate_sizes),
                      "zlib_kb_per_connection": round(kb), "frames": sum(map(len, frames))}))


if __name__ == "__main__":
    main()
