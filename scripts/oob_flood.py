#!/usr/bin/env python3
"""Issue 50's amplification figure: a live server with bots on loopback,
flooded with the smallest out-of-band requests it answers (getstatus,
getinfo, A2S info, players and rules) from many loopback source addresses (127.1.0.0/16:
each a real address on Linux's loopback /8, so the answers come back and
are counted), as fast as one process at the lowest CPU priority sends.
Reports the bytes the server sent back over the bytes it was sent, and the
tick p99 at rest, during the same flood aimed at a closed port (the
machine's share) and during the flood.

    python3 scripts/oob_flood.py [--server target/release/quarry-server] [--sources 1024] [--tsv FILE]

`status` reports the p99 of the last 1,024 ticks (17 s at 60 Hz), so the
flood lasts 18 s; the amplification is also given for its first 10 s.
"""

import argparse
import os
import pathlib
import re
import socket
import sys
import tempfile
import time

from live_server import LiveServer
from script_common import copy_config

ROOT = pathlib.Path(__file__).resolve().parent.parent
COMMAND = "python3 scripts/oob_flood.py"
WINDOW_S = 18
PREFIX = b"\xff\xff\xff\xff"
# Only requests the server answers, the smallest each can be: the worst
# case for amplification (malformed ones are the fuzz campaign's).
REQUESTS = [
    PREFIX + b"getstatus",
    PREFIX + b"getinfo x",
    PREFIX + b"\x54Source Engine Query\x00",
    PREFIX + b"\x55\xff\xff\xff\xff",
    PREFIX + b"\x56\x01\x02\x03\x04",
]



def drain(socks):
    """Bytes waiting on the non-blocking sockets `socks`, read and dropped."""
    got = 0
    for s in socks:
        while True:
            try:
                got += len(s.recv(4096))
            except OSError:
                break
    return got

def flood(port, sources, seconds):
    """Sends for `seconds`; returns (sent bytes, received bytes) at 10 s and at the end."""
    socks = []
    for i in range(sources):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind((f"127.1.{i // 250}.{i % 250 + 1}", 0))
        s.setblocking(False)
        socks.append(s)
    sent = received = 0
    at10 = None
    start = time.time()
    n = 0
    while time.time() - start < seconds:
        for s in socks:
            d = REQUESTS[n % len(REQUESTS)]
            n += 1
            try:
                s.sendto(d, ("127.0.0.1", port))
                sent += len(d)
            except OSError:
                pass
        received += drain(socks)
        if at10 is None and time.time() - start >= 10:
            at10 = (sent, received)
    time.sleep(0.2)
    received += drain(socks)
    for s in socks:
        s.close()
    return at10 or (sent, received), (sent, received), n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=str(ROOT / "target" / "release" / "quarry-server"))
    ap.add_argument("--sources", type=int, default=1024)
    ap.add_argument("--tsv")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        config = copy_config(work)
        server = LiveServer(args.server, config, ["+set", "bot_minPlayers", "8", "+set", "timelimit", "0", "+set", "fraglimit", "0", "+map", "q_dm1"])
        m = server.wait_for(r"listening on udp \S+:(\d+)")
        port = int(m.group(1))
        try:
            os.nice(19)  # the flooder (this process, after starting the server) gives way on a small machine
        except OSError:
            pass
        try:
            time.sleep(15 + WINDOW_S)
            rest = server.p99()
            closed = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            closed.bind(("127.0.0.1", 0))
            dead_port = closed.getsockname()[1]
            closed.close()
            flood(dead_port, args.sources, WINDOW_S)
            control = server.p99()
            time.sleep(WINDOW_S)
            (in10, out10), (sent, received), requests = flood(port, args.sources, WINDOW_S)
            under = server.p99()
            time.sleep(WINDOW_S)
            rest_after = server.p99()
        finally:
            server.stop()
    ratio = received / sent if sent else 0.0
    ratio10 = out10 / in10 if in10 else 0.0
    rise = lambda p: (p / rest - 1.0) * 100.0 if rest > 0 else 0.0
    print(f"flood: {requests} requests from {args.sources} addresses in {WINDOW_S} s, {sent / 1e6:.1f} MB in, {received / 1e3:.1f} kB out: "
          f"amplification {ratio:.4f} (first 10 s: {ratio10:.4f})")
    print(f"tick p99 at rest {rest:.3f} ms; flood at a closed port (the machine's share) {control:.3f} ms ({rise(control):+.1f} %); "
          f"during the flood {under:.3f} ms ({rise(under):+.1f} %); at rest again {rest_after:.3f} ms ({rise(rest_after):+.1f} %)")
    rows = [
        ("oob/amplification_10s", f"{ratio10:.4f}", "bytes out / bytes in"),
        ("oob/amplification", f"{ratio:.4f}", f"bytes out / bytes in, {WINDOW_S} s"),
        ("oob/flood_requests_per_s", f"{requests / WINDOW_S:.0f}", f"from {args.sources} addresses"),
        ("oob/tick_p99_at_rest", f"{rest:.3f}", "ms"),
        ("oob/tick_p99_flood_closed_port", f"{control:.3f}", "ms"),
        ("oob/tick_p99_flood", f"{under:.3f}", "ms"),
        ("oob/tick_p99_rise_flood", f"{rise(under):.1f}", "%"),
        ("oob/tick_p99_at_rest_again", f"{rest_after:.3f}", "ms"),
    ]
    if args.tsv:
        pathlib.Path(args.tsv).write_text("".join("\t".join(r + (COMMAND,)) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
