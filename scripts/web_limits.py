#!/usr/bin/env python3
"""Issue 46's web view figures (items 7 and 9): how fast the view's
password can be guessed from one address, and how long a normal page
request waits while others hold the view's connections.

    python3 scripts/web_limits.py [--server target/debug/quarry-server] [--addresses 8] [--slow 16] [--streams 64]

One server (q_dm1, four bots, `sv_webPassword` set, the view on
127.0.0.1) is measured in four ways, each from addresses of 127.0.0.0/8
(Linux answers on all of them):

- guessing: one connection from 127.0.0.50 sends wrong passwords for 2 s,
  request after request; the answers are counted by status (401 is a
  guess looked at, 429 a refusal of a locked-out address), then the
  right password is tried;
- streams: `--streams` streams of frames are opened (8 from each address
  from 127.0.0.10 up) and held, read; a page GET, the map and the history
  from 127.0.0.1 are timed, and one more stream;
- slowloris: `--addresses` addresses from 127.0.0.2 up open `--slow`
  connections each and send one byte of a request head every 500 ms; a
  page GET from 127.0.0.1 is timed five times, a second apart;
- both at once.
"""

import argparse
import base64
import pathlib
import socket
import sys
import tempfile
import threading
import time

from live_server import LiveServer
from script_common import require_binary, target_dir

PASSWORD = "hunter2"
GOOD = base64.b64encode(f"viewer:{PASSWORD}".encode()).decode()
BAD = base64.b64encode(b"viewer:guess").decode()


def connect(addr, source, timeout=15):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    s.settimeout(timeout)
    s.connect(addr)
    return s


def read_response(s):
    """Reads one response with a Content-Length body (or to the close); returns its status."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and len(lines[0].split()) > 1 else 0
    length = next((int(l.split(":", 1)[1]) for l in lines if l.lower().startswith("content-length:")), None)
    if length is not None:
        while len(body) < length:
            chunk = s.recv(65536)
            if not chunk:
                break
            body += chunk
    return status


def timed_get(addr, path, source="127.0.0.1"):
    """(status, seconds) of one GET with the right password, from `source`."""
    start = time.monotonic()
    try:
        s = connect(addr, source)
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Basic {GOOD}\r\nConnection: close\r\n\r\n".encode())
        status = read_response(s)
        s.close()
    except OSError:
        status = 0
    return status, time.monotonic() - start


def guessing(addr, source="127.0.0.50"):
    s = connect(addr, source)
    counts = {}
    end = time.monotonic() + 2
    while time.monotonic() < end:
        s.sendall(f"GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Basic {BAD}\r\n\r\n".encode())
        try:
            status = read_response(s)
        except OSError:
            status = 0
        counts[status] = counts.get(status, 0) + 1
        if status == 0:
            s.close()
            s = connect(addr, source)
    s.close()
    right, _ = timed_get(addr, "/", source)
    looked_at = counts.get(401, 0)
    print(f"guessing: {sum(counts.values())} requests in 2 s from one address; answers {dict(sorted(counts.items()))}; "
          f"{looked_at / 2:.0f} guesses a second looked at; the right password then: {right}")
    return looked_at / 2


class Holder(threading.Thread):
    """Holds a stream of frames (`slow` False), or trickles a request head,
    a byte every 500 ms, connecting again whenever it is closed."""

    def __init__(self, addr, source, slow):
        super().__init__(daemon=True)
        self.addr, self.source, self.slow, self.stopping, self.status = addr, source, slow, False, None

    def run(self):
        if self.slow:
            while not self.stopping:
                self.trickle()
        else:
            self.watch()

    def trickle(self):
        try:
            s = connect(self.addr, self.source, timeout=1)
        except OSError:
            time.sleep(0.1)
            return
        try:
            for byte in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 10_000:
                if self.stopping:
                    break
                s.sendall(bytes([byte]))
                time.sleep(0.5)
        except OSError:
            pass
        s.close()

    def watch(self):
        try:
            s = connect(self.addr, self.source, timeout=1)
            s.sendall(f"GET /frames HTTP/1.1\r\nHost: x\r\nAuthorization: Basic {GOOD}\r\n\r\n".encode())
        except OSError:
            return
        while not self.stopping:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                break
            if not chunk:
                break
            if self.status is None:
                self.status = chunk.split(b" ", 2)[1].decode()
        s.close()


def hold(addr, first, addresses, each, slow):
    holders = [Holder(addr, f"127.0.0.{first + a}", slow) for a in range(addresses) for _ in range(each)]
    for h in holders:
        h.start()
        time.sleep(0.005)
    return holders


def page_times(addr, label, rounds=5):
    times = []
    for _ in range(rounds):
        status, took = timed_get(addr, "/")
        times.append((status, took))
        time.sleep(1)
    worst = max(t for _, t in times)
    print(f"{label}: page GET {', '.join(f'{s} in {t:.2f} s' for s, t in times)}; worst {worst:.2f} s")
    return worst


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", default=str(target_dir() / "debug" / "quarry-server"))
    p.add_argument("--addresses", type=int, default=8)
    p.add_argument("--slow", type=int, default=16)
    p.add_argument("--streams", type=int, default=64)
    p.add_argument("--tsv", help="also write the figures as bench table rows (name, value, unit, command)")
    a = p.parse_args()
    rows = []
    require_binary(a.server, "cargo build -p quarry-server")
    with tempfile.TemporaryDirectory() as config:
        server = LiveServer(a.server, pathlib.Path(config), ["+set", "sv_webPassword", PASSWORD, "+set", "sv_webAddr", "127.0.0.1:0", "+map", "q_dm1", "+set", "bot_minPlayers", "4"])
        try:
            m = server.wait_for(r"web view on http://([\d.]+):(\d+)/")
            addr = (m.group(1), int(m.group(2)))
            time.sleep(2)
            rows.append(("web/password_guesses_looked_at_per_s", guessing(addr), "/s"))
            time.sleep(1)

            streams = hold(addr, 10, (a.streams + 7) // 8, 8, slow=False)[: a.streams]
            time.sleep(2)
            held = sum(1 for h in streams if h.status == "200")
            print(f"streams: {held} of {a.streams} held")
            for path in ["/", "/map", "/history"]:
                status, took = timed_get(addr, path)
                print(f"streams: {path} {status} in {took:.2f} s")
                if path == "/":
                    rows.append(("web/page_with_every_stream_taken", took, "s"))
            status, took = timed_get(addr, "/frames?one-more")
            print(f"streams: one more stream from 127.0.0.1: {status} in {took:.2f} s")

            slow = hold(addr, 2, a.addresses, a.slow, slow=True)
            time.sleep(1)
            rows.append(("web/page_with_streams_and_slowloris_worst", page_times(addr, f"streams + slowloris ({a.addresses} addresses x {a.slow})"), "s"))
            for h in streams:
                h.stopping = True
            time.sleep(2)
            rows.append(("web/page_with_slowloris_worst", page_times(addr, f"slowloris ({a.addresses} addresses x {a.slow})"), "s"))
            for h in slow:
                h.stopping = True
        finally:
            server.stop()
    if a.tsv:
        command = f"scripts/web_limits.py --addresses {a.addresses} --slow {a.slow} --streams {a.streams}"
        with open(a.tsv, "w") as f:
            for name, value, unit in rows:
                f.write(f"{name}\t{value:.2f}\t{unit}\t{command}\n")


if __name__ == "__main__":
    sys.exit(main())
