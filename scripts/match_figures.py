#!/usr/bin/env python3
"""Runs seeded headless bot matches and prints their figures as table rows.

Each scenario is a `quarry-server --fast --json` match (10 simulated minutes
unless said otherwise) on a fresh copy of config/, so an archive.cfg left
by an earlier run never changes the result. Figures are averaged over the
seeds; the command column gives one seed's exact command line.

    scripts/match_figures.py [--server target/release/quarry-server]
                             [--seeds 1,2,3] [--shared ../shared/maps]
                             [--tsv FILE]

Rows: bot chat (lines per minute, back-to-back repeats), play styles at one
skill (engagement range, items and kills per minute), noticing and reaction
per skill 1-5 (first in view to noticed, to the first shot), team chatter (4v4 TDM,
one team with bot_teamChatter 1 against one with none, each seed played
twice with the sides swapped so the map's and the seed's luck cancel:
frags and win share per side, the frag difference with its standard error
over the seeds, reports per minute, the share true when sent, reports that
led a teammate to the enemy), tactics
(4v4 TDM with one team at bot_tactical 2-5 and the other at 0, the same
rows, on q_dm1, dm4 and oacmpdm8; FFA with half
the bots at the level: kills per death of each half; CTF captures at
levels 0, 2, 3 and 5), team chatter again with both teams at bot_tactical
2 and 5 (where a bot watches the enemies it knows of), CTF and
One Flag (captures per team, returns, carrier kills, role time shares),
Freeze Tag (rounds, by elimination and by timeout, thaws) and Clan Arena
(rounds).

    scripts/match_figures.py --only teamtalk --seeds 1,...,16   one scenario
    scripts/match_figures.py --only tactics --seeds 1,...,16 --jobs 2
"""
import argparse
import concurrent.futures
import json
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

from script_common import emit_rows, require_binary, target_dir  # noqa: E402 (beside this script)
TEN_MINUTES = ["+set", "timelimit", "10", "+set", "fraglimit", "0", "+set", "capturelimit", "0"]
FOUR_A_SIDE = ["+set", "bot_minPlayers", "8"]
STYLE_BOTS = ["Quill", "Tamsin", "Rook", "Harrow", "Brannock", "Dace", "Sable", "Greyhame"]


def scenarios(shared):
    """(name, extra server arguments, which figures) for every match kind."""
    out = [
        ("chat_ffa_q_dm1", FOUR_A_SIDE + TEN_MINUTES + ["+map", "q_dm1"], "chat"),
        (
            "styles_ffa_q_dm1",
            ["+set", "bot_minPlayers", "0"] + TEN_MINUTES + ["+map", "q_dm1"]
            + [a for b in STYLE_BOTS for a in ("+addbot", b, "3")],
            "styles",
        ),
        ("teamtalk_tdm_q_dm1", team_talk(["+map", "q_dm1"]), "teamtalk"),
    ] + [
        # Both teams at a tactical level that acts on what the bot knows
        # (from 2 a bot with no target watches the nearest enemy it knows
        # of): what a teammate's report is worth there.
        (f"teamtalk_tactical{level}_tdm_q_dm1", team_talk(["+set", "bot_tactical", str(level), "+map", "q_dm1"]), "teamtalk") for level in (2, 5)
    ] + [
        (f"tactics{level}_tdm_q_dm1", tactics_ab(level, ["+map", "q_dm1"]), "tactics") for level in range(2, 6)
    ] + [
        (f"tactics{level}_ffa_q_dm1", ["+set", "bot_tactical", str(level), "+set", "bot_tacticalTeam", "half"] + FOUR_A_SIDE + TEN_MINUTES + ["+map", "q_dm1"], "half")
        for level in range(2, 6)
    ] + [
        (f"tactics{level}_ctf_q_ctf1", ["+set", "g_gametype", "ctf", "+set", "bot_tactical", str(level)] + FOUR_A_SIDE + TEN_MINUTES + ["+map", "q_ctf1"], "flags")
        for level in (0, 2, 3, 5)
    ] + [
        (f"senses_skill{s}_ffa_q_dm1", FOUR_A_SIDE + ["+set", "bot_skill", str(s)] + TEN_MINUTES + ["+map", "q_dm1"], "senses")
        for s in range(1, 6)
    ] + [
        ("ctf_q_ctf1", ["+set", "g_gametype", "ctf"] + FOUR_A_SIDE + TEN_MINUTES + ["+map", "q_ctf1"], "flags"),
        ("1fctf_q_ctf1", ["+set", "g_gametype", "1fctf"] + FOUR_A_SIDE + TEN_MINUTES + ["+map", "q_ctf1"], "flags"),
        ("ft_q_ctf1", ["+set", "g_gametype", "ft"] + FOUR_A_SIDE + TEN_MINUTES + ["+map", "q_ctf1"], "rounds"),
        ("ca_q_dm1", ["+set", "g_gametype", "ca"] + FOUR_A_SIDE + TEN_MINUTES + ["+map", "q_dm1"], "rounds"),
    ]
    for sub, name in (("q1-standard", "dm4"), ("q3", "oacmpdm8")):
        if (shared / sub / f"{name}.map").exists():
            out += [(f"tactics{level}_tdm_{name}", tactics_ab(level, ["+map", name], ["--maps", str(shared / sub)]), "tactics") for level in range(2, 6)]
    q3 = shared / "q3"
    if (q3 / "oacmpctf1.map").exists():
        maps = ["--maps", str(q3)]
        out.append(("ctf_oacmpctf1", maps + ["+set", "g_gametype", "ctf"] + FOUR_A_SIDE + TEN_MINUTES + ["+map", "oacmpctf1"], "flags"))
        out.append(("ft_oacmpctf1", maps + ["+set", "g_gametype", "ft"] + FOUR_A_SIDE + TEN_MINUTES + ["+map", "oacmpctf1"], "rounds"))
    return out


# The A/B scenarios play every seed once with each side as the tested one.
SIDES = ("red", "blue")


def team_talk(map_args):
    """Server arguments of a 4v4 TDM where only `side` talks."""
    return lambda seed, side: (["+set", "g_gametype", "tdm", "+set", "bot_teamChatter", "1", "+set", "bot_teamChatterTeam", side]
                               + FOUR_A_SIDE + TEN_MINUTES + map_args)


def tactics_ab(level, map_args, flags=()):
    """Server arguments of a 4v4 TDM where `side` plays at `bot_tactical
    level` and the other at 0 (the same rows as the team-talk scenario, the
    tactical side in the talking side's place); `flags` (such as --maps) go
    before the + commands."""
    return lambda seed, side: (list(flags) + ["+set", "g_gametype", "tdm", "+set", "bot_tactical", str(level), "+set", "bot_tacticalTeam", side]
                               + FOUR_A_SIDE + TEN_MINUTES + map_args)


def run(server, args, seed, side=None):
    """One match; returns the parsed summary (with the tested side, if
    any, under "side") and the command line."""
    with tempfile.TemporaryDirectory(prefix="quarry-figures-") as tmp:
        for f in (ROOT / "config").glob("*.toml"):
            shutil.copy(f, tmp)
        cmd = [str(server), "--config", tmp, "--botfiles", str(ROOT / "botfiles"), "--fast", "--json", "--seed", str(seed)] + args
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    # The summary is the last line; console prints come before it.
    last = [line for line in proc.stdout.splitlines() if line.startswith("{")][-1]
    shown = " ".join(a if " " not in a else repr(a) for a in cmd[:1] + ["--config", "CONFIG_COPY"] + cmd[3:])
    summary = json.loads(last)
    summary["side"] = side
    return summary, shown.replace(str(ROOT) + "/", "")


def mean(values):
    values = [v for v in values if v is not None]
    return statistics.fmean(values) if values else None


def figures(kind, runs):
    """(figure name, value, unit) rows for one scenario over its seeds."""
    rows = []
    if kind == "chat":
        rows.append(("chat lines", mean([r["bots"]["chat"]["lines_per_minute"] for r in runs]), "lines/min"))
        rows.append(("chat back-to-back repeats", sum(r["bots"]["chat"]["back_to_back_repeats"] for r in runs), "lines"))
        rows.append(("chat replies", mean([r["bots"]["chat"]["replies"] for r in runs]), "per match"))
    elif kind in ("teamtalk", "tactics"):
        side, other = ("talking team", "silent team") if kind == "teamtalk" else ("tactical team", "level-0 team")
        talk, quiet, wins, draws, by_seed = [], [], 0, 0, {}
        for r in runs:
            red, blue = r["scoreboard"]["team_scores"][:2]
            t, q = (red, blue) if r["side"] == "red" else (blue, red)
            talk.append(t)
            quiet.append(q)
            wins += t > q
            draws += t == q
            by_seed.setdefault(r["seed"], []).append(t - q)
        # One difference per seed (its two matches' mean): the sides' and
        # the seed's luck cancel within it.
        diffs = [statistics.fmean(d) for d in by_seed.values()]
        error = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else None
        team = [r["bots"]["team"] for r in runs]
        rows.append((f"{side} frags", mean(talk), "per match"))
        rows.append((f"{other} frags", mean(quiet), "per match"))
        rows.append((f"{side} frags less {other} frags", mean(diffs), "per match"))
        rows.append(("standard error of that difference", error, "frags, over the seeds"))
        rows.append((f"{side} wins", 100.0 * wins / len(runs), "% of matches"))
        rows.append(("draws", 100.0 * draws / len(runs), "% of matches"))
        rows.append(("team reports", mean([t["reports_per_minute"] for t in team]), "per min"))
        rows.append(("reports true when sent", mean([t["true_pct"] for t in team]), "%"))
        rows.append(("report age when taken in", mean([t.get("report_age_ms") for t in team]), "ms"))
        rows.append(("reports placing a group", mean([t["grouped"] for t in team]), "per match"))
        rows.append(("reports taken in", mean([t["reports_heard"] for t in team]), "per match"))
        rows.append(("reports that led to the enemy", mean([t["report_finds"] for t in team]), "per match"))
        if kind == "teamtalk":
            rows.append(("item timings told", mean([t["queued"].get("teamItemTimed", 0) for t in team]), "per match"))
    elif kind == "half":
        # FFA with bot_tacticalTeam half: even slots play at the level, odd at 0.
        def kpd(runs, even):
            kills = sum(b["kills"] for r in runs for b in r["bots"]["bots"] if (b["slot"] % 2 == 0) == even)
            deaths = sum(b["deaths"] for r in runs for b in r["bots"]["bots"] if (b["slot"] % 2 == 0) == even)
            return kills / deaths if deaths else None
        rows.append(("tactical bots kills per death", kpd(runs, True), "kills/death"))
        rows.append(("level-0 bots kills per death", kpd(runs, False), "kills/death"))
    elif kind == "senses":
        rows_in = [row for r in runs for row in r["bots"]["senses"]]
        def weighted(count, value):
            total = sum(row[count] for row in rows_in if row[value] is not None)
            return sum(row[count] * row[value] for row in rows_in if row[value] is not None) / total if total else None
        rows.append(("first in view to noticed", weighted("noticed", "notice_ms"), "ms"))
        rows.append(("first in view to first shot", weighted("first_shots", "first_shot_ms"), "ms"))
        rows.append(("rolled reaction", mean([row["reaction_ms"] for row in rows_in]), "ms"))
    elif kind == "styles":
        by_style = {}
        for r in runs:
            for b in r["bots"]["bots"]:
                s = by_style.setdefault(b.get("style") or "-", {"range": [], "items": [], "kills": [], "acc": []})
                s["range"].append(b.get("engagement_range"))
                s["items"].append(b.get("pickups_per_min"))
                alive_min = b["alive_s"] / 60.0
                s["kills"].append(b["kills"] / alive_min if alive_min > 0 else None)
                shots = sum(x[1] for x in b["shots_hits"])
                hits = sum(x[2] for x in b["shots_hits"])
                s["acc"].append(100.0 * hits / shots if shots else None)
        for style in sorted(by_style):
            s = by_style[style]
            rows.append((f"{style} engagement range", mean(s["range"]), "units"))
            rows.append((f"{style} items", mean(s["items"]), "per min alive"))
            rows.append((f"{style} kills", mean(s["kills"]), "per min alive"))
            rows.append((f"{style} accuracy", mean(s["acc"]), "%"))
    elif kind == "flags":
        rows.append(("captures red", mean([r["mode"]["red"]["captures"] for r in runs]), "per match"))
        rows.append(("captures blue", mean([r["mode"]["blue"]["captures"] for r in runs]), "per match"))
        both = sum(1 for r in runs if r["mode"]["red"]["captures"] > 0 and r["mode"]["blue"]["captures"] > 0)
        rows.append(("matches both teams captured", 100.0 * both / len(runs), "%"))
        rows.append(("returns", mean([r["mode"]["red"]["returns"] + r["mode"]["blue"]["returns"] for r in runs]), "per match"))
        rows.append(("flag timeouts", mean([r["mode"]["flag_timeouts"] for r in runs]), "per match"))
        rows.append(("carrier kills by bots", mean([r["bots"]["objective"]["carrier_kills"] for r in runs]), "per match"))
        rows.extend(role_rows(runs))
    elif kind == "rounds":
        rows.append(("rounds", mean([r["mode"]["rounds_played"] for r in runs]), "per match"))
        rows.append(("rounds by elimination", mean([r["mode"]["rounds_by_elimination"] for r in runs]), "per match"))
        rows.append(("rounds by timeout", mean([r["mode"]["rounds_by_timeout"] for r in runs]), "per match"))
        rows.append(("thaws", mean([r["mode"]["red"]["thaws"] + r["mode"]["blue"]["thaws"] for r in runs]), "per match"))
        rows.extend(role_rows(runs))
    return rows


def role_rows(runs):
    """Role time shares (percent of bot-ticks while objectives were live)."""
    shares = {}
    for r in runs:
        for role in (r["bots"].get("objective") or {}).get("roles", []):
            shares.setdefault(role["role"].lower(), []).append(role["percent"])
    return [(f"role {name}", mean(v), "% of bot time") for name, v in shares.items() if any(v)]



def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=str(target_dir() / "release/quarry-server"))
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--shared", default=str(ROOT.parent / "shared/maps"))
    ap.add_argument("--tsv", help="also write the rows here, tab-separated")
    ap.add_argument("--only", help="run only the scenarios whose name contains this")
    ap.add_argument("--jobs", type=int, default=1, help="matches run at once (each uses a core or two)")
    opts = ap.parse_args()
    require_binary(opts.server, "cargo build --release --bin quarry-server")
    seeds = [int(s) for s in opts.seeds.split(",") if s]
    rows = []
    for name, args, kind in scenarios(pathlib.Path(opts.shared)):
        if opts.only and opts.only not in name:
            continue
        # An A/B scenario plays each seed once per side.
        jobs = [(seed, side) for seed in seeds for side in SIDES] if kind in ("teamtalk", "tactics") else [(seed, None) for seed in seeds]
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
            done = list(pool.map(lambda job: run(opts.server, args(*job) if callable(args) else args, *job), jobs))
        runs = [summary for summary, _ in done]
        command = done[-1][1] if done else ""
        for figure, value, unit in figures(kind, runs):
            shown = "-" if value is None else f"{value:.2f}"
            rows.append((f"match/{name}/{figure}", shown, unit, f"{command} (seeds {opts.seeds})"))
    emit_rows(rows, opts.tsv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
