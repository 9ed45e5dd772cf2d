"""Does the table get in while someone on the Wi-Fi holds connections open? (issue 67)

Runs the production server (`companion serve --demo --no-hardware`, gunicorn with the budget's
worker, ``--threads``) on 127.0.0.1 and measures, from addresses of their own (127.0.0.3 for
a phone, 127.0.0.4 for a seat's socket), first with nobody else connected (the same-run
baseline), then while ``--slow`` connections send half a request and a header line every 2 s
(half from one "laptop", 127.0.0.2, half from thirty more addresses, 127.0.1.x) and
``--viewers`` viewer sockets (no token) are opened from one address:

- `/healthz` answered: how many of ``--probes``, the latency (median, p95, spread);
- the seat's socket (its cookie, then Socket.IO's CONNECT): how many got in, how long it took;
- how many of the slow connections and viewer sockets the server kept, and how many it
  refused or closed; the server's resident memory (VmRSS of the worker) before and during.

Bounded: 127.0.0.1 only, at most ``--seconds`` of attack (default 20). Prints the figures,
then ONE last line: a JSON object.
Usage: .venv/bin/python bench/availability.py [--slow 300] [--viewers 40] [--probes 20]
       [--threads 300] [--seconds 20]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.companion.test_availability import (  # noqa: E402
    ATTACKER,
    RawSocketIO,
    Slowloris,
    closed_by_server,
    get,
)
from tests.companion.test_restart import ServeProcess, claim  # noqa: E402


def rss_kb(pid: int) -> int:
    """The resident memory of ``pid``'s youngest child (gunicorn's worker), else its own."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    kids = children.read_text().split() if children.exists() else []
    target = kids[-1] if kids else str(pid)
    for line in Path(f"/proc/{target}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def figures(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    return {"n": len(ordered), "p50_ms": round(statistics.median(ordered) * 1000, 2),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000, 2),
            "spread_ms": round((ordered[-1] - ordered[0]) * 1000, 2)}


def probe(port: int, game_id: str, token: str, count: int) -> dict:
    """``count`` /healthz from a phone's address and ``count`` seat sockets: how many got in
    and how long each took (a failure counts its time out of the latencies)."""
    health, sockets, health_ok, socket_ok = [], [], 0, 0
    for _ in range(count):
        start = time.perf_counter()
        try:
            if get(port, "127.0.0.3", "/healthz", timeout=5.0)[0] == 200:
                health_ok += 1
                health.append(time.perf_counter() - start)
        except OSError:
            pass
        start = time.perf_counter()
        try:
            seat = RawSocketIO(port, "127.0.0.4", f"tc_seat_{game_id}={token}", timeout=5.0)
            if seat.status == 101 and seat.join({"role": "seat", "game": game_id}) \
                    .startswith("40"):
                socket_ok += 1
                sockets.append(time.perf_counter() - start)
            seat.close()
        except OSError:
            pass
    return {"healthz_ok": health_ok, "healthz": figures(health), "seat_ok": socket_ok,
            "seat_socket": figures(sockets)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--viewers", type=int, default=40)
    parser.add_argument("--probes", type=int, default=20)
    parser.add_argument("--threads", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args(argv)

    import tests.companion.test_availability as attack_module

    attack_module.SLOW = args.slow
    with tempfile.TemporaryDirectory() as tmp:
        server = ServeProcess(Path(tmp) / "data", extra=["--threads", str(args.threads)])
        try:
            port = server.port
            join = server.joins["N"]
            game_id = urlparse(join).path.split("/")[2]
            token = claim(join, port)
            pid = server.proc.pid
            rss_before = rss_kb(pid)
            baseline = probe(port, game_id, token, args.probes)
            started = time.monotonic()
            attack = Slowloris(port)
            viewers, refused_viewers = [], 0
            for _ in range(args.viewers):
                try:
                    viewer = RawSocketIO(port, "127.0.0.5", timeout=5.0)
                    if viewer.status == 101:
                        viewer.join({"role": "viewer", "game": game_id})
                        viewers.append(viewer)
                    else:
                        refused_viewers += 1
                        viewer.close()
                except OSError:
                    refused_viewers += 1
            time.sleep(1.0)
            during = probe(port, game_id, token, args.probes)
            rss_during = rss_kb(pid)
            kept = sum(not closed_by_server(s) for s in attack.socks)
            left = args.seconds - (time.monotonic() - started)
            if left > 0:
                time.sleep(min(left, 12.0))  # past the 10 s head deadline
            kept_later = sum(not closed_by_server(s) for s in attack.socks)
            attack.close()
            for viewer in viewers:
                viewer.close()
        finally:
            server.kill()
    print(f"threads {args.threads}; slow connections {args.slow} (half from {ATTACKER}), "
          f"viewer sockets asked {args.viewers} from one address")
    for name, run in (("alone", baseline), ("under attack", during)):
        print(f"  {name:13} /healthz {run['healthz_ok']}/{args.probes} "
              f"p50 {run['healthz'].get('p50_ms')} ms p95 {run['healthz'].get('p95_ms')} ms; "
              f"seat socket {run['seat_ok']}/{args.probes} "
              f"p50 {run['seat_socket'].get('p50_ms')} ms")
    ratio = (during["healthz"].get("p50_ms") or 0) / (baseline["healthz"].get("p50_ms") or 1)
    print(f"  /healthz median under attack / alone: {ratio:.2f}")
    print(f"  slow connections kept open: {kept} after 1 s, {kept_later} after the deadline; "
          f"viewer sockets kept {len(viewers)}, refused {refused_viewers}")
    print(f"  worker RSS: {rss_before} kB alone, {rss_during} kB under attack")
    print(json.dumps({"threads": args.threads, "slow": args.slow, "viewers": args.viewers,
                      "alone": baseline, "under_attack": during,
                      "healthz_p50_ratio": round(ratio, 2), "slow_kept": kept,
                      "slow_kept_after_deadline": kept_later, "viewers_kept": len(viewers),
                      "viewers_refused": refused_viewers, "rss_kb_alone": rss_before,
                      "rss_kb_attack": rss_during}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
