#!/usr/bin/env python3
"""Issue 23's viewer figure: how much five viewers of the web view raise
the tick time of a live server with bots.

    python3 scripts/web_viewers.py [--server target/release/quarry-server] [--bots 16] [--viewers 5] [--rounds 3] [--windows 3] [--tsv FILE]

The same seeded match is played again and again (`bot_navBackground 0`
keeps the navmesh build on the tick thread, so every run plays the same
ticks), alternately with nobody watching and with the viewers reading the
stream of frames from the start. `status` gives each window's tick p99 and
mean (the last 1,024 ticks, 17 s at 60 Hz), asked at the same moments of
each run, so a window with viewers is compared with the same stretch of
the same match without them: what differs is the viewers and the
machine's noise, which the unwatched runs of the same window show.

The viewers are threads of this script at the lowest CPU priority (a
browser would be on another machine); each reads the stream as fast as it
comes and counts frames and bytes.
"""

import argparse
import os
import pathlib
import re
import socket
import statistics
import sys
import tempfile
import threading
import time

from live_server import LiveServer
from script_common import copy_config, require_binary, target_dir

COMMAND = "python3 scripts/web_viewers.py"
# `status` reports the last 1,024 ticks (17 s at 60 Hz): windows this long
# do not overlap.
WINDOW_S = 18
# `bot_minPlayers` adds a bot every 2 s: the match is full after this.
FILL_S = 2
# The console's obituaries ("X was fragged by Y's rocket launcher", ...):
# the same match prints the same ones in the same order.
OBITUARY = re.compile(r" was (fragged|caught in|telefragged|killed|in the wrong place)| blew up$| hit the ground too hard$| went swimming in lava$| melted in slime$| drowned$| suicides$")


class Viewer(threading.Thread):
    """Reads /frames until told to stop, counting frames and bytes."""

    def __init__(self, addr):
        super().__init__(daemon=True)
        self.addr, self.frames, self.bytes, self.stopping = addr, 0, 0, False

    def run(self):
        # Linux's nice(2) is per thread: the viewer yields to the server,
        # which this script's main thread starts at normal priority.
        os.nice(19)
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


def one_run(args, viewers):
    """A run of the seeded match with `viewers` viewers from the start:
    each window's (mean, p99) tick time in ms, the viewers' frames a second
    and KB a frame, and the obituaries printed until the last window."""
    with tempfile.TemporaryDirectory() as work:
        config = copy_config(work)
        server = LiveServer(args.server, config, ["--seed", str(args.seed), "+set", "bot_navBackground", "0", "+set", "bot_minPlayers", str(args.bots),
                                                  "+set", "timelimit", "0", "+set", "fraglimit", "0", "+set", "sv_webAddr", "127.0.0.1:0", "+map", "q_dm1"])
        readers = []
        try:
            m = server.wait_for(r"web view on http://([\d.]+):(\d+)/")
            web = (m.group(1), int(m.group(2)))
            started = time.time()
            readers = [Viewer(web) for _ in range(viewers)]
            for v in readers:
                v.start()
            windows = []
            for k in range(args.windows):
                time.sleep(max(0.0, started + FILL_S * args.bots + WINDOW_S * (k + 1) - time.time()))
                windows.append(server.times())
            seen = time.time() - started
            board = [line for line in list(server.lines) if OBITUARY.search(line)]
        finally:
            for v in readers:
                v.stopping = True
            server.stop()
        for v in readers:
            v.join(5)
    frames = sum(v.frames for v in readers)
    rate = frames / viewers / seen if viewers else 0.0
    size = sum(v.bytes for v in readers) / max(1, frames) / 1024
    return windows, rate, size, board


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=str(target_dir() / "release" / "quarry-server"))
    ap.add_argument("--bots", type=int, default=16)
    ap.add_argument("--viewers", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3, help="pairs of runs, one watched and one not, in alternating order")
    ap.add_argument("--windows", type=int, default=3, help="windows of 18 s measured in each run once the bots are in")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--tsv")
    args = ap.parse_args()
    require_binary(args.server, "cargo build --release -p quarry-server")
    quiet, watched, rates, sizes, boards = [], [], [], [], []
    for r in range(args.rounds):
        for viewers in ([0, args.viewers] if r % 2 == 0 else [args.viewers, 0]):
            windows, rate, size, board = one_run(args, viewers)
            boards.append(board)
            if viewers:
                watched.append(windows)
                rates.append(rate)
                sizes.append(size)
            else:
                quiet.append(windows)
            print(f"run {len(boards)}: {viewers} viewers, tick p99 by window {', '.join(f'{p:.3f}' for _, p in windows)} ms, mean {', '.join(f'{m:.3f}' for m, _ in windows)} ms", file=sys.stderr)
    # The runs are asked for their figures at the same wall-clock moments,
    # a tick or two apart: the same match prints the same obituaries but
    # for the last one or two.
    common = min(len(b) for b in boards) - 2
    same = common > 0 and all(b[:common] == boards[0][:common] for b in boards)
    median = statistics.median
    # Per window: the median over runs of each condition, so the noise of
    # one run weighs little; the rise is their ratio, and the median of
    # those over the windows is the figure.
    rises, mean_rises, spreads = [], [], []
    for k in range(args.windows):
        q99, w99 = [w[k][1] for w in quiet], [w[k][1] for w in watched]
        qm, wm = [w[k][0] for w in quiet], [w[k][0] for w in watched]
        rises.append((median(w99) / median(q99) - 1.0) * 100.0)
        mean_rises.append((median(wm) / median(qm) - 1.0) * 100.0)
        spreads.append((max(q99) / min(q99) - 1.0) * 100.0)
    rise, mean_rise, noise = median(rises), median(mean_rises), median(spreads)
    rest = median([w[1] for run in quiet for w in run])
    seen = median([w[1] for run in watched for w in run])
    print(f"{args.bots} bots on q_dm1, seed {args.seed}, the same match in {len(boards)} runs ({f'the same {common}+ kills in the same order every time' if same else 'THE KILLS DIFFER: not the same match'}); "
          f"{args.windows} windows of {WINDOW_S} s each")
    print(f"tick p99 with nobody watching {rest:.3f} ms, with {args.viewers} viewers {seen:.3f} ms; rise by window (median of each condition's runs) "
          f"{', '.join(f'{x:+.1f}' for x in rises)} %, median {rise:+.1f} %; mean tick {mean_rise:+.1f} %; "
          f"the unwatched runs of one window differ by {noise:.0f} % (median)")
    print(f"each viewer got {sum(rates) / len(rates):.1f} frames a second of {sum(sizes) / len(sizes):.1f} KB")
    rows = [
        ("web/tick_p99_no_viewers", f"{rest:.3f}", "ms"),
        (f"web/tick_p99_{args.viewers}_viewers", f"{seen:.3f}", "ms"),
        (f"web/tick_p99_rise_{args.viewers}_viewers", f"{rise:.1f}", "%"),
        (f"web/tick_mean_rise_{args.viewers}_viewers", f"{mean_rise:.1f}", "%"),
        ("web/tick_p99_unwatched_run_spread", f"{noise:.1f}", "%"),
        ("web/frames_per_second_per_viewer", f"{sum(rates) / len(rates):.1f}", "frames/s"),
        ("web/frame_size", f"{sum(sizes) / len(sizes):.1f}", "KB"),
    ]
    if args.tsv:
        pathlib.Path(args.tsv).write_text("".join("\t".join(r + (COMMAND,)) + "\n" for r in rows))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
