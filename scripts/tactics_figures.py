#!/usr/bin/env python3
"""The tactical team against a level-0 team, per map: 4v4 TDM at equal skill.

Each seed is played twice, once with red at `bot_tactical LEVEL` and blue at
0 and once the other way round, so the map's and the seed's luck cancel. Per
map it prints the matches the tactical team won (of all played), the mean
frag difference (tactical less level 0, one value per seed: its two
matches' mean) with its standard error over the seeds, and what the
tactical bots did (stance shares, engagements not taken, breakoffs,
retreats, cover moves, repositions, matchup switches and pickups, per bot
and match), as rows `name<TAB>value<TAB>unit<TAB>command` like the other
*_figures.py scripts (scripts/bench.sh shows them).

    scripts/tactics_figures.py [--server target/release/quarry-server]
        [--level 5] [--seeds 101-116] [--minutes 10]
        [--maps q_dm1,../shared/maps/q3/oacmpdm8.map,...] [--tsv FILE]

A map is a name in maps/ or a path to a .map file (its folder is passed with
--maps). The default list is every shipped map and every shared map the
tactics must carry over to. Matches run one at a time.
"""
import argparse
import json
import pathlib
import statistics
import sys

from match_figures import ROOT, run  # noqa: E402 (beside this script)
from script_common import require_binary, target_dir  # noqa: E402

SHARED = ROOT.parent / "shared/maps"
DEFAULT_MAPS = ["q_dm1", "q_duel1", "q_ctf1"] + [
    str(SHARED / p) for p in (
        "q3/oacmpdm8.map", "q3/oacmpctf1.map", "q3-brushdef/oa_bases3cl.map", "q3-brushdef/void4.map",
        "q1-standard/dm3.map", "q1-standard/dm4.map", "q1-standard/dm6.map", "valve220/lqdm12.map",
    )
]


def seeds_of(text):
    """"101-116" or "1,2,5" as a list of seeds."""
    out = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += range(int(a), int(b) + 1)
        elif part:
            out.append(int(part))
    return out


def map_args(spec):
    """(short name, server arguments) of a map name or .map path."""
    path = pathlib.Path(spec)
    if spec.endswith(".map"):
        path = path if path.is_absolute() else (pathlib.Path.cwd() / path).resolve()
        return path.stem, ["--maps", str(path.parent)], ["+map", path.stem]
    return spec, [], ["+map", spec]


def args_for(level, minutes, flags, cmds, side):
    return (flags + ["+set", "g_gametype", "tdm", "+set", "bot_tactical", str(level), "+set", "bot_tacticalTeam", side,
                     "+set", "bot_minPlayers", "8", "+set", "timelimit", str(minutes), "+set", "fraglimit", "0"] + cmds)


COUNTERS = ("breakoffs", "retreats", "cover_moves", "repositions", "matchup_switches", "matchup_pickups")


def tactical_bots(r):
    """The bots of the tactical side (level 1 and up report stances)."""
    return [b for b in r["bots"]["bots"] if b.get("stance_pct")]


def rows_for(name, runs, command):
    diffs_by_seed, wins = {}, 0
    tac_frags, zero_frags = [], []
    for r in runs:
        red, blue = r["scoreboard"]["team_scores"][:2]
        t, z = (red, blue) if r["side"] == "red" else (blue, red)
        wins += t > z
        tac_frags.append(t)
        zero_frags.append(z)
        diffs_by_seed.setdefault(r["seed"], []).append(t - z)
    diffs = [statistics.fmean(d) for d in diffs_by_seed.values()]
    err = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
    rows = [
        (f"tactics/{name}/tactical team wins", f"{wins}/{len(runs)}", "matches", command),
        (f"tactics/{name}/tactical team wins share", f"{100.0 * wins / len(runs):.1f}", "% of matches", command),
        (f"tactics/{name}/tactical frags less level-0 frags", f"{statistics.fmean(diffs):+.2f} ± {err:.2f}", "per match (± s.e. over seeds)", command),
        (f"tactics/{name}/tactical team frags", f"{statistics.fmean(tac_frags):.1f}", "per match", command),
        (f"tactics/{name}/level-0 team frags", f"{statistics.fmean(zero_frags):.1f}", "per match", command),
    ]
    bots = [b for r in runs for b in tactical_bots(r)]
    if bots:
        stances = {}
        for b in bots:
            for k, v in b["stance_pct"].items():
                stances.setdefault(k, []).append(v)
        for k, v in sorted(stances.items()):
            rows.append((f"tactics/{name}/stance {k}", f"{sum(v) / len(bots):.1f}", "% of alive time", command))
        sup = {}
        for b in bots:
            for k, v in b.get("suppressed", {}).items():
                sup[k] = sup.get(k, 0) + v
        for k, v in sorted(sup.items()):
            rows.append((f"tactics/{name}/not engaged ({k})", f"{v / len(bots):.2f}", "per bot and match", command))
        for c in COUNTERS:
            rows.append((f"tactics/{name}/{c.replace('_', ' ')}", f"{sum(b.get(c, 0) for b in bots) / len(bots):.2f}", "per bot and match", command))
        for side_bots, label in ((bots, "tactical"), ([b for r in runs for b in r["bots"]["bots"] if not b.get("stance_pct")], "level-0")):
            k = sum(b["kills"] for b in side_bots)
            d = sum(b["deaths"] for b in side_bots)
            p = statistics.fmean([b["pickups"] for b in side_bots]) if side_bots else 0
            rows.append((f"tactics/{name}/{label} kills per death", f"{k / d:.3f}" if d else "-", "kills/death", command))
            rows.append((f"tactics/{name}/{label} pickups", f"{p:.1f}", "per bot and match", command))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=str(target_dir() / "release/quarry-server"))
    ap.add_argument("--level", type=int, default=5)
    ap.add_argument("--seeds", default="101-116")
    ap.add_argument("--minutes", type=int, default=10)
    ap.add_argument("--maps", default=",".join(DEFAULT_MAPS))
    ap.add_argument("--tsv", help="also write the rows here, tab-separated")
    ap.add_argument("--short", action="store_true", help="print only wins and the frag difference")
    ap.add_argument("--dump", help="also write every match's JSON summary, one a line, to this file")
    opts = ap.parse_args()
    require_binary(opts.server, "cargo build --release --bin quarry-server")
    seeds = seeds_of(opts.seeds)
    rows = []
    for spec in [m for m in opts.maps.split(",") if m]:
        name, flags, cmds = map_args(spec)
        runs, command = [], ""
        for seed in seeds:
            for side in ("red", "blue"):
                summary, command = run(opts.server, args_for(opts.level, opts.minutes, flags, cmds, side), seed, side)
                runs.append(summary)
                if opts.dump:
                    with open(opts.dump, "a") as f:
                        f.write(json.dumps(summary) + "\n")
        command = f"{command} (seeds {opts.seeds}, both sides)".replace(str(ROOT.parent) + "/", "../")
        new = rows_for(name, runs, command)
        if opts.short:
            new = new[:3]
        rows += new
        for r in new:
            print("\t".join(r[:3]), flush=True)
    if opts.tsv:
        pathlib.Path(opts.tsv).write_text("".join("\t".join(r) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
