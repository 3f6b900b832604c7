#!/usr/bin/env python3
"""Issue 22's flood figures: a live server with bots on loopback, its tick
p99 measured (console `status`) at rest, during a flood of admin sign-ins
with a wrong key, and during a flood of queries; and how many queries were
answered and how many the per-address rate limit refused.

    python3 scripts/service_flood.py [--server target/release/quarry-server] [--client target/release/quarry-client] [--attempts 300] [--tsv FILE]

Each attempt is one `quarry-client` process (rcon with a wrong key, or
query) at the lowest CPU priority, two at a time, so the flood is bounded
and loopback only.
"""

import argparse
import concurrent.futures
import pathlib
import subprocess
import sys
import tempfile
import time

from live_server import LiveServer
from script_common import copy_config

ROOT = pathlib.Path(__file__).resolve().parent.parent
COMMAND = "python3 scripts/service_flood.py"
# `status` reports the p99 of the last 1,024 ticks (17 s at 60 Hz): each
# phase waits that long after the last, and a flood of the default size
# lasts about as long, so each figure is that phase's alone.
WINDOW_S = 18


def flood(n, make_cmd):
    codes = []
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        # At the lowest priority: on a small machine the client processes
        # would otherwise take the tick thread's CPU, which measures the
        # machine, not the server.
        for r in pool.map(lambda _: subprocess.run(["nice", "-n", "19"] + make_cmd(), capture_output=True, text=True), range(n)):
            codes.append((r.returncode, r.stderr))
    return codes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=str(ROOT / "target" / "release" / "quarry-server"))
    ap.add_argument("--client", default=str(ROOT / "target" / "release" / "quarry-client"))
    ap.add_argument("--attempts", type=int, default=400)
    ap.add_argument("--tsv")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        config = copy_config(work)
        subprocess.run([args.server, "--config", str(config), "new-admin", "ops", "--role", "operator"], check=True, capture_output=True)
        # A key for the same name that the server does not know.
        wrong = config / "wrong"
        wrong.mkdir()
        subprocess.run([args.server, "--config", str(wrong), "new-admin", "ops"], check=True, capture_output=True)
        server = LiveServer(args.server, config, ["+set", "bot_minPlayers", "8", "+set", "timelimit", "0", "+set", "fraglimit", "0", "+map", "q_dm1"])
        m = server.wait_for(r"listening on udp \S+:(\d+), certificate fingerprint (\S+)")
        server.port, server.fingerprint = int(m.group(1)), m.group(2)
        try:
            time.sleep(15 + WINDOW_S)  # the bots fill in, then a quiet window
            rest = server.p99()
            target = f"127.0.0.1:{server.port}"
            # The control: the same number of client processes that never
            # reach the server, which is what the machine alone costs.
            flood(args.attempts, lambda: [args.client, "--version"])
            control = server.p99()
            time.sleep(WINDOW_S)
            start = time.time()
            results = flood(args.attempts, lambda: [args.client, "rcon", target, "--fingerprint", server.fingerprint, "--key", str(wrong / "admin-ops.key"), "status"])
            admin_s = time.time() - start
            under_admin = server.p99()
            refused = sum(1 for code, _ in results if code != 0)
            locked = sum(1 for _, err in results if "too many failed sign-ins" in err)
            time.sleep(WINDOW_S)
            start = time.time()
            results = flood(args.attempts, lambda: [args.client, "query", target, "--fingerprint", server.fingerprint])
            query_s = time.time() - start
            under_query = server.p99()
            time.sleep(WINDOW_S)
            rest_after = server.p99()
            answered = sum(1 for code, _ in results if code == 0)
            limited = sum(1 for _, err in results if "rate limited" in err)
        finally:
            server.stop()
    rise = lambda p: (p / rest - 1.0) * 100.0 if rest > 0 else 0.0
    print(f"tick p99 during {args.attempts} client processes that never reach the server (the machine's share): {control:.3f} ms ({rise(control):+.1f} %)")
    print(f"tick p99 at rest {rest:.3f} ms; during {args.attempts} bad admin sign-ins ({admin_s:.1f} s) {under_admin:.3f} ms ({rise(under_admin):+.1f} %); "
          f"{refused} refused, {locked} of them by the lockout")
    print(f"during {args.attempts} queries ({query_s:.1f} s) {under_query:.3f} ms ({rise(under_query):+.1f} %); {answered} answered, {limited} rate-limited")
    print(f"at rest again {rest_after:.3f} ms ({rise(rest_after):+.1f} %: the noise between two quiet windows)")
    rows = [
        ("services/tick_p99_at_rest", f"{rest:.3f}", "ms"),
        ("services/tick_p99_control_processes", f"{control:.3f}", "ms"),
        ("services/tick_p99_admin_flood", f"{under_admin:.3f}", "ms"),
        ("services/tick_p99_rise_admin_flood", f"{rise(under_admin):.1f}", "%"),
        ("services/admin_flood_locked_out", str(locked), f"of {args.attempts}"),
        ("services/tick_p99_query_flood", f"{under_query:.3f}", "ms"),
        ("services/tick_p99_at_rest_again", f"{rest_after:.3f}", "ms"),
        ("services/queries_answered", str(answered), f"of {args.attempts}"),
        ("services/queries_rate_limited", str(limited), f"of {args.attempts}"),
    ]
    if args.tsv:
        pathlib.Path(args.tsv).write_text("".join("\t".join(r + (COMMAND,)) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
