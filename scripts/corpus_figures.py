#!/usr/bin/env python3
"""The mechanism-puzzle corpus (quarry-mapgen), end to end: generates it,
checks the navmesh against every map's answer, then runs bots on every
map and prints a row per map: goals reachable by the answer, routed by the
navmesh, of those with the answer's mechanism chain, reached by bots
(taken at least once in any seed's match),
the worst bot's stuck share and longest idle.

    scripts/corpus_figures.py [--server target/release/quarry-server]
                              [--seed 1] [--per-kind 2] [--seeds 1,2,3]
                              [--minutes 3] [--keep DIR] [--parts P,...]

`--parts` runs bots only on the maps of those parts (names as in the
map files: `lift`, `jumppad`, `buttons3`, ...); the navmesh checks every
map.

Each match is `quarry-server --fast --json` with 8 bots in free-for-all
(scripts/stuck_figures.py runs it), two at a time. Exit status 1 when a
goal disagrees with its answer in the navmesh, or a reachable goal is
never taken by a bot.
"""
import argparse
import concurrent.futures
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.dont_write_bytecode = True

from script_common import require_binary, target_dir  # noqa: E402
from stuck_figures import run, row  # noqa: E402


def navmesh_rows(out):
    """{map: (reachable, routed, chain as the answer's)} from the nav
    example's table."""
    rows = {}
    for line in out.splitlines():
        words = line.split()
        if len(words) == 7 and words[0].startswith("gen_"):
            rows[words[0]] = (int(words[1]), int(words[2]), int(words[3]))
    return rows


def taken(goal, spots):
    """Whether a goal of the answer was taken: an item within 16 units
    across (its pickup box rests on the floor below the origin; its class
    may read differently, as the sim names Quake 1 items by their Quake 3
    equivalents)."""
    gx, gy, _ = goal["origin"]
    return any(abs(s["origin"][0] - gx) <= 16 and abs(s["origin"][1] - gy) <= 16 and s["taken"] > 0 for s in spots)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=str(target_dir() / "release" / "quarry-server"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-kind", type=int, default=2)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--minutes", type=int, default=3)
    ap.add_argument("--keep", default=None, help="write the maps and answers here (default: a temporary folder)")
    ap.add_argument("--parts", default="", help="run bots only on these parts' maps (comma-separated names)")
    args = ap.parse_args()
    parts = {p for p in args.parts.split(",") if p}
    require_binary(args.server, "cargo build --release -p quarry-server")
    server = args.server
    seeds = [int(s) for s in args.seeds.split(",") if s]
    with tempfile.TemporaryDirectory(prefix="quarry-corpus-") as tmp:
        out_dir = pathlib.Path(args.keep) if args.keep else pathlib.Path(tmp)
        nav = subprocess.run(
            ["cargo", "run", "--quiet", "--release", "-p", "quarry-nav", "--example", "mapgen_corpus", "--",
             str(args.seed), str(args.per_kind), "--write", str(out_dir)],
            cwd=ROOT, capture_output=True, text=True, check=False)
        if nav.returncode not in (0, 1):
            sys.exit(f"mapgen_corpus failed:\n{nav.stderr[-2000:]}")
        routed = navmesh_rows(nav.stdout)
        maps = sorted(p for p in out_dir.glob("gen_*.map") if not parts or p.stem.split("_")[1] in parts)
        jobs = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for path in maps:
                for seed in seeds:
                    jobs[(path.stem, seed)] = pool.submit(run, server, path, seed, args.minutes, "ffa")
            results = {k: f.result() for k, f in jobs.items()}
        print(f"{'map':<32} {'reachable':>9} {'routed':>7} {'chain':>6} {'bots took':>9} {'stuck %':>8} {'idle s':>7}")
        failed = nav.returncode != 0
        for path in maps:
            answer = json.loads(path.with_suffix("").with_suffix(".answer.json").read_text())
            reachable = [g for g in answer["goals"] if g["expect"] == "Reachable"]
            runs = [results[(path.stem, s)] for s in seeds]
            spots = [s for r in runs for s in (r.get("bots") or {}).get("item_spots", [])]
            took = sum(1 for g in reachable if taken(g, spots))
            figures = [row(path.stem, s, r) for s, r in zip(seeds, runs)]
            stuck = max(f["stuck_pct"] for f in figures)
            idle = max(f["idle_s"] for f in figures)
            nav_reachable, nav_routed, chained = routed.get(path.stem, (len(reachable), 0, 0))
            print(f"{path.stem:<32} {nav_reachable:>9} {nav_routed:>7} {chained:>6} {took:>9} {stuck:>8.2f} {idle:>7.1f}")
            if took < len(reachable):
                failed = True
        if nav.returncode != 0:
            print(nav.stdout.split("goals disagree with their answers")[-1])
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
