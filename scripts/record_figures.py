#!/usr/bin/env python3
"""Recording size figures (issue 21): headless bot matches of 8, 16 and 64
players recorded with --record, then replayed with `replay FILE --json`, which
checks every hash and reports the size: the header (map and config text,
once per file) and the bytes per minute of play while every player was in
(bots join one every 2 s, so a full server is measured after the fill).

    python3 scripts/record_figures.py [--server target/release/quarry-server] [--tsv FILE]

Prints one line per match; with --tsv, writes rows for scripts/bench.sh
(name, value, unit, command).
"""

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

# (players, maps folder, map, minutes): 64 players need a large map and
# more time to fill (a bot joins every 2 s).
MATCHES = [
    (8, ROOT / "maps", "q_dm1", 2),
    (16, ROOT / "maps", "q_dm1", 2),
    (64, ROOT.parent / "shared" / "maps" / "q1-standard", "dm3", 4),
]

COMMAND = "python3 scripts/record_figures.py"


def measure(server, players, maps, name, minutes, seed, workdir):
    demo = pathlib.Path(workdir) / f"r{players}.qdemo"
    record = [
        server, "--config", str(ROOT / "config"), "--botfiles", str(ROOT / "botfiles"), "--maps", str(maps),
        "--fast", "--json", "--seed", str(seed), "--record", str(demo),
        "+set", "bot_minPlayers", str(players), "+set", "sv_maxclients", str(players),
        "+set", "timelimit", str(minutes), "+set", "fraglimit", "0", "+map", name,
    ]
    subprocess.run(record, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = subprocess.run([server, "replay", str(demo), "--json"], check=True, capture_output=True, text=True).stdout
    summary = json.loads(out.strip().splitlines()[-1])
    return summary["replay"]["size"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=str(ROOT / "target" / "release" / "quarry-server"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tsv")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for players, maps, name, minutes in MATCHES:
            if not (maps / f"{name}.map").exists():
                print(f"skipping {players} players: {maps / name}.map is missing", file=sys.stderr)
                continue
            size = measure(args.server, players, maps, name, minutes, args.seed, work)
            kb = size["full_bytes_per_minute"] / 1024
            print(f"{players} players on {name}: {kb:.1f} KB a minute with all {size['players']} in "
                  f"({size['full_minutes']:.2f} min); header {size['header_bytes'] / 1024:.1f} KB; "
                  f"{size['file_bytes'] / 1024:.1f} KB for {size['minutes']:.1f} min")
            rows.append((f"recording/{players}_players_kb_per_minute", f"{kb:.1f}", "KB/min", COMMAND))
            rows.append((f"recording/{players}_players_header_kb", f"{size['header_bytes'] / 1024:.1f}", "KB", COMMAND))
    if args.tsv:
        pathlib.Path(args.tsv).write_text("".join("\t".join(r) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
