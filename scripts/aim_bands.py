#!/usr/bin/env python3
"""Human aim figures from an operator's own game logs, beside the bots'.

Reads game logs (`sv_gameLog`, one JSON object per line) and takes every
`match_end` record's scoreboard rows: each row's `accuracy` holds, per
weapon, shots, hits, splash hits and damage in each range band (close
under 300 units, mid 300-800, far beyond, untargeted). Prints, per weapon
and band:

- humans: how many players fired enough shots to count (`--min-shots`), and
  the 10th, 30th, 50th, 75th and 90th percentiles of their accuracy (hits
  per shot; per pellet for the shotgun; direct hits for projectiles, their
  splash hits apart);
- bots: the pooled accuracy of each skill (a row's `skill` when the log
  has it, else one row for all bots).

The bot levels are meant to sit at human percentiles (skill 1 about the
10th, 3 the median, 5 the 90th to 95th, never above the 99th), so these
figures are what an operator, or this project, recalibrates the skill
table from (`config/aim_bands.toml` holds the placeholder bands).

    python3 scripts/aim_bands.py GAMELOG... [--min-shots N] [--json]

A line that is not JSON, or a record without the fields, is skipped and
counted; the count is printed at the end.
"""

import argparse
import json
import sys

BANDS = ["close", "mid", "far", "untargeted"]
PERCENTILES = [10, 30, 50, 75, 90]


def quantile(sorted_values, p):
    """The p-th percentile by linear interpolation between closest ranks."""
    if not sorted_values:
        return None
    k = (len(sorted_values) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def figures(entry, band):
    """(shots, hits, splash) of one weapon entry in `band` ('all': every band, untargeted shots included)."""
    names = BANDS if band == "all" else [band]
    shots = hits = splash = 0
    for b in names:
        f = entry.get(b) or {}
        shots += int(f.get("shots", 0) or 0)
        hits += int(f.get("hits", 0) or 0)
        splash += int(f.get("splash_hits", 0) or 0)
    return shots, hits, splash


def read_rows(paths):
    """Every scoreboard row of every match end, with the skill of bots
    (from the row, or the bot's connect record in the same match)."""
    rows, skipped = [], 0
    for path in paths:
        skills = {}
        try:
            handle = open(path, encoding="utf-8", errors="replace")
        except OSError as e:
            print(f"{path}: {e.strerror}", file=sys.stderr)
            skipped += 1
            continue
        with handle:
            for line in handle:
                try:
                    rec = json.loads(line)
                except ValueError:
                    skipped += 1
                    continue
                if not isinstance(rec, dict):
                    skipped += 1
                    continue
                event = rec.get("event")
                if event == "connect":
                    player = rec.get("player") or {}
                    if isinstance(player, dict) and player.get("bot") and player.get("skill") is not None:
                        skills[(rec.get("match"), player.get("slot"))] = player.get("skill")
                elif event == "match_end":
                    board = rec.get("scoreboard") or []
                    if isinstance(board, dict):
                        board = board.get("rows") or []
                    for row in board if isinstance(board, list) else []:
                        if not isinstance(row, dict) or not isinstance(row.get("accuracy"), list):
                            skipped += 1
                            continue
                        skill = row.get("skill", skills.get((rec.get("match"), row.get("slot"))))
                        rows.append((bool(row.get("bot")), skill, row["accuracy"]))
    return rows, skipped


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("logs", nargs="+", help="game log files (sv_gameLog)")
    p.add_argument("--min-shots", type=int, default=30, help="shots a human needs with a weapon in a band to count (default 30)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args()
    rows, skipped = read_rows(args.logs)
    # weapon -> band -> list of human accuracies; (weapon, band, skill) -> pooled bot figures
    humans, bots, human_splash = {}, {}, {}
    for is_bot, skill, accuracy in rows:
        for entry in accuracy:
            if not isinstance(entry, dict) or not entry.get("weapon"):
                continue
            weapon = str(entry["weapon"])
            for band in ["all"] + BANDS[:3]:
                shots, hits, splash = figures(entry, band)
                if shots == 0:
                    continue
                if is_bot:
                    key = (weapon, band, "bot" if skill is None else f"skill {skill}")
                    s = bots.setdefault(key, [0, 0, 0])
                    s[0] += shots
                    s[1] += hits
                    s[2] += splash
                elif shots >= args.min_shots:
                    humans.setdefault(weapon, {}).setdefault(band, []).append(hits / shots)
                    human_splash.setdefault(weapon, {}).setdefault(band, []).append(splash / shots)
    out = []
    weapons = sorted(set(humans) | {w for (w, _, _) in bots})
    for weapon in weapons:
        for band in ["all"] + BANDS[:3]:
            values = sorted(humans.get(weapon, {}).get(band, []))
            row = {"weapon": weapon, "band": band, "humans": len(values),
                   "percentiles": {str(q): quantile(values, q) for q in PERCENTILES} if values else {}}
            splash = sorted(human_splash.get(weapon, {}).get(band, []))
            if any(splash):
                row["splash_p50"] = quantile(splash, 50)
            row["bots"] = {who: {"shots": s[0], "hits": s[1], "splash_hits": s[2], "accuracy": s[1] / s[0]}
                           for (w, b, who), s in sorted(bots.items()) if w == weapon and b == band}
            if row["humans"] or row["bots"]:
                out.append(row)
    if args.json:
        print(json.dumps({"rows": out, "skipped": skipped}, indent=1))
        return 0
    print(f"{'weapon':<16} {'band':<6} {'humans':>6}  " + "  ".join(f"p{q:<4}" for q in PERCENTILES) + "  bots (hits/shots)")
    for row in out:
        pct = "  ".join(f"{100 * row['percentiles'][str(q)]:5.1f}" if row["percentiles"] else "    -" for q in PERCENTILES)
        bot_text = "; ".join(f"{who} {100 * b['accuracy']:.1f} % ({b['hits']}/{b['shots']})" for who, b in row["bots"].items())
        print(f"{row['weapon']:<16} {row['band']:<6} {row['humans']:>6}  {pct}  {bot_text}")
    print(f"{len(rows)} scoreboard rows read; {skipped} lines or rows skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
