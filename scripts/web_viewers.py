#!/usr/bin/env python3
"""Issue 23's viewer figure: a live server with bots and the web view on
loopback, its tick p99 (console `status`) with nobody watching and with
five viewers reading the stream of frames, alternated so the noise of the
machine shows; plus what the viewers got (frames a second, KB a frame).

    python3 scripts/web_viewers.py [--server target/release/quarry-server] [--bots 16] [--viewers 5] [--rounds 2] [--tsv FILE]

The viewers are threads of this script at the lowest CPU priority (a
browser would be on another machine); each reads the stream as fast as it
comes and counts frames and bytes.
"""

import argparse
import os
import pathlib
import socket
import sys
import tempfile
import threading
import time

from live_server import LiveServer
from script_common import require_binary, target_dir

ROOT = pathlib.Path(__file__).resolve().parent.parent
COMMAND = "python3 scripts/web_viewers.py"
# `status` reports the p99 of the last 1,024 ticks (17 s at 60 Hz): each
# phase lasts that long, so each figure is that phase's alone.
WINDOW_S = 18


class Viewer(threading.Thread):
    """Reads /frames until told to stop, counting frames and bytes."""

    def __init__(self, addr):
        super().__init__(daemon=True)
        self.addr, self.frames, self.bytes, self.stopping = addr, 0, 0, False

    def run(self):
        s = socket.create_connection(self.addr)
        s.sendall(f"GET /frames HTTP/1.1\r\nHost: {self.addr[0]}\r\nAccept: text/event-stream\r\n\r\n".encode())
        s.settimeout(2)
        pending = b""
        while not self.stopping:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                break
            self.bytes += len(chunk)
            pending += chunk
            *events, pending = pending.split(b"\n\n")
            self.frames += sum(1 for e in events if b"event: frame" in e)
        s.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=str(target_dir() / "release" / "quarry-server"))
    ap.add_argument("--bots", type=int, default=16)
    ap.add_argument("--viewers", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--tsv")
    args = ap.parse_args()
    require_binary(args.server, "cargo build --release -p quarry-server")
    with tempfile.TemporaryDirectory() as work:
        config = pathlib.Path(work)
        for name in ["server.cfg", "items.toml", "weapons.toml", "sounds.toml"]:
            (config / name).write_text((ROOT / "config" / name).read_text())
        server = LiveServer(args.server, config, ["+set", "bot_minPlayers", str(args.bots), "+set", "timelimit", "0", "+set", "fraglimit", "0",
                                                  "+set", "sv_webAddr", "127.0.0.1:0", "+map", "q_dm1"])
        m = server.wait_for(r"web view on http://([\d.]+):(\d+)/")
        web = (m.group(1), int(m.group(2)))
        # The viewers (threads of this process) yield to the server.
        os.nice(19)
        rests, watched, rates, sizes = [], [], [], []
        try:
            time.sleep(15 + WINDOW_S)  # the bots fill in, then a quiet window
            rests.append(server.times())
            for _ in range(args.rounds):
                viewers = [Viewer(web) for _ in range(args.viewers)]
                for v in viewers:
                    v.start()
                time.sleep(WINDOW_S)
                watched.append(server.times())
                for v in viewers:
                    v.stopping = True
                for v in viewers:
                    v.join(5)
                frames = sum(v.frames for v in viewers)
                rates.append(frames / args.viewers / WINDOW_S)
                sizes.append(sum(v.bytes for v in viewers) / max(1, frames) / 1024)
                time.sleep(WINDOW_S)
                rests.append(server.times())
        finally:
            server.stop()
    median = lambda xs: sorted(xs)[len(xs) // 2] if len(xs) % 2 else sum(sorted(xs)[len(xs) // 2 - 1:len(xs) // 2 + 1]) / 2
    rest, seen = median([p for _, p in rests]), median([p for _, p in watched])
    rest_mean, seen_mean = median([m for m, _ in rests]), median([m for m, _ in watched])
    rise = (seen / rest - 1.0) * 100.0 if rest > 0 else 0.0
    mean_rise = (seen_mean / rest_mean - 1.0) * 100.0 if rest_mean > 0 else 0.0
    ps = [p for _, p in rests]
    noise = (max(ps) / min(ps) - 1.0) * 100.0 if min(ps) > 0 else 0.0
    print(f"{args.bots} bots on q_dm1, windows of {WINDOW_S} s alternating; tick p99 with nobody watching: {', '.join(f'{p:.3f}' for _, p in rests)} ms "
          f"(median {rest:.3f}; the quiet windows differ by up to {noise:.1f} %)")
    print(f"with {args.viewers} viewers: {', '.join(f'{p:.3f}' for _, p in watched)} ms (median {seen:.3f}, {rise:+.1f} %); "
          f"mean tick {rest_mean:.3f} -> {seen_mean:.3f} ms ({mean_rise:+.1f} %); "
          f"each viewer got {sum(rates) / len(rates):.1f} frames a second of {sum(sizes) / len(sizes):.1f} KB")
    rows = [
        ("web/tick_p99_no_viewers", f"{rest:.3f}", "ms"),
        (f"web/tick_p99_{args.viewers}_viewers", f"{seen:.3f}", "ms"),
        (f"web/tick_p99_rise_{args.viewers}_viewers", f"{rise:.1f}", "%"),
        (f"web/tick_mean_rise_{args.viewers}_viewers", f"{mean_rise:.1f}", "%"),
        ("web/tick_p99_quiet_window_spread", f"{noise:.1f}", "%"),
        ("web/frames_per_second_per_viewer", f"{sum(rates) / len(rates):.1f}", "frames/s"),
        ("web/frame_size", f"{sum(sizes) / len(sizes):.1f}", "KB"),
    ]
    if args.tsv:
        pathlib.Path(args.tsv).write_text("".join("\t".join(r + (COMMAND,)) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
