#!/usr/bin/env python3
"""Tick time with a full server of bots on every shipped and shared map:
a headless `quarry-server --fast --json` FFA match of 64 players (bots join
one every 2 s, so the last minute is played nearly full) for 2 simulated
minutes, and the tick's p50 and p99 over its last 1,024 ticks (the server's
own window, about 17 s at 60 Hz) from the summary's `tick_time`. The budget
is a p99 of at most 2 ms on every map.

Wall time on a shared machine swings by tens of percent: each map is run
`--runs` times (default 2) and the rows give the lowest p50 and p99 of the
runs (the run least disturbed by other work), the command one run's exact
line. For a figure that does not swing, count instructions with callgrind
(scripts/callgrind.sh for the benches; valgrind --tool=callgrind on the
command itself with a shorter timelimit).

    scripts/tick_figures.py [--server target/release/quarry-server]
                            [--shared ../shared/maps] [--runs 2] [--seed 3]
                            [--only NAME] [--tsv FILE]

Rows: `tick/64_bots/MAP/p50` and `.../p99`, in ms.
"""
import argparse
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

from script_common import emit_rows, require_binary, target_dir  # noqa: E402 (beside this script)

# The shipped maps by name, the shared ones by path below --shared.
SHIPPED = ["q_dm1", "q_duel1", "q_ctf1"]
SHARED = [
    "q3/oacmpctf1.map",
    "q3/oacmpdm8.map",
    "q3-brushdef/oa_bases3cl.map",
    "q3-brushdef/void4.map",
    "q1-standard/dm3.map",
    "q1-standard/dm4.map",
    "q1-standard/dm6.map",
    "valve220/lqdm12.map",
]
FULL = ["+set", "sv_maxclients", "64", "+set", "bot_minPlayers", "64", "+set", "timelimit", "2"]


def maps(shared):
    """(short name, +map argument) for every map that is there."""
    out = [(name, name) for name in SHIPPED]
    for rel in SHARED:
        path = shared / rel
        if path.exists():
            out.append((path.stem, str(path)))
        else:
            print(f"tick_figures: skipping {path}: not there", file=sys.stderr)
    return out


def run(server, seed, map_arg):
    """One match on a fresh copy of config/ (an archive.cfg left by an
    earlier run never changes it); returns its tick_time and the command."""
    with tempfile.TemporaryDirectory(prefix="quarry-ticks-") as tmp:
        for f in (ROOT / "config").glob("*.toml"):
            shutil.copy(f, tmp)
        cmd = [str(server), "--config", tmp, "--botfiles", str(ROOT / "botfiles"), "--fast", "--seed", str(seed), "--json"] + FULL + ["+map", map_arg]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    last = [line for line in proc.stdout.splitlines() if line.startswith("{")][-1]
    shown = " ".join(cmd[:1] + ["--config", "CONFIG_COPY"] + cmd[3:])
    return json.loads(last)["tick_time"], shown.replace(str(ROOT) + "/", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=str(target_dir() / "release/quarry-server"))
    ap.add_argument("--shared", default=str(ROOT.parent / "shared/maps"))
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--only", help="run only the maps whose name contains this")
    ap.add_argument("--tsv", help="also write the rows here, tab-separated")
    opts = ap.parse_args()
    require_binary(opts.server, "cargo build --release --bin quarry-server")
    rows = []
    for name, map_arg in maps(pathlib.Path(opts.shared)):
        if opts.only and opts.only not in name:
            continue
        runs = [run(opts.server, opts.seed, map_arg) for _ in range(max(1, opts.runs))]
        command = runs[-1][1]
        p50 = min(t.get("p50_ms", float("nan")) for t, _ in runs)
        p99 = min(t["p99_ms"] for t, _ in runs)
        print(f"{name}: p50 {p50:.2f} ms, p99 {p99:.2f} ms (runs: "
              + ", ".join(f"{t['p99_ms']:.2f}" for t, _ in runs) + ")", file=sys.stderr)
        rows.append((f"tick/64_bots/{name}/p50", f"{p50:.2f}", "ms", f"{command} (best of {len(runs)})"))
        rows.append((f"tick/64_bots/{name}/p99", f"{p99:.2f}", "ms", f"{command} (best of {len(runs)})"))
    emit_rows(rows, opts.tsv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
