#!/usr/bin/env python3
"""Issue 48's play client figures, measured on the real window under Xvfb
with Mesa's software renderer (llvmpipe):

    python3 scripts/play_figures.py [--server target/release/quarry-server] [--client target/release/quarry-client] [--tsv FILE]

1. Frame time at 1280x720 with 16 bots in the match, on q_dm1 and on the
   largest shared map by triangles (oacmpdm8): the client stands at its
   spawn and keeps its view on the nearest bot for FRAME_SECONDS; the p50
   and p99 of its frame times (`--frame-times`).
2. Prediction through a loopback UDP relay that adds 50 ms each way (100
   ms round trip) and drops 2 % of datagrams both ways (seeded): a
   scripted player alone (nothing else pushes it) on q_dm1 and on lqdm12
   (teleporters, jump pads, lifts, stairs) walks, strafes, jumps, crouches
   and turns for PREDICTION_SECONDS, generated from a seed; the client
   measures its predicted position against the server's answer for the
   same command at every snapshot, and counts the commands it predicted
   through a teleporter or off a jump pad (its `--stats` prediction line).

Rows: name, value, unit, command (scripts/bench.sh collects them).
"""

import argparse
import heapq
import pathlib
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

from live_server import LiveServer
from script_common import require_binary, target_dir

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "maps"
COMMAND = "python3 scripts/play_figures.py"
FRAME_SECONDS = 60
PREDICTION_SECONDS = 120


class Relay:
    """A UDP relay on 127.0.0.1 that delays every datagram by `delay` s and
    drops a `loss` share of them, each way, from a seeded generator."""

    def __init__(self, server_port, delay, loss, seed):
        self.server = ("127.0.0.1", server_port)
        self.delay, self.loss, self.rng = delay, loss, random.Random(seed)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.up = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.up.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.client = None
        self.queue, self.lock, self.wake = [], threading.Lock(), threading.Event()
        self.seq, self.running = 0, True
        self.sent = self.dropped = 0
        for target in (self._from_client, self._from_server, self._deliver):
            threading.Thread(target=target, daemon=True).start()

    def _push(self, data, sock, addr):
        with self.lock:
            self.sent += 1
            if self.rng.random() < self.loss:
                self.dropped += 1
                return
            self.seq += 1
            heapq.heappush(self.queue, (time.monotonic() + self.delay, self.seq, data, sock, addr))
        self.wake.set()

    def _from_client(self):
        while self.running:
            data, addr = self.sock.recvfrom(65536)
            self.client = addr
            self._push(data, self.up, self.server)

    def _from_server(self):
        while self.running:
            data, _ = self.up.recvfrom(65536)
            if self.client:
                self._push(data, self.sock, self.client)

    def _deliver(self):
        while self.running:
            with self.lock:
                due = self.queue[0][0] if self.queue else None
            now = time.monotonic()
            if due is None or due > now:
                self.wake.wait(0.0005 if due is None else min(due - now, 0.005))
                self.wake.clear()
                continue
            with self.lock:
                _, _, data, sock, addr = heapq.heappop(self.queue)
            sock.sendto(data, addr)


def walk_script(seed, seconds):
    """A seeded scripted walk: moves, strafes, jumps, crouches and turns."""
    rng = random.Random(seed)
    lines, t = ["0.3 weapon 1"], 0.5
    while t < seconds:
        span = rng.uniform(0.6, 2.5)
        moves = rng.choice([["+forward"], ["+forward", "+moveleft"], ["+forward", "+moveright"], ["+back"], ["+moveleft"], ["+forward"]])
        for m in moves:
            lines.append(f"{t:.2f} {m}")
        if rng.random() < 0.5:
            j = t + rng.uniform(0.1, span)
            lines.append(f"{j:.2f} +jump")
            lines.append(f"{j + 0.1:.2f} -jump")
        if rng.random() < 0.15:
            c = t + rng.uniform(0.1, span)
            lines.append(f"{c:.2f} +crouch")
            lines.append(f"{c + 0.5:.2f} -crouch")
        lines.append(f"{t + span / 2:.2f} turn {rng.uniform(-120, 120):.1f}")
        t += span
        for m in moves:
            lines.append(f"{t:.2f} -{m[1:]}")
    lines.append(f"{seconds:.2f} quit")
    return "\n".join(lines) + "\n"


def run_client(client, address, maps, script, extra, timeout):
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x720x24", client, "play", address, "--no-config", "--no-remember", "--stats",
           "--script", script] + sum((["--maps", m] for m in maps), []) + extra
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise SystemExit(f"play failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
    return out.stdout


def start_server(binary, config, args):
    # The server runs at the lowest priority: it stands in for a server on
    # another machine, and the figure is the client's.
    server = LiveServer(binary, config, ["+set", "g_warmup", "0", "+set", "fraglimit", "0", "+set", "timelimit", "0"] + args, prefix=["nice", "-n", "19"])
    m = server.wait_for(r"join address: quarry://127\.0\.0\.1:(\d+)/#(\S+)")
    return server, int(m.group(1)), m.group(2)


def prediction_figures(server_bin, client_bin, config, tmp, seed, name, map_arg, maps):
    server, port, fp = start_server(server_bin, config, ["+set", "bot_minPlayers", "0", "+map", map_arg])
    relay = Relay(port, 0.050, 0.02, seed)
    try:
        script = tmp / "walk.txt"
        script.write_text(walk_script(seed, PREDICTION_SECONDS))
        out = run_client(client_bin, f"quarry://127.0.0.1:{relay.port}/#{fp}", maps, str(script), [], PREDICTION_SECONDS + 60)
    finally:
        relay.running = False
        server.stop()
    m = re.search(r"prediction: (\d+) misses measured, p50 ([\d.]+) p99 ([\d.]+) max ([\d.]+) units; (\d+) commands through", out)
    if not m:
        raise SystemExit(f"no prediction line:\n{out}")
    n, p50, p99, worst, triggers = int(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4)), int(m.group(5))
    print(f"prediction on {name} through 100 ms / 2 % loss, {n} commands measured: p50 {p50:.3f}, p99 {p99:.3f}, max {worst:.1f} units; "
          f"{triggers} commands through a teleporter or off a jump pad (relay dropped {relay.dropped} of {relay.sent} datagrams)")
    return [(f"play/prediction_miss_p99_rtt100_loss2_{name}", f"{p99:.3f}", "units"), (f"play/prediction_miss_max_rtt100_loss2_{name}", f"{worst:.3f}", "units"),
            (f"play/prediction_commands_measured_{name}", str(n), "commands"), (f"play/prediction_trigger_commands_{name}", str(triggers), "commands")]


def play_arguments(p):
    """The --server, --client and --tsv arguments both play scripts take."""
    p.add_argument("--server", default=str(target_dir() / "release" / "quarry-server"))
    p.add_argument("--client", default=str(target_dir() / "release" / "quarry-client"))
    p.add_argument("--tsv")


def check_play_tools(args):
    """Stops with what to do when a binary or xvfb-run is missing."""
    require_binary(args.server, "cargo build --release --bin quarry-server")
    require_binary(args.client, "cargo build --release --bin quarry-client")
    if not shutil.which("xvfb-run"):
        raise SystemExit("xvfb-run is not installed (Debian: xvfb, libgl1-mesa-dri)")


def scratch_config(tmp):
    """A copy of the shipped config under `tmp` (never the checkout's archive)."""
    config = tmp / "config"
    config.mkdir()
    for f in ("server.cfg", "items.toml", "weapons.toml"):
        shutil.copy(ROOT / "config" / f, config / f)
    return config


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    play_arguments(p)
    p.add_argument("--seed", type=int, default=48)
    p.add_argument("--only", choices=["frames", "prediction"])
    args = p.parse_args()
    check_play_tools(args)
    rows = []
    with tempfile.TemporaryDirectory() as d:
        tmp = pathlib.Path(d)
        config = scratch_config(tmp)
        if args.only in (None, "frames"):
            for name, map_arg, maps in [("q_dm1", "q_dm1", [str(ROOT / "maps")]),
                                        ("oacmpdm8", str(SHARED / "q3" / "oacmpdm8.map"), [str(SHARED / "q3")])]:
                rows += frame_figures_for(args.server, args.client, config, tmp, map_arg, name, maps)
        if args.only in (None, "prediction"):
            # q_dm1 (a teleporter, a jump pad, a plat) and lqdm12 (teleporters, pads and lifts).
            for name, map_arg, maps in [("q_dm1", "q_dm1", [str(ROOT / "maps")]),
                                        ("lqdm12", str(SHARED / "valve220" / "lqdm12.map"), [str(SHARED / "valve220")])]:
                rows += prediction_figures(args.server, args.client, config, tmp, args.seed, name, map_arg, maps)
    if args.tsv:
        pathlib.Path(args.tsv).write_text("".join("\t".join(r + (COMMAND,)) + "\n" for r in rows))
    return 0


def frame_figures_for(server_bin, client_bin, config, tmp, map_arg, name, maps):
    server, port, fp = start_server(server_bin, config, ["+set", "bot_minPlayers", "17", "+map", map_arg])
    try:
        time.sleep(34)
        script = tmp / f"frames-{name}.txt"
        script.write_text(f"0.5 aim\n{FRAME_SECONDS + 0.5:.1f} quit\n")
        times = tmp / f"frames-{name}.ms"
        run_client(client_bin, f"quarry://127.0.0.1:{port}/#{fp}", maps, str(script), ["--frame-times", str(times)], FRAME_SECONDS + 60)
    finally:
        server.stop()
    # The first second loads the map and fills the snapshot history.
    ms = [float(x) for x in times.read_text().split()]
    ms = sorted(ms[60:] if len(ms) > 120 else ms)
    q = lambda p: ms[min(len(ms) - 1, round((len(ms) - 1) * p))]
    print(f"{name}: {len(ms)} frames, p50 {q(0.5):.2f} ms, p99 {q(0.99):.2f} ms (16 bots, 1280x720, llvmpipe)")
    return [(f"play/frame_ms_p50_{name}", f"{q(0.5):.2f}", "ms"), (f"play/frame_ms_p99_{name}", f"{q(0.99):.2f}", "ms")]


if __name__ == "__main__":
    sys.exit(main())
