#!/usr/bin/env python3
"""Runs 8-bot matches (FFA unless --gametype says otherwise) on every
shipped and shared map and prints how well the bots get around: per map
and seed, the worst bot's stuck share and longest idle, what all bots used
(jump pads, teleporters, lifts, swims, gates they opened on purpose:
buttons pressed, triggers touched, doors shot), the kills and
suicides (deaths to lava, falls and a bot's own splash) and the top
stuck hotspot.

Each match is `quarry-server --fast --json` (10 simulated minutes unless
--minutes says otherwise) on a fresh copy of config/, two at a time.

    scripts/stuck_figures.py [--server target/release/quarry-server]
                             [--seeds 1,2,3] [--minutes 10]
                             [--shared ../shared/maps] [--maps a.map,b.map]
                             [--gametype ctf] [--json FILE] [--tsv FILE]
"""
import argparse
import concurrent.futures
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

from script_common import require_binary, target_dir  # noqa: E402 (beside this script)


def all_maps(shared):
    """Every shipped map, then every shared map, as paths."""
    maps = sorted((ROOT / "maps").glob("*.map"))
    if shared.is_dir():
        maps += sorted(shared.glob("*/*.map"))
    return maps


def run(server, path, seed, minutes, gametype):
    """One match; returns its parsed summary."""
    with tempfile.TemporaryDirectory(prefix="quarry-stuck-") as tmp:
        config = pathlib.Path(tmp) / "config"
        shutil.copytree(ROOT / "config", config)
        cmd = [
            str(server), "--config", str(config), "--maps", str(ROOT / "maps"),
            "--botfiles", str(ROOT / "botfiles"), "--fast", "--json", "--seed", str(seed),
            "+set", "g_gametype", gametype, "+set", "bot_minPlayers", "8", "+set", "timelimit", str(minutes),
            "+set", "fraglimit", "0", "+set", "capturelimit", "0", "+map", str(path),
        ]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=3600, check=False)
        if out.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{out.stderr[-2000:]}")
        return json.loads(out.stdout)


def row(name, seed, summary):
    """The figures of one match."""
    bots = summary["bots"]["bots"]
    spots = summary["bots"].get("stuck_hotspots", [])
    top = "-"
    if spots:
        h = spots[0]
        pos = " ".join(f"{c:.0f}" for c in h["pos"])
        top = f"({pos}) {h.get('seconds', 0):.0f} s {h.get('link', '?')} -> {h.get('goal', '?')}"
    return {
        "map": name,
        "seed": seed,
        "stuck_pct": max(b["stuck_pct"] for b in bots),
        "idle_s": max(b["max_idle_s"] for b in bots),
        "pads": sum(b["jump_pads"] for b in bots),
        "teleports": sum(b["teleports"] for b in bots),
        "lifts": sum(b.get("lifts", 0) for b in bots),
        "swims": sum(b.get("swims", 0) for b in bots),
        "gates": sum(b.get("gates", 0) for b in bots),
        "kills": sum(b["kills"] for b in bots),
        "suicides": sum(r["score"].get("suicides", 0) for r in summary.get("scoreboard", {}).get("rows", [])),
        "top": top,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--server", default=str(target_dir() / "release" / "quarry-server"))
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--minutes", default="10")
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "maps"))
    ap.add_argument("--maps", default="", help="comma-separated map paths instead of all")
    ap.add_argument("--json", default="", help="also write the rows here")
    ap.add_argument("--tsv", default="", help="also write per-map table rows (name, value, unit, command) here, for scripts/bench.sh")
    ap.add_argument("--gametype", default="ffa", help="g_gametype of every match (ctf: 4 against 4)")
    a = ap.parse_args()
    require_binary(a.server, "cargo build --release -p quarry-server")
    server = pathlib.Path(a.server)
    maps = [pathlib.Path(m) for m in a.maps.split(",") if m] or all_maps(pathlib.Path(a.shared))
    missing = [m for m in maps if not m.is_file()]
    for m in missing:
        print(f"stuck_figures.py: {m} not found, skipped", file=sys.stderr)
    maps = [m for m in maps if m.is_file()]
    if not maps:
        sys.exit("stuck_figures.py: no maps to run")
    seeds = [int(s) for s in a.seeds.split(",") if s]
    jobs = [(m, s) for m in maps for s in seeds]
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {pool.submit(run, server, m, s, a.minutes, a.gametype): (m, s) for m, s in jobs}
        for f in concurrent.futures.as_completed(futures):
            m, s = futures[f]
            rows.append(row(m.stem, s, f.result()))
    rows.sort(key=lambda r: (r["map"], r["seed"]))
    print(f"{'map':<12} {'seed':>4} {'stuck%':>7} {'idle s':>7} {'pads':>5} {'tele':>5} {'lifts':>5} {'swims':>5} {'gates':>5} {'kills':>5} {'suic':>5}  top hotspot")
    for r in rows:
        print(
            f"{r['map']:<12} {r['seed']:>4} {r['stuck_pct']:>7.2f} {r['idle_s']:>7.1f} {r['pads']:>5} "
            f"{r['teleports']:>5} {r['lifts']:>5} {r['swims']:>5} {r['gates']:>5} {r['kills']:>5} {r['suicides']:>5}  {r['top']}"
        )
    worst = [r["stuck_pct"] for r in rows]
    idle = [r["idle_s"] for r in rows]
    print(
        f"worst stuck share: mean {sum(worst) / len(worst):.2f} %, max {max(worst):.2f} %; "
        f"longest idle: mean {sum(idle) / len(idle):.2f} s, max {max(idle):.1f} s; "
        f"runs over 1 %: {sum(w >= 1.0 for w in worst)}, idle over 5 s: {sum(i > 5.0 for i in idle)}"
    )
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps(rows, indent=1))
    if a.tsv:
        pathlib.Path(a.tsv).write_text("".join("\t".join(r) + "\n" for r in table_rows(rows, a)))
    return 0


def table_rows(rows, a):
    """Per map over the seeds: the worst stuck share and the longest idle."""
    command = f"scripts/stuck_figures.py --gametype {a.gametype} --minutes {a.minutes} (seeds {a.seeds})"
    out = []
    for name in sorted({r["map"] for r in rows}):
        mine = [r for r in rows if r["map"] == name]
        out.append((f"bots/{a.gametype}/{name}/worst stuck share", f"{max(r['stuck_pct'] for r in mine):.2f}", "%", command))
        out.append((f"bots/{a.gametype}/{name}/longest idle", f"{max(r['idle_s'] for r in mine):.1f}", "s", command))
    return out


if __name__ == "__main__":
    sys.exit(main())
